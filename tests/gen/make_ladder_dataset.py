#!/usr/bin/python3
"""Writes tests/data/ladder/: one QAT model (ONNX QDQ) and a labelled 400-sample evaluation set for
the simulator's dataset evaluation, with the accuracies PyTorch measures on it.

* Data: tiny_qat.make_split (3x16x16 images of 4 classes: a shifted smooth class pattern under
  Gaussian noise, so not every sample is separable). Training split seed TRAIN_SEED, evaluation
  split seed EVAL_SEED (held out: different seed, never trained or calibrated on).
* Model: qat_common.Net (conv-bn-relu x2, FloatFunctional residual add, maxpool, global average
  pool, linear) with a 4-class head, trained in float, then qat_common.prepare (conv+bn folded,
  the stock fbgemm QAT qconfig), calibrated (observers on, fake quant off), QAT, frozen (eval mode,
  observers off) and exported by qat_common.export (opset 13, batch 1) as model.onnx.
* Evaluation set: images.npy [400,3,16,16] float32, labels.npy [400] int64; the same samples in
  four shards batches/part_0.npy .. part_3.npy ([100,3,16,16] each, in order) with
  batches/labels.npy (all 400 labels, part_0's first).
* facts.json: top-1 accuracy of the float model, the fake-quant model and the converted int8
  model (torch.ao.quantization.convert on qat_common's engine), argmax agreement with float,
  and where fake quant and int8 disagree.

Run: /usr/bin/python3 tests/gen/make_ladder_dataset.py   (python3-torch 1.13, python3-onnx)
"""
import copy
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.ao.quantization as tq

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qat_common as qc  # noqa: E402  (sets the quantized engine: onednn)
import tiny_qat  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "ladder"

TRAIN_SEED = 7          # training / calibration split
EVAL_SEED = 20261203    # held-out evaluation split
MODEL_SEED = 0          # weight init and batch order
N_TRAIN = 2048
N_EVAL = 400
N_PARTS = 4
FLOAT_STEPS, FLOAT_LR = 300, 0.05
CALIB_BATCHES = 8
QAT_STEPS, QAT_LR = 200, 0.005


def build_float(x, y):
    qc.set_seed(MODEL_SEED)
    m = qc.Net(c=16)
    m.fc = nn.Linear(16, tiny_qat.NUM_CLASSES)  # 4 classes instead of qat_common's 10
    loss = qc.train(m, x, y, FLOAT_STEPS, FLOAT_LR, MODEL_SEED)
    m.eval()
    return m, loss


def build_qat(float_model, x, y):
    m = qc.prepare(float_model)  # fused (BN folded), FBGEMM_QAT qconfig
    tiny_qat.set_calibration_mode(m)  # observers on, fake quant off
    m.eval()
    with torch.no_grad():
        for b in range(CALIB_BATCHES):
            m(x[b * 32:(b + 1) * 32])
    tiny_qat.set_qat_mode(m)
    loss = qc.train(m, x, y, QAT_STEPS, QAT_LR, MODEL_SEED + 1)
    qc.freeze(m)  # eval mode, observers off: fixed scales
    return m, loss


def predict(m, x):
    """argmax (torch: the first of several equal maxima) and the samples whose top logit is tied:
    the quantized logits are on a grid, so ties happen."""
    out = qc.run(m, x)
    ties = ((out == out.max(1, keepdim=True).values).sum(1) > 1).nonzero().flatten().tolist()
    return out.argmax(1), ties


