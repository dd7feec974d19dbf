#!/usr/bin/python3
"""Small QDQ models for the fixed-point simulator's look-up-table paths (tests/data/fixedpoint/).

Run with Debian's interpreter (python3-onnx, python3-numpy); tests read the committed files:
    /usr/bin/python3 tests/gen/make_fixedpoint_fixtures.py

lut_qdq.onnx: input -> Q/DQ (uint8) -> Sigmoid -> Q/DQ (uint8, 1/256)   [8-bit table]
                    -> Q/DQ (int16)  -> Tanh    -> Q/DQ (int16, 1/32768) [16-bit segmented table]
                    -> Q/DQ (uint8)  -> Softmax(axis=-1) -> Q/DQ (uint8, 1/256)
                    -> Q/DQ (int8, coarse 0.25) -> Exp -> Q/DQ (uint8, 0.5) [a table that hurts]
Outputs: sig, tanh, soft, exp.  lut_qdq.input_0.npy: the input (1x4x16, N(0, 2)).
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "fixedpoint")


def main():
    os.makedirs(OUT, exist_ok=True)
    nodes, inits = [], []

    def const(name, value, dtype):
        inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def qdq(x, tag, scale, zp, dtype):
        s = const(tag + ".scale", scale, np.float32)
        z = const(tag + ".zero_point", zp, dtype)
        nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [tag + "_q"], name="/" + tag + "/QuantizeLinear"))
        nodes.append(helper.make_node("DequantizeLinear", [tag + "_q", s, z], [tag + "_dq"], name="/" + tag + "/DequantizeLinear"))
        return tag + "_dq"

    def op(kind, x, module, out, **attrs):
        nodes.append(helper.make_node(kind, [x], [out], name="/%s/%s" % (module, kind), **attrs))
        return out

    a = qdq("input", "in8", 8.0 / 255, 128, np.uint8)
    s = op("Sigmoid", a, "sigmoid", "sig_f")
    qdq(s, "sig_out", 1.0 / 256, 0, np.uint8)
    nodes[-1].output[0] = "sig"
    b = qdq("input", "in16", 8.0 / 32767, 0, np.int16)
    t = op("Tanh", b, "tanh", "tanh_f")
    qdq(t, "tanh_out", 1.0 / 32768, 0, np.int16)
    nodes[-1].output[0] = "tanh"
    c = qdq("input", "in_soft", 8.0 / 255, 128, np.uint8)
    m = op("Softmax", c, "softmax", "soft_f", axis=-1)
    qdq(m, "soft_out", 1.0 / 256, 0, np.uint8)
    nodes[-1].output[0] = "soft"
    d = qdq("input", "in_exp", 0.25, 0, np.int8)
    e = op("Exp", d, "exp", "exp_f")
    qdq(e, "exp_out", 0.5, 0, np.uint8)
    nodes[-1].output[0] = "exp"
    shape = [1, 4, 16]
    graph = helper.make_graph(nodes, "lut_qdq", [helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape) for n in ("sig", "tanh", "soft", "exp")],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tests/gen/make_fixedpoint_fixtures.py")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, "lut_qdq.onnx"))
    x = (np.random.default_rng(8).standard_normal(shape) * 2.0).astype(np.float32)
    np.save(os.path.join(OUT, "lut_qdq.input_0.npy"), x)
    print("wrote", os.path.join(OUT, "lut_qdq.onnx"))


if __name__ == "__main__":
    main()
