"""Layout writers: render measured runs the way each framework writes its logs.

Each writer takes a run record from engine.train (steps with every iteration, evals per
epoch, int8 evals) plus a small cfg dict, and writes the files a user would find.
Formats follow real examples read from public repositories (see README in this folder).
"""
import json
import math
import os

from common import Clock, hms, write, write_json, fnum, median, mean, epoch_steps, epochs_of
import tfevents

# ================================================================ mmengine ==
MM_ENV_GPU = """------------------------------------------------------------
System environment:
    sys.platform: linux
    Python: 3.8.18 (default, Sep 11 2023, 13:40:15) [GCC 11.2.0]
    CUDA available: True
    MUSA available: False
    numpy_random_seed: {seed}
    GPU {gpu_ids}: NVIDIA A100-SXM4-40GB
    CUDA_HOME: /usr/local/cuda
    NVCC: Cuda compilation tools, release 11.7, V11.7.99
    GCC: gcc (GCC) 7.3.1 20180303 (Red Hat 7.3.1-5)
    PyTorch: 1.13.1+cu117
    PyTorch compiling details: PyTorch built with:
  - GCC 9.3
  - C++ Version: 201402
  - Intel(R) oneAPI Math Kernel Library Version 2021.4-Product Build 20210904 for Intel(R) 64 architecture applications
  - Intel(R) MKL-DNN v2.6.0 (Git Hash 52b5f107dd9cf10910aaa19cb47f3abf9b349815)
  - OpenMP 201511 (a.k.a. OpenMP 4.5)
  - LAPACK is enabled (usually provided by MKL)
  - NNPACK is enabled
  - CPU capability usage: AVX2
  - CUDA Runtime 11.7
  - NVCC architecture flags: -gencode;arch=compute_37,code=sm_37;-gencode;arch=compute_50,code=sm_50;-gencode;arch=compute_60,code=sm_60;-gencode;arch=compute_70,code=sm_70;-gencode;arch=compute_75,code=sm_75;-gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_86,code=sm_86
  - CuDNN 8.5
  - Magma 2.6.1

    TorchVision: 0.14.1+cu117
    OpenCV: 4.8.1
    MMEngine: 0.10.3

Runtime environment:
    cudnn_benchmark: False
    mp_cfg: {{'mp_start_method': 'fork', 'opencv_num_threads': 0}}
    dist_cfg: {{'backend': 'nccl'}}
    seed: {seed}
    deterministic: False
    Distributed launcher: {launcher}
    Distributed training: {dist}
    GPU number: {gpus}
------------------------------------------------------------
"""

MM_ENV_CPU = """------------------------------------------------------------
System environment:
    sys.platform: linux
    Python: 3.8.18 (default, Sep 11 2023, 13:40:15) [GCC 11.2.0]
    CUDA available: False
    MUSA available: False
    numpy_random_seed: {seed}
    GCC: gcc (Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0
    PyTorch: 1.13.1+cu117
    PyTorch compiling details: PyTorch built with:
  - GCC 9.3
  - C++ Version: 201402
  - Intel(R) oneAPI Math Kernel Library Version 2021.4-Product Build 20210904 for Intel(R) 64 architecture applications
  - Intel(R) MKL-DNN v2.6.0 (Git Hash 52b5f107dd9cf10910aaa19cb47f3abf9b349815)
  - OpenMP 201511 (a.k.a. OpenMP 4.5)
  - LAPACK is enabled (usually provided by MKL)
  - NNPACK is enabled
  - CPU capability usage: AVX2
  - CUDA Runtime 11.7
  - CuDNN 8.5
  - Magma 2.6.1

    TorchVision: 0.14.1+cu117
    OpenCV: 4.8.1
    MMEngine: 0.10.3

Runtime environment:
    cudnn_benchmark: False
    mp_cfg: {{'mp_start_method': 'fork', 'opencv_num_threads': 0}}
    dist_cfg: {{'backend': 'nccl'}}
    seed: {seed}
    deterministic: False
    Distributed launcher: none
    Distributed training: False
    GPU number: 1
------------------------------------------------------------
"""


def _mm_prefix(clock):
    return clock.fmt("%m/%d %H:%M:%S") + " - mmengine - "


