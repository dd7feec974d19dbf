"""TensorBoard-only, Keras-style, Python logging and plain-print layout cases."""
import copy
import math
import os

import torch

import engine as E
from casekit import (std_pipeline, healthy_pipeline, check_healthy, numbers, entry, need, case_dir, FLOAT_KW, QAT_KW,
                     float_end_loss, qat_start_loss)
from common import Clock, write, hms, fnum, mean, epoch_steps, epochs_of
from writers import tb_write, keras_epoch_line

# ============================================================= TensorBoard ==
TB = "tensorboard"


def _tb_scalars(R, sec_per_iter, t0=0.0, prefix="", int8=None, lr_tag="train/lr", every=1):
    out = []
    t = t0
    ev = {e["epoch"]: e for e in R["evals"]}
    i8 = {e["epoch"]: e for e in (int8 or [])}
    for s in R["steps"]:
        t += sec_per_iter
        if s["gstep"] % every == 0:
            out.append((prefix + "train/loss", s["loss"], s["gstep"], t))
            out.append((prefix + lr_tag, s["lr"], s["gstep"], t))
        if s["iter"] == R["iters"] and s["epoch"] in ev:
            e = ev[s["epoch"]]
            t += 1.5
            out.append((prefix + "val/loss", e["loss"], s["epoch"], t))
            out.append((prefix + "val/acc1", e["acc1"], s["epoch"], t))
            out.append((prefix + "val/acc5", e["acc5"], s["epoch"], t))
            if s["epoch"] in i8:
                t += 4.0
                out.append((prefix + "int8/acc1", i8[s["epoch"]]["acc1"], s["epoch"], t))
                out.append((prefix + "int8/loss", i8[s["epoch"]]["loss"], s["epoch"], t))
    return out


def c24_tb_float_inf_weight():
    cid = "c24_tb_float_inf_weight"
    root = case_dir(cid)
    d = E.Data(seed=101)
    m = E.make_model(101)
    # the "pretrained" backbone came from an fp16 export: one dw3 weight overflowed to inf
    with torch.no_grad():
        m.dw3.weight[7, 0, 1, 1] = float("inf")
    R = E.train(m, d, epochs=2, bs=64, lr=0.05, sched="cos", total_epochs=12)
    losses = [s["loss"] for s in R["steps"]]
    need(all(not math.isfinite(x) for x in losses), "loss should be non-finite from the start")
    need(R["evals"][-1]["acc1"] < 15, "accuracy should be at chance")
    clk = Clock("2024-10-02 15:30:00", 101)
    tb_write(os.path.join(root, "runs", "float_ft_from_fp16_ckpt"), clk, _tb_scalars(R, 0.08), host="dgx-a100-03",
             pid=48211)
    write(os.path.join(root, "runs", "float_ft_from_fp16_ckpt", "cmd.txt"),
          "python train_float.py --init ckpt/backbone_fp16_export.pth --epochs 12 --lr 0.05 --logdir runs/float_ft_from_fp16_ckpt\n")
    return entry(cid, TB, "TensorBoard event file only: a float fine-tune initialised from a backbone exported in "
                 "fp16 where one weight overflowed to inf. Every logged train/loss is NaN from the first step, "
                 "val/loss NaN and val/acc1 at chance; the user stopped it after 2 epochs.", False,
                 ["loss.nonfinite"],
                 {"float.not_converged": "consequence: the float run never produces a finite loss and stays at chance"},
                 dict(float_top1=round(R["evals"][-1]["acc1"], 2), float_val_loss=str(R["evals"][-1]["loss"]),
                      first_loss=str(losses[0]), epochs_logged=2))


def c25_tb_pipeline_healthy():
    cid = "c25_tb_pipeline_healthy"
    root = case_dir(cid)

    def warm_peak(e, peak=1.5, wu=1.0, base=0.1, total=12):
        if e < wu:
            return peak * (0.02 + 0.98 * e / wu)
        return 0.5 * base * (1 + math.cos(math.pi * (e - wu) / (total - wu)))

    p = healthy_pipeline([91, 191, 291, 391], float_kw=dict(lr_fn=warm_peak))
    f = p.res["float"]
    L = [s["loss"] for s in f["steps"]]
    w = [mean(L[i:i + 6]) for i in range(0, 120, 6)]
    lo = min(w[:8])
    need(max(w[8:14]) > lo * 1.25, "no visible warm-up spike: %s" % [round(x, 2) for x in w])
    clk = Clock("2024-10-14 20:05:00", 91)
    tb_write(os.path.join(root, "runs", "float"), clk, _tb_scalars(f, 0.09), host="ws-lab-12", pid=7781)
    clk.tick(3600)
    c = p.res["calib"]["final"]
    tb_write(os.path.join(root, "runs", "calib"), clk,
             [("calib/acc1", c["acc1"], 0, 5.0), ("calib/loss", c["loss"], 0, 5.0), ("calib/acc5", c["acc5"], 0, 5.0)],
             host="ws-lab-12", pid=9120)
    clk.tick(600)
    q = p.res["qat"]
    tb_write(os.path.join(root, "runs", "qat"), clk, _tb_scalars(q, 0.16, int8=q["int8_evals"]), host="ws-lab-12",
             pid=9544)
    return entry(cid, TB, "Healthy pipeline logged only as TensorBoard event files (runs/float, runs/calib, "
                 "runs/qat with int8/acc1 per epoch). The float run warms the lr up to 1.5 over the first epoch: the "
                 "loss spikes at the top of the warm-up and then falls normally.", True, [], {},
                 numbers(p, dict(float_warmup_peak_lr=1.5,
                                 float_loss_6step_means_first_120=[round(x, 3) for x in w])))


