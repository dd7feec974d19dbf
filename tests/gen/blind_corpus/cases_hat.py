"""Horizon HAT tools/train.py console layout cases."""
import copy
import os

import torch
import torch.ao.quantization as tq

import engine as E
from casekit import (std_pipeline, healthy_pipeline, check_healthy, numbers, entry, need, case_dir, FLOAT_KW, QAT_KW,
                     float_end_loss, qat_start_loss)
from common import Clock, write, hms
from writers import hat_line, hat_train_stage

LAYOUT = "hat"
TASK = "mobilenetv2_tiny_synth10"
SP = "/open_explorer/samples/ai_toolchain/horizon_model_train_sample/scripts"


def banner(clock, what, stage, node=0):
    return hat_line(clock, "INFO", "train.py:297", "=" * 50 + "%s %s STAGE" % (what, stage.upper()) + "=" * 50, node)


def stage_header(clock, stage, march="nash-e", nodes=(0,), device_ids="0", extra=()):
    out = ["+ python3 tools/train.py --stage %s --config configs/classification/%s.py --device-ids %s"
           % (stage, TASK, device_ids)]
    for n in nodes:
        out.append(hat_line(clock, "INFO", "ddp_trainer.py:402", "init distributed: rank %d, world_size %d, "
                            "backend nccl" % (n, len(nodes)), n) if len(nodes) > 1 else None)
    out = [o for o in out if o]
    for n in nodes:
        out.append(banner(clock, "BEGIN", stage, n))
    out.append(hat_line(clock, "INFO", "train.py:156", "set march to %s" % march))
    out.extend(extra)
    return out


def val_block(clock, ev, stage, ep=0, node=0, header=True):
    out = []
    if header:
        out.append(hat_line(clock, "INFO", "loop_base.py:482", "Start Predictor loop from epoch %d, num_epochs=1" % ep, node))
        if stage in ("calibration", "qat"):
            out.append(hat_line(clock, "INFO", "fake_quantize.py:253", "Set fake quantize state to FakeQuantState.VALIDATION", node))
    nb = len(ev["batches"])
    for i in range(nb):
        if i % 2 == 0:
            out.append(hat_line(clock, "INFO", "loop_base.py:553", "%d / %d" % (i, nb), node))
        clock.tick(0.6 if stage != "int_infer" else 2.2)
    out.append(hat_line(clock, "INFO", "metric_updater.py:360", "Epoch[%d] Validation %s: top1[%.4f] top5[%.4f] "
                        % (ep, TASK, ev["acc1"] / 100.0, ev["acc5"] / 100.0), node))
    return out


def float_stage(clock, R, march="nash-e"):
    out = stage_header(clock, "float", march)
    out.append(hat_line(clock, "INFO", "loop_base.py:482", "Start Trainer loop from epoch 0, num_epochs=%d"
                        % len(R["evals"])))
    out += hat_train_stage(R, clock, TASK, "float", loss_name="cls_loss", log_freq=20, monitor_freq=20,
                           sec_per_iter=0.21)
    out.append(banner(clock, "END", "float"))
    return out


