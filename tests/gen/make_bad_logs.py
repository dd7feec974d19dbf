#!/usr/bin/python3
"""Malformed-input fixtures derived from the real runs of make_runs.py.

usage: /usr/bin/python3 tests/gen/make_bad_logs.py [--runs DIR] [--demo DIR] [--out DIR]

Reads tests/data/runs/healthy and resources/demo/logs (run make_runs.py first) and writes
damaged copies into tests/data/logs_bad/from_runs/ (a subfolder, because the log-ingestion
fixtures of make_log_fixtures.py live next to it), with MANIFEST.json saying exactly what is
broken where and what must still be readable. Deterministic (fixed seeds, no clock).
"""
import argparse
import glob
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hat_log import REPO_ROOT  # noqa: E402

HUGE_LINE_BYTES = 1_500_000  # the preamble forbids files > 2 MB


def records(data):
    off, out = 0, []
    while off < len(data):
        (length,) = struct.unpack_from("<Q", data, off)
        out.append((off, length))
        off += 16 + length
    return out


def lines_of(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")[:-1]  # files end with a newline


def metric_lines(lines):
    return sum(1 for line in lines if b"GlobalStep[" in line and b"_train: " in line)


def write(out, name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    return name


def make(runs, demo, out):
    os.makedirs(out, exist_ok=True)
    facts = {}
    train_log = os.path.join(runs, "healthy", "qat", "train.log")
    lines = lines_of(train_log)

    # 1. binary junk
    rng = random.Random(20261102)
    name = write(out, "binary_junk.log", bytes(rng.getrandbits(8) for _ in range(65536)))
    facts[name] = {"kind": "binary_junk", "bytes": 65536,
                   "expect": "a warning naming the file; no series, no crash"}

    # 2. last line cut mid-way (inside the metric list of a qat_train line)
    last = max(i for i, line in enumerate(lines) if b"qat_train: " in line)
    kept = lines[:last]
    cut = lines[last][:lines[last].index(b"acc[") + 6]  # ends like '... acc[0.'
    data = b"\n".join(kept + [cut])
    name = write(out, "cut_last_line.log", data)
    facts[name] = {"kind": "partial_last_line", "source": "tests/data/runs/healthy/qat/train.log",
                   "complete_lines": len(kept), "partial_line": len(kept) + 1,
                   "partial_text": cut.decode(), "complete_qat_train_points": metric_lines(kept),
                   "expect": "complete lines parsed; the partial last line is not a point "
                             "(or is reported), never a crash"}

    # 3./4. tfevents: one data CRC corrupted, and a truncated last record
    ev_path = glob.glob(os.path.join(demo, "qat", "events.out.tfevents.*"))[0]
    ev = open(ev_path, "rb").read()
    recs = records(ev)
    bad_index = 5
    off, length = recs[bad_index]
    crc_at = off + 12 + length
    corrupt = bytearray(ev)
    corrupt[crc_at] ^= 0xFF
    base = os.path.basename(ev_path)
    name = write(out, base + ".crc", bytes(corrupt))
    facts[name] = {"kind": "tfevents_crc_mismatch", "source": os.path.relpath(ev_path, REPO_ROOT),
                   "records": len(recs), "bad_record_index": bad_index,
                   "bad_record_offset": off, "bad_crc_offset": crc_at,
                   "valid_records": len(recs) - 1,
                   "expect": "the bad record is skipped and counted, the others are read"}
    trunc = ev[:len(ev) - 7]
    name = write(out, base + ".truncated", trunc)
    facts[name] = {"kind": "tfevents_truncated", "source": os.path.relpath(ev_path, REPO_ROOT),
                   "records_complete": len(recs) - 1, "bytes": len(trunc),
                   "last_record_offset": recs[-1][0],
                   "expect": "complete records read, a warning for the truncated tail"}

    # 5. one gigantic line between valid lines (a debug dump of a big tensor)
    head, tail = lines[:30], lines[30:]
    prefix = tail[0][:tail[0].index(b"INFO")] + b"DEBUG [anchor_generator.py:57] anchors: ["
    rng = random.Random(7)
    body = bytearray(prefix)
    while len(body) < HUGE_LINE_BYTES - 2:
        body += b"%.6f, " % rng.uniform(-64, 64)
    body = bytes(body[:HUGE_LINE_BYTES - 1]) + b"]"
    data = b"\n".join(head + [body] + tail) + b"\n"
    name = write(out, "huge_line.log", data)
    facts[name] = {"kind": "gigantic_line", "source": "tests/data/runs/healthy/qat/train.log",
                   "huge_line": len(head) + 1, "huge_line_bytes": len(body),
                   "lines": len(head) + 1 + len(tail),
                   "qat_train_points": metric_lines(head + tail),
                   "expect": "a warning for the line, every other line parsed"}

    # 6. invalid UTF-8 inside otherwise valid lines
    fl = lines_of(os.path.join(runs, "healthy", "float", "train.log"))
    bad = list(fl)
    marks = []
    for i, line in enumerate(bad):
        if line.startswith(b"task_name: "):
            bad[i] = b"task_name: tiny_cls_\xd1\xb5\xc1\xb7"  # GBK bytes of a Chinese name
            marks.append(i + 1)
        elif b"float_train: " in line and len(marks) < 3:
            j = line.index(b"float_train: ")
            bad[i] = line[:j] + b"float_train\xff\xfe: " + line[j + len(b"float_train: "):]
            marks.append(i + 1)
        elif b"Training checkpoint saved" in line and len(marks) < 4:
            bad[i] = line.replace(b"./float", b"./\xc3\x28float")  # invalid 2-byte sequence
            marks.append(i + 1)
    name = write(out, "invalid_utf8.log", b"\n".join(bad) + b"\n")
    facts[name] = {"kind": "invalid_utf8", "source": "tests/data/runs/healthy/float/train.log",
                   "lines_with_invalid_bytes": marks, "lines": len(bad),
                   "float_train_points_total": metric_lines(fl),
                   "expect": "warnings with line numbers; valid numbers still parsed"}

    # 7. empty file
    name = write(out, "empty.log", b"")
    facts[name] = {"kind": "empty", "bytes": 0, "expect": "no runs from it, no crash"}

    # 8. CSV with ragged rows
    rows = lines_of(os.path.join(demo, "qat", "metrics.csv"))
    ragged = list(rows)
    ragged[3] = ragged[3].rsplit(b",", 2)[0]          # 3 fields instead of 5
    ragged[6] = ragged[6] + b",0.5,extra"              # 7 fields
    ragged[9] = b""                                    # empty row
    name = write(out, "ragged.csv", b"\n".join(ragged) + b"\n")
    facts[name] = {"kind": "csv_ragged", "source": "resources/demo/logs/qat/metrics.csv",
                   "header": rows[0].decode(), "data_rows": len(rows) - 1,
                   "short_row_line": 4, "long_row_line": 7, "empty_line": 10,
                   "expect": "warnings for lines 4 and 7 (line 10 may be skipped silently); "
                             "the other rows read"}

    # 9. JSONL with one broken line
    jl = lines_of(os.path.join(demo, "float", "metrics.jsonl"))
    broken = list(jl)
    broken[4] = broken[4][:len(broken[4]) // 2]
    name = write(out, "broken.jsonl", b"\n".join(broken) + b"\n")
    facts[name] = {"kind": "jsonl_broken_line", "source": "resources/demo/logs/float/metrics.jsonl",
                   "lines": len(jl), "broken_line": 5, "valid_lines": len(jl) - 1,
                   "expect": "a warning for line 5, every other object read"}

    with open(os.path.join(out, "MANIFEST.json"), "w") as f:
        json.dump({"generator": "tests/gen/make_bad_logs.py", "files": facts}, f, indent=1,
                  sort_keys=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--runs", default=os.path.join(REPO_ROOT, "tests", "data", "runs"))
    ap.add_argument("--demo", default=os.path.join(REPO_ROOT, "resources", "demo", "logs"))
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "tests", "data", "logs_bad", "from_runs"))
    args = ap.parse_args()
    make(args.runs, args.demo, args.out)


if __name__ == "__main__":
    main()