# =================================================================== Keras ==
KERAS = "keras_fit"


def _keras_fit(R, sec_per_epoch, acc_key="accuracy", total_epochs=None):
    lines = []
    n = total_epochs or len(R["evals"])
    for e in R["evals"]:
        ep = e["epoch"]
        es = epoch_steps(R["steps"], ep)
        lines.append("Epoch %d/%d" % (ep + 1, n))
        ms = sec_per_epoch * 1000 / R["iters"]
        lines.append(keras_epoch_line(R["iters"], sec_per_epoch, ms,
                                      [("loss", e["train_loss"]), (acc_key, e["train_acc"] / 100.0),
                                       ("val_loss", e["loss"]), ("val_" + acc_key, e["acc1"] / 100.0)]))
    return lines


def c26_keras_float_overfit():
    cid = "c26_keras_float_overfit"
    root = case_dir(cid)
    p = E.Pipeline(data_seed=3, model_seed=3, width=24, n_train=320, hidden=256)
    p.run_float(epochs=60, bs=32, lr=0.05, sched="const", augment=False, wd=0.0)
    f = p.res["float"]
    ev = f["evals"]
    need(ev[-1]["train_acc"] - ev[-1]["acc1"] >= 30, "no big train/val gap")
    vl = [e["loss"] for e in ev]
    need(vl[-1] > min(vl) * 1.3, "val loss should rise from its minimum")
    lines = ["Model: \"mbv2_tiny_wide\"", "Total params: 72,090", "Trainable params: 72,090",
             "Non-trainable params: 0", "",
             "Train on 320 samples, validate on 1000 samples"]
    lines += _keras_fit(f, 0.3)
    lines.append("32/32 [==============================] - 0s 2ms/step - loss: %.4f - accuracy: %.4f"
                 % (ev[-1]["loss"], ev[-1]["acc1"] / 100.0))
    lines.append("Test accuracy: %r" % (ev[-1]["acc1"] / 100.0))
    write(os.path.join(root, "float_train.log"), "\n".join(lines) + "\n")
    return entry(cid, KERAS, "Keras-style fit log of a float model trained on only 320 images with a 256-unit hidden "
                 "layer, no augmentation and no weight decay for 60 epochs: training accuracy reaches 1.0 while "
                 "val_accuracy stalls near 0.5 and val_loss climbs after its minimum.", False, ["float.overfit"], {},
                 dict(float_train_acc_end=round(ev[-1]["train_acc"], 2), float_top1=round(ev[-1]["acc1"], 2),
                      float_val_loss_min=round(min(vl), 4), float_val_loss_end=round(vl[-1], 4),
                      train_samples=320))


def c27_keras_pipeline_healthy():
    cid = "c27_keras_pipeline_healthy"
    root = case_dir(cid)
    p = healthy_pipeline([111, 211, 311, 411])
    f, c, q = p.res["float"], p.res["calib"]["final"], p.res["qat"]
    lines = ["Stage: float", "Train on 4000 samples, validate on 1000 samples"] + _keras_fit(f, 1.2)
    write(os.path.join(root, "logs", "01_float_fit.log"), "\n".join(lines) + "\n")
    lines = ["Stage: calibration (post-training quantization, 16 batches)", "Evaluating the calibrated model:",
             "5/5 [==============================] - 1s 141ms/step - loss: %.4f - accuracy: %.4f" % (c["loss"], c["acc1"] / 100.0)]
    write(os.path.join(root, "logs", "02_calibration.log"), "\n".join(lines) + "\n")
    i8 = q["int8_final"]
    lines = ["Stage: QAT", "Train on 4000 samples, validate on 1000 samples"] + _keras_fit(q, 2.1)
    lines += ["Converting QAT model to int8 (qnnpack) ...", "Evaluating the int8 model:",
              "5/5 [==============================] - 2s 388ms/step - loss: %.4f - accuracy: %.4f" % (i8["loss"], i8["acc1"] / 100.0)]
    write(os.path.join(root, "logs", "03_qat_fit.log"), "\n".join(lines) + "\n")
    return entry(cid, KERAS, "Healthy pipeline in Keras-style fit output (Epoch i/N then 62/62 [====] - loss - accuracy - "
                 "val_loss - val_accuracy), a calibration evaluate() line and the int8 evaluate() after QAT, one "
                 "file per stage.", True, [], {}, numbers(p))


