#!/usr/bin/python3
"""QDQ models in the layouts other exporters write, for tests/model/wild_models_test.cpp.

- retina_qdq: a RetinaFace-style head as vendor QDQ exports write it: Conv -> LeakyRelu -> Q -> DQ
  (no quantizer between the Conv and its activation), one Conv without bias, one Conv -> Sigmoid,
  most nodes unnamed (as ONNX Runtime's quantizer and hand-built graphs leave them), and a
  Shape -> Gather -> Unsqueeze -> Concat -> Reshape flattening computed from a dequantized tensor.
- pow2_qdq: Conv -> Relu chains whose scales are all powers of two, so that every
  requantization multiplier is exact and only the rounding of ties can make two integer
  pipelines disagree (the --round test). Inputs are codes times the input scale, so float
  evaluation is exact too.

Run with /usr/bin/python3 (python3-onnx, numpy); writes tests/data/models/wild/. ONNX Runtime's
outputs (tests/gen/ort_reference.js) are committed next to the models.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "models", "wild")
rng = np.random.default_rng(20261202)


class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, arr):
        self.inits.append(nh.from_array(np.asarray(arr), name))
        return name

    def node(self, op, ins, out, name="", **attrs):
        self.nodes.append(h.make_node(op, ins, [out], name=name, **attrs))
        return out

    def qdq(self, tag, x, scale, zp, name=""):
        s = self.const(tag + "_scale", np.float32(scale))
        z = self.const(tag + "_zero", np.uint8(zp))
        q = self.node("QuantizeLinear", [x, s, z], tag + "_q", name=name and name + "_Q")
        return self.node("DequantizeLinear", [q, s, z], tag + "_dq", name=name and name + "_DQ")

    def conv(self, tag, x, x_scale, cin, cout, bias=True, name="", w_scales=None, w_max=127):
        """int8 per-channel weight codes + DequantizeLinear, int32 bias codes + DequantizeLinear."""
        w = rng.normal(0, 0.3, (cout, cin, 3, 3)).astype(np.float32)
        if w_scales is None:
            w_scales = np.maximum(np.abs(w).reshape(cout, -1).max(axis=1), 1e-6) / 127.0
        w_scales = np.asarray(w_scales, np.float32)
        codes = np.clip(np.round(w / w_scales.reshape(-1, 1, 1, 1)), -w_max, w_max).astype(np.int8)
        self.const(tag + "_w", codes)
        self.const(tag + "_ws", w_scales)
        self.const(tag + "_wz", np.zeros(cout, np.int8))
        wdq = self.node("DequantizeLinear", [tag + "_w", tag + "_ws", tag + "_wz"], tag + "_wdq", axis=0)
        ins = [x, wdq]
        if bias:
            b_scales = (np.float32(x_scale) * w_scales).astype(np.float32)
            b_codes = np.round(rng.normal(0, 0.2, cout) / b_scales).astype(np.int32)
            self.const(tag + "_b", b_codes)
            self.const(tag + "_bs", b_scales)
            self.const(tag + "_bz", np.zeros(cout, np.int32))
            ins.append(self.node("DequantizeLinear", [tag + "_b", tag + "_bs", tag + "_bz"], tag + "_bdq", axis=0))
        return self.node("Conv", ins, tag + "_y", name=name, kernel_shape=[3, 3], pads=[1, 1, 1, 1])

    def save(self, model, inputs, outputs, feeds):
        g = h.make_graph(self.nodes, model, inputs, outputs, self.inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="make_wild_models.py")
        m.ir_version = 8
        m = onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)
        onnx.checker.check_model(m)
        onnx.save(m, os.path.join(OUT, model + ".onnx"))
        for i, x in enumerate(feeds):
            np.save(os.path.join(OUT, f"{model}.input_{i}.npy"), x)


def retina_qdq():
    g = Graph()
    x = g.qdq("in", "input", 0.0186, 128, name="/quant")
    y = g.conv("c1", x, 0.0186, 3, 8, name="/body/stage1/conv/Conv")
    y = g.node("LeakyRelu", [y], "c1_act", name="/body/stage1/act/LeakyRelu", alpha=0.1)
    y = g.qdq("c1o", y, 0.0213, 14)
    y = g.conv("c2", y, 0.0213, 8, 8, bias=False)  # unnamed, no bias
    y = g.node("LeakyRelu", [y], "c2_act", alpha=0.1)
    y = g.qdq("c2o", y, 0.0241, 9)
    y = g.conv("c3", y, 0.0241, 8, 4)
    y = g.node("Sigmoid", [y], "c3_act")
    y = g.qdq("c3o", y, 1.0 / 255.0, 0)
    # the flattening an exporter writes for x.view(x.size(0), -1)
    s = g.node("Shape", [y], "flat_shape")
    n = g.node("Gather", [s, g.const("zero_index", np.int64(0))], "flat_batch", axis=0)
    n = g.node("Unsqueeze", [n, g.const("axes0", np.array([0], np.int64))], "flat_batch1")
    shp = g.node("Concat", [n, g.const("minus_one", np.array([-1], np.int64))], "flat_dims", axis=0)
    g.node("Reshape", [y, shp], "output")
    feed = rng.uniform(-2.3, 2.4, (1, 3, 12, 12)).astype(np.float32)
    g.save("retina_qdq", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 12, 12])],
           [h.make_tensor_value_info("output", T.FLOAT, [1, 576])], [feed])


def pow2_qdq():
    g = Graph()
    x = g.qdq("in", "input", 2.0 ** -5, 128)
    scale = 2.0 ** -5
    for k, (cin, cout, out_exp) in enumerate([(3, 8, -4), (8, 8, -3), (8, 4, -3)]):
        # 7-bit weight codes (ONNX Runtime's reduce_range): its AVX2 u8 x s8 kernels add pairs of
        # products in saturating int16, which 8-bit codes can overflow (255 * 127 * 2 > 32767)
        w_scales = np.full(cout, 2.0 ** -6, np.float32)
        y = g.conv(f"p{k}", x, scale, cin, cout, w_scales=w_scales, w_max=63)
        y = g.node("Relu", [y], f"p{k}_relu")
        x = g.qdq(f"p{k}o", y, 2.0 ** out_exp, 0)
        scale = 2.0 ** out_exp
    g.node("Identity", [x], "output")
    # codes times the input scale: the input quantizer is exact, every product a dyadic number
    feed = ((rng.integers(0, 256, (1, 3, 10, 10)) - 128) * 2.0 ** -5).astype(np.float32)
    g.save("pow2_qdq", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 10, 10])],
           [h.make_tensor_value_info("output", T.FLOAT, [1, 4, 10, 10])], [feed])


def const_data_conv():
    """A Conv without bias whose data input is a constant (a prior / position map) quantized per
    channel with uint8 Q/DQ: the data input is a dequantized constant, and still no bias."""
    g = Graph()
    prior = g.const("prior", rng.uniform(0, 1, (1, 2, 6, 6)).astype(np.float32))
    s = g.const("prior_scale", np.array([0.004, 0.0035], np.float32))
    z = g.const("prior_zero", np.array([3, 5], np.uint8))
    q = g.node("QuantizeLinear", [prior, s, z], "prior_q", axis=1)
    d = g.node("DequantizeLinear", [q, s, z], "prior_dq", axis=1)
    y = g.conv("pc", d, 0.004, 2, 2, bias=False, name="/prior_conv/Conv")
    y = g.qdq("pco", y, 0.011, 120)
    x = g.qdq("in", "input", 0.013, 128)
    g.node("Add", [x, y], "output", name="/add/Add")
    feed = rng.uniform(-1.5, 1.5, (1, 2, 6, 6)).astype(np.float32)
    g.save("const_data_conv", [h.make_tensor_value_info("input", T.FLOAT, [1, 2, 6, 6])],
           [h.make_tensor_value_info("output", T.FLOAT, [1, 2, 6, 6])], [feed])


def main():
    os.makedirs(OUT, exist_ok=True)
    retina_qdq()
    pow2_qdq()
    const_data_conv()
    print("wrote", sorted(os.listdir(OUT)))


if __name__ == "__main__":
    main()
