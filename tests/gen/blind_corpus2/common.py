"""Helpers shared by the layout writers: deterministic clocks, jitter, file output."""
import datetime as dt
import json
import os
import random


class Clock:
    def __init__(self, start, rng, per_iter=0.031):
        self.t = start
        self.rng = rng
        self.per_iter = per_iter

    def tick(self, iters=1, extra=0.0):
        self.t += dt.timedelta(seconds=iters * self.per_iter * (0.9 + 0.2 * self.rng.random()) + extra)
        return self.t


def start_time(seed, day_offset=0, hour=9):
    r = random.Random(seed)
    return dt.datetime(2024, 3 + seed % 8, 1 + (seed * 7) % 27, hour, r.randint(0, 59), r.randint(0, 59)) + \
        dt.timedelta(days=day_offset)


def write(path, text, encoding="utf-8"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding=encoding, newline="") as f:
        f.write(text)


def write_json(path, obj, indent=2):
    write(path, json.dumps(obj, indent=indent, ensure_ascii=False) + "\n")


def jl(obj):
    return json.dumps(obj, ensure_ascii=False)


def fmt_eta(seconds):
    seconds = max(0, int(seconds))
    return str(dt.timedelta(seconds=seconds))


class Stages:
    """Uniform access to one pipeline result."""

    def __init__(self, r):
        self.r = r
        self.F = r.get("float")
        self.C = r.get("calib")
        self.Q = r.get("qat") or r.get("qat_partial")
        self.crash = r.get("qat_traceback")
        self.cfg = r["cfg"]
        q = self.Q or {}
        self.int8_final = q.get("int8_final")
        self.int8_final_eval = q.get("int8_final_eval")

    @property
    def fcfg(self):
        return self.cfg["float"]

    @property
    def qcfg(self):
        return self.cfg.get("qat") or {}

    def traceback(self, script="/data/jobs/cls_qat/train_qat.py"):
        tb = self.crash or ""
        tb = tb.replace(os.path.join(os.path.dirname(os.path.abspath(__file__)), "core.py"), script)
        tb = tb.replace("/usr/lib/python3/dist-packages/", "/opt/conda/lib/python3.10/site-packages/")
        return tb


def last_eval_batches(v):
    """Per-batch (n, loss, acc, acc5) of an evaluation, as recorded by core.evaluate."""
    return v.get("batches") or []