def calib_stage(clock, calib, n_batches=16, march="nash-e", nodes=(0,), device_ids="0", per_node_batches=None):
    out = stage_header(clock, "calibration", march, nodes, device_ids)
    for n in nodes:
        out.append(hat_line(clock, "INFO", "checkpoint.py:151", "Load checkpoint from ./tmp_models/%s/float-checkpoint-best.pth.tar" % TASK, n))
    for n in nodes:
        out.append(hat_line(clock, "INFO", "loop_base.py:482", "Start Calibrator loop from epoch 0, num_epochs=1", n))
        out.append(hat_line(clock, "INFO", "fake_quantize.py:253", "Set fake quantize state to FakeQuantState.CALIBRATION", n))
    nb = per_node_batches or n_batches
    for i in range(nb):
        clock.tick(0.5)
        if i % 4 == 0:
            for n in nodes:
                out.append(hat_line(clock, "INFO", "loop_base.py:553", "%d / %d" % (i, nb), n))
    for n in nodes:
        out.append(hat_line(clock, "INFO", "monitor.py:131", "Epoch[0] Step[0-%d] Cost Time: %.3fs Speed: %.2f samples/sec "
                            "Remaining Time: 0:00:00 Remaining step percent: 0.00%%" % (nb - 1, nb * 0.5, 64 / 0.5), n))
    for n in nodes:
        out.append(hat_line(clock, "INFO", "validation.py:156", "Use train `model` as val model.", n))
    if len(nodes) > 1:
        for n in nodes:
            out.append(hat_line(clock, "WARNING", "metric.py:200", "<class 'hat.metrics.acc.Accuracy'> not ready for "
                                "distributed environment, should not be used together with DistributedSampler.Might "
                                "be slow in validation due to resource competition", n))
    for n in nodes:
        out += val_block(clock, calib, "calibration", node=n, header=True) if n == nodes[0] else \
            [hat_line(clock, "INFO", "metric_updater.py:360", "Epoch[0] Validation %s: top1[%.4f] top5[%.4f] "
                      % (TASK, calib["acc1"] / 100.0, calib["acc5"] / 100.0), n)]
    clock.tick(1.0)
    out.append(hat_line(clock, "INFO", "checkpoint.py:270", "Save last model checkpoint: ./tmp_models/%s/calibration-checkpoint-last.pth.tar" % TASK))
    for n in nodes:
        out.append(banner(clock, "END", "calibration", n))
    return out


def qat_stage(clock, R, march="nash-e", load_lines=None, end=True):
    out = stage_header(clock, "qat", march)
    if callable(load_lines):
        load_lines = load_lines()
    out += load_lines if load_lines is not None else [
        hat_line(clock, "INFO", "checkpoint.py:151", "Load checkpoint from ./tmp_models/%s/calibration-checkpoint-last.pth.tar" % TASK)]
    out.append(hat_line(clock, "INFO", "loop_base.py:482", "Start Trainer loop from epoch 0, num_epochs=%d" % max(3, len(R["evals"]))))
    out.append(hat_line(clock, "INFO", "fake_quantize.py:253", "Set fake quantize state to FakeQuantState.QAT"))
    out += hat_train_stage(R, clock, TASK, "qat", loss_name="cls_loss", log_freq=20, monitor_freq=20, sec_per_iter=0.33)
    if end:
        out.append(banner(clock, "END", "qat"))
    return out


def int_infer_stage(clock, ev, march="nash-e", load_lines=None, after_convert=()):
    out = stage_header(clock, "int_infer", march)
    if callable(load_lines):
        load_lines = load_lines()
    out += load_lines if load_lines is not None else [
        hat_line(clock, "INFO", "checkpoint.py:151", "Load checkpoint from ./tmp_models/%s/qat-checkpoint-best.pth.tar" % TASK)]
    out.append(hat_line(clock, "INFO", "quantize.py:88", "convert qat model to quantized model"))
    out.extend(after_convert)
    out += val_block(clock, ev, "int_infer")
    out.append(banner(clock, "END", "int_infer"))
    return out


def _split_files(root, parts):
    for name, lines in parts:
        write(os.path.join(root, "logs", name), "\n".join(lines) + "\n")


def _std(p):
    return p.res["float"], p.res["calib"]["final"], p.res["qat"], p.res["qat"]["int8_final"]