def mmengine_run(run_dir, R, cfg, clock, config_text, gpus=1, cuda=True, seed=1234,
                 log_interval=10, sec_per_iter=0.05, exp_name=None, ckpt_interval=1,
                 val_prefix="accuracy", extra_warnings=(), mode="train", test_result=None,
                 memory=611):
    """Writes <run_dir>/<ts>/<ts>.log and vis_data/{<ts>.json, scalars.json, config.py}."""
    ts = clock.fmt("%Y%m%d_%H%M%S")
    work = os.path.join(run_dir, ts)
    lines = []
    P = lambda: _mm_prefix(clock)  # noqa: E731
    env = (MM_ENV_GPU if cuda else MM_ENV_CPU).format(
        seed=seed, gpu_ids=",".join(str(i) for i in range(gpus)), gpus=gpus,
        launcher="pytorch" if gpus > 1 else "none", dist=str(gpus > 1))
    lines.append(P() + "INFO - \n" + env)
    clock.tick(1.2)
    lines.append(P() + "INFO - Config:\n" + config_text.rstrip("\n") + "\n")
    clock.tick(2.5)
    for w in extra_warnings:
        lines.append(P() + "WARNING - " + w)
    if mode == "test":
        res = test_result
        clock.tick(0.3)
        lines.append(P() + "INFO - Load checkpoint from " + cfg.get("load_from", "latest.pth"))
        nb = len(res["batches"])
        for i in range(nb):
            clock.tick(sec_per_iter * 3)
        clock.tick(0.4)
        lines.append(P() + "INFO - Epoch(test) [%d/%d]    %s/top1: %.4f  %s/top5: %.4f  data_time: %.4f  time: %.4f"
                     % (nb, nb, val_prefix, res["acc1"], val_prefix, res["acc5"], clock.uniform(0.002, 0.006),
                        clock.uniform(0.01, 0.03)))
        text = "\n".join(lines) + "\n"
        write(os.path.join(work, ts + ".log"), text)
        write(os.path.join(work, "vis_data", ts + ".json"),
              json.dumps({"%s/top1" % val_prefix: round(res["acc1"], 4), "%s/top5" % val_prefix: round(res["acc5"], 4),
                          "data_time": round(clock.uniform(0.002, 0.006), 4),
                          "time": round(clock.uniform(0.01, 0.03), 4)}) + "\n")
        write(os.path.join(work, "vis_data", "config.py"), config_text)
        return ts
    lines.append(P() + "INFO - Checkpoints will be saved to " + cfg.get("abs_work_dir", "/workspace/" + run_dir) + ".")
    max_ep = cfg["epochs"]
    iters = R["iters"]
    ew = len(str(max_ep))
    iw = len(str(iters))
    scalars = []
    total_iters = max_ep * iters
    evals = {e["epoch"]: e for e in R["evals"]}
    exp = exp_name or os.path.basename(run_dir.rstrip("/")) + "_" + ts
    done = 0
    window = []
    for ep in epochs_of(R["steps"]):
        for s in epoch_steps(R["steps"], ep):
            clock.tick(sec_per_iter)
            done += 1
            window.append(s["loss"])
            if s["iter"] % log_interval == 0:
                loss = mean(window[-log_interval:])
                it_t = sec_per_iter * clock.uniform(0.9, 1.1)
                dt = it_t * clock.uniform(0.05, 0.2)
                eta = hms((total_iters - s["gstep"]) * sec_per_iter)
                ep_str = ("[%d]" % (ep + 1)).rjust(ew + 2)
                lines.append(P() + "INFO - Epoch(train) %s[%s/%d]  lr: %.4e  eta: %s  time: %.4f  data_time: %.4f  memory: %d  loss: %s"
                             % (ep_str, str(s["iter"]).rjust(iw), iters, s["lr"], eta, it_t, dt, memory,
                                fnum(loss)))
                scalars.append({"lr": s["lr"], "data_time": round(dt, 4), "loss": loss, "time": round(it_t, 4),
                                "epoch": ep + 1, "iter": s["gstep"], "memory": memory, "step": s["gstep"]})
        last = epoch_steps(R["steps"], ep)[-1]
        if last["iter"] == iters:
            lines.append(P() + "INFO - Exp name: " + exp)
            if (ep + 1) % ckpt_interval == 0:
                clock.tick(0.3)
                lines.append(P() + "INFO - Saving checkpoint at %d epochs" % (ep + 1))
        if ep in evals:
            e = evals[ep]
            nb = len(e["batches"])
            clock.tick(sec_per_iter * 3 * nb)
            dtv, tv = clock.uniform(0.002, 0.006), clock.uniform(0.01, 0.03)
            lines.append(P() + "INFO - Epoch(val) %s[%d/%d]    %s/top1: %s  %s/top5: %s  data_time: %.4f  time: %.4f"
                         % (("[%d]" % (ep + 1)).rjust(ew + 2), nb, nb, val_prefix, fnum(e["acc1"]), val_prefix,
                            fnum(e["acc5"]), dtv, tv))
            scalars.append({"%s/top1" % val_prefix: e["acc1"], "%s/top5" % val_prefix: e["acc5"],
                            "data_time": round(dtv, 4), "time": round(tv, 4), "step": ep + 1})
    if R.get("crashed"):
        lines.append(R["crashed_text"])
    text = "\n".join(lines) + "\n"
    write(os.path.join(work, ts + ".log"), text)
    sj = "".join(json.dumps(_round_floats(r)) + "\n" for r in scalars)
    write(os.path.join(work, "vis_data", ts + ".json"), sj)
    write(os.path.join(work, "vis_data", "scalars.json"), sj)
    write(os.path.join(work, "vis_data", "config.py"), config_text)
    return ts