# ========================================================== Python logging ==
PYLOG = "python_logging"


def _pl(clock, msg, level="INFO", name="train"):
    return "%s - %s - %s - %s" % (clock.ms(), name, level, msg)


def _pylog_train(R, clock, total_epochs, name="train", log_every=20, sec_per_iter=0.1, step_offset=0,
                 step_label="iter", int8=None, tag=""):
    out = []
    ev = {e["epoch"]: e for e in R["evals"]}
    i8 = {e["epoch"]: e for e in (int8 or [])}
    k = 0
    for s in R["steps"]:
        clock.tick(sec_per_iter)
        k += 1
        if s["iter"] % log_every == 0 or s["iter"] == 1:
            out.append(_pl(clock, "%sEpoch [%d/%d] %s %d  loss: %s  lr: %.6f" % (tag, s["epoch"] + 1, total_epochs,
                                                                                step_label, k + step_offset,
                                                                                fnum(s["loss"]), s["lr"]), name=name))
        if s["iter"] == R["iters"] and s["epoch"] in ev:
            e = ev[s["epoch"]]
            clock.tick(1.4)
            out.append(_pl(clock, "%s[val] epoch %d  loss: %s  acc@1: %.2f%%  acc@5: %.2f%%"
                           % (tag, s["epoch"] + 1, fnum(e["loss"]), e["acc1"], e["acc5"]), name=name))
            if s["epoch"] in i8:
                clock.tick(4.0)
                out.append(_pl(clock, "%s[val-int8] epoch %d  loss: %s  acc@1: %.2f%%  acc@5: %.2f%%"
                               % (tag, s["epoch"] + 1, fnum(i8[s["epoch"]]["loss"]), i8[s["epoch"]]["acc1"],
                                  i8[s["epoch"]]["acc5"]), name=name))
    return out


def _pylog_head(clock, stage, args, name="train"):
    return [_pl(clock, "==== %s ====" % stage, name=name), _pl(clock, "args: %s" % args, name=name),
            _pl(clock, "device: cuda:0 (NVIDIA GeForce RTX 3090), torch 1.13.1+cu117", name=name)]


def _calib_lines(clock, c, n_batches=16, name="calib", extra=()):
    out = [_pl(clock, "==== calibration ====", name=name),
           _pl(clock, "prepare_qat(fused, qconfig=qnnpack); observers on, fake-quant off", name=name)]
    out += [_pl(clock, m, name=name) for m in extra]
    for i in range(0, n_batches, 4):
        clock.tick(0.8)
        out.append(_pl(clock, "calib batch %d/%d" % (i + 4, n_batches), name=name))
    clock.tick(2.0)
    out.append(_pl(clock, "Calibration finished: %d images" % (n_batches * 64), name=name))
    out.append(_pl(clock, "Calibrated model (fake-quant) accuracy: acc@1 %.2f%%  acc@5 %.2f%%  loss %.4f"
                   % (c["acc1"], c["acc5"], c["loss"]), name=name))
    return out


