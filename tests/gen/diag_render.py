"""Writes recorded stages (diag_record.py) in the log layouts users open in QAT Doctor.

Every writer takes a stage *view* (the records turned into what a logger of that kind prints:
HAT's window means every N steps, Lightning's value of every N-th batch, epoch means, ...) and
returns what it *shows*: files written, the metadata a reader can find in them, the training and
evaluation points as written (rounded as the layout rounds) and the text events. The manifest's
facts (diag_facts.py) are computed from these shown values only.

Layouts (see tests/data/logs/wild/README.md for what the reader understands):
  hat          HAT text, `Epoch[e] Step[s] GlobalStep[g] prefix: k[v]` + `lr=` lines, one file a stage
  hat_combined several stages in one HAT console capture, with `BEGIN <STAGE> STAGE` banners
  lightning    PyTorch Lightning CSVLogger: lightning_logs/version_N/metrics.csv + hparams.yaml
  tensorboard  torch.utils.tensorboard SummaryWriter event file only (tests/gen/tfevents.py)
  per_epoch    Python logging '%(asctime)s - %(levelname)s - %(message)s', one line per epoch
  pylogging    logging.basicConfig default format 'INFO:root:...', argparse Namespace first
  hf           Hugging Face Trainer trainer_state.json (+ eval_results.json for eval-only runs)
"""
import json
import logging
import math
import os
import pprint
import struct

import hat_log
import tfevents

BANNER = "=" * 50


# --- views ------------------------------------------------------------------------------

def _mean(vals):
    return sum(vals) / len(vals)


def view(record, policy, n):
    """The record's points as a logger with `policy` (window|batch|hf) every n steps logs them."""
    steps = [e for e in record["entries"] if e["kind"] == "step"]
    other = [e for e in record["entries"] if e["kind"] != "step"]
    points = []
    if policy == "window":
        # HAT / plain scripts: mean of the last n steps, window restarted every epoch; the
        # calibration loop also logs its last, partial window.
        by_epoch = {}
        for e in steps:
            by_epoch.setdefault(e["epoch"], []).append(e)
        for epoch, es in sorted(by_epoch.items()):
            win = []
            for i, e in enumerate(es):
                win.append(e)
                last = i + 1 == len(es) and record["role"] == "calibration"
                if (e["step"] + 1) % n == 0 or last:
                    points.append(_point(win, e))
                    win = []
    elif policy == "batch":
        # Lightning's log_every_n_steps: the value of that batch, no averaging.
        points = [_point([e], e) for e in steps if (e["gstep"] + 1) % n == 0]
    elif policy == "hf":
        # HF Trainer: mean since the last log, every n optimizer steps, counted globally.
        win = []
        for e in steps:
            win.append(e)
            if (e["gstep"] + 1) % n == 0:
                points.append(_point(win, e))
                win = []
    else:
        raise ValueError(policy)
    epochs = []
    by_epoch = {}
    for e in steps:
        by_epoch.setdefault(e["epoch"], []).append(e)
    for epoch, es in sorted(by_epoch.items()):
        p = _point(es, es[-1])
        p["lr"] = es[0]["lr"]  # per-epoch logs print the epoch's lr
        epochs.append(p)
    vals = [dict(epoch=e["epoch"], gstep=e["gstep"], t=e["t"], prefix=e["prefix"],
                 metrics=e["metrics"]) for e in other if e["kind"] == "val"]
    cfg_entry = next((e for e in other if e["kind"] == "config"), None)
    config = dict(cfg_entry["items"]) if cfg_entry else {}
    return {"name": record["name"], "role": record["role"], "cfg": record["cfg"],
            "points": points, "epochs": epochs, "val": vals, "entries": other,
            "config": config, "params": record["params"], "n": n, "policy": policy,
            "log_name": record["log_name"],
            "prefix": steps[0]["prefix"] if steps else None}


