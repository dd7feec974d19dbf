#!/usr/bin/python3
"""Inputs of bench/compare_bench: two attempts of a large model, written into OUT_DIR.

usage: make_compare_bench.py OUT_DIR [LAYERS] [ROWS]

  a/model.onnx, b/model.onnx   LAYERS (default 5,000) 1x1 convolutions in a chain, each with
                               per-channel int8 weights and a QuantizeLinear / DequantizeLinear
                               output (opset 13, python3-onnx). In B every layer's scale moved,
                               every 10th layer's output is int8 instead of uint8 (a
                               configuration change) and every 100th node is renamed (its path
                               changed; matched by position).
  a/compare_per_layer_out.txt, b/...  the profiler's per-layer comparison with ROWS (default
                               10,000) rows in its psql layout; B's cosines moved on every 7th
                               row, its dtype changed on every 50th.
Deterministic (numpy's seeded generator).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

C = 4


def model(path, layers, variant):
    rng = np.random.default_rng(7 + variant)
    nodes, inits = [], []
    x = "input"
    for i in range(layers):
        scope = "/stage%d/conv%d" % (i // 100, i % 100)
        if variant and i % 100 == 42:
            scope = "/renamed%d/conv" % i
        w = rng.standard_normal((C, C, 1, 1)).astype(np.float32) * 0.1
        ws = (np.abs(w).reshape(C, -1).max(1) / 127).astype(np.float32)
        wq = np.clip(np.round(w / ws.reshape(C, 1, 1, 1)), -127, 127).astype(np.int8)
        inits += [numpy_helper.from_array(wq, "w%d" % i), numpy_helper.from_array(ws, "ws%d" % i),
                  numpy_helper.from_array(np.zeros(C, np.int8), "wz%d" % i)]
        nodes.append(helper.make_node("DequantizeLinear", ["w%d" % i, "ws%d" % i, "wz%d" % i], ["wd%d" % i],
                                      name=scope + "/weight_dq", axis=0))
        nodes.append(helper.make_node("Conv", [x, "wd%d" % i], ["c%d" % i], name=scope + "/Conv"))
        signed = variant and i % 10 == 0
        scale = np.array([0.02 * (1.01 if variant else 1.0)], np.float32)
        zp = np.array([0], np.int8 if signed else np.uint8)
        inits += [numpy_helper.from_array(scale, "s%d" % i), numpy_helper.from_array(zp, "z%d" % i)]
        nodes.append(helper.make_node("QuantizeLinear", ["c%d" % i, "s%d" % i, "z%d" % i], ["q%d" % i],
                                      name=scope + "/activation_post_process/QuantizeLinear"))
        nodes.append(helper.make_node("DequantizeLinear", ["q%d" % i, "s%d" % i, "z%d" % i], ["d%d" % i],
                                      name=scope + "/activation_post_process/DequantizeLinear"))
        x = "d%d" % i
    graph = helper.make_graph(nodes, "bench", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, C, 8, 8])],
                              [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, C, 8, 8])], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_compare_bench")
    onnx.save(m, path)


def per_layer(path, rows, variant):
    headers = ["", "mod_name", "quant_dtype", "qscale", "Cosine", "MSE", "L1", "Atol", "base_model_min",
               "analy_model_min", "base_model_max", "analy_model_max", "max_qscale_diff"]
    body = []
    for i in range(rows):
        cos = 0.9990 - (i % 13) * 0.0004
        if variant and i % 7 == 0:
            cos = min(0.99999, cos + 0.0009)
        dtype = "qint16" if variant and i % 50 == 0 else "qint8"
        body.append([str(i), "stage%d.block%d.conv" % (i // 100, i % 100), dtype, "%.4g" % (0.01 + (i % 17) * 0.001),
                     "%.7f" % cos, "%.7f" % ((1 - cos) * 3), "%.7f" % ((1 - cos) * 2), "%.7f" % 0.05,
                     "%.4f" % -1.5, "%.4f" % -1.49, "%.4f" % 2.5, "%.4f" % 2.49, "%.3g" % 0.5])
    widths = [max(len(h), *(len(r[c]) for r in body)) for c, h in enumerate(headers)]
    line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    sep = "|" + "+".join("-" * (w + 2) for w in widths) + "|"

    def row(cells):
        return "| " + " | ".join(c.rjust(w) for c, w in zip(cells, widths)) + " |"
    with open(path, "w") as f:
        f.write("\n".join([line, row(headers), sep] + [row(r) for r in body] + [line]) + "\n")


def main():
    out = sys.argv[1]
    layers = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    for variant, side in ((0, "a"), (1, "b")):
        os.makedirs(os.path.join(out, side), exist_ok=True)
        model(os.path.join(out, side, "model.onnx"), layers, variant)
        per_layer(os.path.join(out, side, "compare_per_layer_out.txt"), rows, variant)


if __name__ == "__main__":
    main()