def c28_pylog_resume_restart():
    cid = "c28_pylog_resume_restart"
    root = case_dir(cid)
    d = E.Data(seed=121)
    m = E.make_model(121)
    opt = E.make_optimizer(m.parameters(), "sgd", 0.1, 0.9, 5e-4)
    r1 = E.train(m, d, epochs=6, lr=0.1, sched="cos", total_epochs=12, optimizer=opt, seed=1)
    ck_m, ck_o = copy.deepcopy(m), copy.deepcopy(opt.state_dict())
    # the job keeps running into epoch 7 and is preempted after 37 iterations
    r_lost = E.train(m, d, epochs=1, lr=0.1, sched="cos", total_epochs=12, optimizer=opt, start_epoch=6,
                     stop_after_steps=6 * 62 + 37, seed=2)
    # resumed from the end-of-epoch-6 checkpoint in a new process
    m2 = ck_m
    opt2 = E.make_optimizer(m2.parameters(), "sgd", 0.1, 0.9, 5e-4)
    opt2.load_state_dict(ck_o)
    r2 = E.train(m2, d, epochs=6, lr=0.1, sched="cos", total_epochs=12, optimizer=opt2, start_epoch=6, seed=3)
    acc = [e["acc1"] for e in r1["evals"] + r2["evals"]]
    need(max(acc[-3:]) - min(acc[-3:]) <= 1.6, "float not converged: %s" % acc)
    # calibration + QAT from the final float model
    p = E.Pipeline(data_seed=121, model_seed=121)
    p.data = d
    p.float_model = m2
    p.res["float"] = dict(steps=r1["steps"] + r2["steps"], evals=r1["evals"] + r2["evals"], iters=62,
                          final=r2["evals"][-1])
    p.run_calib()
    p.run_qat(**QAT_KW)
    check_healthy(p)
    clk = Clock("2024-11-04 21:00:00", 121)
    args = "Namespace(arch='mbv2_tiny', epochs=12, batch_size=64, lr=0.1, wd=0.0005, resume=None, out='ckpt/float')"
    lines = _pylog_head(clk, "float training", args)
    lines += _pylog_train(r1, clk, 12, sec_per_iter=0.12)
    lines.append(_pl(clk, "saved ckpt/float/epoch_6.pth"))
    lost = [s for s in r_lost["steps"]]
    k = len(r1["steps"])
    for s in lost:
        clk.tick(0.12)
        k += 1
        if s["iter"] % 20 == 0:
            lines.append(_pl(clk, "Epoch [%d/12] iter %d  loss: %s  lr: %.6f" % (s["epoch"] + 1, k, fnum(s["loss"]), s["lr"])))
    clk.tick(3.0)
    lines.append("slurmstepd: error: *** JOB 4471823 ON gpu-node-07 CANCELLED AT %s DUE TO PREEMPTION ***"
                 % clk.fmt("%Y-%m-%dT%H:%M:%S"))
    clk.tick(2400)
    args2 = args.replace("resume=None", "resume='ckpt/float/epoch_6.pth'")
    lines += _pylog_head(clk, "float training", args2)
    lines.append(_pl(clk, "resumed from ckpt/float/epoch_6.pth: epoch 6, optimizer and scheduler state restored"))
    lines += _pylog_train(r2, clk, 12, sec_per_iter=0.12)
    lines.append(_pl(clk, "saved ckpt/float/epoch_12.pth"))
    lines.append(_pl(clk, "training finished, best acc@1 %.2f%%" % max(acc)))
    write(os.path.join(root, "logs", "float_train.log"), "\n".join(lines) + "\n")
    clk.tick(1200)
    write(os.path.join(root, "logs", "calibration.log"), "\n".join(_calib_lines(clk, p.res["calib"]["final"])) + "\n")
    clk.tick(600)
    q = p.res["qat"]
    lines = _pylog_head(clk, "QAT", "Namespace(arch='mbv2_tiny', epochs=3, batch_size=64, lr=0.005, wd=5e-05, "
                        "init='ckpt/calib/calibrated.pth', backend='qnnpack')", name="qat")
    lines += _pylog_train(q, clk, 3, name="qat", sec_per_iter=0.2, int8=q["int8_evals"])
    write(os.path.join(root, "logs", "qat_train.log"), "\n".join(lines) + "\n")
    return entry(cid, PYLOG, "Python-logging float run preempted by Slurm in epoch 7 and resumed (same file, new "
                 "header) from the epoch-6 checkpoint: the epoch counter continues at 7 but the iteration counter "
                 "restarts from 1 and the partial epoch 7 is trained again. Calibration and QAT (with [val-int8] "
                 "lines) follow. Healthy.", True, [], {},
                 numbers(p, dict(float_top1_per_epoch=[round(a, 2) for a in acc], preempted_after_iter=6 * 62 + 37)))


def c29_pylog_qat_divergence():
    cid = "c29_pylog_qat_divergence"
    root = case_dir(cid)
    p = std_pipeline(122, 122, qat_kw=dict(opt="adam", lr=0.3, wd=0.0, sched="const", epochs=2))
    q = p.res["qat"]
    L = [s["loss"] for s in q["steps"]]
    need(L[0] < 3.0 and max(L) > 50 * max(L[0], 0.5), "no explosion: %s" % L[:10])
    clk = Clock("2024-11-20 10:00:00", 122)
    lines = _pylog_head(clk, "float training", "Namespace(arch='mbv2_tiny', epochs=12, batch_size=64, opt='sgd', lr=0.1, wd=0.0005)")
    lines += _pylog_train(p.res["float"], clk, 12)
    write(os.path.join(root, "float.log"), "\n".join(lines) + "\n")
    clk.tick(900)
    write(os.path.join(root, "calib.log"), "\n".join(_calib_lines(clk, p.res["calib"]["final"])) + "\n")
    clk.tick(300)
    lines = _pylog_head(clk, "QAT", "Namespace(arch='mbv2_tiny', epochs=2, batch_size=64, opt='adam', lr=0.3, wd=0.0, "
                        "init='calib/calibrated.pth', backend='qnnpack')", name="qat")
    lines += _pylog_train(q, clk, 2, name="qat", log_every=4, sec_per_iter=0.2, int8=q["int8_evals"])
    write(os.path.join(root, "qat.log"), "\n".join(lines) + "\n")
    return entry(cid, PYLOG, "Python-logging QAT that switched to Adam but kept the SGD learning rate (lr=0.3): the "
                 "loss starts near float's value and then grows without bound (tens, then hundreds), QAT and int8 "
                 "accuracy fall to chance.", False, ["loss.divergence"],
                 {"qat.worse_than_calibration": "consequence: the diverged QAT model ends at chance",
                  "qat.start_loss_high": "the loss is already climbing within the first logged steps",
                  "qat.trend_mismatch": "consequence: the QAT loss rises while float's fell",
                  "loss.nonfinite": "a diverging run may overflow",
                  "train.aggressive_lr_schedule": "lr=0.3 for Adam in QAT is itself far too aggressive"},
                 numbers(p, dict(qat_loss_first=round(L[0], 4), qat_loss_max=round(max(L), 2))))


