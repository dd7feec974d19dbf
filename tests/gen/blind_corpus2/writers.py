"""Layout writers: each turns the real numbers of one case into the files a framework of the
wild would have written.  Lines and wording are ours; the shapes follow the public examples
listed in MANIFEST.json."""
import datetime as dt
import math
import os
import random

from common import Clock, Stages, fmt_eta, jl, start_time, write, write_json

P = os.path.join


def nan_str(x, fmt="{:.4f}"):
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return fmt.format(x)


def spe_of(res):
    return res["steps_per_epoch"]


# =============================================================================================
# mmengine: <work_dir>/<timestamp>/<timestamp>.log + vis_data/scalars.json (+ config.py)
# =============================================================================================
def mm_config(stage_kw, bs, lr, epochs, sched, train=True):
    lines = [
        "default_scope = 'mmpretrain'",
        "model = dict(type='ImageClassifier', backbone=dict(type='TinyConvNet', width=16), "
        "head=dict(type='LinearClsHead', num_classes=10, in_channels=128, loss=dict(type='CrossEntropyLoss', loss_weight=1.0)))",
        f"train_dataloader = dict(batch_size={bs}, num_workers=4, dataset=dict(type='CustomDataset', data_root='data/blobs10', ann_file='meta/train.txt'))",
        "val_dataloader = dict(batch_size=250, num_workers=2, dataset=dict(type='CustomDataset', data_root='data/blobs10', ann_file='meta/val.txt'))",
        "val_evaluator = dict(type='Accuracy', topk=(1, 5))",
        f"optim_wrapper = dict(optimizer=dict(type='SGD', lr={lr}, momentum=0.9, weight_decay=0.0005))",
        f"param_scheduler = [dict(type='{sched}', by_epoch=True, begin=0, end={epochs})]",
        f"train_cfg = dict(by_epoch=True, max_epochs={epochs}, val_interval=1)",
        "default_hooks = dict(logger=dict(type='LoggerHook', interval=10), checkpoint=dict(type='CheckpointHook', interval=1))",
        "env_cfg = dict(cudnn_benchmark=False, dist_cfg=dict(backend='nccl'))",
    ]
    if not train:
        lines = [x for x in lines if not x.startswith(("optim_wrapper", "param_scheduler", "train_cfg", "train_dataloader"))]
        lines.append("test_dataloader = val_dataloader")
        lines.append("test_evaluator = val_evaluator")
    lines += stage_kw
    return "\n".join(lines) + "\n"


def mm_head(t, cfg_text, seed, world=1):
    ts = t.strftime("%Y/%m/%d %H:%M:%S")
    env = [f"{ts} - mmengine - INFO - ",
           "------------------------------------------------------------",
           "System environment:",
           "    sys.platform: linux",
           "    Python: 3.10.13 (main, Sep 11 2023, 13:44:35) [GCC 11.2.0]",
           "    CUDA available: True",
           "    GPU 0: NVIDIA A100-SXM4-40GB",
           "    PyTorch: 2.1.2",
           "    MMEngine: 0.10.3",
           "",
           "Runtime environment:",
           "    cudnn_benchmark: False",
           f"    seed: {seed}",
           f"    Distributed launcher: {'pytorch' if world > 1 else 'none'}",
           f"    Distributed training: {world > 1}",
           f"    GPU number: {world}",
           "------------------------------------------------------------",
           "",
           f"{ts} - mmengine - INFO - Config:",
           cfg_text]
    return "\n".join(env) + "\n"


def mm_train(res, clock, lines, scal, total_epochs=None, ep_offset=0):
    spe = spe_of(res)
    total_epochs = total_epochs or (res["epoch"][-1]["epoch"] + 1 if res["epoch"] else 1)
    vals = {v["epoch"]: v for v in res["val"]}
    per_ep = {}
    for rec in res["train"]:
        per_ep.setdefault(rec["epoch"], []).append(rec)
    for ep in sorted(set(list(per_ep) + list(vals))):
        for rec in per_ep.get(ep, []):
            t = clock.tick(10)
            remaining = (total_epochs * spe - rec["gstep"]) * clock.per_iter
            lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Epoch(train)  [{ep + 1}][{rec['it'] + 1:>3}/{spe}]  "
                         f"lr: {rec['lr']:.4e}  eta: {fmt_eta(remaining)}  time: {clock.per_iter:.4f}  data_time: 0.0043  "
                         f"memory: 312  loss: {nan_str(rec['loss_avg'])}  top1: {100 * rec['acc_avg']:.4f}")
            scal.append({"lr": rec["lr"], "data_time": 0.0043, "loss": rec["loss_avg"], "top1": 100 * rec["acc_avg"],
                         "time": round(clock.per_iter, 4), "epoch": ep + 1, "iter": rec["gstep"], "memory": 312,
                         "step": rec["gstep"]})
        if ep in per_ep:
            t = clock.tick(2)
            lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Exp name: {clock.exp}")
            lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Saving checkpoint at {ep + 1} epochs")
        if ep in vals:
            v = vals[ep]
            t = clock.tick(30)
            lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Epoch(val) [{ep + 1}][4/4]    "
                         f"accuracy/top1: {100 * v['acc']:.4f}  accuracy/top5: {100 * v['top5']:.4f}  data_time: 0.0061  time: 0.0312")
            scal.append({"accuracy/top1": round(100 * v["acc"], 4), "accuracy/top5": round(100 * v["top5"], 4),
                         "data_time": 0.0061, "time": 0.0312, "step": ep + 1})


def w_mmengine(root, cid, case, R):
    S = R["main"]
    seed = S.cfg["seed"]
    rng = random.Random(seed)
    t0 = start_time(seed)
    style = {"c01_mmengine_cls_ok": "named", "c02_mmengine_bgr_int8": "timestamps",
             "c03_mmengine_nan_qat": "numbered"}[cid]
    names = {"named": ["work_dirs/tinycls_8xb64_fp32", "work_dirs/tinycls_calibration", "work_dirs/tinycls_qat",
                       "work_dirs/tinycls_qat"],
             "timestamps": ["exp", "exp", "exp", "exp"],
             "numbered": ["stage1_fp", "stage2_calib", "stage3_qat", "stage4_int8"]}[style]
    clock = Clock(t0, rng, per_iter=0.031)

    def run_dir(base, t):
        ts = t.strftime("%Y%m%d_%H%M%S")
        return P(root, base, ts), ts

    # float
    F = S.F
    fc = S.fcfg
    d, ts = run_dir(names[0], clock.t)
    clock.exp = os.path.basename(names[0]) if style != "timestamps" else "tinycls_8xb64_in1k"
    cfg = mm_config(["work_dir = './%s'" % names[0]], fc.get("bs", 64), fc["lr"], fc["epochs"],
                    "CosineAnnealingLR" if fc.get("sched") == "cosine" else "ConstantLR")
    lines = [mm_head(clock.t, cfg, seed).rstrip("\n")]
    scal = []
    mm_train(F, clock, lines, scal)
    write(P(d, ts + ".log"), "\n".join(lines) + "\n")
    write(P(d, "vis_data", "scalars.json"), "".join(jl(s) + "\n" for s in scal))
    write(P(d, "vis_data", "config.py"), cfg)
    # calibration
    clock.tick(0, extra=600)
    C = S.C
    if C:
        d, ts = run_dir(names[1], clock.t)
        kw = ["qat_mode = 'calibration'", "load_from = 'work_dirs/tinycls_8xb64_fp32/epoch_%d.pth'" % fc["epochs"],
              "custom_hooks = [dict(type='QuantCalibrationHook', num_batches=%d, observer='MinMaxObserver')]" % C["n_batches"]]
        cfg = mm_config(kw, 64, 0.0, 1, "ConstantLR", train=False)
        lines = [mm_head(clock.t, cfg, seed).rstrip("\n")]
        t = clock.tick(5)
        lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - prepare model for calibration: fake quant disabled, observers enabled")
        for i in range(C["n_batches"]):
            t = clock.tick(3)
            lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Iter(calib) [{i + 1:>2}/{C['n_batches']}]  data_time: 0.0051  time: 0.0920")
        t = clock.tick(30)
        ev = C["eval"]
        lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Iter(val) [4/4]    accuracy/top1: {100 * C['val_acc']:.4f}  "
                     f"accuracy/top5: {100 * ev['top5']:.4f}  data_time: 0.0058  time: 0.0301")
        write(P(d, ts + ".log"), "\n".join(lines) + "\n")
        write(P(d, "vis_data", "scalars.json"),
              jl({"accuracy/top1": round(100 * C["val_acc"], 4), "accuracy/top5": round(100 * ev["top5"], 4),
                  "data_time": 0.0058, "time": 0.0301, "step": 0}) + "\n")
        write(P(d, "vis_data", "config.py"), cfg)
    # qat
    clock.tick(0, extra=300)
    Q = S.Q
    qc = S.qcfg
    d, ts = run_dir(names[2], clock.t)
    kw = ["qat_mode = 'qat'", "load_from = 'work_dirs/tinycls_calibration/calib.pth'",
          "custom_hooks = [dict(type='QATHook', prepare='prepare_qat', fake_quant=True, observer=True)]"]
    cfg = mm_config(kw, qc.get("bs", 64), qc["lr"], qc["epochs"], "ConstantLR")
    lines = [mm_head(clock.t, cfg, seed).rstrip("\n")]
    t = clock.tick(5)
    lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - prepare_qat done: fake quant enabled, observers enabled")
    scal = []
    mm_train(Q, clock, lines, scal)
    write(P(d, ts + ".log"), "\n".join(lines) + "\n")
    write(P(d, "vis_data", "scalars.json"), "".join(jl(s) + "\n" for s in scal))
    write(P(d, "vis_data", "config.py"), cfg)
    # int8 test
    if S.int8_final:
        clock.tick(0, extra=200)
        d, ts = run_dir(names[3], clock.t)
        cfg = mm_config(["qat_mode = 'quantized'", "load_from = 'work_dirs/tinycls_qat/epoch_%d.pth'" % qc["epochs"]],
                        64, 0.0, 1, "ConstantLR", train=False)
        lines = [mm_head(clock.t, cfg, seed).rstrip("\n")]
        t = clock.tick(5)
        lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Load checkpoint from work_dirs/tinycls_qat/epoch_{qc['epochs']}.pth")
        lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - convert(): QAT model converted to int8 (quantized engine qnnpack)")
        t = clock.tick(40)
        il, ia = S.int8_final
        lines.append(f"{t:%Y/%m/%d %H:%M:%S} - mmengine - INFO - Epoch(test) [4/4]    accuracy/top1: {100 * ia:.4f}  "
                     f"accuracy/top5: {100 * S.int8_final_eval['top5']:.4f}  data_time: 0.0066  time: 0.0402")
        write(P(d, ts + ".log"), "\n".join(lines) + "\n")
        write(P(d, "vis_data", "scalars.json"),
              jl({"accuracy/top1": round(100 * ia, 4), "accuracy/top5": round(100 * S.int8_final_eval["top5"], 4),
                  "data_time": 0.0066, "time": 0.0402, "step": 0}) + "\n")