def _round_floats(d, nd=None):
    out = {}
    for k, v in d.items():
        if isinstance(v, float) and math.isfinite(v) and nd:
            v = round(v, nd)
        out[k] = v
    return out


# ============================================================= torchvision ==
def tv_namespace(args):
    parts = []
    for k, v in args.items():
        parts.append("%s=%r" % (k, v))
    return "Namespace(" + ", ".join(parts) + ")"


class _Smoothed:
    def __init__(self, window=20):
        self.w = window
        self.vals = []
        self.tot = 0.0
        self.n = 0

    def update(self, v, n=1):
        self.vals.append(v)
        self.tot += v * n
        self.n += n

    def s(self, fmt="{median:.4f} ({global_avg:.4f})"):
        med = median(self.vals[-self.w:])
        ga = self.tot / self.n if self.n else float("nan")
        return "%s (%s)" % (fnum(med), fnum(ga))


def tv_train_epoch(R, ep, clock, print_freq=10, sec_per_iter=0.12, max_mem=812, header=None,
                   with_acc=True, lr_fmt="{}"):
    """torchvision references MetricLogger.log_every for one training epoch."""
    steps = epoch_steps(R["steps"], ep)
    iters = R["iters"]
    header = header or "Epoch: [%d]" % ep
    sp = len(str(iters))
    out = []
    loss_m, a1, a5 = _Smoothed(), _Smoothed(), _Smoothed()
    t_start = clock.t
    for s in steps:
        i = s["iter"] - 1
        clock.tick(sec_per_iter)
        loss_m.update(s["loss"])
        a1.update(s["acc"], s["bs"])
        a5.update(s.get("acc5", 100.0), s["bs"])
        if i % print_freq == 0 or i == iters - 1:
            eta = hms((iters - i - 1) * sec_per_iter)
            it_t = sec_per_iter * clock.uniform(0.85, 1.15) if i else sec_per_iter * 6
            dt = 0.004 * clock.uniform(0.5, 1.5) if i else sec_per_iter * 5
            ips = s["bs"] / it_t
            fields = ["%s  [%s/%d]" % (header, str(i).rjust(sp), iters), "eta: " + eta,
                      "lr: " + lr_fmt.format(s["lr"]), "img/s: %s" % repr(round(ips, 13)),
                      "loss: " + loss_m.s()]
            if with_acc:
                fields += ["acc1: " + a1.s(), "acc5: " + a5.s()]
            fields += ["time: %.4f" % it_t, "data: %.4f" % dt, "max mem: %d" % max_mem]
            out.append("  ".join(fields))
    el = (clock.t - t_start).total_seconds()
    out.append("%s Total time: %s" % (header, hms(el)))
    return out