# ---------------------------------------------------------------- cases --
def c17_hat_qat_crash():
    cid = "c17_hat_qat_crash"
    root = case_dir(cid)
    p = std_pipeline(71, 71, qat_kw=dict(crash_at_step=62 + 23))
    q = p.res["qat"]
    need(q["crashed"] is not None and "stack expects each tensor to be equal size" in q["crashed"]["msg"],
         "crash not recorded")
    clk = Clock("2024-05-06 10:00:01", 71)
    fl = float_stage(clk, p.res["float"])
    clk.tick(900)
    cl = calib_stage(clk, p.res["calib"]["final"])
    clk.tick(300)
    ql = qat_stage(clk, q, end=False)
    c = q["crashed"]
    clk.tick(2.0)
    tb = [hat_line(clk, "ERROR", "ddp_trainer.py:463", "Traceback (most recent call last):"),
          '  File "/usr/local/lib/python3.10/dist-packages/hat/engine/ddp_trainer.py", line 457, in _with_exception',
          "    fn(*args)",
          '  File "%s/tools/train.py", line 186, in train_entrance' % SP, "    trainer.fit()",
          '  File "/usr/local/lib/python3.10/dist-packages/hat/engine/loop_base.py", line 542, in fit',
          "    _, batch = next(self.data_loader_pr)",
          '  File "/usr/local/lib/python3.10/dist-packages/hat/profiler/profilers.py", line 98, in profile_iterable',
          "    value = next(iterator)",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 631, in __next__',
          "    data = self._next_data()",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 1346, in _next_data',
          "    return self._process_data(data)",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 1372, in _process_data',
          "    data.reraise()",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/_utils.py", line 644, in reraise',
          "    raise exception",
          "RuntimeError: Caught RuntimeError in DataLoader worker process 3.",
          "Original Traceback (most recent call last):",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/worker.py", line 308, in _worker_loop',
          "    data = fetcher.fetch(index)",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch',
          "    return self.collate_fn(data)",
          '  File "/usr/local/lib/python3.10/dist-packages/hat/data/collates/collates.py", line 138, in collate_2d',
          "    return default_collate(batch)",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/collate.py", line 265, in default_collate',
          "    return collate(batch, collate_fn_map=default_collate_fn_map)",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/collate.py", line 142, in collate',
          "    return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]  # Backwards compatibility.",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/collate.py", line 119, in collate',
          "    return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)",
          '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/collate.py", line 162, in collate_tensor_fn',
          "    return torch.stack(batch, 0, out=out)",
          "RuntimeError: " + c["msg"], ""]
    clk.tick(14)
    tail = ["W0506 %s 101577 torch/multiprocessing/spawn.py:169] Terminating process 101719 via signal SIGTERM" % clk.fmt("%H:%M:%S.000000"),
            "ERROR:__main__:train failed! process 0 terminated with exit code 1",
            "Traceback (most recent call last):",
            '  File "%s/tools/train.py", line 287, in <module>' % SP, "    raise e",
            '  File "%s/tools/train.py", line 273, in <module>' % SP, "    train(",
            '  File "%s/tools/train.py", line 254, in train' % SP, "    launch(",
            '  File "/usr/local/lib/python3.10/dist-packages/hat/engine/ddp_trainer.py", line 426, in launch',
            "    mp.spawn(",
            '  File "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py", line 240, in spawn',
            '    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")',
            '  File "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py", line 198, in start_processes',
            "    while not context.join():",
            '  File "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py", line 149, in join',
            "    raise ProcessExitedException(",
            "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with exit code 1"]
    _split_files(root, [("float.log", fl), ("calibration.log", cl), ("qat.log", ql + tb + tail)])
    return entry(cid, LAYOUT, "HAT float and calibration logs, then a QAT log that stops in epoch 1: a DataLoader "
                 "worker hits a sample decoded with the wrong width and the ddp_trainer prints the traceback "
                 "(RuntimeError: stack expects each tensor to be equal size ...), the processes are terminated.",
                 False, ["run.crashed"],
                 {"qat.no_quantized_eval": "the run crashed before the int_infer stage could evaluate the quantized model"},
                 numbers(p, dict(crash_step=c["gstep"], crash_message=c["msg"],
                                 qat_top1_before_crash=round(q["evals"][-1]["acc1"], 2))))


def c18_hat_calib_4gpu():
    cid = "c18_hat_calib_4gpu"
    root = case_dir(cid)
    p = std_pipeline(72, 72, skip_calib=True)
    # four ranks each calibrate on their own shard; the observers are never all-reduced and rank 0 saves
    shard_x = p.data.x_train[0::4]
    p.run_calib(n_batches=4, bs=64, x=shard_x)
    p.run_qat(**QAT_KW)
    f, c, q, i8 = _std(p)
    clk = Clock("2024-06-17 14:22:10", 72)
    fl = float_stage(clk, f)
    clk.tick(1200)
    cl = calib_stage(clk, c, nodes=(0, 1, 2, 3), device_ids="0,1,2,3", per_node_batches=4)
    clk.tick(400)
    ql = qat_stage(clk, q)
    clk.tick(200)
    il = int_infer_stage(clk, i8)
    _split_files(root, [("float.log", fl), ("calibration.log", cl), ("qat.log", ql), ("int_infer.log", il)])
    return entry(cid, LAYOUT, "HAT pipeline whose calibration stage was launched with --device-ids 0,1,2,3: four "
                 "ranks (Node[0..3]) each run 4 calibration batches on their shard, observer statistics are not "
                 "synchronised and rank 0's model is saved. The FAQ says calibration must run on one card.", False,
                 ["calib.multi_gpu"],
                 {"calib.low_accuracy": "calibrating on a quarter of the data per rank can lower the calibration "
                                        "accuracy slightly"},
                 numbers(p, dict(calib_world_size=4, calib_batches_per_rank=4)))