def _point(win, last):
    return {"epoch": last["epoch"], "step": last["step"], "gstep": last["gstep"], "t": last["t"],
            "loss": _mean([w["metrics"]["loss"] for w in win]),
            "acc": _mean([w["metrics"]["acc"] for w in win]), "lr": last["lr"]}


def _r4(v):
    return float("%.4f" % v)


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def _shown(files, metadata, train, val, events, extra=None):
    return {"files": files, "metadata": metadata, "train": train, "val": val, "events": events,
            "stage_series": extra or {}}


def _events(v):
    ev = {"traceback": False, "warnings": []}
    for e in v["entries"]:
        if e["kind"] == "exception":
            ev["traceback"] = True
            ev["exception"] = e["tb"].splitlines()[-1]
        elif e["kind"] == "warning":
            ev["warnings"].append(e["msg"].splitlines()[0][:160])
    return ev


def _val_points(v, rnd):
    return [{"epoch": x["epoch"], "gstep": x["gstep"],
             "acc": rnd(x["metrics"]["acc"]), "loss": rnd(x["metrics"]["loss"])} for x in v["val"]]


def _train_points(pts, rnd, lr=True):
    return [{"epoch": p["epoch"], "gstep": p["gstep"], "loss": rnd(p["loss"]), "acc": rnd(p["acc"]),
             "lr": p["lr"] if lr else None} for p in pts]


# --- HAT text ---------------------------------------------------------------------------

class ReplayClock:
    """Gives the logging filter the recorded times (+0.4 ms for a second line of one call)."""

    def __init__(self, t):
        self.t = t

    def now(self):
        t = self.t
        self.t += 0.0004
        return t


def _config_items(v, n):
    return [(k, n if k == "log_freq" else val) for k, val in v["config"].items()]


def _hat_items(v, n, march=None):
    """Time-ordered (t, kind, payload) of one stage as HAT prints it."""
    items = []
    for e in v["entries"]:
        if e["kind"] == "config":
            cfg = _config_items(v, n)
            if march:
                cfg = [(k, march if k == "march" else val) for k, val in cfg]
            items.append((e["t"], "config", cfg))
        elif e["kind"] != "close":
            items.append((e["t"], e["kind"], e))
    for p in v["points"]:
        items.append((p["t"], "point", p))
    items.sort(key=lambda x: x[0])
    return items


def _hat_emit(log, clock, item, prefix):
    t, kind, e = item
    clock.t = t
    if kind == "config":
        log.config(e)
    elif kind == "info":
        log.info(e["msg"], e["src"])
    elif kind == "warning":
        log.warning(e["msg"], e["src"])
    elif kind == "exception":
        log.logger.error(e["msg"] + "\n" + e["tb"], extra={"src": e["src"]})
    elif kind == "point":
        lr = e["lr"] if prefix != "calibration" else None
        log.step_metrics(e["epoch"], e["step"], e["gstep"], prefix,
                         [("loss", e["loss"]), ("acc", e["acc"])], lr)
    elif kind == "val":
        log.epoch_metrics(e["epoch"], e["prefix"], list(e["metrics"].items()))
    elif kind == "ckpt":
        log.checkpoint(e["epoch"], e["name"])
    elif kind == "raw":
        log.handler.flush()
        log.handler.stream.write(e + "\n")
    else:
        raise ValueError(kind)


def _hat_metadata(v, march=None):
    meta = {k: str(val) for k, val in v["config"].items()}
    if march:
        meta["march"] = march
    return meta


def _hat_shown(v, files, march=None, extra=None):
    train = _train_points(v["points"], _r4, lr=v["role"] != "calibration")
    return _shown(files, _hat_metadata(v, march), train, _val_points(v, _r4), _events(v), extra)