def main():
    t0 = time.time()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "batches").mkdir(exist_ok=True)
    x_train, y_train = tiny_qat.make_split(N_TRAIN, TRAIN_SEED)
    x_eval, y_eval = tiny_qat.make_split(N_EVAL, EVAL_SEED)

    float_model, float_loss = build_float(x_train, y_train)
    qat_model, qat_loss = build_qat(float_model, x_train, y_train)
    engine = torch.backends.quantized.engine
    int8_model = tq.convert(copy.deepcopy(qat_model).eval(), inplace=False)

    x_one = x_eval[:1].clone()
    qc.export(qat_model, OUT / "model.onnx", x_one)

    images = x_eval.numpy().astype(np.float32)
    labels = y_eval.numpy().astype(np.int64)
    np.save(OUT / "images.npy", images)
    np.save(OUT / "labels.npy", labels)
    per = N_EVAL // N_PARTS
    for i in range(N_PARTS):
        np.save(OUT / "batches" / ("part_%d.npy" % i), images[i * per:(i + 1) * per])
    np.save(OUT / "batches" / "labels.npy", labels)

    preds, ties = {}, {}
    for name, m in (("float", float_model), ("fake_quant", qat_model), ("int8", int8_model)):
        preds[name], ties[name] = predict(m, x_eval)
    modes = {}
    for name, p in preds.items():
        correct = int((p == y_eval).sum())
        agree = int((p == preds["float"]).sum())
        modes[name] = {"top1": round(correct / N_EVAL, 4), "correct": correct,
                       "agree_with_float": agree, "agree_with_float_fraction": round(agree / N_EVAL, 4),
                       "tied_top_logit": ties[name]}
    diff = (preds["fake_quant"] != preds["int8"]).nonzero().flatten().tolist()
    # the QAT model's own weights with every fake quant off: separates what QAT training changed
    # (vs float) from what quantization changes (vs fake quant)
    unquantized = copy.deepcopy(qat_model)
    unquantized.apply(tq.disable_fake_quant)
    p_unq, _ = predict(unquantized, x_eval)
    modes["fake_quant"]["disagree_with_int8"] = len(diff)
    modes["int8"]["disagree_with_fake_quant"] = len(diff)

    facts = {
        "generator": "tests/gen/make_ladder_dataset.py",
        "command": "/usr/bin/python3 tests/gen/make_ladder_dataset.py",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "quantized_engine": engine,
        "qconfig": "torch.ao.quantization.get_default_qat_qconfig('fbgemm', version=0) "
                   "(qat_common.FBGEMM_QAT): per-channel symmetric int8 weights, quint8 activations "
                   "with reduce_range (0..127)",
        "seeds": {"train_split": TRAIN_SEED, "eval_split": EVAL_SEED, "model": MODEL_SEED,
                  "qat_batches": MODEL_SEED + 1},
        "training": {"train_samples": N_TRAIN, "float_steps": FLOAT_STEPS, "float_lr": FLOAT_LR,
                     "calibration_batches": CALIB_BATCHES, "calibration_batch_size": 32,
                     "qat_steps": QAT_STEPS, "qat_lr": QAT_LR, "batch_size": 32,
                     "float_last_batch_loss": round(float_loss, 4), "qat_last_batch_loss": round(qat_loss, 4)},
        "data": {"samples": N_EVAL, "input_shape": list(images.shape), "input_dtype": "float32",
                 "labels_dtype": "int64", "classes": tiny_qat.NUM_CLASSES,
                 "class_counts": np.bincount(labels, minlength=tiny_qat.NUM_CLASSES).tolist(),
                 "onnx_input": {"name": "input", "shape": list(x_one.shape)},
                 "onnx_output": {"name": "logits", "shape": [1, tiny_qat.NUM_CLASSES]},
                 "shards": ["batches/part_%d.npy" % i for i in range(N_PARTS)],
                 "shard_shape": [per] + list(images.shape[1:])},
        "modes": modes,
        "fake_quant_vs_int8_disagreeing_indices": diff,
        "qat_weights_fake_quant_off": {
            "top1": round(int((p_unq == y_eval).sum()) / N_EVAL, 4), "correct": int((p_unq == y_eval).sum()),
            "agree_with_float": int((p_unq == preds["float"]).sum()),
            "agree_with_fake_quant": int((p_unq == preds["fake_quant"]).sum()),
            "note": "not a deployment mode: the QAT weights evaluated in float, to show that most "
                    "float vs fake-quant disagreement comes from QAT's weight updates"},
        "argmax": "torch.argmax over the 4 logits: of several equal maxima the first index wins "
                  "(tied_top_logit lists those samples per mode)",
        "onnxruntime": "not available on the generating machine: no ONNX Runtime figures",
    }
    (OUT / "facts.json").write_text(json.dumps(facts, indent=1) + "\n")
    for p in sorted(OUT.rglob("*")):
        if p.is_file():
            print("%-45s %8d bytes" % (p.relative_to(ROOT), os.path.getsize(p)))
    print(json.dumps(modes, indent=1))
    print("disagreeing (fake quant vs int8):", diff)
    print("%.1fs" % (time.time() - t0))


if __name__ == "__main__":
    main()