def c19_hat_march_mismatch():
    cid = "c19_hat_march_mismatch"
    root = case_dir(cid)
    p = healthy_pipeline([73, 173, 273, 373])
    f, c, q, i8 = _std(p)
    clk = Clock("2024-07-01 09:12:00", 73)
    m = "bayes"
    fl = float_stage(clk, f, march=m)
    clk.tick(900)
    cl = calib_stage(clk, c, march=m)
    clk.tick(300)
    ql = qat_stage(clk, q, march=m)
    clk.tick(200)
    il = int_infer_stage(clk, i8, march=m)
    _split_files(root, [("float.log", fl), ("calibration.log", cl), ("qat.log", ql), ("int_infer.log", il)])
    write(os.path.join(root, "configs", "classification", TASK + ".py"),
          "import torch\nfrom horizon_plugin_pytorch.march import March\n\n"
          "# deployment target: J6E board (RDK S100)\ntask_name = \"%s\"\nnum_classes = 10\nbatch_size_per_gpu = 64\n"
          "device_ids = [0]\nmarch = March.BAYES\n\nconvert_mode = \"fx\"\nqat_mode = \"fuse_bn\"\n"
          "compile_cfg = dict(\n    march=\"nash-e\",\n    input_source=\"ddr\",\n    opt=2,\n    out_dir=\"./tmp_compile/%s\",\n)\n" % (TASK, TASK))
    write(os.path.join(root, "hb_compile.log"),
          "2024-07-01 12:40:03,118 INFO  hb_compile --model ./tmp_models/%s/quantized.bc --march nash-e --opt 2 "
          "--output ./tmp_compile/%s/model.hbm\n" % (TASK, TASK))
    return entry(cid, LAYOUT, "HAT pipeline for a J6E deployment (the config's compile_cfg and hb_compile.log say "
                 "march nash-e) while every training stage logs 'set march to bayes' (march = March.BAYES left in the "
                 "config). Accuracies themselves are fine.", False, ["config.march"], {}, numbers(p, dict(
                     training_march="bayes", deploy_march="nash-e")))


def c20_hat_calib_not_loaded():
    cid = "c20_hat_calib_not_loaded"
    root = case_dir(cid)
    p = std_pipeline(74, 74, skip_qat=True)
    fresh = E.qat_prepare(E.make_model(999), p.backend)
    p.run_qat(start_model=fresh, **QAT_KW)
    f, c, q, i8 = _std(p)
    need(qat_start_loss(q) > 3 * float_end_loss(f), "QAT start loss not high")
    clk = Clock("2024-07-22 18:03:30", 74)
    fl = float_stage(clk, f)
    clk.tick(900)
    cl = calib_stage(clk, c)
    clk.tick(300)
    keys = ["conv1.weight", "bn1.weight", "bn1.bias", "bn1.running_mean", "bn1.running_var", "dw2.weight",
            "bn2.weight", "bn2.bias", "pw2.weight", "dw3.weight", "pw3.weight", "fc.weight", "fc.bias"]
    load = [hat_line(clk, "INFO", "checkpoint.py:151", "Load checkpoint from ./tmp_models/%s/calibration-checkpoint-last.pth.tar" % TASK),
            hat_line(clk, "WARNING", "checkpoint.py:118", "The model and loaded state dict do not match exactly\n\n"
                     "unexpected key in source state_dict: " + ", ".join("module." + k for k in keys) + ", ...\n\n"
                     "missing keys in source state_dict: " + ", ".join(keys) + ", ...\n")]
    ql = qat_stage(clk, q, load_lines=load)
    clk.tick(200)
    il = int_infer_stage(clk, i8)
    _split_files(root, [("float.log", fl), ("calibration.log", cl), ("qat.log", ql), ("int_infer.log", il)])
    return entry(cid, LAYOUT, "HAT QAT stage that loaded the calibration checkpoint with strict=False: every key is "
                 "prefixed 'module.' (saved from DDP), nothing matches, the warning is printed and QAT starts from "
                 "random weights; its first losses are far above float's final loss.", False,
                 ["qat.start_loss_high"],
                 {"qat.worse_than_calibration": "consequence: QAT from random weights ends far below calibration",
                  "qat.trend_mismatch": "consequence: the QAT curve starts where float's started, not where it ended"},
                 numbers(p, dict(float_end_train_loss=round(float_end_loss(f), 4))))