def write_hat(case_dir, folder, v, n, calib_view=None, march=None):
    """<folder>/train.log (eval.log for the int8 eval). calib_view: the QAT script also prints
    the loaded calibration model's accuracy (`calib_val:`) before training."""
    path = os.path.join(case_dir, folder)
    items = _hat_items(v, n, march)
    extra = None
    if calib_view is not None:
        cv = next(x for x in calib_view["val"] if x["prefix"] == "calib_val")
        i = next(k for k, it in enumerate(items)
                 if it[1] == "info" and it[2]["msg"].startswith("Load calibration checkpoint"))
        t0 = items[i][0]
        shift = 3.2  # evaluating 4096 images
        items = items[:i + 1] + [
            (t0 + 0.002, "info", {"msg": "Evaluate the calibrated model before QAT", "src": hat_log.SRC_TRAIN}),
            (t0 + shift, "val", {"epoch": 0, "prefix": "calib_val", "metrics": cv["metrics"]}),
        ] + [(t + shift + 0.01, k, e) for t, k, e in items[i + 1:]]
        extra = {"calibration": {"acc": _r4(cv["metrics"]["acc"]), "loss": _r4(cv["metrics"]["loss"])}}
    clock = ReplayClock(items[0][0])
    log = hat_log.StageLog(path, clock, log_name=v["log_name"])
    for it in items:
        _hat_emit(log, clock, it, v["prefix"])
    log.close()
    return _hat_shown(v, ["%s/%s" % (folder, v["log_name"])], march, extra)


STAGE_COMMANDS = {
    "float": ("+ python3 tools/train.py --stage float --config configs/classification/tinynet_cls.py",
              "BEGIN FLOAT STAGE", "END FLOAT STAGE"),
    "calibration": ("+ python3 tools/train.py --stage calibration --config configs/classification/tinynet_cls.py",
                    "BEGIN CALIBRATION STAGE", "END CALIBRATION STAGE"),
    "qat": ("+ python3 tools/train.py --stage qat --config configs/classification/tinynet_cls.py",
            "BEGIN QAT STAGE", "END QAT STAGE"),
    "quantized": ("+ python3 tools/predict.py --stage int_infer --config configs/classification/tinynet_cls.py",
                  "BEGIN INT_INFER PREDICT", "END INT_INFER PREDICT"),
}


def write_hat_combined(case_dir, rel_file, views, n):
    """One console capture of a shell script running the stages back to back (set -e: a crash
    ends the file)."""
    path = os.path.join(case_dir, rel_file)
    folder, name = os.path.split(path)
    os.makedirs(folder, exist_ok=True)
    first_t = min(e["t"] for e in views[0]["entries"])
    clock = ReplayClock(first_t)
    log = hat_log.StageLog(folder, clock, log_name=name)
    shown = {}
    for v in views:
        cmd, begin, end = STAGE_COMMANDS[v["role"]]
        items = _hat_items(v, n)
        t0, t1 = items[0][0], items[-1][0]
        src = ("predict.py", 118) if v["role"] == "quantized" else ("train.py", 172)
        _hat_emit(log, clock, (t0 - 2.0, "raw", cmd), v["prefix"])
        _hat_emit(log, clock, (t0 - 1.0, "info", {"msg": BANNER + begin + BANNER, "src": src}), v["prefix"])
        crashed = False
        for it in items:
            _hat_emit(log, clock, it, v["prefix"])
            crashed |= it[1] == "exception"
        if crashed:
            shown[v["name"]] = _hat_shown(v, [rel_file])
            break
        src = ("predict.py", 140) if v["role"] == "quantized" else ("train.py", 187)
        _hat_emit(log, clock, (t1 + 0.5, "info", {"msg": BANNER + end + BANNER, "src": src}), v["prefix"])
        shown[v["name"]] = _hat_shown(v, [rel_file])
    log.close()
    return shown


# --- PyTorch Lightning CSVLogger ----------------------------------------------------------

_HPARAM_KEYS = [("batch_size", "batch_size"), ("epochs", "max_epochs"), ("lr", "lr"),
                ("lr_scheduler", "lr_scheduler"), ("lr_step_size", "step_size"),
                ("lr_gamma", "gamma"), ("pct_start", "pct_start"), ("momentum", "momentum"),
                ("weight_decay", "weight_decay"), ("march", "march"),
                ("num_calib_batches", "num_calib_batches"), ("seed", "seed"),
                ("training_step", "stage")]