def c30_pylog_calib_unnormalised():
    cid = "c30_pylog_calib_unnormalised"
    root = case_dir(cid)
    p = std_pipeline(123, 123, calib_kw=dict(pre=lambda x: (x - E.MEAN) / 0.5), skip_qat=True)
    f, c = p.res["float"]["final"]["acc1"], p.res["calib"]["final"]["acc1"]
    need(f - c >= 10, "calibration not clearly low")
    clk = Clock("2024-12-02 09:15:00", 123)
    lines = _pylog_head(clk, "float training", "Namespace(arch='mbv2_tiny', epochs=12, batch_size=64, lr=0.1, wd=0.0005)")
    lines += _pylog_train(p.res["float"], clk, 12)
    write(os.path.join(root, "float.log"), "\n".join(lines) + "\n")
    clk.tick(1000)
    extra = ["calibration loader: CalibFolder(root=/data/synth10/calib, transform=Compose(ToTensor(), "
             "Normalize(mean=(0.5,), std=(0.5,))))"]
    write(os.path.join(root, "calib.log"), "\n".join(_calib_lines(clk, p.res["calib"]["final"], extra=extra)) + "\n")
    return entry(cid, PYLOG, "Python-logging float run and calibration run; the calibration loader normalises with "
                 "std=0.5 instead of the training std 0.25, so the observers record half-width ranges and the "
                 "calibrated model's accuracy is far below float. The user stopped before QAT.", False,
                 ["calib.low_accuracy"], {}, numbers(p))


def c31_pylog_chinese_stages():
    cid = "c31_pylog_chinese_stages"
    root = case_dir(cid)
    p = healthy_pipeline([124, 224, 324, 424])
    clk = Clock("2025-01-06 08:30:00", 124)
    f, c, q = p.res["float"], p.res["calib"]["final"], p.res["qat"]
    L = []
    L.append(_pl(clk, "========== 阶段一：浮点训练 (float) =========="))
    L.append(_pl(clk, "参数: epochs=12 batch_size=64 lr=0.1 weight_decay=0.0005"))
    ev = {e["epoch"]: e for e in f["evals"]}
    for s in f["steps"]:
        clk.tick(0.1)
        if s["iter"] % 20 == 0:
            L.append(_pl(clk, "浮点训练 第%d/12轮 迭代 %d/%d  损失 loss=%s  学习率 lr=%.6f"
                          % (s["epoch"] + 1, s["iter"], f["iters"], fnum(s["loss"]), s["lr"])))
        if s["iter"] == f["iters"]:
            e = ev[s["epoch"]]
            clk.tick(1.5)
            L.append(_pl(clk, "浮点模型验证 第%d轮: 准确率 top1=%.2f%% top5=%.2f%% 验证损失 val_loss=%.4f"
                          % (s["epoch"] + 1, e["acc1"], e["acc5"], e["loss"])))
    L.append(_pl(clk, "浮点训练完成，保存 float_best.pth"))
    clk.tick(600)
    L.append(_pl(clk, "========== 阶段二：校准 (calibration) =========="))
    L.append(_pl(clk, "校准数据: 16 个 batch，每个 batch 64 张图"))
    clk.tick(12)
    L.append(_pl(clk, "校准完成，伪量化模型验证: 准确率 top1=%.2f%% top5=%.2f%% 验证损失 val_loss=%.4f"
                  % (c["acc1"], c["acc5"], c["loss"])))
    clk.tick(300)
    L.append(_pl(clk, "========== 阶段三：量化训练 (QAT) =========="))
    L.append(_pl(clk, "加载校准模型 calib.pth，lr=0.005 epochs=3"))
    ev = {e["epoch"]: e for e in q["evals"]}
    i8 = {e["epoch"]: e for e in q["int8_evals"]}
    for s in q["steps"]:
        clk.tick(0.2)
        if s["iter"] % 20 == 0:
            L.append(_pl(clk, "量化训练 第%d/3轮 迭代 %d/%d  损失 loss=%s  学习率 lr=%.6f"
                          % (s["epoch"] + 1, s["iter"], q["iters"], fnum(s["loss"]), s["lr"])))
        if s["iter"] == q["iters"]:
            e = ev[s["epoch"]]
            clk.tick(1.5)
            L.append(_pl(clk, "QAT 模型验证 第%d轮: 准确率 top1=%.2f%% top5=%.2f%% 验证损失 val_loss=%.4f"
                          % (s["epoch"] + 1, e["acc1"], e["acc5"], e["loss"])))
            clk.tick(4.0)
            L.append(_pl(clk, "定点模型 (quantized, int8) 验证 第%d轮: 准确率 top1=%.2f%% top5=%.2f%% 验证损失 val_loss=%.4f"
                          % (s["epoch"] + 1, i8[s["epoch"]]["acc1"], i8[s["epoch"]]["acc5"], i8[s["epoch"]]["loss"])))
    L.append(_pl(clk, "全部阶段完成"))
    write(os.path.join(root, "train.log"), "\n".join(L) + "\n")
    return entry(cid, PYLOG, "One Python-logging file with all stages, whose lines are written in Chinese "
                 "(阶段一：浮点训练 / 阶段二：校准 / 阶段三：量化训练 (QAT) / 定点模型 (quantized, int8) 验证). Healthy.",
                 True, [], {}, numbers(p))