# =============================================================================================
# mmcv 1.x (mmcls 0.x): <timestamp>.log + <timestamp>.log.json
# =============================================================================================
def mmcv_pair(d, t0, stage_name, cfgtext, train, val_rows, spe, clock, extra_lines_head=(), resume_from=None,
              json_head_extra=None, test_line=None, preempted=False, max_epochs=None):
    ts = t0.strftime("%Y%m%d_%H%M%S")
    L = []
    J = [jl({"env_info": "sys.platform: linux\nPython: 3.8.13\nCUDA available: True\nGPU 0: Tesla V100-SXM2-32GB\n"
                         "PyTorch: 1.10.1\nMMCV: 1.5.0\nMMClassification: 0.23.1",
             "config": cfgtext, "seed": 42, "exp_name": stage_name + ".py", "hook_msgs": {}})]

    def stamp():
        t = clock.tick(10)
        return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"

    L.append(f"{stamp()} - mmcls - INFO - Environment info:\n" + "-" * 60 +
             "\nsys.platform: linux\nPython: 3.8.13 (default, Mar 28 2022, 11:38:47) [GCC 7.5.0]\nCUDA available: True\n"
             "GPU 0: Tesla V100-SXM2-32GB\nPyTorch: 1.10.1\nMMCV: 1.5.0\nMMClassification: 0.23.1\n" + "-" * 60)
    L.append(f"{stamp()} - mmcls - INFO - Distributed training: False")
    L.append(f"{stamp()} - mmcls - INFO - Config:\n{cfgtext}")
    for x in extra_lines_head:
        L.append(f"{stamp()} - mmcls - INFO - {x}")
    if resume_from:
        L.append(f"{stamp()} - mmcls - INFO - load checkpoint from local path: {resume_from}")
        L.append(f"{stamp()} - mmcls - INFO - resumed epoch {train[0]['epoch']}, iter {train[0]['gstep'] - train[0]['it'] - 1}")
    L.append(f"{stamp()} - mmcls - INFO - Start running, host: train@gpu-node-07, work_dir: /home/train/exp/{"/".join(os.path.normpath(d).split(os.sep)[-3:])}")
    max_epochs = max_epochs or max(r['epoch'] for r in train) + 1
    L.append(f"{stamp()} - mmcls - INFO - workflow: [('train', 1)], max: {max_epochs} epochs")
    by_ep = {}
    for r in train:
        by_ep.setdefault(r["epoch"], []).append(r)
    vals = {v["epoch"]: v for v in val_rows}
    for ep in sorted(by_ep):
        for r in by_ep[ep]:
            L.append(f"{stamp()} - mmcls - INFO - Epoch [{ep + 1}][{r['it'] + 1}/{spe}]\tlr: {r['lr']:.3e}, eta: {fmt_eta((max_epochs * spe - r['gstep']) * 0.031)}, "
                     f"time: 0.031, data_time: 0.004, memory: 312, loss: {nan_str(r['loss_avg'])}")
            J.append(jl({"mode": "train", "epoch": ep + 1, "iter": r["it"] + 1, "lr": r["lr"], "memory": 312,
                         "data_time": 0.0043, "loss": r["loss_avg"] if not math.isnan(r["loss_avg"]) else "nan",
                         "time": 0.0312}))
        if preempted and ep == max(by_ep):
            break
        L.append(f"{stamp()} - mmcls - INFO - Saving checkpoint at {ep + 1} epochs")
        if ep in vals:
            v = vals[ep]
            L.append(f"{stamp()} - mmcls - INFO - Epoch(val) [{ep + 1}][16]\taccuracy_top-1: {100 * v['acc']:.4f}, "
                     f"accuracy_top-5: {100 * v['top5']:.4f}")
            J.append(jl({"mode": "val", "epoch": ep + 1, "iter": 16, "lr": by_ep[ep][-1]["lr"],
                         "accuracy_top-1": round(100 * v["acc"], 4), "accuracy_top-5": round(100 * v["top5"], 4)}))
    if test_line:
        L.append(f"{stamp()} - mmcls - INFO - {test_line}")
    write(P(d, ts + ".log"), "\n".join(L) + "\n")
    write(P(d, ts + ".log.json"), "\n".join(J) + "\n")


def rng_eta(r):
    return f"{max(0, 9 - r['epoch'])}:{(37 * r['gstep']) % 60:02d}"


def mmcv_cfg(stage, bs, lr, epochs, extra=""):
    return (f"model = dict(type='ImageClassifier', backbone=dict(type='TinyConv', width=16), neck=dict(type='GlobalAveragePooling'),"
            f" head=dict(type='LinearClsHead', num_classes=10, in_channels=128, topk=(1, 5)))\n"
            f"data = dict(samples_per_gpu={bs}, workers_per_gpu=4)\n"
            f"optimizer = dict(type='SGD', lr={lr}, momentum=0.9, weight_decay=0.0005)\n"
            f"lr_config = dict(policy='{'CosineAnnealing' if stage == 'float' else 'fixed'}'{', min_lr=0' if stage == 'float' else ''})\n"
            f"runner = dict(type='EpochBasedRunner', max_epochs={epochs})\n"
            f"log_config = dict(interval=10, hooks=[dict(type='TextLoggerHook')])\n"
            f"evaluation = dict(interval=1, metric='accuracy')\n{extra}")


def w_mmcv(root, cid, case, R):
    S = R["main"]
    seed = S.cfg["seed"]
    rng = random.Random(seed)
    clock = Clock(start_time(seed), rng)
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    if cid == "c04_mmcls_resume_ok":
        dirs = ["work_dirs/tiny_float", "work_dirs/tiny_calib", "work_dirs/tiny_qat", "work_dirs/tiny_qat"]
    else:
        dirs = ["fp32", "calibrate", "fake_quant", "int8"]
    mmcv_pair(P(root, dirs[0]), clock.t, "tiny_float", mmcv_cfg("float", fc.get("bs", 64), fc["lr"], fc["epochs"]),
              F["train"], F["val"], spe_of(F), clock)
    clock.tick(0, extra=900)
    # calibration: a one-shot script, text log only, mmcls logger
    ts = clock.t.strftime("%Y%m%d_%H%M%S")
    cl = []
    for i in range(C["n_batches"]):
        t = clock.tick(3)
        cl.append(f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} - mmcls - INFO - calibration [{i + 1}/{C['n_batches']}]")
    t = clock.tick(20)
    cl.append(f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} - mmcls - INFO - Epoch(val) [1][16]\t"
              f"accuracy_top-1: {100 * C['val_acc']:.4f}, accuracy_top-5: {100 * C['eval']['top5']:.4f}")
    head = (f"{clock.t:%Y-%m-%d %H:%M:%S},000 - mmcls - INFO - Config:\n" +
            mmcv_cfg("calibration", 64, 0.0, 1, "quant = dict(stage='calibration', num_batches=%d)\n" % C["n_batches"]))
    write(P(root, dirs[1], ts + ".log"), head + "\n".join(cl) + "\n")
    clock.tick(0, extra=300)
    qcfg = mmcv_cfg("qat", qc.get("bs", 64), qc["lr"], qc["epochs"],
                    "quant = dict(stage='qat', prepare='prepare_qat', load_calib='work_dirs/tiny_calib/calib.pth')\n")
    head = ["prepare_qat(): fused 3 conv-bn-relu groups, fake quant enabled"]
    resume_after = case["meta"].get("resume_after")
    if resume_after:
        a = [r for r in Q["train"] if r["epoch"] < resume_after]
        b = [r for r in Q["train"] if r["epoch"] >= resume_after]
        va = [v for v in Q["val"] if v["epoch"] < resume_after]
        vb = [v for v in Q["val"] if v["epoch"] >= resume_after]
        # first job: its last epoch's partial lines (preempted mid-epoch), no traceback
        extra_partial = [r for r in b if r["epoch"] == resume_after][:3]
        mmcv_pair(P(root, dirs[2]), clock.t, "tiny_qat", qcfg, a + extra_partial, va, spe_of(Q), clock, head,
                  preempted=True, max_epochs=qc["epochs"])
        clock.tick(0, extra=1800)
        mmcv_pair(P(root, dirs[2]), clock.t, "tiny_qat", qcfg, b, vb, spe_of(Q), clock, head,
                  resume_from=f"work_dirs/tiny_qat/epoch_{resume_after}.pth", max_epochs=qc["epochs"])
    else:
        mmcv_pair(P(root, dirs[2]), clock.t, "tiny_qat", qcfg, Q["train"], Q["val"], spe_of(Q), clock, head)
    if S.int8_final:
        clock.tick(0, extra=120)
        t = clock.t
        il, ia = S.int8_final
        txt = (f"{t:%Y-%m-%d %H:%M:%S},412 - mmcls - INFO - load checkpoint from local path: {dirs[2]}/latest.pth\n"
               f"{t:%Y-%m-%d %H:%M:%S},733 - mmcls - INFO - converting QAT model to quantized int8 model (torch.ao.quantization.convert)\n"
               f"[>>>>>>>>>>>>>>>>>>>>>>>>>>>>>] 1000/1000, 2107.3 task/s, elapsed: 0s, ETA:     0s\n"
               f"accuracy_top-1 : {100 * ia:.2f}\naccuracy_top-5 : {100 * S.int8_final_eval['top5']:.2f}\n")
        write(P(root, dirs[3], "int8_test.log" if dirs[3] != dirs[2] else "test_int8.log"), txt)


# =============================================================================================
# PyTorch Lightning CSVLogger: <save_dir>/<name>/version_N/{metrics.csv,hparams.yaml}
# =============================================================================================
def lightning_csv(path, res, opt="SGD", test=None):
    rows = []
    for r in res["train"]:
        rows.append({"epoch": r["epoch"], "step": r["gstep"] - 1, "train_loss_step": r["loss"],
                     "train_acc_step": r["acc"], f"lr-{opt}": r["lr"]})
    for v, e in zip(res["val"], res["epoch"]):
        rows.append({"epoch": v["epoch"], "step": v["gstep"] - 1, "val_loss": v["loss"], "val_acc": v["acc"]})
        rows.append({"epoch": e["epoch"], "step": e["gstep"] - 1, "train_loss_epoch": e["loss"], "train_acc_epoch": e["acc"]})
    rows.sort(key=lambda r: r["step"])   # chronological, train rows first at a shared step
    if test:
        rows.append(dict(test, epoch=0, step=0))
    keys = sorted({k for r in rows for k in r})

    def cell(x):
        if x is None:
            return ""
        if isinstance(x, float):
            return "nan" if math.isnan(x) else repr(x)
        return str(x)
    out = [",".join(keys)] + [",".join(cell(r.get(k)) for k in keys) for r in rows]
    write(path, "\n".join(out) + "\n")