def _csv_num(v):
    return repr(f32(v)) if math.isfinite(v) else str(float(v))


def write_lightning(case_dir, folder, v, n, version=0):
    """<folder>/lightning_logs/version_<N>/{metrics.csv, hparams.yaml}; the LightningModule logs
    train_loss/train_acc on_step and on_epoch, val_loss/val_acc, LearningRateMonitor's lr-SGD."""
    rel = "%s/lightning_logs/version_%d" % (folder, version)
    path = os.path.join(case_dir, rel)
    os.makedirs(path, exist_ok=True)
    cols = ["epoch", "lr-SGD", "step", "train_acc_epoch", "train_acc_step", "train_loss_epoch",
            "train_loss_step", "val_acc", "val_loss"]
    rows = []
    training = bool(v["points"]) and v["role"] != "calibration"
    if training:
        pts = {p["gstep"]: p for p in v["points"]}
        vals = {x["epoch"]: x for x in v["val"]}
        epoch_means = {p["epoch"]: p for p in v["epochs"]}
        last_step = {}
        for p in v["points"]:
            last_step[p["epoch"]] = p["gstep"]
        for ep in sorted(epoch_means):
            for g, p in sorted(pts.items()):
                if p["epoch"] != ep:
                    continue
                rows.append({"lr-SGD": repr(float(p["lr"])), "step": str(g)})  # a float, no tensor
                rows.append({"epoch": str(ep), "step": str(g), "train_acc_step": _csv_num(p["acc"]),
                             "train_loss_step": _csv_num(p["loss"])})
            if ep in vals:
                g = vals[ep]["gstep"]
                rows.append({"epoch": str(ep), "step": str(g),
                             "val_acc": _csv_num(vals[ep]["metrics"]["acc"]),
                             "val_loss": _csv_num(vals[ep]["metrics"]["loss"])})
                rows.append({"epoch": str(ep), "step": str(g),
                             "train_acc_epoch": _csv_num(epoch_means[ep]["acc"]),
                             "train_loss_epoch": _csv_num(epoch_means[ep]["loss"])})
    else:
        # trainer.validate() of the calibrated / converted model
        x = v["val"][-1]
        rows.append({"epoch": "0", "step": "0", "val_acc": _csv_num(x["metrics"]["acc"]),
                     "val_loss": _csv_num(x["metrics"]["loss"])})
    with open(os.path.join(path, "metrics.csv"), "w", newline="") as f:
        f.write(",".join(cols) + "\r\n")
        for r in rows:
            f.write(",".join(r.get(c, "") for c in cols) + "\r\n")
    hp = {}
    for key, name in _HPARAM_KEYS:
        if key in v["config"] and v["config"][key] not in ("None",):
            hp[name] = v["config"][key]
    hp["devices"] = v["config"].get("world_size", 1)
    hp["log_every_n_steps"] = n
    with open(os.path.join(path, "hparams.yaml"), "w") as f:
        for k in sorted(hp):
            f.write("%s: %s\n" % (k, hp[k]))
    shown_train = ([{"epoch": p["epoch"], "gstep": p["gstep"], "loss": f32(p["loss"]),
                     "acc": f32(p["acc"]), "lr": p["lr"]} for p in v["points"]]
                   if training else [])
    vals = [{"epoch": x["epoch"], "gstep": x["gstep"] if training else 0,
             "acc": f32(x["metrics"]["acc"]), "loss": f32(x["metrics"]["loss"])}
            for x in v["val"] if training or x is v["val"][-1]]
    out = _shown(["%s/metrics.csv" % rel, "%s/hparams.yaml" % rel],
                 {k: str(val) for k, val in hp.items()}, shown_train, vals,
                 {"traceback": False, "warnings": []})
    if training:  # train_loss_epoch / train_acc_epoch: the means over every batch
        out["train_epoch"] = [{"epoch": p["epoch"], "gstep": p["gstep"], "loss": f32(p["loss"]),
                               "acc": f32(p["acc"])} for p in v["epochs"]]
    return out