def tv_evaluate(ev, clock, header="Test:", print_freq=100, sec_per_batch=0.2, max_mem=812, final_line=True,
                deit=False):
    nb = len(ev["batches"])
    sp = len(str(nb))
    out = []
    loss_m, a1, a5 = _Smoothed(), _Smoothed(), _Smoothed()
    t0 = clock.t
    for i, b in enumerate(ev["batches"]):
        clock.tick(sec_per_batch)
        loss_m.update(b["loss"])
        a1.update(b["acc1"], b["n"])
        a5.update(b["acc5"], b["n"])
        if i % print_freq == 0 or i == nb - 1:
            eta = hms((nb - i - 1) * sec_per_batch)
            it_t = sec_per_batch * (5 if i == 0 else clock.uniform(0.8, 1.2))
            out.append("  ".join(["%s  [%s/%d]" % (header, str(i).rjust(sp), nb), "eta: " + eta,
                                  "loss: " + loss_m.s(), "acc1: " + a1.s(), "acc5: " + a5.s(),
                                  "time: %.4f" % it_t, "data: %.4f" % (it_t * 0.8 if i == 0 else 0.002),
                                  "max mem: %d" % max_mem]))
    el = (clock.t - t0).total_seconds()
    out.append("%s Total time: %s" % (header, hms(el)))
    if final_line:
        if deit:
            out.append("* Acc@1 %.3f Acc@5 %.3f loss %.3f" % (ev["acc1"], ev["acc5"], ev["loss"]))
        else:
            out.append("%s Acc@1 %.3f Acc@5 %.3f" % (header, ev["acc1"], ev["acc5"]))
    return out


# ====================================================================== HF ==
def hf_log_history(R, logging_steps, iters, eval_prefix="eval", extra_evals=(), train_samples=4000, bs=64,
                   runtime_per_step=0.05, clock=None):
    hist = []
    steps = R["steps"]
    acc_loss, acc_n = 0.0, 0
    for s in steps:
        acc_loss += s["loss"]
        acc_n += 1
        if s["gstep"] % logging_steps == 0:
            hist.append({"epoch": round(s["gstep"] / iters, 2), "grad_norm": s["gnorm"],
                         "learning_rate": s["lr"], "loss": round(acc_loss / acc_n, 4), "step": s["gstep"]})
            acc_loss, acc_n = 0.0, 0
        if s["iter"] == iters:
            ev = [e for e in R["evals"] if e["epoch"] == s["epoch"]]
            if ev:
                e = ev[0]
                rt = 1.1 + 0.2 * (s["epoch"] % 3) / 3
                hist.append({"epoch": float(s["epoch"] + 1), "%s_accuracy" % eval_prefix: e["acc1"] / 100.0,
                             "%s_loss" % eval_prefix: e["loss"], "%s_runtime" % eval_prefix: round(rt, 4),
                             "%s_samples_per_second" % eval_prefix: round(e["n"] / rt, 3),
                             "%s_steps_per_second" % eval_prefix: round(len(e["batches"]) / rt, 3),
                             "step": s["gstep"]})
    return hist


def hf_state(hist, global_step, epochs, max_steps, logging_steps, bs, best=None, best_ckpt=None, eval_steps=None,
             save_steps=500):
    return {
        "best_global_step": None if best is None else best[1],
        "best_metric": None if best is None else best[0],
        "best_model_checkpoint": best_ckpt,
        "epoch": float(epochs),
        "eval_steps": eval_steps,
        "global_step": global_step,
        "is_hyper_param_search": False,
        "is_local_process_zero": True,
        "is_world_process_zero": True,
        "log_history": hist,
        "logging_steps": logging_steps,
        "max_steps": max_steps,
        "num_input_tokens_seen": 0,
        "num_train_epochs": epochs,
        "save_steps": save_steps,
        "stateful_callbacks": {"TrainerControl": {"args": {"should_epoch_stop": False, "should_evaluate": False,
                                                           "should_log": False, "should_save": True,
                                                           "should_training_stop": True}, "attributes": {}}},
        "total_flos": 1.0 * global_step * bs * 2.1e7,
        "train_batch_size": bs,
        "trial_name": None,
        "trial_params": None,
    }


def hf_console(hist, header_lines, tail_lines=()):
    out = list(header_lines)
    for h in hist:
        d = {k: v for k, v in h.items() if k != "step"}
        out.append(repr(d))
    out.extend(tail_lines)
    return out