def c32_pylog_onecycle_qat():
    cid = "c32_pylog_onecycle_qat"
    root = case_dir(cid)
    p = std_pipeline(125, 125, qat_kw=dict(epochs=4, lr=0.4, max_lr=0.4, sched="onecycle"))
    q = p.res["qat"]
    lrs = [s["lr"] for s in q["steps"]]
    need(max(lrs) >= 0.35 and max(lrs) / lrs[0] > 10, "lr does not ramp")
    clk = Clock("2025-01-20 13:00:00", 125)
    lines = _pylog_head(clk, "float training", "Namespace(arch='mbv2_tiny', epochs=12, batch_size=64, lr=0.1, "
                        "scheduler='cosine', wd=0.0005)")
    lines += _pylog_train(p.res["float"], clk, 12)
    write(os.path.join(root, "float.log"), "\n".join(lines) + "\n")
    clk.tick(900)
    write(os.path.join(root, "calib.log"), "\n".join(_calib_lines(clk, p.res["calib"]["final"])) + "\n")
    clk.tick(300)
    lines = _pylog_head(clk, "QAT", "Namespace(arch='mbv2_tiny', epochs=4, batch_size=64, opt='sgd', lr=0.4, "
                        "scheduler='onecycle', pct_start=0.3, div_factor=25.0, final_div_factor=10000.0, wd=5e-05, "
                        "init='calib/calibrated.pth', backend='qnnpack')", name="qat")
    lines.append(_pl(clk, "scheduler: OneCycleLR(max_lr=0.4, total_steps=%d)" % len(q["steps"]), name="qat"))
    lines += _pylog_train(q, clk, 4, name="qat", log_every=10, sec_per_iter=0.2, int8=q["int8_evals"])
    write(os.path.join(root, "qat.log"), "\n".join(lines) + "\n")
    return entry(cid, PYLOG, "Python-logging QAT that reuses a OneCycle schedule with max_lr=0.4 (4x the float run's "
                 "peak lr): the lr ramps from 0.016 to 0.4 during QAT, accuracy drops mid-run and only recovers as "
                 "the cycle anneals.", False, ["train.aggressive_lr_schedule"],
                 {"qat.worse_than_calibration": "mid-run QAT evaluations fall well below calibration while the lr is high",
                  "qat.trend_mismatch": "the QAT loss rises while the lr ramps up",
                  "loss.divergence": "the QAT loss climbs while the lr ramps up to 0.4"},
                 numbers(p, dict(qat_lr_max=round(max(lrs), 4), qat_lr_first=round(lrs[0], 5),
                                 qat_top1_per_epoch=[round(e["acc1"], 2) for e in q["evals"]])))


# ============================================================ plain prints ==
PLAIN = "plain_print"


def _plain_train(R, total_epochs, log_every=20, int8=None, int8_style=None, tag=""):
    out = []
    ev = {e["epoch"]: e for e in R["evals"]}
    i8 = {e["epoch"]: e for e in (int8 or [])}
    for s in R["steps"]:
        if s["iter"] % log_every == 0:
            out.append("%sepoch %d/%d iter %d/%d loss %s lr %.5f" % (tag, s["epoch"] + 1, total_epochs, s["iter"],
                                                                    R["iters"], fnum(s["loss"]), s["lr"]))
        if s["iter"] == R["iters"] and s["epoch"] in ev:
            e = ev[s["epoch"]]
            out.append("==> epoch %d  val_loss=%s  val_acc=%.2f  (train_acc=%.2f)" % (s["epoch"] + 1, fnum(e["loss"]),
                                                                                     e["acc1"], e["train_acc"]))
            if s["epoch"] in i8:
                x = i8[s["epoch"]]
                if int8_style == "qnnpack":
                    out.append("    int8 (qnnpack) val_loss=%.4f val_acc=%.2f" % (x["loss"], x["acc1"]))
                elif int8_style == "bracket":
                    out.append("[int8] val_acc=%.2f" % x["acc1"])
    return out


