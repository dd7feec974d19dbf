#!/usr/bin/python3
"""QOperator models as ONNX Runtime's quantizer writes them (QLinearConv in the default domain, the
other quantized ops as com.microsoft contrib ops), for tests/model/qoperator_test.cpp.

qop_residual: x -> QuantizeLinear -> QLinearConv -> QLinearConv -> QLinearAdd (residual) ->
QLinearLeakyRelu -> QLinearAveragePool -> QLinearSigmoid, QLinearConcat(pool, sigmoid) ->
QLinearMul -> QLinearGlobalAveragePool -> Reshape -> QGemm -> QLinearSoftmax -> DequantizeLinear;
plus a QGemm with a float output (no y_scale) on a second head. The contrib nodes are unnamed, as
the quantizer leaves many. Scales come from a float pass over the committed input, as a
calibration would set them.

Run with /usr/bin/python3 (python3-onnx, numpy); writes tests/data/models/wild/; ONNX Runtime's
outputs come from tests/gen/ort_reference.js.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "models", "wild")
rng = np.random.default_rng(20261203)


def conv3x3(x, w, b):
    n, c, hh, ww = x.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, w.shape[0], hh, ww), np.float64)
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", p[:, :, i:i + hh, j:j + ww], w[:, :, i, j])
    return y + b.reshape(1, -1, 1, 1)


def uint8_params(v):
    lo, hi = min(float(v.min()), 0.0), max(float(v.max()), 0.0)
    scale = np.float32((hi - lo) / 255.0 or 1.0)
    return scale, np.uint8(np.clip(round(-lo / scale), 0, 255))


class Model:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, arr):
        self.inits.append(nh.from_array(np.asarray(arr), name))
        return name

    def node(self, op, ins, out, domain=None, name="", **attrs):
        self.nodes.append(h.make_node(op, ins, [out], name=name, domain=domain, **attrs))
        return out

    def qparams(self, tag, real):
        s, z = uint8_params(real)
        return self.const(tag + "_scale", s), self.const(tag + "_zero", z), s, z

    def weight(self, tag, w, axis):
        """7-bit weight codes, as ONNX Runtime's quantizer writes them with reduce_range: its AVX2
        u8 x s8 kernels add pairs of products in saturating int16, which 8-bit codes overflow."""
        scale = (np.abs(w).max(axis=tuple(i for i in range(w.ndim) if i != axis)) / 63.0).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        codes = np.clip(np.round(w / scale.reshape(shape)), -63, 63).astype(np.int8)
        self.const(tag + "_w", codes)
        self.const(tag + "_ws", scale)
        self.const(tag + "_wz", np.zeros(scale.shape, np.int8))
        return codes.astype(np.float64) * scale.reshape(shape), scale


# every op's quantized output, in graph order (the taps model's extra outputs)
TAPS = ["conv1_q", "conv2_q", "add_q", "leaky_q", "pool_q", "sigmoid_q", "concat_q", "mul_q", "gap_q", "fc_q",
        "softmax_q"]


def main():
    os.makedirs(OUT, exist_ok=True)
    m = Model()
    x = rng.uniform(-1.5, 2.0, (1, 3, 8, 8)).astype(np.float32)
    xs, xz, sx, zx = m.qparams("x", x)
    m.node("QuantizeLinear", ["input", xs, xz], "x_q", name="quant_input")

    def qconv(tag, inp, inp_real, inp_s, inp_params, cin, cout):
        w_real, ws = m.weight(tag, rng.normal(0, 0.35, (cout, cin, 3, 3)).astype(np.float32), 0)
        b = rng.normal(0, 0.1, cout)
        b_codes = np.round(b / (inp_s * ws)).astype(np.int32)
        m.const(tag + "_b", b_codes)
        y = conv3x3(inp_real, w_real, b_codes * (inp_s * ws))
        ys, yz, s, z = m.qparams(tag + "_y", y)
        m.node("QLinearConv", [inp, *inp_params, tag + "_w", tag + "_ws", tag + "_wz", ys, yz, tag + "_b"],
               tag + "_q", name=tag, pads=[1, 1, 1, 1], kernel_shape=[3, 3])
        return tag + "_q", y, s, (ys, yz)

    c1, y1, s1, p1 = qconv("conv1", "x_q", x, sx, (xs, xz), 3, 8)
    c2, y2, s2, p2 = qconv("conv2", c1, y1, s1, p1, 8, 8)
    r = y1 + y2
    rs, rz, _, _ = m.qparams("add", r)
    m.node("QLinearAdd", [c1, *p1, c2, *p2, rs, rz], "add_q", domain="com.microsoft")
    lr = np.where(r >= 0, r, 0.1 * r)
    ls, lz, _, _ = m.qparams("leaky", lr)
    m.node("QLinearLeakyRelu", ["add_q", rs, rz, ls, lz], "leaky_q", domain="com.microsoft", alpha=0.1)
    ap = lr.reshape(1, 8, 4, 2, 4, 2).mean(axis=(3, 5))
    ps, pz, _, _ = m.qparams("pool", ap)
    m.node("QLinearAveragePool", ["leaky_q", ls, lz, ps, pz], "pool_q", domain="com.microsoft",
           kernel_shape=[2, 2], strides=[2, 2])
    sg = 1 / (1 + np.exp(-ap))
    ss, sz, _, _ = m.qparams("sigmoid", sg)
    m.node("QLinearSigmoid", ["pool_q", ps, pz, ss, sz], "sigmoid_q", domain="com.microsoft")
    cat = np.concatenate([ap, sg], axis=1)
    cs, cz, _, _ = m.qparams("concat", cat)
    m.node("QLinearConcat", [cs, cz, "pool_q", ps, pz, "sigmoid_q", ss, sz], "concat_q", domain="com.microsoft",
           axis=1)
    mu = cat * cat
    ms, mz, _, _ = m.qparams("mul", mu)
    m.node("QLinearMul", ["concat_q", cs, cz, "concat_q", cs, cz, ms, mz], "mul_q", domain="com.microsoft")
    gap = mu.mean(axis=(2, 3), keepdims=True)
    gs, gz, sgap, _ = m.qparams("gap", gap)
    m.node("QLinearGlobalAveragePool", ["mul_q", ms, mz, gs, gz], "gap_q", domain="com.microsoft")
    m.node("Reshape", ["gap_q", m.const("flat", np.array([1, 16], np.int64))], "flat_q")
    feat = gap.reshape(1, 16)

    def qgemm(tag, n_out, quantized_out):
        w_real, ws = m.weight(tag, rng.normal(0, 0.5, (16, n_out)).astype(np.float32), 1)
        b = rng.normal(0, 0.2, n_out)
        b_codes = np.round(b / (sgap * ws)).astype(np.int32)
        m.const(tag + "_b", b_codes)
        y = feat @ w_real + b_codes * (sgap * ws)
        ins = ["flat_q", gs, gz, tag + "_w", tag + "_ws", tag + "_wz", tag + "_b"]
        if not quantized_out:
            return m.node("QGemm", ins, tag + "_out", domain="com.microsoft"), y
        ys, yz, _, _ = m.qparams(tag + "_y", y)
        return m.node("QGemm", ins + [ys, yz], tag + "_q", domain="com.microsoft"), y

    g, logits = qgemm("fc", 10, True)
    gys, gyz = "fc_y_scale", "fc_y_zero"
    sm = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    sms = m.const("softmax_scale", np.float32(1.0 / 256.0))
    smz = m.const("softmax_zero", np.uint8(0))
    m.node("QLinearSoftmax", [g, gys, gyz, sms, smz], "softmax_q", domain="com.microsoft", axis=-1, opset=13)
    m.node("DequantizeLinear", ["softmax_q", sms, smz], "output", name="dequant_output")
    qgemm("aux", 4, False)
    del sm

    graph = h.make_graph(m.nodes, "qop_residual", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 8, 8])],
                         [h.make_tensor_value_info("output", T.FLOAT, [1, 10]),
                          h.make_tensor_value_info("aux_out", T.FLOAT, [1, 4])], m.inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)],
                         producer_name="make_qoperator_models.py")
    model.ir_version = 8
    onnx.save(model, os.path.join(OUT, "qop_residual.onnx"))
    np.save(os.path.join(OUT, "qop_residual.input_0.npy"), x)
    # the same graph with every op's codes as an output too: conformance per op
    for tap in TAPS:
        graph.output.append(h.make_tensor_value_info(tap, T.UINT8, None))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)],
                         producer_name="make_qoperator_models.py")
    model.ir_version = 8
    onnx.save(model, os.path.join(OUT, "qop_residual_taps.onnx"))
    np.save(os.path.join(OUT, "qop_residual_taps.input_0.npy"), x)
    print("wrote qop_residual.onnx,", len(m.nodes), "nodes")


if __name__ == "__main__":
    main()
