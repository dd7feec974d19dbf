"""Facts for MANIFEST.json, computed by re-reading the files make_runs.py wrote.

Independent of the writer on purpose: if a line format changes, the facts follow the files.
"""
import csv
import json
import math
import os
import re
import struct

import tfevents

ABOUT = {
    "generator": "tests/gen/make_runs.py (run with /usr/bin/python3, Debian python3-torch 1.13)",
    "values": "floats as printed in the logs (4 decimals) unless noted; non-finite values are "
              "the strings \"nan\", \"inf\", \"-inf\" so this file stays strict JSON",
    "lines": "line numbers are 1-based, counted in the file named next to them",
    "steps": "step = HAT GlobalStep (0-based, counted within each run); epoch-end val lines "
             "have no step in the text log",
    "series": "keyed '<log prefix>/<metric>', e.g. 'qat_train/loss'; 'lr' from the lr= lines",
    "expect": "finding ids the case must trigger; 'allow' ids may also fire; any other id "
              "from finding_ids must not fire",
    "noise": "val sets have 4096 samples: at ~91 % accuracy one standard error is ~0.45 points, "
             "so accuracy differences below ~1 point are noise (not_learning and "
             "multi_gpu_calib end 0.24 / 0.02 points below calibration; healthy ends above)",
    "roles": "folder -> role: float, calibration, qat, quantized (qat_1gpu = a second qat run)",
    "finished": "a run's log ends with its normal closing line (Training/Calibration/Evaluation "
                "finished); crashed = a Python traceback is in the log",
    "batch_and_lr": "header values; calibration and the int8 eval have no lr (not training "
                    "runs), and the int8 eval uses batch 256",
}

PREFIX = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (\w+) \[([^\]]+)\] (.*)$")
STEP = re.compile(r"^Epoch\[(\d+)\] Step\[(\d+)\] GlobalStep\[(\d+)\] (\w+): (.*)$")
LR = re.compile(r"^Epoch\[(\d+)\] Step\[(\d+)\] GlobalStep\[(\d+)\] lr=(\S+)$")
VAL = re.compile(r"^Epoch\[(\d+)\] (\w+): (.*)$")
METRIC = re.compile(r"(\w+)\[([^\]]*)\]")
ROLES = {"float": "float", "calibration": "calibration", "qat": "qat", "qat_1gpu": "qat",
         "quantized": "quantized"}