# =============================================================== Lightning ==
def lightning_metrics_csv(R, log_every_n_steps=50, opt_name="SGD", extra_cols=None, val_names=("val_loss", "val_acc"),
                          acc_scale=0.01, train_acc=True, int8_rows=None, int8_names=("int8_val_loss", "int8_val_acc")):
    rows = []
    iters = R["iters"]
    cols = set(["epoch", "step"])
    for s in R["steps"]:
        g = s["gstep"] - 1
        if s["gstep"] % log_every_n_steps == 0:
            rows.append({"lr-%s" % opt_name: s["lr"], "step": g})
            r = {"epoch": s["epoch"], "step": g, "train_loss_step": s["loss"]}
            if train_acc:
                r["train_acc_step"] = s["acc"] * acc_scale
            rows.append(r)
        if s["iter"] == iters:
            ev = [e for e in R["evals"] if e["epoch"] == s["epoch"]]
            if ev:
                e = ev[0]
                rows.append({"epoch": s["epoch"], "step": g, val_names[0]: e["loss"], val_names[1]: e["acc1"] * acc_scale})
            if int8_rows:
                i8 = [e for e in int8_rows if e["epoch"] == s["epoch"]]
                if i8:
                    rows.append({"epoch": s["epoch"], "step": g, int8_names[0]: i8[0]["loss"],
                                 int8_names[1]: i8[0]["acc1"] * acc_scale})
            es = epoch_steps(R["steps"], s["epoch"])
            r = {"epoch": s["epoch"], "step": g, "train_loss_epoch": ev[0]["train_loss"] if ev else mean([x["loss"] for x in es])}
            if train_acc:
                r["train_acc_epoch"] = (ev[0]["train_acc"] if ev else mean([x["acc"] for x in es])) * acc_scale
            rows.append(r)
    for r in rows:
        cols.update(r.keys())
    cols = sorted(cols)
    lines = [",".join(cols)]
    for r in rows:
        lines.append(",".join("" if c not in r else _csv_num(r[c]) for c in cols))
    return "\n".join(lines) + "\n"


def _csv_num(v):
    """Lightning logs float32 tensors: values print with float32 noise (0.9761999845504761)."""
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        import numpy as np
        return repr(float(np.float32(v)))
    return str(v)


def yaml_dump(d, indent=0):
    out = []
    pad = "  " * indent
    for k, v in d.items():
        if isinstance(v, dict):
            out.append("%s%s:" % (pad, k))
            out.append(yaml_dump(v, indent + 1))
        elif isinstance(v, (list, tuple)):
            out.append("%s%s:" % (pad, k))
            for x in v:
                out.append("%s- %s" % (pad, _yaml_scalar(x)))
        else:
            out.append("%s%s: %s" % (pad, k, _yaml_scalar(v)))
    return "\n".join(o for o in out if o != "")


def _yaml_scalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        r = repr(v)
        return r
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if s == "" or any(c in s for c in ":#{}[],&*!|>'\"%@`") or s in ("yes", "no", "true", "false", "null"):
        return "'" + s.replace("'", "''") + "'"
    return s


# ==================================================================== timm ==
def timm_train_epoch(R, ep, clock, log_interval=50, sec_per_iter=0.1, lr_override=None):
    steps = epoch_steps(R["steps"], ep)
    iters = R["iters"]
    last = iters - 1
    out = []
    losses = _Smoothed()
    bt = []
    for s in steps:
        idx = s["iter"] - 1
        clock.tick(sec_per_iter)
        losses.update(s["loss"], s["bs"])
        t_it = sec_per_iter * (8 if idx == 0 else clock.uniform(0.85, 1.15))
        bt.append(t_it)
        if idx % log_interval == 0 or idx == last:
            rate = s["bs"] / t_it
            rate_avg = s["bs"] / mean(bt)
            out.append("Train: %d [%4d/%d (%3.0f%%)]  Loss: %s (%s)  Time: %.3fs, %7.2f/s  (%.3fs, %7.2f/s)  LR: %.3e  Data: %.3f (%.3f)"
                       % (ep, idx, iters, 100.0 * idx / last, _g4(s["loss"]), _g3(losses.tot / losses.n), t_it, rate,
                          mean(bt), rate_avg, s["lr"] if lr_override is None else lr_override,
                          t_it * 0.7 if idx == 0 else 0.004, (bt[0] * 0.7 + 0.004 * (len(bt) - 1)) / len(bt)))
    return out


