"""Helpers shared by the layout writers: clocks, formatting, files."""
import datetime as _dt
import json
import math
import os
import random


class Clock:
    """Deterministic wall clock for a rendered run (seconds jittered by a seeded RNG)."""

    def __init__(self, start, seed=0):
        self.t = start if isinstance(start, _dt.datetime) else _dt.datetime.fromisoformat(start)
        self.rng = random.Random(seed)

    def tick(self, sec, jitter=0.08):
        self.t += _dt.timedelta(seconds=sec * (1.0 + self.rng.uniform(-jitter, jitter)))
        return self.t

    def fmt(self, f="%Y-%m-%d %H:%M:%S"):
        return self.t.strftime(f)

    def ms(self):
        return self.t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (self.t.microsecond // 1000)

    def epoch_seconds(self):
        return self.t.replace(tzinfo=_dt.timezone.utc).timestamp()

    def uniform(self, a, b):
        return self.rng.uniform(a, b)


def hms(sec):
    sec = int(round(sec))
    return str(_dt.timedelta(seconds=sec))


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode, encoding="utf-8") as f:
        f.write(text)


def write_json(path, obj, indent=2, sort_keys=False):
    write(path, json.dumps(obj, indent=indent, ensure_ascii=False, sort_keys=sort_keys) + "\n")


def fnum(v, fmt="%.4f"):
    """Format a float the way Python's % formatting prints non-finite values."""
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return fmt % v


def jnum(v):
    """JSON-safe number as Python's json module writes it (NaN/Infinity literals)."""
    return v


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return float("nan")
    if any(isinstance(x, float) and math.isnan(x) for x in s):
        return float("nan")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def epoch_steps(steps, ep):
    return [s for s in steps if s["epoch"] == ep]


def epochs_of(steps):
    out = []
    for s in steps:
        if not out or out[-1] != s["epoch"]:
            out.append(s["epoch"])
    return out