# --- TensorBoard --------------------------------------------------------------------------

def write_tensorboard(case_dir, folder, v, n):
    """SummaryWriter(log_dir=<folder>): add_scalar per value (train/loss, train/acc, train/lr
    every n steps as window means; val/loss, val/acc after each epoch at its last step)."""
    path = os.path.join(case_dir, folder)
    os.makedirs(path, exist_ok=True)
    t0 = min(e["t"] for e in v["entries"])
    w = tfevents.EventWriter(t0)
    training = v["role"] in ("float", "qat")
    items = []
    if training:
        for p in v["points"]:
            items += [(p["t"], p["gstep"], "train/loss", p["loss"]), (p["t"], p["gstep"], "train/acc", p["acc"]),
                      (p["t"], p["gstep"], "train/lr", p["lr"])]
        for x in v["val"]:
            items += [(x["t"], x["gstep"], "val/loss", x["metrics"]["loss"]),
                      (x["t"], x["gstep"], "val/acc", x["metrics"]["acc"])]
    else:
        x = v["val"][-1]
        items += [(x["t"], 0, "val/loss", x["metrics"]["loss"]), (x["t"], 0, "val/acc", x["metrics"]["acc"])]
    items.sort(key=lambda i: i[0])
    for t, step, tag, value in items:
        w.add(t, step, scalars=[(tag, value)])
    name = "events.out.tfevents.%d.gpu-node0.%d.0" % (int(t0), 4000 + len(folder))
    with open(os.path.join(path, name), "wb") as f:
        f.write(w.data())
    train = ([{"epoch": p["epoch"], "gstep": p["gstep"], "loss": f32(p["loss"]), "acc": f32(p["acc"]),
               "lr": f32(p["lr"])} for p in v["points"]] if training else [])
    vals = ([{"epoch": x["epoch"], "gstep": x["gstep"], "acc": f32(x["metrics"]["acc"]),
              "loss": f32(x["metrics"]["loss"])} for x in v["val"]] if training else
            [{"epoch": 0, "gstep": 0, "acc": f32(v["val"][-1]["metrics"]["acc"]),
              "loss": f32(v["val"][-1]["metrics"]["loss"])}])
    return _shown(["%s/%s" % (folder, name)], {}, train, vals, {"traceback": False, "warnings": []})


# --- Python logging -----------------------------------------------------------------------

def _logger(path, fmt):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    logger = logging.getLogger("qatdiag." + path)
    logger.handlers.clear()
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(hat_log._Formatter(fmt))
    return logger, handler


class _Lines:
    """Emits (t, level, message, logger name) through the real logging module."""

    def __init__(self, path, fmt, t0):
        self.logger, self.handler = _logger(path, fmt)
        self.clock = ReplayClock(t0)
        self.handler.addFilter(hat_log._ClockFilter(self.clock))
        self.logger.addHandler(self.handler)

    def emit(self, t, level, msg, lname="root"):
        self.clock.t = t
        self.logger.log(level, msg, extra={"lname": lname})

    def close(self):
        self.handler.close()
        self.logger.removeHandler(self.handler)


_SCRIPT_KEYS = ["training_step", "batch_size", "world_size", "epochs", "lr", "optimizer",
                "momentum", "weight_decay", "lr_scheduler", "lr_step_size", "lr_gamma",
                "max_lr", "pct_start", "num_calib_batches", "march", "seed"]


def _script_config(v, rename=None):
    out = {}
    for k in _SCRIPT_KEYS:
        if k in v["config"] and v["config"][k] != "None":
            val = v["config"][k]
            if isinstance(val, str) and k not in ("march", "lr_scheduler", "optimizer",
                                                  "training_step"):
                try:
                    val = float(val) if "." in val or "e" in val else int(val)
                except ValueError:
                    pass
            out[(rename or {}).get(k, k)] = val
    return out