def _g4(v):
    return fnum(v, "%#.4g") if isinstance(v, float) and not math.isfinite(v) else "%#.4g" % v


def _g3(v):
    return fnum(v, "%#.3g") if isinstance(v, float) and not math.isfinite(v) else "%#.3g" % v


def timm_validate(ev, clock, log_name="Test", log_interval=50, sec_per_batch=0.15):
    nb = len(ev["batches"])
    last = nb - 1
    out = []
    lm, t1, t5 = _Smoothed(), _Smoothed(), _Smoothed()
    bt = []
    for i, b in enumerate(ev["batches"]):
        clock.tick(sec_per_batch)
        lm.update(b["loss"], b["n"])
        t1.update(b["acc1"], b["n"])
        t5.update(b["acc5"], b["n"])
        t_b = sec_per_batch * (6 if i == 0 else clock.uniform(0.8, 1.2))
        bt.append(t_b)
        if i % log_interval == 0 or i == last:
            out.append("%s: [%4d/%d]  Time: %.3f (%.3f)  Loss: %8s (%6s)  Acc@1: %7.3f (%7.3f)  Acc@5: %7.3f (%7.3f)"
                       % (log_name, i, last, t_b, mean(bt), fnum(b["loss"], "%.3f"), fnum(lm.tot / lm.n, "%.3f"),
                          b["acc1"], t1.tot / t1.n, b["acc5"], t5.tot / t5.n))
    return out


# ==================================================================== DeiT ==
def deit_log_rows(R, n_parameters, extra=None):
    rows = []
    for e in R["evals"]:
        es = epoch_steps(R["steps"], e["epoch"])
        r = {"train_lr": es[-1]["lr"], "train_loss": mean([s["loss"] for s in es]),
             "test_loss": e["loss"], "test_acc1": e["acc1"], "test_acc5": e["acc5"], "epoch": e["epoch"],
             "n_parameters": n_parameters}
        if extra:
            r.update(extra(e))
        rows.append(r)
    return rows


# ===================================================================== HAT ==
def hat_line(clock, level, src, msg, node=0):
    return "%s %s [%s] Node[%d] %s" % (clock.ms(), level, src, node, msg)