def _one_log(p, root, clk, int8_ev, int8_load=None, after_convert=()):
    f, c, q, _ = _std(p)
    lines = ["+ sh scripts/run_all_stages.sh configs/classification/%s.py" % TASK]
    lines += float_stage(clk, f)
    clk.tick(600)
    lines += calib_stage(clk, c)
    clk.tick(300)
    lines += qat_stage(clk, q)
    clk.tick(200)
    lines += int_infer_stage(clk, int8_ev, load_lines=int8_load, after_convert=after_convert)
    write(os.path.join(root, "train_all_stages.log"), "\n".join(lines) + "\n")


def c21_hat_onelog_healthy():
    cid = "c21_hat_onelog_healthy"
    root = case_dir(cid)
    p = healthy_pipeline([75, 175, 275, 375])
    clk = Clock("2024-08-05 02:00:00", 75)
    _one_log(p, root, clk, p.res["qat"]["int8_final"])
    return entry(cid, LAYOUT, "One HAT log holding every stage (float, calibration, qat, int_infer), each announced "
                 "by its BEGIN/END ... STAGE banner; the int_infer stage evaluates the converted model. Healthy.",
                 True, [], {}, numbers(p))


def c22_hat_onelog_int8_collapse():
    cid = "c22_hat_onelog_int8_collapse"
    root = case_dir(cid)
    p = std_pipeline(76, 76)
    # int_infer rebuilt the QAT model and loaded the DDP checkpoint with strict=False: no key matched, so the
    # converted model has random weights and default (uncalibrated) quantizer scales
    rebuilt = E.qat_prepare(E.make_model(4242), p.backend)
    ev = E.int8_eval(rebuilt, p.data)
    q = p.res["qat"]
    need(q["final"]["acc1"] - ev["acc1"] >= 40, "int8 did not collapse: %.2f" % ev["acc1"])
    clk = Clock("2024-08-19 23:10:00", 76)
    keys = ["conv1.weight", "conv1.bias", "conv1.weight_fake_quant.scale", "conv1.activation_post_process.scale",
            "dw2.weight", "pw2.weight", "dw3.weight", "pw3.weight", "fc.weight", "fc.bias"]
    load = lambda: [  # noqa: E731
        hat_line(clk, "INFO", "checkpoint.py:151", "Load checkpoint from ./tmp_models/%s/qat-checkpoint-best.pth.tar" % TASK),
        hat_line(clk, "WARNING", "checkpoint.py:118", "The model and loaded state dict do not match exactly\n\n"
                 "unexpected key in source state_dict: " + ", ".join("module." + k for k in keys) + ", ...\n\n"
                 "missing keys in source state_dict: " + ", ".join(keys) + ", ...\n")]
    warn = ["/usr/local/lib/python3.10/dist-packages/torch/ao/quantization/utils.py:287: UserWarning: must run "
            "observer before calling calculate_qparams. Returning default values.", "  warnings.warn("] * 3
    _one_log(p, root, clk, ev, int8_load=load, after_convert=warn)
    return entry(cid, LAYOUT, "One HAT log with all stage banners; float, calibration and QAT are fine, but the "
                 "int_infer stage reloads the QAT checkpoint with strict=False and a 'module.' prefix mismatch, so the "
                 "converted int8 model has random weights and default scales and collapses to chance level.",
                 False, ["qat.quantized_gap"], {}, numbers(p, dict(int8_top1=round(ev["acc1"], 2))))