def c33_plain_float_nan_sample():
    cid = "c33_plain_float_nan_sample"
    root = case_dir(cid)
    d = E.Data(seed=131)
    m = E.make_model(131)
    R = E.train(m, d, epochs=5, bs=64, lr=0.1, sched="cos", total_epochs=12, nan_sample_at_step=2 * 62 + 17)
    L = [s["loss"] for s in R["steps"]]
    k = next(i for i, x in enumerate(L) if not math.isfinite(x))
    need(all(math.isfinite(x) for x in L[:k]) and all(not math.isfinite(x) for x in L[k:]), "NaN pattern")
    need(R["evals"][1]["acc1"] > 60 and R["evals"][-1]["acc1"] < 15, "accuracy pattern")
    lines = ["python train_float.py --epochs 12 --bs 64 --lr 0.1 --data /data/synth10_v2",
             "loaded 4000 train / 1000 val images from /data/synth10_v2"]
    lines += _plain_train(R, 12)
    lines.append("^C")
    lines.append("KeyboardInterrupt")
    write(os.path.join(root, "float_train.txt"), "\n".join(lines) + "\n")
    return entry(cid, PLAIN, "Plain-print float training on a re-exported dataset in which one image has a NaN "
                 "pixel: in epoch 3 the loss turns nan and stays nan (weights are NaN from then on), val_loss nan, "
                 "val_acc at chance; the user interrupts after epoch 5.", False, ["loss.nonfinite"],
                 {"float.not_converged": "consequence: after the NaN the float model is at chance",
                  "run.crashed": "the user interrupted with Ctrl-C (KeyboardInterrupt is printed)"},
                 dict(first_nan_step=R["steps"][k]["gstep"], float_top1_before_nan=round(R["evals"][1]["acc1"], 2),
                      float_top1_end=round(R["evals"][-1]["acc1"], 2)))


def _plain_pipeline(p, root, qat_name="qat_train.txt", int8_style=None, qat_dir="", float_dir="", calib_dir="",
                    int8=True):
    f, c, q = p.res["float"], p.res["calib"]["final"], p.res["qat"]
    lines = ["python train_float.py --epochs 12 --bs 64 --lr 0.1"] + _plain_train(f, 12)
    lines.append("best val_acc %.2f, saved float.pth" % max(e["acc1"] for e in f["evals"]))
    write(os.path.join(root, float_dir, "float_train.txt"), "\n".join(lines) + "\n")
    lines = ["python calibrate.py --ckpt float.pth --batches 16",
             "prepared with qnnpack qconfig, running 16 calibration batches",
             "calibration done",
             "calibrated model: val_loss=%.4f val_acc=%.2f" % (c["loss"], c["acc1"])]
    write(os.path.join(root, calib_dir, "calib.txt"), "\n".join(lines) + "\n")
    lines = ["python train_qat.py --ckpt calib.pth --epochs 3 --lr 0.005"]
    lines += _plain_train(q, 3, int8=q["int8_evals"] if int8 else None, int8_style=int8_style)
    write(os.path.join(root, qat_dir, qat_name), "\n".join(lines) + "\n")


def c34_plain_qat_no_int8():
    cid = "c34_plain_qat_no_int8"
    root = case_dir(cid)
    p = healthy_pipeline([132, 232, 332, 432], qat_kw=dict(int8_each_epoch=False))
    _plain_pipeline(p, root, int8=False)
    return entry(cid, PLAIN, "Plain-print float, calibration and QAT logs; the QAT script only ever evaluates the "
                 "fake-quant QAT model, the converted (quantized) model is never evaluated.", False,
                 ["qat.no_quantized_eval"], {}, numbers(p))


def c35_plain_int8_inline_healthy():
    cid = "c35_plain_int8_inline_healthy"
    root = case_dir(cid)
    p = healthy_pipeline([133, 233, 333, 433])
    _plain_pipeline(p, root, int8_style="qnnpack")
    # the final summary uses the other short form
    with open(os.path.join(root, "qat_train.txt"), "a") as fh:
        fh.write("[int8] val_acc=%.2f\n" % p.res["qat"]["int8_final"]["acc1"])
        fh.write("[qat] val_acc=%.2f\n" % p.res["qat"]["final"]["acc1"])
    return entry(cid, PLAIN, "Healthy plain-print pipeline; the QAT log carries the converted model's results "
                 "inline as '    int8 (qnnpack) val_loss=... val_acc=...' after each epoch and a final "
                 "'[int8] val_acc=...' summary line.", True, [], {}, numbers(p))


def c36_plain_misleading_folders():
    cid = "c36_plain_misleading_folders"
    root = case_dir(cid)
    p = healthy_pipeline([134, 234, 334, 434])
    _plain_pipeline(p, root, int8_style="bracket", float_dir="A_baseline", calib_dir="exp_float_fc",
                    qat_dir="B_head_fp32_output")
    write(os.path.join(root, "NOTES.md"),
          "- A_baseline: float pretraining\n- exp_float_fc: calibration of the model whose fc stays float (fc excluded from quantization in the qconfig)\n"
          "- B_head_fp32_output: QAT of that model, head outputs fp32 (high-precision output)\n")
    return entry(cid, PLAIN, "Healthy plain-print pipeline stored in folders whose names mislead: the float run is "
                 "in A_baseline/, the calibration in exp_float_fc/ and the QAT run (with '[int8] val_acc=' lines) "
                 "in B_head_fp32_output/.", True, [], {}, numbers(p))