def hat_train_stage(R, clock, task, stage, loss_name="ce_loss", log_freq=20, monitor_freq=20, sec_per_iter=0.25,
                    val_name=None, ckpt_prefix=None, work_dir=None, metric_names=("top1", "top5"), lr_freq=None,
                    node=0, val_model_line=True, extra_val_lines=None, samples_per_iter=64):
    """HAT trainer output for one stage (float / qat) with its per-epoch validation."""
    out = []
    iters = R["iters"]
    ckpt_prefix = ckpt_prefix or stage
    work_dir = work_dir or "./tmp_models/%s" % task
    val_name = val_name or task
    lr_freq = lr_freq or max(iters // 2, 1)
    evals = {e["epoch"]: e for e in R["evals"]}
    total = len(R["steps"])
    seen = 0
    for ep in epochs_of(R["steps"]):
        steps = epoch_steps(R["steps"], ep)
        if ep > 0 or True:
            out.append(hat_line(clock, "INFO", "monitor.py:143", "Epoch[%d] Begin %s" % (ep, "=" * 50), node))
        t_mon = 0.0
        mon_start = 0
        ep_start = clock.t
        acc_l, acc_a = [], []
        for s in steps:
            sid = s["iter"] - 1
            if sid % lr_freq == 0:
                out.append(hat_line(clock, "INFO", "lr_updater.py:204", "Epoch[%d] Step[%d] GlobalStep[%d] lr=%f"
                                    % (ep, sid, s["gstep"] - 1, s["lr"]), node))
            t_before = clock.t
            clock.tick(sec_per_iter)
            seen += 1
            t_mon += (clock.t - t_before).total_seconds()
            acc_l.append(s["loss"])
            acc_a.append(s["acc"] / 100.0)
            if (sid + 1) % monitor_freq == 0:
                spd = samples_per_iter * monitor_freq / t_mon
                rem = (total - seen) * sec_per_iter
                out.append(hat_line(clock, "INFO", "monitor.py:131",
                                    "Epoch[%d] Step[%d-%d] Cost Time: %.3fs Speed: %.2f samples/sec Remaining Time: %s Remaining step percent: %.2f%%"
                                    % (ep, mon_start, sid, t_mon, spd, hms(rem), 100.0 * (total - seen) / total), node))
                t_mon = 0.0
                mon_start = sid + 1
            if (sid + 1) % log_freq == 0:
                out.append(hat_line(clock, "INFO", "metric_updater.py:360",
                                    "Epoch[%d] Step[%d] GlobalStep[%d] %s: %s[%s] accuracy[%s] "
                                    % (ep, sid, s["gstep"] - 1, task, loss_name, fnum(mean(acc_l)),
                                       fnum(mean(acc_a))), node))
                acc_l, acc_a = [], []
        if steps[-1]["iter"] != iters:
            break
        clock.tick(2.0)
        out.append(hat_line(clock, "INFO", "monitor.py:146", "Epoch[%d] End   %s" % (ep, "=" * 50), node))
        out.append(hat_line(clock, "INFO", "monitor.py:149", "Epoch[%d] Cost Time: %.3fs"
                            % (ep, (clock.t - ep_start).total_seconds()), node))
        if ep in evals:
            e = evals[ep]
            out.append(hat_line(clock, "INFO", "metric_updater.py:360", "Epoch[%d] %s: %s[%s] accuracy[%s] "
                                % (ep, task, loss_name, fnum(e["train_loss"]), fnum(e["train_acc"] / 100.0)), node))
            if val_model_line:
                out.append(hat_line(clock, "INFO", "validation.py:156", "Use train `model` as val model.", node))
            out.append(hat_line(clock, "INFO", "loop_base.py:482", "Start Predictor loop from epoch %d, num_epochs=1" % ep, node))
            if stage == "qat":
                out.append(hat_line(clock, "INFO", "fake_quantize.py:253", "Set fake quantize state to FakeQuantState.VALIDATION", node))
            nb = len(e["batches"])
            for i in range(nb):
                if i % 2 == 0:
                    out.append(hat_line(clock, "INFO", "loop_base.py:553", "%d / %d" % (i, nb), node))
                clock.tick(0.6)
            if extra_val_lines:
                out.extend(extra_val_lines(e, clock))
            out.append(hat_line(clock, "INFO", "metric_updater.py:360", "Epoch[%d] Validation %s: %s[%s] %s[%s] "
                                % (ep, val_name, metric_names[0], fnum(e["acc1"] / 100.0), metric_names[1],
                                   fnum(e["acc5"] / 100.0)), node))
            clock.tick(1.5)
            out.append(hat_line(clock, "INFO", "checkpoint.py:233", "Save model checkpoint: %s/%s-checkpoint-epoch-%04d-%s.pth.tar"
                                % (work_dir, ckpt_prefix, ep, _hexid(clock, ep)), node))
            out.append(hat_line(clock, "INFO", "checkpoint.py:270", "Save last model checkpoint: %s/%s-checkpoint-last-%s.pth.tar"
                                % (work_dir, ckpt_prefix, _hexid(clock, ep + 100)), node))
            if stage == "qat":
                out.append(hat_line(clock, "INFO", "fake_quantize.py:253", "Set fake quantize state to FakeQuantState.QAT", node))
    return out


def _hexid(clock, k):
    import hashlib
    return hashlib.md5(("%s/%s" % (clock.t.isoformat(), k)).encode()).hexdigest()[:8]


# ============================================================== TensorBoard ==
def tb_write(run_dir, clock, scalars, host="gpu-node-07", pid=31337, idx=0):
    """scalars: list of (tag, value, step, seconds_after_start) sorted by time."""
    os.makedirs(run_dir, exist_ok=True)
    start = clock.epoch_seconds()
    name = "events.out.tfevents.%d.%s.%d.%d" % (int(start), host, pid, idx)
    w = tfevents.EventWriter(os.path.join(run_dir, name), start)
    for tag, val, step, dt in scalars:
        w.add_scalar(tag, val, step, start + dt)
    w.close()
    return os.path.join(run_dir, name)


# =================================================================== Keras ==
def keras_epoch_line(n_batches, secs, ms_step, metrics, width=30):
    parts = " - ".join("%s: %s" % (k, fnum(v)) for k, v in metrics)
    return "%d/%d [%s] - %ds %dms/step - %s" % (n_batches, n_batches, "=" * width, int(secs), int(ms_step), parts)