def _text_events(v):
    """Non-metric lines a plain script prints: warnings, tracebacks, its own info lines."""
    for e in v["entries"]:
        if e["kind"] in ("warning", "exception"):
            yield e
        elif e["kind"] == "info" and (e["msg"].startswith("parameters ") or
                                      e["msg"].startswith("CUDA")):
            yield e


def write_per_epoch(case_dir, folder, v):
    """A plain script logging once per epoch: '<asctime> - INFO - Epoch e/E - Loss: x, Acc: y,
    LR: z' then '... - Val Loss: x, Val Acc: y'; eval-only scripts print one Val line."""
    rel = "%s/train.log" % folder
    path = os.path.join(case_dir, rel)
    t0 = min(e["t"] for e in v["entries"])
    out = _Lines(path, "%(asctime)s - %(levelname)s - %(message)s", t0)
    cfg = _script_config(v, {"training_step": "stage"})
    out.emit(t0, logging.INFO, pprint.pformat(cfg, width=60))
    epochs = int(v["config"].get("epochs", 1))
    training = v["role"] in ("float", "qat")
    items = [(e["t"], "event", e) for e in _text_events(v)]
    if training:
        for p in v["epochs"]:
            items.append((p["t"] + 0.0001, "epoch", p))
        for x in v["val"]:
            items.append((x["t"], "val", x))
    else:
        items.append((v["val"][-1]["t"], "val", v["val"][-1]))
    items.sort(key=lambda i: i[0])
    for t, kind, e in items:
        if kind == "event":
            level = {"warning": logging.WARNING, "exception": logging.ERROR}.get(e["kind"], logging.INFO)
            out.emit(t, level, e["msg"] + ("\n" + e["tb"] if e["kind"] == "exception" else ""))
        elif kind == "epoch":
            out.emit(t, logging.INFO, "Epoch %d/%d - Loss: %.4f, Acc: %.4f, LR: %.6f"
                     % (e["epoch"] + 1, epochs, e["loss"], e["acc"], e["lr"]))
        elif training:
            out.emit(t, logging.INFO, "Epoch %d/%d - Val Loss: %.4f, Val Acc: %.4f"
                     % (e["epoch"] + 1, epochs, e["metrics"]["loss"], e["metrics"]["acc"]))
        else:
            what = "Calibrated model" if v["role"] == "calibration" else "Quantized (int8) model"
            out.emit(t, logging.INFO, "%s - Val Loss: %.4f, Val Acc: %.4f"
                     % (what, e["metrics"]["loss"], e["metrics"]["acc"]))
    out.close()
    train = ([{"epoch": p["epoch"], "gstep": p["gstep"], "loss": _r4(p["loss"]), "acc": _r4(p["acc"]),
               "lr": p["lr"]} for p in v["epochs"]] if training else [])
    vals = ([{"epoch": x["epoch"], "gstep": x["gstep"], "acc": _r4(x["metrics"]["acc"]),
              "loss": _r4(x["metrics"]["loss"])} for x in v["val"]] if training else
            [{"epoch": 0, "gstep": 0, "acc": _r4(v["val"][-1]["metrics"]["acc"]),
              "loss": _r4(v["val"][-1]["metrics"]["loss"])}])
    return _shown([rel], {k: str(x) for k, x in cfg.items()}, train, vals, _events(v))


def _namespace(cfg):
    parts = []
    for k, val in cfg.items():
        parts.append("%s=%r" % (k, val))
    return "Namespace(%s)" % ", ".join(parts)