# ===================================================== pytorch/examples ==
EXAMPLES = "pytorch_examples"


def c37_examples_float_first_epoch():
    cid = "c37_examples_float_first_epoch"
    root = case_dir(cid)
    p = E.Pipeline(data_seed=141, model_seed=141)
    p.run_float(epochs=1, bs=64, lr=0.1, sched="const", stop_after_steps=27)
    f = p.res["float"]
    L = [s["loss"] for s in f["steps"]]
    need(mean(L[-5:]) < mean(L[:5]) - 0.4, "loss not still falling steeply")
    p.run_calib()
    p.run_qat(**QAT_KW)
    q = p.res["qat"]
    need(q["final"]["acc1"] > p.res["calib"]["final"]["acc1"] + 5, "QAT should keep learning")
    lines = []
    n = 4000
    for s in f["steps"]:
        if s["iter"] % 3 == 0 or s["iter"] == 1:
            seen = s["iter"] * 64
            lines.append("Train Epoch: 1 [%d/%d (%.0f%%)]\tLoss: %.6f" % (seen, n, 100.0 * seen / n, s["loss"]))
    e = f["final"]
    lines.append("")
    lines.append("Test set: Average loss: %.4f, Accuracy: %d/%d (%.0f%%)" % (e["loss"], round(e["acc1"] * 10), 1000, e["acc1"]))
    lines.append("")
    write(os.path.join(root, "float", "log.txt"), "\n".join(lines) + "\n")
    write(os.path.join(root, "float", "cmd.sh"), "python main.py --epochs 1 --batch-size 64 --lr 0.1 --dry-run-steps 27 --save-model\n")
    c = p.res["calib"]["final"]
    lines = ["Calibrating float checkpoint mnist_cnn.pt with 16 batches",
             "", "Test set (calibrated, fake-quant): Average loss: %.4f, Accuracy: %d/1000 (%.0f%%)" % (c["loss"], round(c["acc1"] * 10), c["acc1"]), ""]
    write(os.path.join(root, "calib", "log.txt"), "\n".join(lines) + "\n")
    lines = []
    for ep in epochs_of(q["steps"]):
        for s in epoch_steps(q["steps"], ep):
            if s["iter"] % 10 == 0:
                seen = s["iter"] * 64
                lines.append("QAT Train Epoch: %d [%d/%d (%.0f%%)]\tLoss: %.6f" % (ep + 1, seen, n, 100.0 * seen / n, s["loss"]))
        e = q["evals"][ep]
        i8 = q["int8_evals"][ep]
        lines.append("")
        lines.append("Test set (QAT): Average loss: %.4f, Accuracy: %d/1000 (%.0f%%)" % (e["loss"], round(e["acc1"] * 10), e["acc1"]))
        lines.append("Test set (quantized int8): Average loss: %.4f, Accuracy: %d/1000 (%.0f%%)" % (i8["loss"], round(i8["acc1"] * 10), i8["acc1"]))
        lines.append("")
    write(os.path.join(root, "qat", "log.txt"), "\n".join(lines) + "\n")
    return entry(cid, EXAMPLES, "pytorch/examples-style logs ('Train Epoch: 1 [1280/4000 (32%)]\\tLoss: ...', 'Test "
                 "set: Average loss ..., Accuracy: 475/1000 (48%)'). The float run was stopped after 27 of 62 "
                 "iterations of its first epoch while the loss was still falling steeply; calibration and QAT were "
                 "run on that checkpoint.", False, ["float.not_converged"],
                 {"calib.low_accuracy": "the calibrated model inherits the low absolute accuracy of the unconverged float model",
                  "qat.trend_mismatch": "QAT keeps learning far beyond float (its loss falls much lower), unlike a "
                                        "QAT started from a converged model"},
                 numbers(p, dict(float_steps_done=27, float_steps_per_epoch=62,
                                 float_loss_first5=round(mean(L[:5]), 4), float_loss_last5=round(mean(L[-5:]), 4))))


CASES = [c24_tb_float_inf_weight, c25_tb_pipeline_healthy, c26_keras_float_overfit, c27_keras_pipeline_healthy,
         c28_pylog_resume_restart, c29_pylog_qat_divergence, c30_pylog_calib_unnormalised, c31_pylog_chinese_stages,
         c32_pylog_onecycle_qat, c33_plain_float_nan_sample, c34_plain_qat_no_int8, c35_plain_int8_inline_healthy,
         c36_plain_misleading_folders, c37_examples_float_first_epoch]
