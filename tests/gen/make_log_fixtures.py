#!/usr/bin/python3
"""Writes the logs-area fixtures under tests/data/logs/ and tests/data/logs_bad/.

Run: /usr/bin/python3 tests/gen/make_log_fixtures.py   (from the repository root)

Everything is deterministic (no randomness, fixed timestamps) so tests can assert exact values.
TensorBoard event files are written with a tiny hand-made encoder (TFRecord framing with masked
CRC-32C + protobuf wire format of Event/Summary), so no tensorboard package is needed.
"""
import json
import math
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
LOGS = os.path.join(ROOT, "logs")
BAD = os.path.join(ROOT, "logs_bad")


# ---- CRC-32C and TFRecord --------------------------------------------------------------------
def _crc_table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


_T = _crc_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ _T[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def masked(c):
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(data, corrupt=False):
    n = struct.pack("<Q", len(data))
    crc = masked(crc32c(data))
    if corrupt:
        crc ^= 0x1
    return n + struct.pack("<I", masked(crc32c(n))) + data + struct.pack("<I", crc)


# ---- protobuf wire format -------------------------------------------------------------------
def varint(v):
    out = b""
    v &= (1 << 64) - 1
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(num, wire, payload):
    return varint((num << 3) | wire) + payload


def ld(num, data):  # length-delimited
    return field(num, 2, varint(len(data)) + data)


def scalar_value(tag, v):
    return ld(1, tag.encode()) + field(2, 5, struct.pack("<f", v))


def tensor_value(tag, v):
    # TensorProto{dtype=DT_FLOAT(1), tensor_shape={} (scalar), float_val=[v]} + plugin "scalars"
    tensor = field(1, 0, varint(1)) + ld(2, b"") + ld(5, struct.pack("<f", v))
    meta = ld(1, ld(1, b"scalars"))
    return ld(1, tag.encode()) + ld(9, meta) + ld(8, tensor)


def event(step, wall, values=None, file_version=None):
    e = field(1, 1, struct.pack("<d", wall)) + field(2, 0, varint(step))
    if file_version:
        e += ld(3, file_version.encode())
    if values:
        e += ld(5, b"".join(ld(1, v) for v in values))
    return e


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def loss_at(i, start, end, n):
    return end + (start - end) * math.exp(-4.0 * i / max(1, n - 1))


# ---- good fixtures ------------------------------------------------------------------------
def hat_case():
    """tests/data/logs/hat: float / calibration / qat / quantized folders, HAT style."""
    base = os.path.join(LOGS, "hat")
    # float: HAT MetricUpdater lines with a logging prefix, LR updater lines, epoch-end val lines
    lines = ["2026-11-01 08:00:00,000 - INFO - HAT_TRAINING_STEP=float batch_size=64 world_size=2 march=nash-e epochs=2 optimizer=SGD lr_scheduler=CosineAnnealing\n"]
    steps_per_epoch = 10
    gs = 0
    for epoch in range(2):
        for step in range(steps_per_epoch):
            loss = loss_at(gs, 2.5, 0.8, 20)
            sec = gs * 2
            ts = f"2026-11-01 08:{sec // 60:02d}:{sec % 60:02d},{gs * 7 % 1000:03d}"
            lines.append(f"{ts} - INFO - Epoch[{epoch}] Step[{step}] GlobalStep[{gs}] float_train: loss[{loss:.4f}] acc[{0.1 + 0.04 * gs:.4f}] \n")
            lines.append(f"{ts} - INFO - Epoch[{epoch}] Step[{step}] GlobalStep[{gs}] lr={0.1 * (1 - gs / 20):f}\n")
            gs += 1
        lines.append(f"2026-11-01 09:00:0{epoch},000 - INFO - Epoch[{epoch}] float_val: acc[{0.5 + 0.1 * epoch:.4f}] \n")
        lines.append(f"2026-11-01 09:00:0{epoch},500 - INFO - Epoch {epoch} | Training checkpoint saved at ./float/float-checkpoint-epoch-{epoch:04d}.pth.tar\n")
    write(os.path.join(base, "float", "train.log"), "".join(lines))
    write(os.path.join(base, "float", "float-checkpoint-last.pth.tar"), "not a real checkpoint\n")

    # calibration: one evaluation number
    write(os.path.join(base, "calibration", "calib.log"),
          "2026-11-01 10:00:00,000 - INFO - training_step: calibration\n"
          "2026-11-01 10:00:05,000 - INFO - Epoch[0] Step[49] GlobalStep[49] calibration: \n"
          "2026-11-01 10:01:00,000 - INFO - Epoch[0] calibration_val: acc[0.6400] \n")

    # qat: loss blows up to nan at global step 13, then a traceback
    lines = ["2026-11-01 11:00:00,000 - INFO - training_step: qat\n",
             "2026-11-01 11:00:00,000 - INFO - batch_size=32 lr=0.001 world_size=2 march=nash-e\n"]
    for gs in range(15):
        loss = loss_at(gs, 0.9, 0.85, 15)
        v = "nan" if gs >= 13 else f"{loss:.4f}"
        lines.append(f"2026-11-01 11:00:{gs:02d},000 - INFO - Epoch[0] Step[{gs}] GlobalStep[{gs}] qat_train: loss[{v}] acc[{0.6 + 0.001 * gs:.4f}] \n")
    lines.append("2026-11-01 11:00:20,000 - WARNING - loss is nan, grad scale reduced\n")
    lines.append("Traceback (most recent call last):\n")
    lines.append('  File "tools/train.py", line 88, in <module>\n')
    lines.append("    trainer.fit()\n")
    lines.append("RuntimeError: CUDA error: an illegal memory access was encountered\n")
    write(os.path.join(base, "qat", "train.log"), "".join(lines))

    # quantized evaluation
    write(os.path.join(base, "quantized", "eval.log"),
          "2026-11-01 12:00:00,000 - INFO - Epoch[0] quantized_val: acc[0.6500] loss[1.1000] \n")


def mixed_case():
    """tests/data/logs/mixed/qat_run: a text log, a CSV, a JSONL and a tfevents file side by side."""
    base = os.path.join(LOGS, "mixed", "qat_run")
    n = 12
    text = ["[2026-11-02 08:00:00] INFO start qat training: batch_size=16 lr=1e-3 world_size=1\n"]
    csv = ["step,epoch,loss,lr\n"]
    jsonl = [json.dumps({"batch_size": 16, "optimizer": "AdamW", "march": "bayes"}) + "\n"]
    events = [record(event(0, 1793433600.0, file_version="brain.Event:2"))]
    for i in range(n):
        loss = loss_at(i, 1.5, 1.0, n)
        text.append(f"[2026-11-02 08:00:{i:02d}] INFO Epoch [{i // 4 + 1}/3] Step [{i % 4 + 1}/4] loss: {loss:.4f} 'top1': {50 + i}.5 grad_norm={10 ** (i - 6):.1e}\n")
        csv.append(f"{i},{i // 4},{loss:.6f},{0.001 * (1 - i / n):.6e}\n")
        val = {"step": i, "epoch": i // 4, "train": {"loss": round(loss, 6)},
               "val": {"acc": float("nan") if i == 7 else 0.5 + 0.01 * i}}
        jsonl.append(json.dumps(val) + "\n")  # NaN written as the NaN token, as Python does
        events.append(record(event(i, 1793433600.0 + i, values=[scalar_value("train/loss", loss),
                                                                 tensor_value("eval/top1", 0.5 + 0.02 * i)])))
    write(os.path.join(base, "train.log"), "".join(text))
    write(os.path.join(base, "metrics.csv"), "".join(csv))
    write(os.path.join(base, "metrics.jsonl"), "".join(jsonl))
    os.makedirs(os.path.join(base, "tb"), exist_ok=True)
    with open(os.path.join(base, "tb", "events.out.tfevents.1793433600.host.1"), "wb") as f:
        f.write(b"".join(events))
    # a TSV and a torchvision-style log in another run
    tsv = "iteration\tloss\tacc\n" + "".join(f"{i * 10}\t{2.0 - 0.1 * i:.3f}\t{0.1 * i:.2f}\n" for i in range(5))
    write(os.path.join(LOGS, "mixed", "fp32", "metrics.tsv"), tsv)
    tv = "".join(f"Epoch: [0]  [{i * 10:4d}/100]  eta: 0:01:00  lr: 0.1  loss: {3.0 - 0.2 * i:.4f} (3.0)  acc1: {i * 5.0:.1f}\n"
                 for i in range(5))
    tv += "Test:  [0/10]  acc1: 61.5\n"
    write(os.path.join(LOGS, "mixed", "fp32", "torchvision.log"), tv)


def bad_cases():
    os.makedirs(BAD, exist_ok=True)
    good = "".join(f"Epoch[0] Step[{i}] GlobalStep[{i}] train: loss[{1.0 - 0.1 * i:.4f}] \n" for i in range(5))
    with open(os.path.join(BAD, "binary_junk.log"), "wb") as f:
        f.write(good.encode())
        f.write(bytes((i * 37 + 11) % 256 for i in range(600)) + b"\n")
        f.write(b"Epoch[0] Step[9] GlobalStep[9] train: loss[0.1000] \n")
    write(os.path.join(BAD, "partial_last_line.log"), good + "Epoch[0] Step[5] GlobalStep[5] train: loss[0.4")
    with open(os.path.join(BAD, "invalid_utf8.log"), "wb") as f:
        f.write(good.encode())
        f.write(b"Epoch[0] Step[5] GlobalStep[5] train \xff\xfe: loss[0.5000] \n")
    write(os.path.join(BAD, "gigantic_line.log"), good + "x" * (3 << 19) + "\n" +
          "Epoch[0] Step[6] GlobalStep[6] train: loss[0.4000] \n")
    write(os.path.join(BAD, "empty.log"), "")
    write(os.path.join(BAD, "bad_rows.csv"), "step,loss\n0,1.0\n1,0.9,extra\n2,0.8\n3\n4,0.6\n")
    write(os.path.join(BAD, "bad_lines.jsonl"), '{"step": 0, "loss": 1.0}\n{"step": 1, "loss": \n[1, 2]\n{"step": 3, "loss": 0.7}\n')
    recs = [record(event(0, 1.0e9, file_version="brain.Event:2"))]
    for i in range(6):
        recs.append(record(event(i, 1.0e9 + i, values=[scalar_value("loss", 1.0 - 0.1 * i)]), corrupt=(i == 2)))
    data = b"".join(recs)
    with open(os.path.join(BAD, "events.out.tfevents.crc_mismatch"), "wb") as f:
        f.write(data)
    with open(os.path.join(BAD, "events.out.tfevents.truncated"), "wb") as f:
        f.write(data[:-7])


def main():
    hat_case()
    mixed_case()
    bad_cases()
    print("fixtures written under", os.path.normpath(ROOT))


if __name__ == "__main__":
    sys.exit(main())