def yaml_dump(d, indent=0):
    s = ""
    for k, v in d.items():
        if isinstance(v, dict):
            s += " " * indent + f"{k}:\n" + yaml_dump(v, indent + 2)
        else:
            s += " " * indent + f"{k}: {v}\n"
    return s


def w_lightning(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    if cid == "c06_lightning_ok":
        v = [P(root, "lightning_logs", f"version_{i}") for i in range(4)]
        stages = ["fp32", "calib", "qat", "quantized_eval"]
    elif cid == "c07_lightning_frozen":
        v = [P(root, "logs", "float_model", "version_0"), P(root, "logs", "calibration", "version_0"),
             P(root, "logs", "qat_model", "version_0"), P(root, "logs", "int8", "version_0")]
        stages = ["float", "calibration", "qat", "int8"]
    else:
        v = [P(root, "csv", "float", "version_0"), P(root, "csv", "calib", "version_0"),
             P(root, "csv", "qat", "version_0"), P(root, "csv", "qat_int8", "version_0"),
             P(root, "csv", "qat", "version_1"), P(root, "csv", "qat_int8", "version_1")]
        stages = ["float", "calibration", "qat", "quantized", "qat", "quantized"]

    def hp(stage, bs, lr, epochs, devices=1, extra=None):
        d = {"stage": stage, "model": "tiny_convnet", "width": 16, "num_classes": 10, "batch_size": bs, "lr": lr,
             "momentum": 0.9, "weight_decay": 0.0005, "max_epochs": epochs, "devices": devices, "num_nodes": 1,
             "accelerator": "gpu", "strategy": "ddp" if devices > 1 else "auto", "precision": "32-true"}
        d.update(extra or {})
        return yaml_dump(d)

    lightning_csv(P(v[0], "metrics.csv"), F)
    write(P(v[0], "hparams.yaml"), hp(stages[0], fc.get("bs", 64), fc["lr"], fc["epochs"],
                                       extra={"lr_scheduler": "cosine"}))
    write(P(v[1], "metrics.csv"), "epoch,step,val_acc,val_loss\n0,0,%r,%r\n" % (C["val_acc"], C["val_loss"]))
    write(P(v[1], "hparams.yaml"), hp(stages[1], 64, 0.0, 0, extra={"calib_batches": C["n_batches"],
                                                                     "ckpt_path": "checkpoints/float-last.ckpt"}))
    lightning_csv(P(v[2], "metrics.csv"), Q)
    write(P(v[2], "hparams.yaml"), hp(stages[2], qc.get("bs", 64), qc["lr"], qc["epochs"],
                                       extra={"lr_scheduler": "constant", "fake_quant": True,
                                              "ckpt_path": "checkpoints/calib.ckpt"}))
    il, ia = S.int8_final
    lightning_csv(P(v[3], "metrics.csv"), {"train": [], "val": [], "epoch": []},
                  test={"test_loss": il, "test_acc": ia})
    write(P(v[3], "hparams.yaml"), hp(stages[3], 250, 0.0, 0, extra={"backend": "qnnpack", "converted": True}))
    if "big" in R:
        B = R["big"]
        world = case["meta"]["big_world"]
        lightning_csv(P(v[4], "metrics.csv"), B.Q)
        write(P(v[4], "hparams.yaml"), hp(stages[4], 64, B.qcfg["lr"], B.qcfg["epochs"], devices=world,
                                           extra={"lr_scheduler": "constant", "fake_quant": True,
                                                  "global_batch_size": 64 * world,
                                                  "ckpt_path": "checkpoints/calib.ckpt"}))
        il, ia = B.int8_final
        lightning_csv(P(v[5], "metrics.csv"), {"train": [], "val": [], "epoch": []},
                      test={"test_loss": il, "test_acc": ia})
        write(P(v[5], "hparams.yaml"), hp(stages[5], 250, 0.0, 0, extra={"backend": "qnnpack", "converted": True}))


# =============================================================================================
# Hugging Face Trainer: trainer_state.json (+checkpoint-N copies, all_results.json, console)
# =============================================================================================
def hf_state(res, bs, logging_steps, best=None, upto=None):
    spe = spe_of(res)
    hist = []
    vals = {v["epoch"]: v for v in res["val"]}
    for r in res["train"]:
        if upto and r["gstep"] > upto:
            break
        hist.append({"epoch": round(r["gstep"] / spe, 2), "grad_norm": round(1.2 + 2.5 * r["loss_avg"], 4) if not math.isnan(r["loss_avg"]) else float("nan"),
                     "learning_rate": r["lr"], "loss": round(r["loss_avg"], 4) if not math.isnan(r["loss_avg"]) else float("nan"),
                     "step": r["gstep"]})
        if r["it"] + 1 == spe - spe % logging_steps and r["epoch"] in vals:
            v = vals[r["epoch"]]
            if upto and v["gstep"] > upto:
                continue
            hist.append({"epoch": float(r["epoch"] + 1), "eval_accuracy": v["acc"], "eval_loss": v["loss"],
                         "eval_runtime": 0.8123, "eval_samples_per_second": 1231.1, "eval_steps_per_second": 4.924,
                         "step": v["gstep"]})
    gs = upto or res["gstep"]
    st = {"best_metric": best, "best_model_checkpoint": None, "epoch": round(gs / spe, 4), "eval_steps": spe,
          "global_step": gs, "is_hyper_param_search": False, "is_local_process_zero": True, "is_world_process_zero": True,
          "log_history": hist, "logging_steps": logging_steps, "max_steps": spe * len(res["epoch"]),
          "num_input_tokens_seen": 0, "num_train_epochs": len(res["epoch"]), "save_steps": spe,
          "total_flos": 1.2e13, "train_batch_size": bs, "trial_name": None, "trial_params": None}
    if not upto:
        st["log_history"].append({"epoch": float(len(res["epoch"])), "step": gs, "total_flos": 1.2e13,
                                  "train_loss": sum(e["loss"] for e in res["epoch"]) / len(res["epoch"]),
                                  "train_runtime": 41.7, "train_samples_per_second": 575.2, "train_steps_per_second": 8.99})
    return st


def w_hf(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    names = (["runs/float-ft", "runs/qat-ft"] if cid == "c09_hf_trainer_ok" else ["outputs/fp32", "outputs/qat_from_calib"])
    for name, res, c in ((names[0], F, fc), (names[1], Q, qc)):
        spe = spe_of(res)
        st = hf_state(res, c.get("bs", 64), 10, best=max(v["acc"] for v in res["val"]))
        write_json(P(root, name, "trainer_state.json"), st)
        mid = spe * (len(res["epoch"]) // 2 or 1)
        write_json(P(root, name, f"checkpoint-{mid}", "trainer_state.json"), hf_state(res, c.get("bs", 64), 10, upto=mid))
        v = res["val"][-1]
        write_json(P(root, name, "all_results.json"),
                   {"epoch": float(len(res["epoch"])), "eval_accuracy": v["acc"], "eval_loss": v["loss"],
                    "train_loss": st["log_history"][-1]["train_loss"], "train_runtime": 41.7})
    # console of the QAT job (transformers-style logging), with the calibration and the int8 eval
    seed = S.cfg["seed"]
    t = start_time(seed, hour=14)
    L = [f"[INFO|trainer.py:1812] {t:%Y-%m-%d %H:%M:%S},101 >> ***** Running calibration *****",
         f"[INFO|quant.py:77] {t:%Y-%m-%d %H:%M:%S},880 >>   Num batches = {C['n_batches']}",
         f"calibration eval: {{'eval_loss': {C['val_loss']:.4f}, 'eval_accuracy': {C['val_acc']:.4f}}}",
         *([f"[WARNING|modeling_utils.py:3954] {t:%Y-%m-%d %H:%M:%S},990 >> Some weights of TinyConvNetForImageClassification were not "
            f"initialized from the model checkpoint at outputs/fp32_calibrated and are newly initialized: ['conv1.weight', 'bn1.weight', "
            f"'bn1.bias', 'conv2.weight', 'bn2.weight', 'bn2.bias', 'conv3.weight', 'bn3.weight', 'bn3.bias', 'fc.weight', 'fc.bias']",
            f"You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference."]
           if cid == "c10_hf_no_float_ckpt" else []),
         f"[INFO|quant.py:102] {t:%Y-%m-%d %H:%M:%S},991 >> prepare_qat: fake quantization enabled for 7 modules",
         f"[INFO|trainer.py:1812] {t:%Y-%m-%d %H:%M:%S},995 >> ***** Running training *****",
         f"[INFO|trainer.py:1813] {t:%Y-%m-%d %H:%M:%S},995 >>   Num examples = 4,000",
         f"[INFO|trainer.py:1814] {t:%Y-%m-%d %H:%M:%S},995 >>   Num Epochs = {qc['epochs']}",
         f"[INFO|trainer.py:1815] {t:%Y-%m-%d %H:%M:%S},995 >>   Instantaneous batch size per device = {qc.get('bs', 64)}",
         f"[INFO|trainer.py:1820] {t:%Y-%m-%d %H:%M:%S},995 >>   Total optimization steps = {spe_of(Q) * qc['epochs']}"]
    for h in hf_state(Q, qc.get("bs", 64), 10)["log_history"]:
        if "loss" in h:
            L.append("{'loss': %s, 'grad_norm': %s, 'learning_rate': %s, 'epoch': %s}" %
                     (h["loss"], h["grad_norm"], h["learning_rate"], h["epoch"]))
        elif "eval_accuracy" in h:
            L.append("{'eval_loss': %s, 'eval_accuracy': %s, 'eval_runtime': 0.8123, 'eval_samples_per_second': 1231.1, "
                     "'eval_steps_per_second': 4.924, 'epoch': %s}" % (h["eval_loss"], h["eval_accuracy"], h["epoch"]))
    L.append("{'train_runtime': 41.7, 'train_samples_per_second': 575.2, 'train_steps_per_second': 8.99, 'train_loss': %.4f, 'epoch': %.1f}"
             % (sum(e["loss"] for e in Q["epoch"]) / len(Q["epoch"]), float(qc["epochs"])))
    write(P(root, names[1], "train_qat.log"), "\n".join(L) + "\n")
    il, ia = S.int8_final
    txt = (f"[INFO|quant.py:140] >> converting {names[1]} to int8 with torch.ao.quantization.convert (qnnpack)\n"
           f"***** eval metrics *****\n  epoch                   = {float(qc['epochs'])}\n"
           f"  eval_accuracy           = {ia:.4f}\n  eval_loss               = {il:.4f}\n"
           f"  eval_runtime            = 0:00:01.31\n  eval_samples            =       1000\n")
    write(P(root, names[1] + "-int8", "eval_int8.log"), txt)
    write_json(P(root, names[1] + "-int8", "eval_results.json"), {"eval_accuracy": ia, "eval_loss": il, "epoch": float(qc["epochs"])})


# =============================================================================================
# timm: output/train/<ts>-<model>-<size>/{summary.csv,args.yaml} + console log (logging)
# =============================================================================================
def timm_train_log(res, clock, lines, total_epochs):
    spe = spe_of(res)
    vals = {v["epoch"]: v for v in res["val"]}
    by_ep = {}
    for r in res["train"]:
        by_ep.setdefault(r["epoch"], []).append(r)
    best = None
    for ep in sorted(by_ep):
        for r in [by_ep[ep][0]] + by_ep[ep][4::5]:
            t = clock.tick(10)
            pct = 100.0 * r["it"] / spe
            lines.append(f"Train: {ep} [{r['it']:>4}/{spe} ({pct:>3.0f}%)]  Loss: {r['loss']:.3f} ({r['loss_avg']:.2f})  "
                         f"Time: 0.031s, 2064.52/s  (0.033s, 1939.39/s)  LR: {r['lr']:.3e}  Data: 0.004 (0.005)")
        v = vals[ep]
        bl = v["batches"]
        n_seen, sl, sa, s5 = 0, 0.0, 0.0, 0.0
        for i, (n, l, a, a5) in enumerate(bl):
            n_seen += n
            sl += l * n
            sa += a * n
            s5 += a5 * n
            if i == 0 or i == len(bl) - 1:
                lines.append(f"Test: [{i:>3}/{len(bl) - 1}]  Time: 0.012 (0.015)  Loss: {l:>7.4f} ({sl / n_seen:>7.4f})  "
                             f"Acc@1: {100 * a:>8.4f} ({100 * sa / n_seen:>8.4f})  Acc@5: {100 * a5:>8.4f} ({100 * s5 / n_seen:>8.4f})")
        if best is None or v["acc"] > best[0]:
            best = (v["acc"], ep)
            lines.append(f"Current checkpoints:\n ('./output/train/ckpt/checkpoint-{ep}.pth.tar', {100 * v['acc']:.4f})")
    lines.append(f"*** Best metric: {100 * best[0]:.4f} (epoch {best[1]})")


def timm_summary(path, res):
    rows = ["epoch,train_loss,eval_loss,eval_top1,eval_top5,lr"]
    for e, v in zip(res["epoch"], res["val"]):
        rows.append(f"{e['epoch']},{e['loss']!r},{v['loss']!r},{100 * v['acc']!r},{100 * v['top5']!r},{e['lr']!r}")
    write(path, "\n".join(rows) + "\n")


def timm_args(model, bs, lr, epochs, sched, extra=""):
    return (f"aa: null\namp: false\nbatch_size: {bs}\nchannels_last: false\ncooldown_epochs: 0\ndata_dir: /data/blobs10\n"
            f"decay_rate: 0.1\nepochs: {epochs}\nlr: {lr}\nmodel: {model}\nmomentum: 0.9\nnum_classes: 10\nopt: sgd\n"
            f"sched: {sched}\nseed: 42\nwarmup_epochs: {1 if sched == 'cosine' else 0}\nwarmup_lr: 1.0e-05\nweight_decay: 0.0005\n"
            f"workers: 4\n{extra}")


def w_timm(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    seed = S.cfg["seed"]
    clock = Clock(start_time(seed), random.Random(seed))
    if cid == "c11_timm_warmup_ok":
        fdir = P(root, "output/train", clock.t.strftime("%Y%m%d-%H%M%S") + "-tinynet_fp32-16")
    else:
        fdir = P(root, "output/train", clock.t.strftime("%Y%m%d-%H%M%S") + "-tinynet-16")
    timm_summary(P(fdir, "summary.csv"), F)
    write(P(fdir, "args.yaml"), timm_args("tinynet", fc.get("bs", 64), fc["lr"], fc["epochs"],
                                          "cosine" if "cos" in fc.get("sched", "") else "const"))
    lines = ["Training with a single process on 1 device (cuda:0).",
             "Model tinynet created, param count:77642",
             "Data processing configuration for current model + dataset:",
             "\tinput_size: (3, 16, 16)", "\tinterpolation: bilinear", "\tmean: (0.45, 0.45, 0.45)", "\tstd: (0.25, 0.25, 0.25)",
             "Using native Torch AMP. Training in mixed precision." if False else "AMP not enabled. Training in float32.",
             f"Scheduled epochs: {fc['epochs']}. LR stepped per update."]
    timm_train_log(F, clock, lines, fc["epochs"])
    write(P(fdir, "train.log"), "\n".join(lines) + "\n")
    clock.tick(0, extra=600)
    if cid == "c11_timm_warmup_ok":
        qdir = P(root, "output/train", clock.t.strftime("%Y%m%d-%H%M%S") + "-tinynet_qat-16")
    else:
        qdir = P(root, "output/train", clock.t.strftime("%Y%m%d-%H%M%S") + "-tinynet-16")
    timm_summary(P(qdir, "summary.csv"), Q)
    write(P(qdir, "args.yaml"), timm_args("tinynet", qc.get("bs", 64), qc["lr"], qc["epochs"], "const",
                                          f"initial_checkpoint: {os.path.relpath(fdir, root)}/model_best.pth.tar\n"
                                          f"qat: true\nqat_backend: qnnpack\ncalib_batches: {C['n_batches'] if C else 0}\n"))
    lines = ["Training with a single process on 1 device (cuda:0).",
             f"Loaded state_dict from checkpoint '{os.path.relpath(fdir, root)}/model_best.pth.tar'",
             "Fusing conv/bn/relu and calling torch.ao.quantization.prepare_qat (qconfig: qnnpack default)"]
    if C:
        lines.append(f"Calibrating observers on {C['n_batches']} batches (fake quant off)")
        lines.append(f"Calibration: Acc@1 {100 * C['val_acc']:.3f}  Acc@5 {100 * C['eval']['top5']:.3f}  Loss {C['val_loss']:.4f}")
    lines.append(f"Scheduled epochs: {qc['epochs']}. LR stepped per update.")
    timm_train_log(Q, clock, lines, qc["epochs"])
    write(P(qdir, "train.log"), "\n".join(lines) + "\n")
    if S.int8_final:
        il, ia = S.int8_final
        e5 = S.int8_final_eval["top5"]
        txt = (f"Loaded state_dict from checkpoint '{os.path.relpath(qdir, root)}/last.pth.tar'\n"
               "Converted QAT model to int8 (torch.ao.quantization.convert)\n"
               f"Test: [   3/3]  Time: 0.051 (0.060)  Loss:  {il:.4f} ({il:.4f})  Acc@1: {100 * ia:8.4f} ({100 * ia:8.4f})  "
               f"Acc@5: {100 * e5:8.4f} ({100 * e5:8.4f})\n"
               f" * Acc@1 {100 * ia:.3f} ({100 - 100 * ia:.3f}) Acc@5 {100 * e5:.3f} ({100 - 100 * e5:.3f})\n"
               "--result\n" + jl({"model": "tinynet_int8", "top1": round(100 * ia, 3), "top1_err": round(100 - 100 * ia, 3),
                                    "top5": round(100 * e5, 3), "top5_err": round(100 - 100 * e5, 3), "param_count": 0.08,
                                    "img_size": 16, "crop_pct": 1.0, "interpolation": "bilinear"}) + "\n")
        write(P(root, "output", "validate_int8.log"), txt)


# =============================================================================================
# detectron2: <output_dir>/{metrics.json,log.txt}
# =============================================================================================
def d2_run(d, res, clock, name, extra_head=(), eval_prefix="classification"):
    spe = spe_of(res)
    M, L = [], []
    t = clock.t
    L.append(f"[{t:%m/%d %H:%M:%S} detectron2]: Rank of current process: 0. World size: 1")
    L.append(f"[{t:%m/%d %H:%M:%S} detectron2]: Environment info:\n----------------------  ---------------------------\n"
             "sys.platform            linux\nPython                  3.9.18\ndetectron2              0.6 @/opt/detectron2/detectron2\n"
             "PyTorch                 1.13.1+cu117\nGPU 0                   NVIDIA GeForce RTX 3090 (arch=8.6)\n"
             "----------------------  ---------------------------")
    for x in extra_head:
        L.append(f"[{t:%m/%d %H:%M:%S} d2.engine.defaults]: {x}")
    L.append(f"[{t:%m/%d %H:%M:%S} d2.engine.train_loop]: Starting training from iteration 0")
    vals = {v["epoch"]: v for v in res["val"]}
    total = spe * len(res["epoch"])
    last_of_epoch = {}
    for r in res["train"]:
        last_of_epoch[r["epoch"]] = r["gstep"]
    for r in res["train"]:
        it = r["gstep"] - 1
        if not (r["gstep"] % 20 and r["gstep"] != total):
            # detectron2 writes every 20 iterations; records come every 10
            t = clock.tick(20)
            m = {"cls_accuracy": r["acc_avg"], "data_time": 0.0041, "eta_seconds": (total - r["gstep"]) * 0.031,
                 "iteration": it, "loss_cls": r["loss_avg"], "lr": r["lr"], "rank_data_time": 0.0041,
                 "time": 0.0312, "total_loss": r["loss_avg"]}
            M.append(jl(m))
            L.append(f"[{t:%m/%d %H:%M:%S} d2.utils.events]:  eta: {fmt_eta(m['eta_seconds'])}  iter: {it}  "
                     f"total_loss: {nan_str(r['loss_avg'], '{:.4g}')}  loss_cls: {nan_str(r['loss_avg'], '{:.4g}')}  "
                     f"cls_accuracy: {r['acc_avg']:.4g}  time: 0.0312  last_time: 0.0305  data_time: 0.0041  "
                     f"last_data_time: 0.0039  lr: {r['lr']:.5g}  max_mem: 318M")
        if r["gstep"] == last_of_epoch[r["epoch"]] and r["epoch"] in vals:
            v = vals.pop(r["epoch"])
            it = v["gstep"] - 1
            t = clock.tick(30)
            L.append(f"[{t:%m/%d %H:%M:%S} d2.evaluation.evaluator]: Start inference on 4 batches")
            L.append(f"[{t:%m/%d %H:%M:%S} d2.evaluation.evaluator]: Total inference time: 0:00:00.412 (0.103 s / iter per device, on 1 devices)")
            L.append(f"[{t:%m/%d %H:%M:%S} d2.engine.defaults]: Evaluation results for blobs10_val in csv format:")
            L.append(f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: Task: {eval_prefix}")
            L.append(f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: top1,top5")
            L.append(f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: {100 * v['acc']:.4f},{100 * v['top5']:.4f}")
            M.append(jl({f"{eval_prefix}/top1": 100 * v["acc"], f"{eval_prefix}/top5": 100 * v["top5"], "iteration": it}))
    L.append(f"[{clock.tick(5):%m/%d %H:%M:%S} d2.engine.hooks]: Overall training speed: {total - 2} iterations in 0:00:{int(total * 0.031):02d} (0.0312 s / it)")
    write(P(d, "metrics.json"), "\n".join(M) + "\n")
    write(P(d, "log.txt"), "\n".join(L) + "\n")


def w_detectron2(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    seed = S.cfg["seed"]
    clock = Clock(start_time(seed), random.Random(seed))
    dirs = (["float_run", "calibration", "qat_run", "qat_run/quantized_eval"] if cid == "c13_d2_qat_lr"
            else ["runs/r0", "runs/r0_calib", "runs/r1_qat", "runs/r1_qat/int8_test"])
    d2_run(P(root, dirs[0]), F, clock, "float",
           [f"Full config saved to {dirs[0]}/config.yaml", f"SOLVER.BASE_LR: {fc['lr']}  SOLVER.IMS_PER_BATCH: {fc.get('bs', 64)}  "
            f"SOLVER.MAX_ITER: {spe_of(F) * fc['epochs']}  SOLVER.LR_SCHEDULER_NAME: WarmupCosineLR"])
    write(P(root, dirs[0], "config.yaml"),
          f"SOLVER:\n  BASE_LR: {fc['lr']}\n  IMS_PER_BATCH: {fc.get('bs', 64)}\n  MAX_ITER: {spe_of(F) * fc['epochs']}\n"
          f"  LR_SCHEDULER_NAME: WarmupCosineLR\n  MOMENTUM: 0.9\n  WEIGHT_DECAY: 0.0005\nQUANTIZATION:\n  BACKEND: qnnpack\n  QAT:\n    ENABLED: false\n")
    clock.tick(0, extra=600)
    t = clock.t
    write(P(root, dirs[1], "log.txt"),
          f"[{t:%m/%d %H:%M:%S} d2.engine.defaults]: Loading weights from {dirs[0]}/model_final.pth\n"
          f"[{t:%m/%d %H:%M:%S} d2.quantization]: Running calibration on {C['n_batches']} batches (observers on, fake quant off)\n"
          f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: Task: classification\n"
          f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: top1,top5\n"
          f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: {100 * C['val_acc']:.4f},{100 * C['eval']['top5']:.4f}\n")
    write(P(root, dirs[1], "metrics.json"),
          jl({"classification/top1": 100 * C["val_acc"], "classification/top5": 100 * C["eval"]["top5"], "iteration": 0}) + "\n")
    clock.tick(0, extra=300)
    d2_run(P(root, dirs[2]), Q, clock, "qat",
           [f"Loading weights from {dirs[1]}/model_calibrated.pth", "QUANTIZATION.QAT.ENABLED: True (prepare_qat, fake quant on)",
            f"SOLVER.BASE_LR: {qc['lr']}  SOLVER.IMS_PER_BATCH: {qc.get('bs', 64)}  SOLVER.MAX_ITER: {spe_of(Q) * qc['epochs']}  "
            "SOLVER.LR_SCHEDULER_NAME: WarmupMultiStepLR"])
    write(P(root, dirs[2], "config.yaml"),
          f"SOLVER:\n  BASE_LR: {qc['lr']}\n  IMS_PER_BATCH: {qc.get('bs', 64)}\n  MAX_ITER: {spe_of(Q) * qc['epochs']}\n"
          f"  LR_SCHEDULER_NAME: WarmupMultiStepLR\nQUANTIZATION:\n  BACKEND: qnnpack\n  QAT:\n    ENABLED: true\n")
    il, ia = S.int8_final
    t = clock.tick(0, extra=120)
    write(P(root, dirs[3], "log.txt"),
          f"[{t:%m/%d %H:%M:%S} d2.quantization]: torch.ao.quantization.convert -> int8 model\n"
          f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: Task: classification\n"
          f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: top1,top5\n"
          f"[{t:%m/%d %H:%M:%S} d2.evaluation.testing]: copypaste: {100 * ia:.4f},{100 * S.int8_final_eval['top5']:.4f}\n")


# =============================================================================================
# YOLOv5-cls and ultralytics classify: results.csv (+opt.yaml / args.yaml, console)
# =============================================================================================
def pad_csv(header, rows, width=20):
    out = [",".join(h.rjust(width) for h in header)]
    for r in rows:
        out.append(",".join((f"{x:.5g}" if isinstance(x, float) else str(x)).rjust(width) for x in r))
    return "\n".join(out) + "\n"


def w_yolov5(root, cid, case, R):
    S = R["main"]
    F, Q, fc, qc = S.F, S.Q, S.fcfg, S.qcfg
    hdr = ["epoch", "train/loss", "test/loss", "metrics/accuracy_top1", "metrics/accuracy_top5", "lr/0"]
    for name, res, c, extra in (("exp", F, fc, ""), ("exp2", Q, qc, "qat: true\nweights: runs/train-cls/exp/weights/best.pt\n")):
        rows = [[e["epoch"], e["loss"], v["loss"], v["acc"], v["top5"], e["lr"]] for e, v in zip(res["epoch"], res["val"])]
        write(P(root, "runs/train-cls", name, "results.csv"), pad_csv(hdr, rows))
        write(P(root, "runs/train-cls", name, "opt.yaml"),
              f"model: yolov5n-cls.pt\ndata: blobs10\nepochs: {c['epochs']}\nbatch_size: {c.get('bs', 64)}\nimgsz: 16\n"
              f"nosave: false\ncache: null\ndevice: '0'\nworkers: 8\nproject: runs/train-cls\nname: {name}\noptimizer: SGD\n"
              f"lr0: {c['lr']}\ndecay: 5.0e-05\nlabel_smoothing: 0.0\ncutoff: null\ndropout: null\nverbose: false\nseed: 0\n{extra}")
        lines = [f"classify/train: model=yolov5n-cls.pt, data=blobs10, epochs={c['epochs']}, batch_size={c.get('bs', 64)}, lr0={c['lr']}",
                 f"{'Epoch':>10}{'GPU_mem':>10}{'train_loss':>12}{'test_loss':>12}{'top1_acc':>12}{'top5_acc':>12}"]
        for e, v in zip(res["epoch"], res["val"]):
            lines.append(f"{e['epoch'] + 1:>7}/{c['epochs']:<2}{'0.31G':>10}{e['loss']:>12.3g}{v['loss']:>12.3g}"
                         f"{v['acc']:>12.3g}{v['top5']:>12.3g}: 100%|██████████| {spe_of(res)}/{spe_of(res)} [00:02<00:00, 24.3it/s]")
        lines.append(f"\nTraining complete (0.012 hours)\nResults saved to runs/train-cls/{name}")
        write(P(root, "runs/train-cls", name, "train.log"), "\n".join(lines) + "\n")
    il, ia = S.int8_final
    write(P(root, "runs/val-cls/exp_int8", "val.log"),
          "classify/val: data=blobs10, weights=['runs/train-cls/exp2/weights/best_int8.pt'], batch_size=128, imgsz=16, device=cpu, int8=True\n"
          f"validating: 100%|██████████| 8/8 [00:00<00:00, 14.1it/s]\n"
          f"{'Class':>24}{'Images':>12}{'top1_acc':>12}{'top5_acc':>12}\n"
          f"{'all':>24}{1000:>12}{ia:>12.3g}{S.int8_final_eval['top5']:>12.3g}\n"
          "Speed: 0.1ms pre-process, 0.9ms inference, 0.0ms post-process per image at shape (1, 3, 16, 16)\n")


def w_ultralytics(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    hdr = ["epoch", "train/loss", "metrics/accuracy_top1", "metrics/accuracy_top5", "val/loss", "lr/pg0", "lr/pg1", "lr/pg2"]
    for name, res, c, extra in (("train", F, fc, "qat: false\n"), ("train2", Q, qc, "qat: true\nmodel: runs/classify/train/weights/calibrated.pt\n")):
        rows = [[e["epoch"] + 1, e["loss"], v["acc"], v["top5"], v["loss"], e["lr"], e["lr"], e["lr"]]
                for e, v in zip(res["epoch"], res["val"])]
        write(P(root, "runs/classify", name, "results.csv"), pad_csv(hdr, rows, 25))
        write(P(root, "runs/classify", name, "args.yaml"),
              f"task: classify\nmode: train\nmodel: yolov8n-cls.yaml\ndata: blobs10\nepochs: {c['epochs']}\npatience: 50\n"
              f"batch: {c.get('bs', 64)}\nimgsz: 16\nsave: true\ndevice: '0'\nworkers: 8\nproject: null\nname: {name}\n"
              f"optimizer: SGD\nlr0: {c['lr']}\nlrf: 0.01\nmomentum: 0.9\nweight_decay: 0.0005\nwarmup_epochs: 0.0\n"
              f"cos_lr: {'true' if c is fc else 'false'}\n{extra}")
    write(P(root, "runs/classify/calib", "calib.log"),
          "Ultralytics YOLOv8.0.196 🚀 Python-3.10.12 torch-2.0.1 CUDA:0 (Tesla T4, 15102MiB)\n"
          f"calibrating observers: 100%|██████████| {C['n_batches']}/{C['n_batches']} [00:01<00:00, 9.71it/s]\n"
          f"{'classes':>25}{'top1_acc':>11}{'top5_acc':>11}\n{'all':>25}{C['val_acc']:>11.3g}{C['eval']['top5']:>11.3g}\n")
    il, ia = S.int8_final
    write(P(root, "runs/classify/val_int8", "val.log"),
          "Ultralytics YOLOv8.0.196 🚀 Python-3.10.12 torch-2.0.1 CPU\nLoading runs/classify/train2/weights/best_int8.torchscript for int8 (qnnpack) inference...\n"
          f"               classes   top1_acc   top5_acc: 100%|██████████| 8/8 [00:00<00:00, 11.2it/s]\n"
          f"{'all':>22}{ia:>11.3g}{S.int8_final_eval['top5']:>11.3g}\n"
          "Speed: 0.0ms preprocess, 0.7ms inference, 0.0ms loss, 0.0ms postprocess per image\n")


# =============================================================================================
# Keras: CSVLogger file + fit() console
# =============================================================================================
def keras_csv(path, res):
    rows = ["epoch,accuracy,loss,lr,val_accuracy,val_loss"]
    for e, v in zip(res["epoch"], res["val"]):
        rows.append(f"{e['epoch']},{e['acc']!r},{e['loss']!r},{e['lr']!r},{v['acc']!r},{v['loss']!r}")
    write(path, "\n".join(rows) + "\n")


def keras_console(res, epochs, head=()):
    spe = spe_of(res)
    L = list(head)
    by_ep = {}
    for r in res["train"]:
        by_ep.setdefault(r["epoch"], []).append(r)
    for e, v in zip(res["epoch"], res["val"]):
        L.append(f"Epoch {e['epoch'] + 1}/{epochs}")
        for r in by_ep.get(e["epoch"], [])[:2]:
            n = r["it"] + 1
            bar = "=" * int(29 * n / spe) + ">" + "." * (29 - int(29 * n / spe))
            L.append(f"{n:>{len(str(spe))}}/{spe} [{bar[:30]}] - ETA: 1s - loss: {r['loss_avg']:.4f} - accuracy: {r['acc_avg']:.4f}")
        L.append(f"{spe}/{spe} [==============================] - 2s 27ms/step - loss: {e['loss']:.4f} - accuracy: {e['acc']:.4f}"
                 f" - val_loss: {v['loss']:.4f} - val_accuracy: {v['acc']:.4f} - lr: {e['lr']:.4f}")
    return L


def w_keras(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    if cid == "c17_keras_overfit":
        keras_csv(P(root, "history_float.csv"), F)
        write(P(root, "fit_float.txt"), "\n".join(keras_console(F, fc["epochs"], [
            "Model: \"tiny_convnet\"", "Total params: 77,642", "Trainable params: 77,322",
            f"Train on {fc.get('n_train', 4000)} samples, validate on 1000 samples"])) + "\n")
        keras_csv(P(root, "history_qat.csv"), Q)
        write(P(root, "fit_qat.txt"), "\n".join(keras_console(Q, qc["epochs"], [
            "q_aware_model = tfmot.quantization.keras.quantize_model(model)",
            f"calibration/initial eval: loss: {C['val_loss']:.4f} - accuracy: {C['val_acc']:.4f}",
            f"Train on {qc.get('n_train', 4000)} samples, validate on 1000 samples"])) + "\n")
        il, ia = S.int8_final
        write(P(root, "int8_eval.txt"), f"TFLite int8 model: 81.2 KB\n8/8 [==============================] - 0s 3ms/step - loss: {il:.4f} - accuracy: {ia:.4f}\n"
                                        f"Quantized (int8) test accuracy: {ia:.4f}\n")
    else:
        keras_csv(P(root, "logs/fp32/training.log"), F)
        write(P(root, "logs/fp32/stdout.txt"), "\n".join(keras_console(F, fc["epochs"], ["Epoch 1: LearningRateScheduler setting learning rate to %s." % F["epoch"][0]["lr"]])) + "\n")
        write(P(root, "logs/calibration.txt"),
              f"Calibrating with representative_dataset: {C['n_batches']} batches\n"
              f"{4}/{4} [==============================] - 0s 11ms/step - loss: {C['val_loss']:.4f} - accuracy: {C['val_acc']:.4f}\n")
        keras_csv(P(root, "logs/qat/training.log"), Q)
        write(P(root, "logs/qat/stdout.txt"), "\n".join(keras_console(Q, qc["epochs"], ["quantize_apply: 7 layers annotated, fake quant enabled"])) + "\n")
        il, ia = S.int8_final
        write(P(root, "logs/tflite_int8_eval.txt"), f"converter.optimizations = [tf.lite.Optimize.DEFAULT]; inference_input_type = tf.int8\n"
                                                   f"int8 tflite accuracy: {ia:.4f}  loss: {il:.4f}\n")


# =============================================================================================
# HAT (horizon): Epoch[e] Step[s] GlobalStep[g] lines, BEGIN/END <STAGE> STAGE banners
# =============================================================================================
def hat_cfg(march, stage, bs, lr, epochs, devices, sched):
    return [f"march = \"{march}\"", f"training_step = \"{stage}\"", f"device_ids = {devices}",
            f"batch_size_per_gpu = {bs}", f"num_workers = 4",
            f"optimizer = dict(type=torch.optim.SGD, lr={lr}, momentum=0.9, weight_decay=4e-05)",
            f"lr_updater = dict(type=\"{sched}\", max_epoch={epochs})", f"num_epochs = {epochs}",
            "metric_updater = dict(type=\"MetricUpdater\", log_prefix=\"Train\", step_log_freq=10)"]


def hat_train(res, clock, L, node=0):
    def stamp(n=10):
        t = clock.tick(n)
        return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
    by_ep = {}
    for r in res["train"]:
        by_ep.setdefault(r["epoch"], []).append(r)
    vals = {v["epoch"]: v for v in res["val"]}
    for ep in sorted(by_ep):
        for r in by_ep[ep]:
            if r["it"] < 10 or r["it"] % 20 == 9:
                L.append(f"{stamp(0)} INFO [lr_updater.py:184] Node[{node}] Epoch[{ep}] Step[{r['it']}] GlobalStep[{r['gstep'] - 1}] lr={r['lr']:.6f}")
            L.append(f"{stamp()} INFO [metric_updater.py:240] Node[{node}] Epoch[{ep}] Step[{r['it']}] GlobalStep[{r['gstep'] - 1}] "
                     f"Train: CELoss[{nan_str(r['loss_avg'])}] Accuracy[{r['acc_avg']:.4f}] ")
        L.append(f"{stamp(5)} INFO [metric_updater.py:251] Node[{node}] Epoch[{ep}] Train: CELoss[{nan_str(by_ep[ep][-1]['loss_avg'])}] "
                 f"Accuracy[{by_ep[ep][-1]['acc_avg']:.4f}] ")
        if ep in vals:
            v = vals[ep]
            L.append(f"{stamp(30)} INFO [metric_updater.py:251] Node[{node}] Epoch[{ep}] Validation: Accuracy[{v['acc']:.4f}] "
                     f"CELoss[{v['loss']:.4f}] ")
        L.append(f"{stamp(2)} INFO [checkpoint.py:102] Node[{node}] Save checkpoint to tmp_models/tinycls/{clock.stage}-checkpoint-last.pth.tar")


def hat_stages(S, case, clock, march_of):
    """Return {stage: lines} for float, calibration, qat, int_infer."""
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    meta = case["meta"]
    out = {}

    def stamp(n=1):
        t = clock.tick(n)
        return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
    fs = "StepDecayLrUpdater" if fc.get("sched") != "onecycle" else "OneCycleUpdater"
    qs = "OneCycleUpdater" if qc.get("sched") == "onecycle" else "StepDecayLrUpdater"
    # float
    clock.stage = "float"
    L = [f"{stamp()} INFO [train.py:231] Node[0] ==================================================BEGIN FLOAT STAGE==================================================",
         f"{stamp()} INFO [train.py:240] Node[0] Config:"] + hat_cfg(march_of("float"), "float", fc.get("bs", 64), fc["lr"], fc["epochs"], [0], fs)
    L.append(f"{stamp()} INFO [train.py:260] Node[0] Start Float training, num_epochs: {fc['epochs']}, steps_per_epoch: {spe_of(F)}")
    hat_train(F, clock, L)
    L.append(f"{stamp()} INFO [train.py:301] Node[0] ==================================================END FLOAT STAGE==================================================")
    out["float"] = L
    # calibration
    clock.stage = "calibration"
    world = meta.get("calib_world", 1)
    L = [f"{stamp(300)} INFO [train.py:231] Node[0] ==================================================BEGIN CALIBRATION STAGE==================================================",
         f"{stamp()} INFO [train.py:240] Node[0] Config:"] + hat_cfg(march_of("calibration"), "calibration", 64, 0.0, 1, list(range(world)), "NoLrUpdater")
    if world > 1:
        L.append(f"{stamp()} INFO [launcher.py:77] Node[0] launching {world} processes, world_size={world}, backend=NCCL")
    L.append(f"{stamp()} INFO [calibration.py:58] Node[0] load float checkpoint: tmp_models/tinycls/float-checkpoint-last.pth.tar")
    L.append(f"{stamp()} INFO [calibration.py:71] Node[0] set_fake_quantize(model, FakeQuantState.CALIBRATION)")
    for i in range(C["n_batches"]):
        for node in range(world):
            L.append(f"{stamp(3)} INFO [loop_base.py:412] Node[{node}] Epoch[0] Step[{i}] GlobalStep[{i}] calibration batch {i + 1}/{C['n_batches']}")
    L.append(f"{stamp(30)} INFO [metric_updater.py:251] Node[0] Epoch[0] Validation: Accuracy[{C['val_acc']:.4f}] CELoss[{C['val_loss']:.4f}] ")
    L.append(f"{stamp()} INFO [train.py:301] Node[0] ==================================================END CALIBRATION STAGE==================================================")
    out["calibration"] = L
    # qat
    clock.stage = "qat"
    L = [f"{stamp(300)} INFO [train.py:231] Node[0] ==================================================BEGIN QAT STAGE==================================================",
         f"{stamp()} INFO [train.py:240] Node[0] Config:"] + hat_cfg(march_of("qat"), "qat", qc.get("bs", 64), qc["lr"], qc["epochs"], [0], qs)
    L.append(f"{stamp()} INFO [qat.py:88] Node[0] load calibration checkpoint: tmp_models/tinycls/calibration-checkpoint-last.pth.tar")
    L.append(f"{stamp()} INFO [qat.py:93] Node[0] set_fake_quantize(model, FakeQuantState.QAT)")
    hat_train(Q, clock, L)
    L.append(f"{stamp()} INFO [train.py:301] Node[0] ==================================================END QAT STAGE==================================================")
    out["qat"] = L
    # int_infer
    if S.int8_final:
        il, ia = S.int8_final
        L = [f"{stamp(120)} INFO [train.py:231] Node[0] ==================================================BEGIN INT_INFER STAGE==================================================",
             f"{stamp()} INFO [train.py:240] Node[0] Config:"] + hat_cfg(march_of("int_infer"), "int_infer", 250, 0.0, 1, [0], "NoLrUpdater")
        L.append(f"{stamp()} INFO [int_infer.py:61] Node[0] convert qat model to quantized model (hbdk4 convert, march={march_of('int_infer')})")
        L.append(f"{stamp(40)} INFO [metric_updater.py:251] Node[0] Epoch[0] Validation: Accuracy[{ia:.4f}] CELoss[{il:.4f}] ")
        L.append(f"{stamp()} INFO [train.py:301] Node[0] ==================================================END INT_INFER STAGE==================================================")
        out["int_infer"] = L
    return out


def w_hat_onefile(root, cid, case, R):
    S = R["main"]
    seed = S.cfg["seed"]
    clock = Clock(start_time(seed), random.Random(seed))
    march = case["meta"]["march"]
    st = hat_stages(S, case, clock, lambda s: march)
    L = []
    cmd = {"float": "float", "calibration": "calibration", "qat": "qat", "int_infer": "int_infer"}
    for s in ("float", "calibration", "qat", "int_infer"):
        if s in st:
            L.append(f"+ python3 tools/train.py --stage {cmd[s]} --config configs/classification/tinycls_blobs10.py")
            L += st[s]
    name = "train.log" if cid == "c19_hat_onefile_ok" else "log/tinycls_onecycle.log"
    write(P(root, name), "\n".join(L) + "\n")


def w_hat_files(root, cid, case, R):
    S = R["main"]
    seed = S.cfg["seed"]
    clock = Clock(start_time(seed), random.Random(seed))
    meta = case["meta"]
    march = meta["march"]
    st = hat_stages(S, case, clock, lambda s: meta.get("qat_march", march) if s in ("qat", "int_infer") else march)
    if cid == "c20_hat_march":
        names = {"float": "tmp_models/tinycls/float/train.log", "calibration": "tmp_models/tinycls/calibration/train.log",
                 "qat": "tmp_models/tinycls/qat/train.log", "int_infer": "tmp_models/tinycls/int_infer/predict.log"}
    else:
        names = {"float": "logs/float-20240605.log", "calibration": "logs/calibration-20240606.log",
                 "qat": "logs/qat-20240606.log", "int_infer": "logs/int_infer-20240607.log"}
    for s, L in st.items():
        write(P(root, names[s]), "\n".join(L) + "\n")


# =============================================================================================
# Python logging records with timestamps
# =============================================================================================
def w_pylogging(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    seed = S.cfg["seed"]
    clock = Clock(start_time(seed), random.Random(seed))
    names = (["logs/train_float.log", "logs/calibrate.log", "logs/train_qat.log", "logs/eval_int8.log"]
             if cid == "c24_logging_crash" else
             ["job_5531/fp_stage.log", "job_5531/calib_stage.log", "job_5531/qat_stage.log", "job_5531/int8_stage.log"])

    def rec(level, name, msg, n=10):
        t = clock.tick(n)
        return f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} [{level}] {name}: {msg}"

    def train(res, c, L, tag):
        spe = spe_of(res)
        by_ep = {}
        for r in res["train"]:
            by_ep.setdefault(r["epoch"], []).append(r)
        vals = {v["epoch"]: v for v in res["val"]}
        for ep in sorted(by_ep):
            for r in by_ep[ep]:
                L.append(rec("INFO", tag, f"Epoch {ep + 1}/{c['epochs']}, Step {r['it'] + 1}/{spe}, Loss: {nan_str(r['loss'])}, "
                                          f"Acc: {r['acc']:.4f}, LR: {r['lr']:.6f}", n=c.get("log_every", 10)))
            if ep in vals:
                v = vals[ep]
                L.append(rec("INFO", tag, f"Epoch {ep + 1}/{c['epochs']} finished - Val Loss: {v['loss']:.4f}, Val Acc: {v['acc']:.4f}", 30))
    L = [rec("INFO", "__main__", f"args: Namespace(stage='float', epochs={fc['epochs']}, batch_size={fc.get('bs', 64)}, lr={fc['lr']}, "
                                 f"momentum=0.9, weight_decay=0.0005, scheduler='{fc.get('sched')}', device='cuda:0')"),
         rec("INFO", "__main__", "Using device cuda:0 (NVIDIA GeForce RTX 4090)")]
    train(F, fc, L, "trainer")
    L.append(rec("INFO", "trainer", f"saved checkpoints/float_best.pt"))
    write(P(root, names[0]), "\n".join(L) + "\n")
    clock.tick(0, extra=400)
    L = [rec("INFO", "__main__", "args: Namespace(stage='calibration', num_batches=%d, ckpt='checkpoints/float_best.pt')" % C["n_batches"]),
         rec("INFO", "quant", "model fused and prepared; fake quant disabled, observers enabled")]
    for i in range(0, C["n_batches"], 4):
        L.append(rec("INFO", "quant", f"calibration batch {i + 1}/{C['n_batches']}", 3))
    L.append(rec("INFO", "quant", f"Calibrated model - Val Loss: {C['val_loss']:.4f}, Val Acc: {C['val_acc']:.4f}", 30))
    write(P(root, names[1]), "\n".join(L) + "\n")
    clock.tick(0, extra=300)
    L = [rec("INFO", "__main__", f"args: Namespace(stage='qat', epochs={qc['epochs']}, batch_size={qc.get('bs', 64)}, lr={qc['lr']}, "
                                 f"momentum=0.9, weight_decay={qc.get('wd', 0.0005)}, ckpt='checkpoints/calibrated.pt', device='cuda:0')"),
         rec("INFO", "quant", "prepare_qat done; fake quant enabled, observers enabled")]
    train(Q, qc, L, "trainer")
    text = "\n".join(L) + "\n"
    if S.crash:
        text += S.traceback("/home/ci/qat_cls/train_qat.py")
    write(P(root, names[2]), text)
    if S.int8_final:
        il, ia = S.int8_final
        L = [rec("INFO", "__main__", "args: Namespace(stage='int8_eval', ckpt='checkpoints/qat_last.pt', backend='qnnpack')", 200),
             rec("INFO", "quant", "torch.ao.quantization.convert done"),
             rec("INFO", "quant", f"Quantized model - Test Loss: {il:.4f}, Test Acc: {ia:.4f}", 40)]
        write(P(root, names[3]), "\n".join(L) + "\n")


# =============================================================================================
# Chinese print logs
# =============================================================================================
def w_zh(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    enc = case["meta"].get("encoding", "utf-8")
    no_gpu = case["meta"].get("no_gpu")
    if cid == "c27_zh_cpu":
        names = ["1_浮点训练.txt", "2_校准.txt", "3_qat.txt", "4_int8测试.txt"]
    elif cid == "c26_zh_no_int8":
        names = ["浮点训练/log.txt", "校准/log.txt", "量化训练/log.txt", None]
    else:
        names = ["浮点/train.log", "校准/calib.log", "量化训练/train.log", "定点/eval.log"]
    dev = []
    if no_gpu:
        dev = ["/opt/conda/lib/python3.8/site-packages/torch/cuda/__init__.py:88: UserWarning: CUDA initialization: "
               "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from "
               "http://www.nvidia.com/Download/index.aspx (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:109.)",
               "  return torch._C._cuda_getDeviceCount() > 0",
               "torch.cuda.is_available(): False",
               "警告：未检测到可用的 GPU，将使用 CPU 训练（速度会很慢）",
               "使用设备: cpu"]
    else:
        dev = ["使用设备: cuda:0 (NVIDIA GeForce RTX 3090)"]

    def train(res, c, L):
        spe = spe_of(res)
        by_ep = {}
        for r in res["train"]:
            by_ep.setdefault(r["epoch"], []).append(r)
        vals = {v["epoch"]: v for v in res["val"]}
        for ep in sorted(by_ep):
            for r in by_ep[ep][1::2]:
                L.append(f"第 {ep + 1}/{c['epochs']} 轮 [{r['it'] + 1:>3}/{spe}] 损失: {nan_str(r['loss_avg'])} "
                         f"准确率: {100 * r['acc_avg']:.2f}% 学习率: {r['lr']:.5f}")
            v = vals[ep]
            L.append(f"第 {ep + 1} 轮结束 训练集平均损失: {res['epoch'][ep - res['epoch'][0]['epoch']]['loss']:.4f} | "
                     f"验证集 损失: {v['loss']:.4f} 准确率: {100 * v['acc']:.2f}%")
    L = ["==== 浮点模型训练 ====", *dev,
         f"参数: epochs={fc['epochs']} batch_size={fc.get('bs', 64)} lr={fc['lr']} 调度={fc.get('sched')} 优化器=SGD(momentum=0.9)"]
    train(F, fc, L)
    L.append(f"最佳验证集准确率: {100 * max(v['acc'] for v in F['val']):.2f}%，模型已保存到 ckpt/float_best.pth")
    write(P(root, names[0]), "\n".join(L) + "\n", enc)
    L = ["==== 校准（Calibration） ====", *dev[-1:], f"加载浮点模型 ckpt/float_best.pth，校准 batch 数: {C['n_batches']}"]
    for i in range(C["n_batches"]):
        L.append(f"校准进度 {i + 1}/{C['n_batches']}")
    L.append(f"校准后模型 验证集 损失: {C['val_loss']:.4f} 准确率: {100 * C['val_acc']:.2f}%")
    write(P(root, names[1]), "\n".join(L) + "\n", enc)
    L = ["==== 量化训练（QAT） ====", *dev[-1:], "加载校准模型 ckpt/calib.pth，prepare_qat 完成，伪量化已开启",
         f"参数: epochs={qc['epochs']} batch_size={qc.get('bs', 64)} lr={qc['lr']} 调度=固定学习率"]
    train(Q, qc, L)
    write(P(root, names[2]), "\n".join(L) + "\n", enc)
    if S.int8_final and names[3]:
        il, ia = S.int8_final
        L = ["==== 定点模型评测 ====", "convert 完成：QAT 模型已转换为定点（int8）模型",
             f"定点模型 验证集 损失: {il:.4f} 准确率: {100 * ia:.2f}%"]
        write(P(root, names[3]), "\n".join(L) + "\n", enc)


# =============================================================================================
# JSONL
# =============================================================================================
def w_jsonl(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    seed = S.cfg["seed"]
    t0 = start_time(seed).timestamp()
    if cid == "c28_jsonl_raw_int8":
        def dump(path, res, extra=None):
            out = []
            for r in res["train"]:
                out.append(jl({"step": r["gstep"], "epoch": r["epoch"], "train/loss": r["loss"], "train/acc": r["acc"], "lr": r["lr"]}))
            for v in res["val"]:
                out.append(jl({"step": v["gstep"], "epoch": v["epoch"], "val/loss": v["loss"], "val/acc": v["acc"], "val/top5": v["top5"]}))
            write(path, "\n".join(out) + "\n")
        dump(P(root, "metrics/float.jsonl"), F)
        write(P(root, "metrics/calib.jsonl"), jl({"step": 0, "calib/batches": C["n_batches"], "val/loss": C["val_loss"], "val/acc": C["val_acc"]}) + "\n")
        dump(P(root, "metrics/qat.jsonl"), Q)
        il, ia = S.int8_final
        write(P(root, "metrics/int8.jsonl"), jl({"step": 0, "quantized": True, "backend": "qnnpack", "val/loss": il, "val/acc": ia}) + "\n")
        write_json(P(root, "metrics/run_config.json"), {"float": {"lr": fc["lr"], "batch_size": 64, "epochs": fc["epochs"]},
                                                        "qat": {"lr": qc["lr"], "batch_size": 64, "epochs": qc["epochs"]}})
    else:
        def run(name, stage, res, c, extra_rows=()):
            d = P(root, "wandb", name, "files")
            out = []
            rt = 0.0
            for r in res["train"]:
                rt += 0.31
                out.append(jl({"train/loss": r["loss"], "train/acc": r["acc"], "trainer/lr": r["lr"], "epoch": r["epoch"],
                               "trainer/global_step": r["gstep"], "_step": len(out), "_runtime": round(rt, 3),
                               "_timestamp": round(t0 + rt, 3)}))
                if r["it"] + 10 >= spe_of(res):
                    v = [v for v in res["val"] if v["epoch"] == r["epoch"]]
                    if v:
                        v = v[0]
                        out.append(jl({"val/loss": v["loss"], "val/acc": v["acc"], "epoch": r["epoch"],
                                       "trainer/global_step": r["gstep"], "_step": len(out), "_runtime": round(rt + 0.8, 3),
                                       "_timestamp": round(t0 + rt + 0.8, 3)}))
            for x in extra_rows:
                out.append(jl(dict(x, _step=len(out))))
            write(P(d, "wandb-history.jsonl"), "\n".join(out) + "\n")
            write(P(d, "config.yaml"), f"wandb_version: 1\n\nstage:\n  desc: null\n  value: {stage}\nlr:\n  desc: null\n  value: {c['lr']}\n"
                                       f"batch_size:\n  desc: null\n  value: {c.get('bs', 64)}\nepochs:\n  desc: null\n  value: {c['epochs']}\n")
            last = res["val"][-1]
            write_json(P(d, "wandb-summary.json"), {"val/acc": last["acc"], "val/loss": last["loss"], "_step": len(out) - 1})
        ts = dt.datetime.fromtimestamp(t0).strftime("%Y%m%d_%H%M%S")
        run(f"run-{ts}-fp32a1b2", "fp32", F, fc)
        write_json(P(root, "wandb", f"run-{ts}-calib9x8z", "files", "wandb-summary.json"),
                   {"calib/val_acc": C["val_acc"], "calib/val_loss": C["val_loss"], "calib/batches": C["n_batches"], "_step": 0})
        write(P(root, "wandb", f"run-{ts}-calib9x8z", "files", "config.yaml"), "wandb_version: 1\n\nstage:\n  desc: null\n  value: calibration\n")
        il, ia = S.int8_final
        run(f"run-{ts}-qat7k3m", "qat", Q, qc, extra_rows=[{"int8/val_acc": ia, "int8/val_loss": il}])


# =============================================================================================
# tqdm progress lines
# =============================================================================================
def tqdm_bar(n, total, width=10):
    k = int(width * n / total)
    return "█" * k + ("▏" if False else " ") * (width - k)


def w_tqdm(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg

    def run(res, c, tag, cr=True, head=()):
        spe = spe_of(res)
        L = list(head)
        by_ep = {}
        for r in res["train"]:
            by_ep.setdefault(r["epoch"], []).append(r)
        vals = {v["epoch"]: v for v in res["val"]}
        for ep in sorted(by_ep):
            parts = []
            for r in by_ep[ep]:
                n = r["it"] + 1
                parts.append(f"{tag} epoch {ep + 1}/{c['epochs']}: {100 * n // spe:>3}%|{tqdm_bar(n, spe)}| {n}/{spe} "
                             f"[00:{int(n * 0.04):02d}<00:{int((spe - n) * 0.04):02d}, 24.91it/s, loss={nan_str(r['loss_avg'], '{:.3f}')}, "
                             f"acc={r['acc_avg']:.3f}, lr={r['lr']:.4g}]")
            parts.append(f"{tag} epoch {ep + 1}/{c['epochs']}: 100%|{tqdm_bar(spe, spe)}| {spe}/{spe} "
                         f"[00:{int(spe * 0.04):02d}<00:00, 24.91it/s, loss={nan_str(by_ep[ep][-1]['loss_avg'], '{:.3f}')}, "
                         f"acc={by_ep[ep][-1]['acc_avg']:.3f}, lr={by_ep[ep][-1]['lr']:.4g}]")
            L.append("\r".join(parts) if cr else parts[-1])
            v = vals[ep]
            L.append(f"[{tag}] epoch {ep + 1}: val_loss={v['loss']:.4f} val_acc={v['acc']:.4f}")
        return L
    if cid == "c30_tqdm_3bit":
        write(P(root, "train_fp32.out"), "\n".join(run(F, fc, "fp32", head=[f"config: lr={fc['lr']} bs=64 epochs={fc['epochs']} sched=cosine"])) + "\n")
        head = ["fake quant enabled: qconfig act=quint(0..7) weight=qint(-4..3) (3-bit), no calibration pass",
                f"config: lr={qc['lr']} bs=64 epochs={qc['epochs']}"]
        write(P(root, "train_qat.out"), "\n".join(run(Q, qc, "qat", head=head)) + "\n")
        il, ia = S.int8_final
        write(P(root, "eval_int8.out"), f"convert: 100%|██████████| 7/7 [00:00<00:00, 812.3it/s]\n"
                                        f"int8 eval: 100%|██████████| 4/4 [00:00<00:00, 19.5it/s, acc={ia:.4f}]\n[int8] val_loss={il:.4f} val_acc={ia:.4f}\n")
    else:
        B = R["big"]
        world = case["meta"]["big_world"]
        write(P(root, "float.txt"), "\n".join(run(F, fc, "float", cr=False, head=[f"world_size=1 batch_size=64 lr={fc['lr']} epochs={fc['epochs']}"])) + "\n")
        write(P(root, "calib.txt"), f"calibration: 100%|██████████| {C['n_batches']}/{C['n_batches']} [00:01<00:00, 10.02it/s]\n"
                                    f"[calib] val_loss={C['val_loss']:.4f} val_acc={C['val_acc']:.4f}\n")
        write(P(root, "qat_1gpu.txt"), "\n".join(run(Q, qc, "qat", cr=False, head=[f"world_size=1 per_device_batch=64 global_batch=64 lr={qc['lr']} epochs={qc['epochs']}"])) + "\n")
        il, ia = S.int8_final
        write(P(root, "int8_1gpu.txt"), f"[int8] val_loss={il:.4f} val_acc={ia:.4f}\n")
        write(P(root, f"qat_{world}gpu.txt"), "\n".join(run(B.Q, B.qcfg, "qat", cr=False,
                                                            head=[f"world_size={world} per_device_batch=64 global_batch={64 * world} lr={B.qcfg['lr']} epochs={B.qcfg['epochs']}"])) + "\n")
        il, ia = B.int8_final
        write(P(root, f"int8_{world}gpu.txt"), f"[int8] val_loss={il:.4f} val_acc={ia:.4f}\n")


# =============================================================================================
# torchvision references (MetricLogger; train_quantization.py flow)
# =============================================================================================
def tv_eval(v, L, header="Test:", bs=250):
    bl = v["batches"]
    n_seen, sl, sa, s5 = 0, 0.0, 0.0, 0.0
    for i, (n, l, a, a5) in enumerate(bl):
        n_seen += n
        sl += l * n
        sa += a * n
        s5 += a5 * n
        L.append(f"{header}  [{i}/{len(bl)}]  eta: 0:00:00  loss: {l:.4f} ({sl / n_seen:.4f})  acc1: {100 * a:.4f} ({100 * sa / n_seen:.4f})  "
                 f"acc5: {100 * a5:.4f} ({100 * s5 / n_seen:.4f})  time: 0.0412  data: 0.0102  max mem: 212")
    L.append(f"{header} Total time: 0:00:00")
    L.append(f"{header} Acc@1 {100 * v['acc']:.3f} Acc@5 {100 * v['top5']:.3f}")


def tv_train(res, L, c):
    spe = spe_of(res)
    by_ep = {}
    for r in res["train"]:
        by_ep.setdefault(r["epoch"], []).append(r)
    for ep in sorted(by_ep):
        for r in by_ep[ep]:
            L.append(f"Epoch: [{ep}]  [{r['it'] + 1:>2}/{spe}]  eta: 0:00:0{max(0, (spe - r['it']) // 25)}  lr: {r['lr']:.6g}  img/s: 2041.7  "
                     f"loss: {nan_str(r['loss'])} ({nan_str(r['loss_avg'])})  acc1: {100 * r['acc']:.4f} ({100 * r['acc_avg']:.4f})  "
                     f"time: 0.0313  data: 0.0042  max mem: 312")
        L.append(f"Epoch: [{ep}] Total time: 0:00:02")


def w_torchvision(root, cid, case, R):
    S = R["main"]
    F, C, Q, fc, qc = S.F, S.C, S.Q, S.fcfg, S.qcfg
    d = "float" if cid == "c32_tv_underfit" else "checkpoints/fp32"
    q = "qat" if cid == "c32_tv_underfit" else "checkpoints/qat"
    L = [f"Namespace(data_path='/data/blobs10', model='tinynet', device='cuda', batch_size={fc.get('bs', 64)}, epochs={fc['epochs']}, "
         f"workers=16, opt='sgd', lr={fc['lr']}, momentum=0.9, weight_decay=0.0005, lr_scheduler='{'cosineannealinglr' if fc.get('sched') == 'cosine' else 'constantlr'}', "
         f"print_freq=10, output_dir='{d}', distributed=False)", "Loading data", "Creating model", "Start training"]
    for ep in range(fc["epochs"]):
        tv_train({"train": [r for r in F["train"] if r["epoch"] == ep], "steps_per_epoch": spe_of(F)}, L, fc)
        tv_eval(F["val"][ep], L)
    L.append("Training time 0:00:%02d" % (3 * fc["epochs"]))
    write(P(root, d, "log.txt"), "\n".join(L) + "\n")
    L = [f"Namespace(data_path='/data/blobs10', model='tinynet', backend='qnnpack', device='cuda', batch_size={qc.get('bs', 64)}, "
         f"eval_batch_size=250, epochs={qc['epochs']}, workers=16, lr={qc['lr']}, momentum=0.9, weight_decay=0.0001, "
         f"lr_step_size=30, lr_gamma=0.1, print_freq=10, output_dir='{q}', num_observer_update_epochs=4, num_batch_norm_update_epochs=3, "
         f"num_calibration_batches={C['n_batches']}, weights='{d}/model_{fc['epochs'] - 1}.pth', distributed=False)",
         "Loading data", "Creating model tinynet", "Calibrating the model"]
    tv_eval({"batches": C["eval"]["batches"], "acc": C["val_acc"], "top5": C["eval"]["top5"]}, L, header="Test:")
    L.append("Starting training for epoch 0")
    for ep in range(qc["epochs"]):
        if ep > 0:
            L.append(f"Starting training for epoch {ep}")
        tv_train({"train": [r for r in Q["train"] if r["epoch"] == ep], "steps_per_epoch": spe_of(Q)}, L, qc)
        L.append("Evaluate QAT model")
        tv_eval(Q["val"][ep], L)
        L.append("Evaluate Quantized model")
        tv_eval(Q["int8"][ep], L, header="Test:")
    L.append("Training time 0:00:%02d" % (4 * qc["epochs"]))
    write(P(root, q, "log.txt"), "\n".join(L) + "\n")


WRITERS = {"mmengine": w_mmengine, "mmcv": w_mmcv, "lightning": w_lightning, "hf": w_hf, "timm": w_timm,
           "detectron2": w_detectron2, "yolov5": w_yolov5, "ultralytics": w_ultralytics, "keras": w_keras,
           "hat_onefile": w_hat_onefile, "hat_files": w_hat_files, "pylogging": w_pylogging, "zh_print": w_zh,
           "jsonl": w_jsonl, "tqdm": w_tqdm, "torchvision": w_torchvision}
