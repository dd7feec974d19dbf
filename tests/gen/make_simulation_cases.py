#!/usr/bin/python3
"""QDQ models where the fixed-point simulation must find something (tests/data/fixedpoint/sim_cases/).

Run with Debian's interpreter (python3-onnx, python3-numpy); tests read the committed files:
    /usr/bin/python3 tests/gen/make_simulation_cases.py

overflow_int16.onnx (opset 21): x -> Q/DQ int16 (scale 1) -> Conv 3x3, 64 channels, int16 weights of
    30000 -> Q/DQ int16. With the input at 30000 every output sums 576 products of 9e8 = 5.2e11, far
    past int32: the accumulator-overflow hazard of 16-bit layers. Input: overflow_int16.input_0.npy.
coarse_tanh.onnx: x -> Q/DQ uint8 -> Conv 1x1 (int8 per-channel) -> Q/DQ int16 with a scale of 0.03
    (a +-983 range for data within +-4) -> Tanh -> Q/DQ int16 (1/32768). The 16-bit Tanh becomes a
    segmented table over the whole int16 range, so its knots are ~7.7 apart on data that lives
    between them: fake-quant and integer part at the Tanh, not before.
coarse_then_fine.onnx: x -> Q/DQ uint8 -> conv1 (1x1, 8->8, int8 per-channel) -> Relu -> Q/DQ uint8
    whose range is 16x what conv1 produces (4 bits of information left) -> conv2 (1x1, 8->4) ->
    Q/DQ uint8 fitted to its data. int16 (or float) for conv1 recovers most of the output SQNR;
    for conv2 it recovers little: a sensitivity ranking must put conv1 first.
Inputs (float32 .npy, N(0, 1) unless said): <model>.input_0.npy.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "fixedpoint", "sim_cases")
SEED = 20261130


class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, value, dtype):
        self.inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def qdq(self, x, tag, scale, zp, dtype, axis=None):
        s = self.const(tag + ".scale", scale, np.float32)
        z = self.const(tag + ".zero_point", zp, dtype)
        attrs = {} if axis is None else {"axis": axis}
        self.nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [tag + "_q"], name="/" + tag + "/QuantizeLinear", **attrs))
        self.nodes.append(helper.make_node("DequantizeLinear", [tag + "_q", s, z], [tag + "_dq"],
                                           name="/" + tag + "/DequantizeLinear", **attrs))
        return tag + "_dq"

    def weight(self, tag, w, per_channel_int8=True):
        """A float weight behind Q/DQ: int8 symmetric per output channel (axis 0)."""
        self.const(tag + ".weight", w, np.float32)
        scale = np.abs(w.reshape(w.shape[0], -1)).max(axis=1) / 127.0
        return self.qdq(tag + ".weight", tag + "/weight_fake_quant", scale.astype(np.float32),
                        np.zeros(w.shape[0], np.int8), np.int8, axis=0)

    def node(self, kind, inputs, module, **attrs):
        out = "/%s/%s_output_0" % (module, kind)
        self.nodes.append(helper.make_node(kind, inputs, [out], name="/%s/%s" % (module, kind), **attrs))
        return out

    def save(self, name, inputs, output, output_shape, opset=13):
        graph = helper.make_graph(self.nodes, name, inputs, [helper.make_tensor_value_info(output, TensorProto.FLOAT, output_shape)],
                                  self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_simulation_cases")
        model.ir_version = 8 if opset < 21 else 10
        onnx.save(model, os.path.join(OUT, name + ".onnx"))


def conv1x1(x, w, b):
    return np.einsum("oc,nchw->nohw", w[:, :, 0, 0].astype(np.float64), x.astype(np.float64)) + b[None, :, None, None]


def uint8_params(lo, hi):
    scale = (hi - lo) / 255.0
    return np.float32(scale), np.uint8(np.clip(round(-lo / scale), 0, 255))


def overflow_int16():
    g = Graph()
    x = g.qdq("input", "input", 1.0, 0, np.int16)
    g.const("conv.weight_q", np.full((1, 64, 3, 3), 30000, np.int16), np.int16)
    g.const("conv.weight_scale", 1.0, np.float32)
    g.const("conv.weight_zp", 0, np.int16)
    g.nodes.append(helper.make_node("DequantizeLinear", ["conv.weight_q", "conv.weight_scale", "conv.weight_zp"], ["conv.weight_dq"],
                                    name="/conv/weight_fake_quant/DequantizeLinear"))
    y = g.node("Conv", [x, "conv.weight_dq"], "conv", kernel_shape=[3, 3])
    out = g.qdq(y, "conv/activation_post_process", 1e8, 0, np.int16)
    g.save("overflow_int16", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 64, 5, 5])], out, [1, 1, 3, 3], opset=21)
    np.save(os.path.join(OUT, "overflow_int16.input_0.npy"), np.full((1, 64, 5, 5), 30000, np.float32))


def coarse_tanh(rng):
    x = rng.standard_normal((1, 4, 8, 8)).astype(np.float32)
    w = (rng.standard_normal((4, 4, 1, 1)) * 0.8).astype(np.float32)
    b = (rng.standard_normal(4) * 0.1).astype(np.float32)
    g = Graph()
    s, z = uint8_params(-4.0, 4.0)
    xi = g.qdq("input", "input", s, z, np.uint8)
    g.const("conv.bias", b, np.float32)
    y = g.node("Conv", [xi, g.weight("conv", w), "conv.bias"], "conv", kernel_shape=[1, 1])
    yq = g.qdq(y, "conv/activation_post_process", 0.03, 0, np.int16)
    t = g.node("Tanh", [yq], "tanh")
    out = g.qdq(t, "tanh/activation_post_process", 1.0 / 32768, 0, np.int16)
    g.save("coarse_tanh", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 4, 8, 8])], out, [1, 4, 8, 8], opset=21)
    np.save(os.path.join(OUT, "coarse_tanh.input_0.npy"), x)


def coarse_then_fine(rng):
    x = rng.standard_normal((1, 8, 8, 8)).astype(np.float32)
    w1 = (rng.standard_normal((8, 8, 1, 1)) * 0.5).astype(np.float32)
    b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((4, 8, 1, 1)) * 0.5).astype(np.float32)
    b2 = (rng.standard_normal(4) * 0.1).astype(np.float32)
    h1 = np.maximum(conv1x1(x, w1, b1), 0)
    y2 = conv1x1(h1, w2, b2)
    g = Graph()
    s, z = uint8_params(-4.0, 4.0)
    xi = g.qdq("input", "input", s, z, np.uint8)
    g.const("conv1.bias", b1, np.float32)
    c1 = g.node("Conv", [xi, g.weight("conv1", w1), "conv1.bias"], "conv1", kernel_shape=[1, 1])
    r1 = g.node("Relu", [c1], "relu1")
    s1, z1 = uint8_params(0.0, 16.0 * float(h1.max()))   # 16x too wide: 4 of 8 bits wasted
    h1q = g.qdq(r1, "relu1/activation_post_process", s1, z1, np.uint8)
    g.const("conv2.bias", b2, np.float32)
    c2 = g.node("Conv", [h1q, g.weight("conv2", w2), "conv2.bias"], "conv2", kernel_shape=[1, 1])
    s2, z2 = uint8_params(float(y2.min()) * 1.05, float(y2.max()) * 1.05)
    out = g.qdq(c2, "conv2/activation_post_process", s2, z2, np.uint8)
    g.save("coarse_then_fine", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 8, 8, 8])], out, [1, 4, 8, 8])
    np.save(os.path.join(OUT, "coarse_then_fine.input_0.npy"), x)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(SEED)
    overflow_int16()
    coarse_tanh(rng)
    coarse_then_fine(rng)
    # Debian's onnx 1.12 checker predates opset 21 (int16 Q/DQ); it checks the opset-13 model only.
    onnx.checker.check_model(os.path.join(OUT, "coarse_then_fine.onnx"))


if __name__ == "__main__":
    main()
