#!/usr/bin/python3
"""Small QDQ models, one op each, for the integer mode's kernels (tests/fixedpoint/int_ops_model_test.cpp).

Each model is Q -> DQ on every float input (uint8 activations with non-trivial scales and zero
points), int8 per-channel weights where the op has weights, the op, then Q -> DQ on the output:
what a QAT export looks like around one op. Inputs are seeded random .npy files next to the model.
The *_hand models use power-of-two scales so the test can state exact integer codes worked out by
hand. Run with /usr/bin/python3 (python3-onnx, numpy); writes tests/data/models/int_ops/.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "models", "int_ops")
rng = np.random.default_rng(20261130)


class Builder:
    def __init__(self):
        self.nodes, self.inits, self.inputs, self.feeds = [], [], [], {}

    def const(self, name, arr):
        self.inits.append(nh.from_array(arr, name))
        return name

    def qdq(self, name, x, scale, zp, axis=None, dtype=np.uint8):
        """QuantizeLinear -> DequantizeLinear of x (per tensor, or per `axis` with arrays)."""
        s = self.const(name + "_scale", np.asarray(scale, np.float32))
        z = self.const(name + "_zero", np.asarray(zp, dtype))
        kw = {} if axis is None else {"axis": axis}
        self.nodes.append(h.make_node("QuantizeLinear", [x, s, z], [name + "_q"], name=name + "_Q", **kw))
        self.nodes.append(h.make_node("DequantizeLinear", [name + "_q", s, z], [name + "_dq"], name=name + "_DQ", **kw))
        return name + "_dq"

    def weight(self, name, w, axis=0):
        """int8 symmetric per-channel weight stored as codes (as exported), DequantizeLinear only."""
        scale = np.maximum(np.abs(w).max(axis=tuple(i for i in range(w.ndim) if i != axis)), 1e-6) / 127.0
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        self.const(name + "_w", q)
        self.const(name + "_ws", scale.astype(np.float32))
        self.const(name + "_wz", np.zeros(scale.shape, np.int8))
        self.nodes.append(h.make_node("DequantizeLinear", [name + "_w", name + "_ws", name + "_wz"], [name + "_wdq"],
                                      name=name + "_wDQ", axis=axis))
        return name + "_wdq"

    def input(self, name, shape, lo, hi, scale, zp):
        self.inputs.append(h.make_tensor_value_info(name, T.FLOAT, shape))
        self.feeds[name] = rng.uniform(lo, hi, shape).astype(np.float32)
        return self.qdq(name, name, scale, zp)

    def op(self, op, ins, name, **attrs):
        self.nodes.append(h.make_node(op, ins, [name], name=name, **attrs))
        return name

    def save(self, model, out, opset=13, ir_version=8):
        outputs = [h.make_tensor_value_info(out, T.FLOAT, None)]
        g = h.make_graph(self.nodes, model, self.inputs, outputs, self.inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)], producer_name="make_int_ops_models.py")
        m.ir_version = ir_version
        if opset <= onnx.defs.onnx_opset_version():   # Debian's onnx 1.12 knows opset 17 at most
            onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)   # validates the graph
        onnx.save(m, os.path.join(OUT, model + ".onnx"))
        for i, inp in enumerate(self.inputs):
            np.save(os.path.join(OUT, f"{model}.input_{i}.npy"), self.feeds[inp.name])


def one_op(model, op, n_inputs, shape, out_scale, out_zp, attrs=None, extra=None):
    """n quantized inputs of `shape` with distinct scales / zero points -> op -> Q/DQ."""
    b = Builder()
    params = [(0.021, 117, -2.4, 2.9), (0.047, 96, -4.5, 7.0), (0.013, 131, -1.6, 1.6)]
    ins = []
    for k in range(n_inputs):
        s, z, lo, hi = params[k]
        ins.append(b.input(f"x{k}", shape if not isinstance(shape[0], list) else shape[k], lo, hi, s, z))
    if extra:
        ins += extra(b)
    y = b.op(op, ins, op.lower(), **(attrs or {}))
    b.save(model, b.qdq("out", y, out_scale, out_zp))


def conv(model, cin, cout, group, dilation, pads):
    b = Builder()
    x = b.input("x0", [1, cin, 9, 9], -1.8, 2.6, 0.019, 97)
    w = b.weight("conv", rng.normal(0, 0.4, (cout, cin // group, 3, 3)).astype(np.float32))
    bias = b.const("conv_b", rng.normal(0, 0.2, cout).astype(np.float32))
    y = b.op("Conv", [x, w, bias], "conv", group=group, dilations=[dilation, dilation], pads=pads, kernel_shape=[3, 3])
    b.save(model, b.qdq("out", y, 0.043, 121))


def resize(model, in_shape, coord, mode="linear", scales=None, sizes=None, out_scale=0.023, out_zp=110, extra=None):
    b = Builder()
    x = b.input("x0", in_shape, -2.3, 3.1, 0.021, 109)
    roi = b.const("roi", np.zeros(0, np.float32))
    sc = b.const("scales", np.asarray(scales, np.float32)) if scales is not None else ""
    sz = b.const("sizes", np.asarray(sizes, np.int64)) if sizes is not None else None
    ins = [x, roi, sc] + ([sz] if sz else [])
    y = b.op("Resize", ins, "resize", mode=mode, coordinate_transformation_mode=coord, **(extra or {}))
    b.save(model, b.qdq("out", y, out_scale, out_zp))


def main():
    os.makedirs(OUT, exist_ok=True)
    # MatMul against an int8 weight quantized per output column
    b = Builder()
    x = b.input("x0", [1, 5, 12], -2.0, 2.5, 0.018, 111)
    w = b.weight("fc", rng.normal(0, 0.3, (12, 7)).astype(np.float32), axis=1)
    b.save("matmul", b.qdq("out", b.op("MatMul", [x, w], "matmul"), 0.051, 124))
    one_op("sub", "Sub", 2, [1, 3, 5, 5], 0.061, 139)
    one_op("mul", "Mul", 2, [1, 3, 5, 5], 0.083, 71)
    one_op("concat", "Concat", 3, [[1, 2, 5, 5], [1, 3, 5, 5], [1, 1, 5, 5]], 0.041, 101, {"axis": 1})
    one_op("avgpool_pad", "AveragePool", 1, [1, 3, 7, 7], 0.017, 118,
           {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "strides": [2, 2], "count_include_pad": 1})
    one_op("avgpool_nopad", "AveragePool", 1, [1, 3, 7, 7], 0.017, 118,
           {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "strides": [2, 2], "count_include_pad": 0})
    one_op("global_avgpool", "GlobalAveragePool", 1, [1, 4, 6, 6], 0.009, 126)
    conv("conv_grouped", 4, 6, 2, 1, [1, 1, 1, 1])
    conv("conv_dilated", 3, 5, 1, 2, [2, 2, 2, 2])
    resize("resize_nearest", [1, 2, 4, 5], "asymmetric", "nearest", scales=[1, 1, 2, 2], extra={"nearest_mode": "floor"})
    resize("resize_bilinear_half_pixel", [1, 2, 5, 7], "half_pixel", sizes=[1, 2, 9, 13])
    resize("resize_bilinear_align_corners", [1, 2, 5, 7], "align_corners", scales=[1, 1, 2, 2])
    resize("resize_bilinear_pytorch_half_pixel", [1, 2, 4, 4], "pytorch_half_pixel", scales=[1, 1, 1.5, 3])
    resize("resize_bilinear_asymmetric", [1, 2, 5, 7], "asymmetric", scales=[1, 1, 2, 2])
    # broadcasting: a per-channel tensor [1,C,1,1] from another input, and a per-channel scale
    # tensor that is a constant quantized per channel
    one_op("add_broadcast", "Add", 2, [[1, 3, 5, 5], [1, 3, 1, 1]], 0.057, 112)
    b = Builder()
    x = b.input("x0", [1, 3, 5, 5], -2.4, 2.9, 0.021, 117)
    k = b.const("k", np.array([0.7, -1.3, 2.2], np.float32).reshape(1, 3, 1, 1))
    kq = b.qdq("k", k, [0.006, 0.011, 0.018], [128, 130, 125], axis=1)
    b.save("mul_broadcast", b.qdq("out", b.op("Mul", [x, kq], "mul"), 0.048, 119))
    # exact hand values: power-of-two scales, codes chosen by the test
    b = Builder()
    x = b.input("x0", [1, 1, 2, 2], 0, 1, 0.5, 10)
    roi = b.const("roi", np.zeros(0, np.float32))
    sc = b.const("scales", np.array([1, 1, 2, 2], np.float32))
    y = b.op("Resize", [x, roi, sc], "resize", mode="linear", coordinate_transformation_mode="half_pixel")
    b.save("resize_hand", b.qdq("out", y, 0.5, 10))
    # what legitimately stays in float: Div of two quantized activations
    one_op("div_fallback", "Div", 2, [1, 2, 3, 3], 0.05, 128)
    # ops that are not layers fall back too, and the float ops computed from their float result
    # (LeakyRelu) with them; a Reshape between them moves data only and is not listed
    b = Builder()
    x = b.input("x0", [1, 3, 4, 4], -2.4, 2.9, 0.021, 117)
    r = b.op("ReduceMean", [x], "reducemean", axes=[2, 3], keepdims=1)
    r = b.op("Reshape", [r, b.const("shape", np.array([1, 3], np.int64))], "reshape")
    r = b.op("LeakyRelu", [r], "leakyrelu", alpha=0.1)
    b.save("reduce_fallback", b.qdq("out", r, 0.01, 128))
    # a residual Add straight on the convolution's output (no quantizer between): fused into the
    # accumulator, and the Relu after it
    b = Builder()
    x = b.input("x0", [1, 4, 6, 6], -1.8, 2.6, 0.019, 97)
    r = b.input("x1", [1, 4, 6, 6], -2.0, 3.0, 0.027, 88)
    w = b.weight("conv", rng.normal(0, 0.4, (4, 4, 3, 3)).astype(np.float32))
    bias = b.const("conv_b", rng.normal(0, 0.2, 4).astype(np.float32))
    y = b.op("Conv", [x, w, bias], "conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    y = b.op("Relu", [b.op("Add", [y, r], "add")], "relu")
    b.save("conv_add_fused", b.qdq("out", y, 0.047, 0))
    # the fused residual Add by hand (power-of-two scales, codes chosen by the test)
    b = Builder()
    x = b.input("x0", [1, 1, 1, 2], 0, 4, 0.5, 0)
    r = b.input("x1", [1, 1, 1, 2], 0, 1, 0.25, 3)
    b.const("conv_w", np.array([[[[2]]]], np.int8))
    b.const("conv_ws", np.array([0.25], np.float32))
    b.const("conv_wz", np.array([0], np.int8))
    b.nodes.append(h.make_node("DequantizeLinear", ["conv_w", "conv_ws", "conv_wz"], ["conv_wdq"], name="conv_wDQ", axis=0))
    y = b.op("Conv", [x, "conv_wdq"], "conv", kernel_shape=[1, 1])
    b.save("conv_add_hand", b.qdq("out", b.op("Add", [y, r], "add"), 0.5, 5))
    # interpolation along a leading dimension (channels): the general loop, not the plane one
    resize("resize_linear_channels", [1, 3, 4, 5], "half_pixel", scales=[1, 2, 1, 1])
    # 16-bit activations (int16 QuantizeLinear needs opset 21, IR 10): int64 sums with Q15 weights
    b = Builder()
    b.inputs.append(h.make_tensor_value_info("x0", T.FLOAT, [1, 2, 5, 7]))
    b.feeds["x0"] = rng.uniform(-2.3, 3.1, [1, 2, 5, 7]).astype(np.float32)
    x = b.qdq("x0", "x0", 0.0001, 0, dtype=np.int16)
    roi = b.const("roi", np.zeros(0, np.float32))
    sz = b.const("sizes", np.array([1, 2, 9, 13], np.int64))   # fractions not exact in Q15
    y = b.op("Resize", [x, roi, "", sz], "resize", mode="linear", coordinate_transformation_mode="half_pixel")
    b.save("resize_bilinear_int16", b.qdq("out", y, 0.00011, 3, dtype=np.int16), opset=21, ir_version=10)
    one_op("leaky_relu", "LeakyRelu", 1, [1, 3, 5, 5], 0.015, 30, {"alpha": 0.1})
    # int8 activations with a negative zero point
    b = Builder()
    b.inputs.append(h.make_tensor_value_info("x0", T.FLOAT, [1, 2, 5, 7]))
    b.feeds["x0"] = rng.uniform(-1.0, 4.0, [1, 2, 5, 7]).astype(np.float32)
    x = b.qdq("x0", "x0", 0.02, -50, dtype=np.int8)
    roi = b.const("roi", np.zeros(0, np.float32))
    sc = b.const("scales", np.array([1, 1, 2, 2], np.float32))
    y = b.op("Resize", [x, roi, sc], "resize", mode="linear", coordinate_transformation_mode="align_corners")
    b.save("resize_bilinear_int8", b.qdq("out", y, 0.021, -45, dtype=np.int8))
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f"wrote {len(os.listdir(OUT))} files, {total} bytes to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