def write_pylogging(case_dir, folder, v, n):
    """logging.basicConfig(level=INFO) + logging.captureWarnings(True): 'INFO:root:epoch e step
    i/N train_loss: x train_acc: y lr: z' every n steps (window means), 'INFO:root:epoch e
    val_loss: x val_acc: y' after each epoch."""
    rel = "%s/train.log" % folder
    path = os.path.join(case_dir, rel)
    t0 = min(e["t"] for e in v["entries"])
    out = _Lines(path, "%(levelname)s:%(lname)s:%(message)s", t0)
    cfg = _script_config(v, {"training_step": "stage"})
    out.emit(t0, logging.INFO, _namespace(cfg))
    items = [(e["t"], "event", e) for e in _text_events(v)]
    spe = None
    for e in v["entries"]:
        if e["kind"] == "info" and e["msg"].startswith("steps_per_epoch: "):
            spe = int(e["msg"].split(": ")[1])
    training = v["role"] in ("float", "qat")
    if training:
        items += [(p["t"], "point", p) for p in v["points"]]
        items += [(x["t"], "val", x) for x in v["val"]]
    elif v["role"] == "calibration":
        items += [(p["t"], "calib", p) for p in v["points"]]
        items.append((v["val"][-1]["t"], "val", v["val"][-1]))
    else:
        items.append((v["val"][-1]["t"], "val", v["val"][-1]))
    items.sort(key=lambda i: i[0])
    nb = int(v["config"].get("num_calib_batches", 0) or 0) // int(v["config"].get("world_size", 1))
    for t, kind, e in items:
        if kind == "event":
            if e["kind"] == "exception":
                out.emit(t, logging.ERROR, e["msg"] + "\n" + e["tb"])
            elif e["kind"] == "warning" and e["src"] == hat_log.SRC_WARN:
                out.emit(t, logging.WARNING, e["msg"], "py.warnings")
            else:
                out.emit(t, logging.WARNING if e["kind"] == "warning" else logging.INFO, e["msg"])
        elif kind == "point":
            out.emit(t, logging.INFO, "epoch %d step %d/%d train_loss: %.4f train_acc: %.4f lr: %.6f"
                     % (e["epoch"], e["step"] + 1, spe, e["loss"], e["acc"], e["lr"]))
        elif kind == "calib":
            out.emit(t, logging.INFO, "calibration batch %d/%d loss: %.4f acc: %.4f"
                     % (e["step"] + 1, nb, e["loss"], e["acc"]))
        elif training:
            out.emit(t, logging.INFO, "epoch %d val_loss: %.4f val_acc: %.4f"
                     % (e["epoch"], e["metrics"]["loss"], e["metrics"]["acc"]))
        else:
            what = "calibrated" if v["role"] == "calibration" else "int8"
            out.emit(t, logging.INFO, "%s model val_loss: %.4f val_acc: %.4f"
                     % (what, e["metrics"]["loss"], e["metrics"]["acc"]))
    out.close()
    train = (_train_points(v["points"], _r4) if training else
             _train_points(v["points"], _r4, lr=False) if v["role"] == "calibration" else [])
    vals = ([{"epoch": x["epoch"], "gstep": x["gstep"], "acc": _r4(x["metrics"]["acc"]),
              "loss": _r4(x["metrics"]["loss"])} for x in v["val"]] if training else
            [{"epoch": 0, "gstep": 0, "acc": _r4(v["val"][-1]["metrics"]["acc"]),
              "loss": _r4(v["val"][-1]["metrics"]["loss"])}])
    return _shown([rel], {k: str(x) for k, x in cfg.items()}, train, vals, _events(v))


# --- Hugging Face Trainer -----------------------------------------------------------------