def jnum(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


class _Series:
    def __init__(self):
        self.points = []  # (step, epoch, value, line)

    def summary(self, path):
        vals = [p[2] for p in self.points]
        finite = [v for v in vals if math.isfinite(v)]
        out = {"points": len(vals), "first": jnum(vals[0]), "last": jnum(vals[-1]),
               "first_step": self.points[0][0], "last_step": self.points[-1][0],
               "min": min(finite) if finite else None, "max": max(finite) if finite else None,
               "nonfinite_points": len(vals) - len(finite), "first_nonfinite": None}
        for step, epoch, v, line in self.points:
            if not math.isfinite(v):
                out["first_nonfinite"] = {"step": step, "epoch": epoch, "value": jnum(v),
                                          "file": path, "line": line}
                break
        return out


def parse_text_log(path, rel):
    series, vals, meta, events = {}, {}, {}, []
    in_config = False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, raw in enumerate(lines, 1):
        m = PREFIX.match(raw)
        if not m:
            if in_config and ": " in raw:
                k, v = raw.split(": ", 1)
                meta[k] = v
            elif raw.startswith("Traceback (most recent call last):"):
                events.append({"kind": "traceback", "line": n})
            elif events and events[-1]["kind"] == "traceback" and raw and not raw.startswith(" "):
                events[-1]["exception"] = raw
                events[-1]["exception_line"] = n
            continue
        in_config = False
        level, msg = m.group(2), m.group(4)
        if msg.startswith("==== config ===="):
            in_config = True
            continue
        if msg.startswith("steps_per_epoch: "):
            meta["steps_per_epoch"] = msg.split(": ", 1)[1]
        if level in ("WARNING", "ERROR"):
            events.append({"kind": level.lower(), "line": n, "message": msg})
        s = STEP.match(msg)
        if s:
            for k, v in METRIC.findall(s.group(5)):
                key = "%s/%s" % (s.group(4), k)
                series.setdefault(key, _Series()).points.append(
                    (int(s.group(3)), int(s.group(1)), float(v), n))
            continue
        s = LR.match(msg)
        if s:
            series.setdefault("lr", _Series()).points.append(
                (int(s.group(3)), int(s.group(1)), float(s.group(4)), n))
            continue
        s = VAL.match(msg)
        if s:
            entry = {"epoch": int(s.group(1)), "line": n}
            entry.update({k: jnum(float(v)) for k, v in METRIC.findall(s.group(3))})
            vals.setdefault(s.group(2), []).append(entry)
    return {"path": rel, "format": "text", "lines": len(lines), "metadata": meta,
            "series": {k: s.summary(rel) for k, s in sorted(series.items())},
            "val": vals, "events": events}


def _fields(buf):
    """Protobuf wire decoding: yields (field, wire type, value bytes or int)."""
    off = 0
    while off < len(buf):
        key, off = _varint(buf, off)
        field, wire = key >> 3, key & 7
        if wire == 0:
            val, off = _varint(buf, off)
        elif wire == 1:
            val, off = buf[off:off + 8], off + 8
        elif wire == 5:
            val, off = buf[off:off + 4], off + 4
        elif wire == 2:
            n, off = _varint(buf, off)
            val, off = buf[off:off + n], off + n
        else:
            raise ValueError("wire type %d" % wire)
        yield field, wire, val


def _varint(buf, off):
    result = shift = 0
    while True:
        b = buf[off]
        off += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, off


def _scalars(event):
    """(step, [(tag, value, 'simple'|'tensor')]) of one Event."""
    step, out = 0, []
    for f, _, v in _fields(event):
        if f == 2:
            step = v
        elif f == 5:
            for vf, _, value in _fields(v):
                if vf != 1:
                    continue
                tag, num, kind = None, None, None
                for ff, _, x in _fields(value):
                    if ff == 1:
                        tag = x.decode()
                    elif ff == 2:
                        num, kind = struct.unpack("<f", x)[0], "simple"
                    elif ff == 8:
                        for tf, _, t in _fields(x):
                            if tf == 5:
                                num, kind = struct.unpack("<f", t[:4])[0], "tensor"
                out.append((tag, num, kind))
    return step, out


def read_tfevents(path):
    """Decodes our own event files back, checking both CRCs of every record."""
    data = open(path, "rb").read()
    off, records = 0, []
    while off < len(data):
        (length,) = struct.unpack_from("<Q", data, off)
        (lcrc,) = struct.unpack_from("<I", data, off + 8)
        body = data[off + 12:off + 12 + length]
        (dcrc,) = struct.unpack_from("<I", data, off + 12 + length)
        assert lcrc == tfevents.masked_crc32c(data[off:off + 8]) and dcrc == tfevents.masked_crc32c(body)
        step, values = _scalars(body)
        records.append({"offset": off, "step": step, "values": values})
        off += 16 + length
    return records


def _last_values(recs):
    last = {}
    for r in recs:
        for tag, value, _ in r["values"]:
            last[tag] = {"step": r["step"], "value": jnum(value)}
    return dict(sorted(last.items()))


def side_file_facts(path, rel):
    name = os.path.basename(path)
    if name.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        bad = [(n, r) for n, r in enumerate(rows[1:], 2)
               if not all(math.isfinite(float(v)) for v in r)]
        return {"path": rel, "format": "csv", "header": rows[0], "rows": len(rows) - 1,
                "first_nonfinite": {"line": bad[0][0], "step": int(bad[0][1][0])} if bad else None}
    if name.endswith(".jsonl"):
        with open(path) as f:
            texts = f.read().splitlines()
        objs = [json.loads(t) for t in texts]
        train = [o for o in objs if "train" in o]
        bad = [(n, o) for n, (t, o) in enumerate(zip(texts, objs), 1)
               if "NaN" in t or "Infinity" in t]
        return {"path": rel, "format": "jsonl", "lines": len(objs), "train_lines": len(train),
                "val_lines": len(objs) - len(train), "nonfinite_lines": len(bad),
                "first_nonfinite": {"line": bad[0][0], "step": bad[0][1]["step"]} if bad else None}
    if name.startswith("events.out.tfevents."):
        recs = read_tfevents(path)
        tags, kinds, first_bad = {}, {}, None
        for i, r in enumerate(recs):
            for tag, value, kind in r["values"]:
                tags[tag] = tags.get(tag, 0) + 1
                kinds[tag] = kind
                if first_bad is None and not math.isfinite(value):
                    first_bad = {"record": i, "offset": r["offset"], "step": r["step"],
                                 "tag": tag, "value": jnum(value)}
        return {"path": rel, "format": "tfevents", "records": len(recs),
                "points_per_tag": dict(sorted(tags.items())),
                "encoding_per_tag": dict(sorted(kinds.items())),
                "last_values_float32": _last_values(recs),
                "first_nonfinite": first_bad}
    return None


def run_facts(case_root, folder):
    full = os.path.join(case_root, folder)
    run = {"role": ROLES[folder], "files": []}
    for name in sorted(os.listdir(full)):
        rel = "%s/%s" % (folder, name)
        path = os.path.join(full, name)
        if name.endswith(".log"):
            info = parse_text_log(path, rel)
            run["files"].append({"path": rel, "format": "text", "lines": info["lines"]})
            run.update({k: info[k] for k in ("metadata", "series", "val", "events")})
            run["finished"] = _finished(path)
        else:
            run["files"].append(side_file_facts(path, rel))
    run["crashed"] = any(e["kind"] == "traceback" for e in run.get("events", []))
    return run


def _finished(path):
    """True when the log's last prefixed line is the stage's normal closing line."""
    last = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            m = PREFIX.match(raw.rstrip("\n"))
            if m:
                last = m.group(4)
    return last in ("Training finished", "Calibration finished", "Evaluation finished")


def _last_val(run, prefix, key="acc"):
    vals = (run or {}).get("val", {}).get(prefix)
    return vals[-1][key] if vals else None


def case_facts(case_root, cfg):
    runs = {d: run_facts(case_root, d) for d in sorted(os.listdir(case_root))
            if os.path.isdir(os.path.join(case_root, d))}
    fl, ca, qa, qu = (runs.get(k) for k in ("float", "calibration", "qat", "quantized"))
    key = {
        "float_last_train_loss": fl["series"]["float_train/loss"]["last"],
        "float_final_val_acc": _last_val(fl, "float_val"),
        "float_val_acc_per_epoch": [v["acc"] for v in fl["val"]["float_val"]],
        "calib_val_acc": _last_val(ca, "calib_val"),
        "qat_first_train_loss": qa["series"]["qat_train/loss"]["first"],
        "qat_last_train_loss": qa["series"]["qat_train/loss"]["last"],
        "qat_final_val_acc": _last_val(qa, "qat_val"),
        "qat_val_acc_per_epoch": [v["acc"] for v in qa["val"].get("qat_val", [])],
        "quantized_val_acc": _last_val(qu, "quantized_val"),
        "float_last_lr": fl["series"]["lr"]["last"],
        "float_max_lr": fl["series"]["lr"]["max"],
        "qat_first_lr": qa["series"]["lr"]["first"],
        "qat_max_lr": qa["series"]["lr"]["max"],
    }
    key["batch_and_lr"] = {
        d: {"batch_size": int(r["metadata"]["batch_size"]),
            "world_size": int(r["metadata"]["world_size"]),
            "total_batch": int(r["metadata"]["batch_size"]) * int(r["metadata"]["world_size"]),
            "lr": float(r["metadata"]["lr"]) if "lr" in r["metadata"] else None}
        for d, r in runs.items()}
    nonfinite = [dict(s["first_nonfinite"], series=k, run=d) for d, r in runs.items()
                 for k, s in r.get("series", {}).items() if s["first_nonfinite"]]
    if nonfinite:
        key["first_nonfinite"] = min(nonfinite, key=lambda e: (e["step"], e["line"], e["series"]))
    crashed = [d for d, r in runs.items() if r["crashed"]]
    if crashed:
        ev = next(e for e in runs[crashed[0]]["events"] if e["kind"] == "traceback")
        key["crash"] = {"run": crashed[0], "traceback_line": ev["line"],
                        "exception": ev.get("exception"), "exception_line": ev.get("exception_line"),
                        "planned_epochs": int(runs[crashed[0]]["metadata"]["epochs"]),
                        "completed_epochs": len(runs[crashed[0]]["val"].get("qat_val", []))}
    return {"description": cfg["desc"], "expect": cfg["expect"], "allow": cfg["allow"],
            "runs": runs, "key": key}