def c23_hat_converged_plateau():
    cid = "c23_hat_converged_plateau"
    root = case_dir(cid)
    p = E.Pipeline(data_seed=81, model_seed=81, n_val=250)
    p.run_float(**FLOAT_KW)
    p.run_calib()
    q = copy.deepcopy(p.calib_model)
    E.set_qat_mode(q)
    saved = {}
    i8 = []

    def on_end(ep, model):
        ev = E.int8_eval(model, p.data)
        ev["epoch"] = ep
        i8.append(ev)
        saved[ep] = {k: v.detach().clone() for k, v in model.state_dict().items()}
        model.train()

    r0 = E.train(q, p.data, epochs=2, lr=0.005, sched="const", wd=5e-5, on_epoch_end=on_end)
    q.apply(tq.disable_observer)
    q.apply(torch.nn.intrinsic.qat.freeze_bn_stats)
    r1 = E.train(q, p.data, epochs=3, lr=1e-4, sched="const", wd=5e-5, augment=False, start_epoch=2,
                 on_epoch_end=on_end)
    R = dict(steps=r0["steps"] + r1["steps"], evals=r0["evals"] + r1["evals"], iters=r0["iters"], crashed=None)
    R["final"] = R["evals"][-1]
    R["int8_evals"] = i8
    R["int8_final"] = i8[-1]
    p.res["qat"] = R
    acc = [e["acc1"] for e in R["evals"]]
    need(len(set(acc[-4:])) == 1, "val acc not identical over the last 4 evals: %s" % acc)
    tl = [e["train_loss"] for e in r1["evals"]]
    need(tl[-1] < tl[0], "train loss should fall")
    wn = [e["wnorm"] for e in R["evals"]]
    need(len(set(wn)) == len(wn), "weights should change")
    check_healthy(p, tail_tol=2.5)  # 250-image val set: 0.4-point steps
    clk = Clock("2024-09-09 08:00:00", 81)
    fl = float_stage(clk, p.res["float"])
    clk.tick(700)
    cl = calib_stage(clk, p.res["calib"]["final"])
    clk.tick(300)
    ql = qat_stage(clk, R)
    clk.tick(200)
    il = int_infer_stage(clk, R["int8_final"])
    _split_files(root, [("float.log", fl), ("calibration.log", cl), ("qat.log", ql), ("int_infer.log", il)])
    for ep in (1, 3, 4):
        obj = {"epoch": ep, "step": (ep + 1) * R["iters"], "state_dict": saved[ep],
               "devices": [0], "time": "2024-09-09"}
        d = os.path.join(root, "tmp_models", TASK)
        os.makedirs(d, exist_ok=True)
        torch.save(obj, os.path.join(d, "qat-checkpoint-epoch-%04d.pth.tar" % ep))
    write(os.path.join(root, "configs", "classification", TASK + ".py"),
          "qat_lr_updater = dict(type=\"StepDecayLrUpdater\", lr_decay_id=[2], lr_decay_factor=0.02)\n"
          "qat_trainer = dict(num_epochs=5, base_lr=0.005, observer_freeze_epoch=2, bn_freeze_epoch=2)\n")
    return entry(cid, LAYOUT, "HAT pipeline whose QAT converges: after epoch 2 observers and BN are frozen and the lr "
                 "steps down to 1e-4, so on a 250-image val set top1 is exactly the same for the last four "
                 "evaluations while the training loss still falls and the weights keep changing (QAT checkpoints "
                 "for epochs 1, 3 and 4 differ). Healthy.", True, [], {},
                 numbers(p, dict(qat_top1_per_epoch=acc, qat_train_loss_last3=[round(x, 4) for x in tl],
                                 qat_weight_norm_per_epoch=[round(x, 6) for x in wn])))


CASES = [c17_hat_qat_crash, c18_hat_calib_4gpu, c19_hat_march_mismatch, c20_hat_calib_not_loaded,
         c21_hat_onelog_healthy, c22_hat_onelog_int8_collapse, c23_hat_converged_plateau]
