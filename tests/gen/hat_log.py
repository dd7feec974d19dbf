"""HAT-style training log writer (text log + optional CSV / JSONL / tfevents side files).

The text lines follow HAT's MetricUpdater / LrUpdater formats (see
the HAT repository's metric and lr updaters) behind a Python-logging prefix:

    %(asctime)s %(levelname)s [%(filename)s:%(lineno)d] %(message)s
    2026-11-02 10:00:01,123 INFO [metric_updater.py:120] Epoch[0] Step[7] GlobalStep[7] float_train: loss[1.3862] acc[0.2500] 

Time stamps come from a simulated clock (fixed start, deterministic step durations) so the
files are byte-identical on every run; they are UTC. The real logging module is used, so
tracebacks are formatted exactly as `logging.exception` does it.
"""
import json
import logging
import os
import random
import time

import tfevents

LOG_FORMAT = "%(asctime)s %(levelname)s [%(filename)s:%(lineno)d] %(message)s"

# (filename, lineno) shown in the prefix, mimicking where HAT emits each kind of line.
SRC_CONFIG = ("train.py", 30)
SRC_TRAIN = ("train.py", 42)
SRC_METRIC = ("metric_updater.py", 120)
SRC_VAL = ("metric_updater.py", 150)
SRC_LR = ("lr_updater.py", 80)
SRC_CKPT = ("checkpoint.py", 212)
SRC_LOAD = ("checkpoint.py", 98)
SRC_CRASH = ("train.py", 288)
SRC_WARN = ("warnings.py", 109)

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Clock:
    """Simulated wall clock: each training step takes 0.20-0.25 s, each log call 1 ms."""

    def __init__(self, start: float, seed: int):
        self.t = start
        self.rng = random.Random(seed)

    def step(self, seconds: float = 0.20):
        self.t += seconds + 0.05 * self.rng.random()

    def now(self) -> float:
        self.t += 0.001
        return self.t


class _ClockFilter(logging.Filter):
    def __init__(self, clock: Clock):
        super().__init__()
        self.clock = clock

    def filter(self, record):
        t = self.clock.now()
        record.created = t
        record.msecs = (t - int(t)) * 1000.0
        src = getattr(record, "src", None)
        if src:
            record.filename, record.lineno = src
        return True


class _Formatter(logging.Formatter):
    converter = time.gmtime

    def formatException(self, ei):
        # Paths relative to the repository so the committed logs do not depend on the checkout.
        return super().formatException(ei).replace(REPO_ROOT + os.sep, "")


class StageLog:
    """One run folder: train.log (or eval.log) plus optional side-by-side metric files."""

    def __init__(self, folder: str, clock: Clock, log_name: str = "train.log",
                 csv=False, jsonl=False, tfevents_host=None):
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.clock = clock
        self.path = os.path.join(folder, log_name)
        self.logger = logging.getLogger("qatgen." + self.path)
        self.logger.handlers.clear()
        self.logger.propagate = False
        self.logger.setLevel(logging.DEBUG)
        self.handler = logging.FileHandler(self.path, mode="w", encoding="utf-8")
        self.handler.setFormatter(_Formatter(LOG_FORMAT))
        self.handler.addFilter(_ClockFilter(clock))
        self.logger.addHandler(self.handler)
        self.csv = open(os.path.join(folder, "metrics.csv"), "w") if csv else None
        if self.csv:
            self.csv.write("step,epoch,loss,acc,lr\n")
        self.jsonl = open(os.path.join(folder, "metrics.jsonl"), "w") if jsonl else None
        self.tb_host = tfevents_host
        self.tb = tfevents.EventWriter(clock.t) if tfevents_host else None
        self.tb_start = int(clock.t)

    # --- text lines ---------------------------------------------------------------------
    def info(self, msg, src=SRC_TRAIN):
        self.logger.info(msg, extra={"src": src})

    def warning(self, msg, src=SRC_TRAIN):
        self.logger.warning(msg, extra={"src": src})

    def exception(self, msg, src=SRC_CRASH):
        self.logger.exception(msg, extra={"src": src})

    def config(self, items):
        """HAT prints the config as one multi-line message: only its first line is prefixed."""
        body = "\n".join("%s: %s" % (k, v) for k, v in items)
        self.info("==== config ====\n" + body, SRC_CONFIG)

    def step_metrics(self, epoch, step, gstep, prefix, metrics, lr=None):
        line = "Epoch[%d] Step[%d] GlobalStep[%d] %s: " % (epoch, step, gstep, prefix)
        for k, v in metrics:
            line += "%s[%.4f] " % (k, v)
        self.info(line, SRC_METRIC)
        if lr is not None:
            self.info("Epoch[%d] Step[%d] GlobalStep[%d] lr=%f" % (epoch, step, gstep, lr), SRC_LR)
        m = dict(metrics)
        if self.csv:
            self.csv.write("%d,%d,%s,%s,%s\n" % (gstep, epoch, _num(m.get("loss")),
                                                  _num(m.get("acc")), _num(lr)))
        if self.jsonl:
            obj = {"step": gstep, "epoch": epoch, "train": m}
            if lr is not None:
                obj["lr"] = lr
            self.jsonl.write(json.dumps(obj) + "\n")
        if self.tb:
            scalars = [("%s/%s" % (prefix, k), v) for k, v in metrics]
            if lr is not None:
                scalars.append(("lr", lr))
            self.tb.add(self.clock.t, gstep, scalars=scalars)

    def epoch_metrics(self, epoch, prefix, metrics, gstep=None):
        line = "Epoch[%d] %s: " % (epoch, prefix)
        for k, v in metrics:
            line += "%s[%.4f] " % (k, v)
        self.info(line, SRC_VAL)
        if self.jsonl and gstep is not None:
            self.jsonl.write(json.dumps({"step": gstep, "epoch": epoch, "val": dict(metrics)}) + "\n")
        if self.tb and gstep is not None:
            # Validation scalars go in as `tensor` values, so both scalar encodings are covered.
            self.tb.add(self.clock.t, gstep, tensors=[("%s/%s" % (prefix, k), v) for k, v in metrics])

    def checkpoint(self, epoch, name):
        self.info("Epoch %d | Training checkpoint saved at ./%s" % (epoch, name), SRC_CKPT)

    def close(self):
        self.handler.close()
        self.logger.removeHandler(self.handler)
        for f in (self.csv, self.jsonl):
            if f:
                f.close()
        if self.tb:
            name = "events.out.tfevents.%d.%s" % (self.tb_start, self.tb_host)
            with open(os.path.join(self.folder, name), "wb") as f:
                f.write(self.tb.data())


def _num(v):
    return "" if v is None else repr(float(v))