def write_hf(case_dir, folder, v, n):
    """Trainer(output_dir=<folder>, logging_steps=n, evaluation_strategy='epoch',
    logging_nan_inf_filter=False); trainer.save_state(). Eval-only stages (calibration, int8)
    call trainer.evaluate(), save_metrics('eval') and save_state()."""
    path = os.path.join(case_dir, folder)
    os.makedirs(path, exist_ok=True)
    training = v["role"] in ("float", "qat")
    spe = None
    for e in v["entries"]:
        if e["kind"] == "info" and e["msg"].startswith("steps_per_epoch: "):
            spe = int(e["msg"].split(": ")[1])
    hist, files = [], []
    batch = int(v["config"].get("batch_size", 32))
    if training:
        items = [(p["t"], "p", p) for p in v["points"]] + [(x["t"], "v", x) for x in v["val"]]
        items.sort(key=lambda i: i[0])
        for _, kind, e in items:
            if kind == "p":
                hist.append({"epoch": round((e["gstep"] + 1) / spe, 4), "learning_rate": e["lr"],
                             "loss": round(e["loss"], 4), "step": e["gstep"] + 1})
            else:
                hist.append({"epoch": float(e["epoch"] + 1), "eval_accuracy": e["metrics"]["acc"],
                             "eval_loss": e["metrics"]["loss"], "eval_runtime": 3.2104,
                             "eval_samples_per_second": 1275.85, "eval_steps_per_second": 4.984,
                             "step": e["gstep"] + 1})
        steps = [e for e in v["points"]]
        epochs = int(v["config"]["epochs"])
        total = epochs * spe
        losses = [p["loss"] for p in v["epochs"]]
        hist.append({"epoch": float(epochs), "step": total, "total_flos": 0.0,
                     "train_loss": sum(losses) / len(losses),
                     "train_runtime": round(steps[-1]["t"] - v["entries"][0]["t"], 4),
                     "train_samples_per_second": 141.3, "train_steps_per_second": 4.416})
        state = {"best_metric": None, "best_model_checkpoint": None, "epoch": float(epochs),
                 "eval_steps": spe, "global_step": total, "is_hyper_param_search": False,
                 "is_local_process_zero": True, "is_world_process_zero": True,
                 "log_history": hist, "logging_steps": n, "max_steps": total,
                 "num_input_tokens_seen": 0, "num_train_epochs": epochs, "save_steps": 500,
                 "total_flos": 0.0, "train_batch_size": batch, "trial_name": None,
                 "trial_params": None}
    else:
        x = v["val"][-1]
        ev = {"epoch": 0.0, "eval_accuracy": x["metrics"]["acc"], "eval_loss": x["metrics"]["loss"],
              "eval_runtime": 3.1877, "eval_samples_per_second": 1284.94,
              "eval_steps_per_second": 5.019}
        hist = [dict(ev, step=0)]
        state = {"best_metric": None, "best_model_checkpoint": None, "epoch": 0.0,
                 "eval_steps": 500, "global_step": 0, "is_hyper_param_search": False,
                 "is_local_process_zero": True, "is_world_process_zero": True,
                 "log_history": hist, "logging_steps": n, "max_steps": 0,
                 "num_input_tokens_seen": 0, "num_train_epochs": 0, "save_steps": 500,
                 "total_flos": 0.0, "train_batch_size": batch, "trial_name": None,
                 "trial_params": None}
        with open(os.path.join(path, "eval_results.json"), "w") as f:
            f.write(json.dumps(ev, indent=4, sort_keys=True) + "\n")
        files.append("%s/eval_results.json" % folder)
    with open(os.path.join(path, "trainer_state.json"), "w") as f:
        f.write(json.dumps(state, indent=2, sort_keys=True) + "\n")
    files.insert(0, "%s/trainer_state.json" % folder)
    train = ([{"epoch": p["epoch"], "gstep": p["gstep"] + 1, "loss": round(p["loss"], 4),
               "acc": None, "lr": p["lr"]} for p in v["points"]] if training else [])
    vals = ([{"epoch": x["epoch"], "gstep": x["gstep"] + 1, "acc": x["metrics"]["acc"],
              "loss": x["metrics"]["loss"]} for x in v["val"]] if training else
            [{"epoch": 0, "gstep": 0, "acc": v["val"][-1]["metrics"]["acc"],
              "loss": v["val"][-1]["metrics"]["loss"]}])
    return _shown(files, {"train_batch_size": str(batch)}, train, vals,
                  {"traceback": False, "warnings": []})
