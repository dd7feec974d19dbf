#!/usr/bin/python3
"""ONNX models in the quantized forms other tools write, for tests/model/other_quantizers_test.cpp
and tests/fixedpoint/dynamic_sim_test.cpp. Writes tests/data/models/other/.

- dyn_mlp.onnx / dyn_cnn.onnx: what ONNX Runtime's quantize_dynamic writes (opset >= 11) from a
  torch-exported float model: each Gemm becomes MatMul + Add (the weight transposed in place,
  keeping its name), each activation one DynamicQuantizeLinear named <X>_QuantizeLinear, each
  MatMul / Conv a MatMulInteger / ConvInteger named <node>_quant reading <W>_quantized,
  <W>_scale, <W>_zero_point, then Cast(to=FLOAT), Mul(cast, Mul(x_scale, w_scale)) and, for a
  Conv with a bias, Reshape(bias, [1,-1,1,1]) + Add. dyn_mlp: int8 symmetric weights (the
  default), per-tensor, old-style node names (Gemm_0). dyn_cnn: torch >= 1.13 scoped names, uint8
  weights (QUInt8) on the Conv, per-column int8 scales on the classifier (per_channel=True).
- qgemm_dynamic.onnx: a com.microsoft QGemm whose input scale is DynamicQuantizeLinear's (not a
  constant) with an int32 bias C, float output: ONNX Runtime adds C into the accumulator.
- avgpool_include_pad.onnx, avgpool_ties.onnx: QLinearAveragePool, count_include_pad=1 with
  padding; the second built so that windows average to exact ties.
- brevitas_cnn.onnx: Brevitas' QONNX export (domain onnx.brevitas, torch >= 1.13 names): 4-bit
  per-channel weights (narrow, signed), 8-bit unsigned input and activation quantizers, 2-bit
  activation, a BipolarQuant output.
- qonnx_fp8.onnx: FloatQuant (E4M3, bias 7, max 448) on the input and weight of a Gemm, domain
  qonnx.custom_op.general, no opset_import for it.
- qkeras_mlp.onnx: the QKeras converter's finn.custom_op.general Quant with int64 zero point and
  bit width, unscoped names, a 6-bit weight.
- unknown_quantizer.onnx: a float model with com.acme.npu FakeQuantize8 nodes (3).
- custom_swish.onnx: a float model with a custom com.example Swish: not a quantizer.
- no_input.onnx: only Constant nodes and an Identity feeding the output.
- no_compute.onnx: an input reshaped and returned.
- broken_act_scale.onnx: QDQ conv model whose activation quantizers have scales 0, NaN and -0.05.

Inputs are committed beside each model (<name>.input_0.npy); ONNX Runtime's outputs come from
tests/gen/ort_reference.js (<name>.ort_disabled.npy). Run with /usr/bin/python3 (Debian
python3-torch, python3-onnx, numpy).
"""
import io
import os

import numpy as np
import onnx
import torch
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "models", "other")
rng = np.random.default_rng(20261207)
torch.manual_seed(7)


def export(module, example, opset=13):
    buf = io.BytesIO()
    torch.onnx.export(module.eval(), example, buf, opset_version=opset, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    return onnx.load_from_string(buf.getvalue())


def quantize_weight(w, qtype, axis=None):
    """quant_utils.quantize_data: int8 symmetric [-127, 127] (zp 0), uint8 asymmetric [0, 255]."""
    def params(v):
        lo, hi = min(float(v.min()), 0.0), max(float(v.max()), 0.0)
        if qtype == T.INT8:
            a = max(abs(lo), abs(hi))
            scale = np.float64(2 * a) / 254.0
            return np.float32(scale if scale > 0 else 1.0), 0
        scale = np.float64(hi - lo) / 255.0
        if scale <= 0:
            return np.float32(1.0), 0
        return np.float32(scale), int(np.round(0 - lo / scale))
    lo, hi = (-127, 127) if qtype == T.INT8 else (0, 255)
    np_type = np.int8 if qtype == T.INT8 else np.uint8
    if axis is None:
        s, z = params(w)
        q = np.clip(np.round(w / s) + z, lo, hi).astype(np_type)
        return q, np.array(s, np.float32), np.array(z, np_type)
    scales, zps = zip(*[params(np.take(w, i, axis=axis)) for i in range(w.shape[axis])])
    shape = [1] * w.ndim
    shape[axis] = -1
    s = np.array(scales, np.float32)
    z = np.array(zps, np_type)
    q = np.clip(np.round(w / s.reshape(shape)) + z.reshape(shape).astype(np.float32), lo, hi).astype(np_type)
    return q, s, z


def dynamic_quantize(model, weight_types, per_column=()):
    """quantize_dynamic's rewriting: weight_types maps a float weight name to TensorProto.INT8 or
    UINT8; per_column names MatMul weights quantized per output column."""
    g = model.graph
    inits = {i.name: i for i in g.initializer}
    nodes = list(g.node)
    # Gemm(alpha=1, beta=1, transB=1) -> MatMul (weight transposed in place) + Add
    rewritten = []
    for n in nodes:
        if n.op_type != "Gemm":
            rewritten.append(n)
            continue
        w = nh.to_array(inits[n.input[1]])
        if any(a.name == "transB" and a.i == 1 for a in n.attribute):
            inits[n.input[1]].CopyFrom(nh.from_array(np.ascontiguousarray(w.T), n.input[1]))
        rewritten.append(h.make_node("MatMul", [n.input[0], n.input[1]], [n.output[0] + "_MatMul"],
                                     name=n.name + "_MatMul"))
        rewritten.append(h.make_node("Add", [n.output[0] + "_MatMul", n.input[2]], [n.output[0]],
                                     name=n.name + "_Add"))
    out_nodes, new_inits, quantized_inputs = [], [], set()
    for n in rewritten:
        if n.op_type not in ("MatMul", "Conv") or n.input[1] not in weight_types:
            out_nodes.append(n)
            continue
        x, wname = n.input[0], n.input[1]
        if x not in quantized_inputs:
            quantized_inputs.add(x)
            out_nodes.append(h.make_node("DynamicQuantizeLinear", [x],
                                         [x + "_quantized", x + "_scale", x + "_zero_point"],
                                         name=x + "_QuantizeLinear"))
        w = nh.to_array(inits[wname])
        axis = 1 if wname in per_column else None
        q, s, z = quantize_weight(w, weight_types[wname], axis)
        new_inits += [nh.from_array(q, wname + "_quantized"), nh.from_array(s, wname + "_scale"),
                      nh.from_array(z, wname + "_zero_point")]
        del inits[wname]
        out = n.output[0]
        integer_op = "MatMulInteger" if n.op_type == "MatMul" else "ConvInteger"
        attrs = {a.name: h.get_attribute_value(a) for a in n.attribute}
        out_nodes.append(h.make_node(integer_op, [x + "_quantized", wname + "_quantized", x + "_zero_point",
                                                  wname + "_zero_point"], [out + "_output_quantized"],
                                     name=n.name + "_quant", **attrs))
        out_nodes.append(h.make_node("Cast", [out + "_output_quantized"], [out + "_output_quantized_cast_output"],
                                     name=out + "_output_quantized_cast", to=T.FLOAT))
        out_nodes.append(h.make_node("Mul", [x + "_scale", wname + "_scale"], [n.name + "_quant_scales_mul:0"],
                                     name=n.name + "_quant_scales_mul"))
        has_bias = n.op_type == "Conv" and len(n.input) > 2 and n.input[2]
        scaled = out + "quant_scaled_output" if has_bias else out
        out_nodes.append(h.make_node("Mul", [out + "_output_quantized_cast_output", n.name + "_quant_scales_mul:0"],
                                     [scaled], name=n.name + "_quant_output_scale_mul"))
        if has_bias:
            shape = out + "_bias_reshape_shape"
            new_inits.append(nh.from_array(np.array([1, -1, 1, 1], np.int64), shape))
            out_nodes.append(h.make_node("Reshape", [n.input[2], shape], [out + "_bias_reshape_output"]))
            out_nodes.append(h.make_node("Add", [scaled, out + "_bias_reshape_output"], [out],
                                         name=out + "_bias_add"))
    del g.node[:]
    g.node.extend(out_nodes)
    kept = list(inits.values()) + new_inits
    del g.initializer[:]
    g.initializer.extend(kept)
    model.producer_name, model.producer_version = "onnx.quantize", "0.1.0"
    return model


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(12, 16)
        self.head = torch.nn.Linear(16, 5)

    def forward(self, x):
        return self.head(torch.relu(self.encoder(x)))


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 6, 3, padding=1)
        self.body = torch.nn.Conv2d(6, 8, 3, stride=2, padding=1)
        self.classifier = torch.nn.Linear(8 * 4 * 4, 7)

    def forward(self, x):
        y = torch.relu(self.stem(x))
        y = torch.relu(self.body(y))
        return self.classifier(torch.flatten(y, 1))


def save(model, name, inputs, checked=True):
    if checked:  # the checker wants an opset_import for every domain; QONNX exports often have none
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))
    for i, x in enumerate(inputs):
        np.save(os.path.join(OUT, "%s.input_%d.npy" % (name, i)), x)


def dynamic_models():
    mlp = export(Mlp(), torch.zeros(2, 12))
    for i, n in enumerate(mlp.graph.node):
        n.name = "%s_%d" % (n.op_type, i)  # an old exporter's names: the weight names the module
    weights = {n.input[1]: T.INT8 for n in mlp.graph.node if n.op_type == "Gemm"}
    save(dynamic_quantize(mlp, weights), "dyn_mlp", [rng.normal(0, 1.0, (2, 12)).astype(np.float32)])

    cnn = export(Cnn(), torch.zeros(1, 3, 8, 8))
    types = {}
    for n in cnn.graph.node:
        if n.op_type == "Conv":
            types[n.input[1]] = T.UINT8
        if n.op_type == "Gemm":
            types[n.input[1]] = T.INT8
    per_column = {n.input[1] for n in cnn.graph.node if n.op_type == "Gemm"}
    save(dynamic_quantize(cnn, types, per_column), "dyn_cnn",
         [rng.uniform(-1.0, 1.5, (1, 3, 8, 8)).astype(np.float32)])


def qgemm_dynamic():
    """DynamicQuantizeLinear -> QGemm (A's scale from DQL, not constant), int32 bias, float out."""
    w = rng.normal(0, 0.4, (6, 4)).astype(np.float32)
    ws = np.float32(np.abs(w).max() / 127.0)
    wq = np.clip(np.round(w / ws), -127, 127).astype(np.int8)
    bias = rng.integers(-300, 300, 4).astype(np.int32)
    nodes = [h.make_node("DynamicQuantizeLinear", ["input"], ["a_q", "a_scale", "a_zp"], name="input_QuantizeLinear"),
             h.make_node("QGemm", ["a_q", "a_scale", "a_zp", "fc.weight_quantized", "fc.weight_scale",
                                   "fc.weight_zero_point", "fc.bias_quantized"], ["output"], name="fc_quant",
                         domain="com.microsoft")]
    inits = [nh.from_array(wq, "fc.weight_quantized"), nh.from_array(np.array(ws, np.float32), "fc.weight_scale"),
             nh.from_array(np.array(0, np.int8), "fc.weight_zero_point"), nh.from_array(bias, "fc.bias_quantized")]
    graph = h.make_graph(nodes, "qgemm_dynamic", [h.make_tensor_value_info("input", T.FLOAT, [3, 6])],
                         [h.make_tensor_value_info("output", T.FLOAT, [3, 4])], inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)],
                         producer_name="make_dynamic_qonnx_models.py")
    model.ir_version = 8
    save(model, "qgemm_dynamic", [rng.normal(0, 1.0, (3, 6)).astype(np.float32)])


def avgpool(name, kernel, x_params, y_params, x):
    """QuantizeLinear -> QLinearAveragePool(count_include_pad=1, pads 1) -> DequantizeLinear."""
    nodes = [h.make_node("QuantizeLinear", ["input", "x_scale", "x_zp"], ["x_q"], name="quant_input"),
             h.make_node("QLinearAveragePool", ["x_q", "x_scale", "x_zp", "y_scale", "y_zp"], ["y_q"], name="pool",
                         domain="com.microsoft", kernel_shape=[kernel, kernel], pads=[1, 1, 1, 1], strides=[1, 1],
                         count_include_pad=1),
             h.make_node("DequantizeLinear", ["y_q", "y_scale", "y_zp"], ["output"], name="dequant_output")]
    inits = [nh.from_array(np.array(x_params[0], np.float32), "x_scale"),
             nh.from_array(np.array(x_params[1], np.uint8), "x_zp"),
             nh.from_array(np.array(y_params[0], np.float32), "y_scale"),
             nh.from_array(np.array(y_params[1], np.uint8), "y_zp")]
    out = x.shape[2] + 2 - kernel + 1
    graph = h.make_graph(nodes, name, [h.make_tensor_value_info("input", T.FLOAT, list(x.shape))],
                         [h.make_tensor_value_info("output", T.FLOAT, [1, x.shape[1], out, out])], inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)],
                         producer_name="make_dynamic_qonnx_models.py")
    model.ir_version = 8
    save(model, name, [x])


def avgpool_models():
    # 3x3 windows over real values: pads count as real 0 in the divisor (9)
    avgpool("avgpool_include_pad", 3, (0.02, 100), (0.013, 90), rng.uniform(-1.8, 3.0, (1, 2, 5, 5)).astype(np.float32))
    # 2x2 windows over whole codes at scale 1: every window whose sum is 2 mod 4 averages to an
    # exact tie (k + 0.5), where half-to-even (QuantizeLinear, the op's definition) and
    # half-away-from-zero rounding differ
    avgpool("avgpool_ties", 2, (1.0, 0), (1.0, 0), rng.integers(0, 40, (1, 1, 6, 6)).astype(np.float32))


class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, arr):
        self.inits.append(nh.from_array(np.asarray(arr), name))
        return name

    def node(self, op, ins, out, name, domain=None, **attrs):
        self.nodes.append(h.make_node(op, ins, [out], name=name, domain=domain, **attrs))
        return out

    def model(self, name, inputs, outputs, opsets, producer="pytorch"):
        graph = h.make_graph(self.nodes, name, inputs, outputs, self.inits)
        model = h.make_model(graph, opset_imports=[h.make_opsetid(d, v) for d, v in opsets], producer_name=producer)
        model.ir_version = 8
        return model


def brevitas_weight(w, bits, axis_scale):
    """Brevitas stores weights already fake-quantized: k * scale with k in the narrow signed range."""
    qmax = 2 ** (bits - 1) - 1
    scale = (np.abs(w).reshape(w.shape[0], -1).max(axis=1) / qmax).astype(np.float32)
    shaped = scale.reshape([-1] + [1] * (w.ndim - 1)) if axis_scale else scale.max()
    k = np.clip(np.round(w / shaped), -qmax, qmax)
    return (k * shaped).astype(np.float32), np.asarray(shaped, np.float32)


def brevitas_cnn():
    b = Graph()
    dom = "onnx.brevitas"
    f32 = lambda v: np.array(v, np.float32)  # noqa: E731
    b.node("Quant", ["input", b.const("/input_quant/export_handler/Constant_output_0", f32(0.0235)),
                     b.const("/input_quant/export_handler/Constant_1_output_0", f32(0)),
                     b.const("/input_quant/export_handler/Constant_2_output_0", f32(8))],
           "inp_q", "/input_quant/export_handler/Quant", dom, narrow=0, signed=0, rounding_mode="ROUND")
    w1, s1 = brevitas_weight(rng.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32), 4, True)
    b.node("Quant", [b.const("features.0.weight", w1), b.const("/features/features.0/weight_quant/export_handler/Constant_output_0", s1),
                     "/input_quant/export_handler/Constant_1_output_0",
                     b.const("/features/features.0/weight_quant/export_handler/Constant_1_output_0", f32(4))],
           "w1_q", "/features/features.0/weight_quant/export_handler/Quant", dom, narrow=1, signed=1,
           rounding_mode="ROUND")
    b.node("Conv", ["inp_q", "w1_q", b.const("features.0.bias", rng.normal(0, 0.1, 4).astype(np.float32))], "c1",
           "/features/features.0/Conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    b.node("Relu", ["c1"], "r1", "/features/features.1/Relu")
    b.node("Quant", ["r1", b.const("/features/features.1/act_quant/export_handler/Constant_output_0", f32(0.047)),
                     "/input_quant/export_handler/Constant_1_output_0",
                     "/input_quant/export_handler/Constant_2_output_0"],
           "a1_q", "/features/features.1/act_quant/export_handler/Quant", dom, narrow=0, signed=0, rounding_mode="ROUND")
    w2, s2 = brevitas_weight(rng.normal(0, 0.3, (5, 4, 3, 3)).astype(np.float32), 4, True)
    b.node("Quant", [b.const("features.2.weight", w2), b.const("/features/features.2/weight_quant/export_handler/Constant_output_0", s2),
                     "/input_quant/export_handler/Constant_1_output_0",
                     "/features/features.0/weight_quant/export_handler/Constant_1_output_0"],
           "w2_q", "/features/features.2/weight_quant/export_handler/Quant", dom, narrow=1, signed=1,
           rounding_mode="ROUND")
    b.node("Conv", ["a1_q", "w2_q"], "c2", "/features/features.2/Conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    b.node("Relu", ["c2"], "r2", "/features/features.3/Relu")
    b.node("Quant", ["r2", b.const("/features/features.3/act_quant/export_handler/Constant_output_0", f32(0.5)),
                     "/input_quant/export_handler/Constant_1_output_0",
                     b.const("/features/features.3/act_quant/export_handler/Constant_2_output_0", f32(2))],
           "a2_q", "/features/features.3/act_quant/export_handler/Quant", dom, narrow=0, signed=0, rounding_mode="ROUND")
    b.node("GlobalAveragePool", ["a2_q"], "gap", "/pool/GlobalAveragePool")
    b.node("Flatten", ["gap"], "flat", "/Flatten")
    w3, s3 = brevitas_weight(rng.normal(0, 0.4, (3, 5)).astype(np.float32), 8, False)
    b.node("Quant", [b.const("fc.weight", w3), b.const("/fc/weight_quant/export_handler/Constant_output_0", s3),
                     "/input_quant/export_handler/Constant_1_output_0",
                     "/input_quant/export_handler/Constant_2_output_0"],
           "w3_q", "/fc/weight_quant/export_handler/Quant", dom, narrow=1, signed=1, rounding_mode="ROUND")
    b.node("Gemm", ["flat", "w3_q", b.const("fc.bias", rng.normal(0, 0.1, 3).astype(np.float32))], "logits", "/fc/Gemm",
           transB=1)
    b.node("BipolarQuant", ["logits", b.const("/out_quant/export_handler/Constant_output_0", f32(1.0))], "output",
           "/out_quant/export_handler/BipolarQuant", dom)
    model = b.model("brevitas_cnn", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 6, 6])],
                    [h.make_tensor_value_info("output", T.FLOAT, [1, 3])], [("", 13), (dom, 1)], "pytorch 1.13.1")
    save(model, "brevitas_cnn", [rng.uniform(0, 4, (1, 3, 6, 6)).astype(np.float32)])


def qonnx_fp8():
    b = Graph()
    dom = "qonnx.custom_op.general"
    f32 = lambda v: np.array(v, np.float32)  # noqa: E731
    e, m, bias, mx = (b.const("/input_quant/export_handler/Constant_1_output_0", f32(4)),
                      b.const("/input_quant/export_handler/Constant_2_output_0", f32(3)),
                      b.const("/input_quant/export_handler/Constant_3_output_0", f32(7)),
                      b.const("/input_quant/export_handler/Constant_4_output_0", f32(448)))
    fp8 = dict(has_inf=0, has_nan=1, has_subnormal=1, rounding_mode="ROUND", saturation=1)
    b.node("FloatQuant", ["input", b.const("/input_quant/export_handler/Constant_output_0", f32(0.0031)), e, m, bias, mx],
           "xq", "/input_quant/export_handler/FloatQuant", dom, **fp8)
    b.node("FloatQuant", [b.const("weight", rng.normal(0, 0.3, (8, 5)).astype(np.float32)),
                          b.const("/weight_quant/export_handler/Constant_output_0", f32(0.0017)), e, m, bias, mx],
           "wq", "/weight_quant/export_handler/FloatQuant", dom, **fp8)
    b.node("Gemm", ["xq", "wq", b.const("bias", rng.normal(0, 0.1, 8).astype(np.float32))], "output", "/Gemm", transB=1)
    model = b.model("qonnx_fp8", [h.make_tensor_value_info("input", T.FLOAT, [1, 5])],
                    [h.make_tensor_value_info("output", T.FLOAT, [1, 8])], [("", 17)], "pytorch 2.1.0")
    save(model, "qonnx_fp8", [rng.normal(0, 0.5, (1, 5)).astype(np.float32)], checked=False)


def qkeras_mlp():
    b = Graph()
    dom = "finn.custom_op.general"
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    f32 = lambda v: np.array(v, np.float32)  # noqa: E731
    b.node("Quant", ["input", b.const("Quant_0_param0", f32(0.0625)), b.const("Quant_0_param1", i64(0)),
                     b.const("Quant_0_param2", i64(8))], "q0", "Quant_0", dom, narrow=0, signed=1, rounding_mode="ROUND")
    w = np.round(rng.normal(0, 0.4, (10, 6)) / 0.03125) * 0.03125
    b.node("Quant", [b.const("Quant_1_param0", w.astype(np.float32)), b.const("Quant_1_param1", f32(0.03125)),
                     b.const("Quant_1_param2", i64(0)), b.const("Quant_1_param3", i64(6))], "w0", "Quant_1", dom,
           narrow=0, signed=1, rounding_mode="ROUND")
    b.node("MatMul", ["q0", "w0"], "mm0", "MatMul_0")
    b.node("Relu", ["mm0"], "r0", "Relu_0")
    b.node("Quant", ["r0", b.const("Quant_2_param0", f32(0.015625)), "Quant_1_param2", b.const("Quant_2_param2", i64(6))],
           "output", "Quant_2", dom, narrow=0, signed=0, rounding_mode="ROUND")
    model = b.model("qkeras_mlp", [h.make_tensor_value_info("input", T.FLOAT, [1, 10])],
                    [h.make_tensor_value_info("output", T.FLOAT, [1, 6])], [("", 9)], "tf2onnx 1.9.2")
    save(model, "qkeras_mlp", [rng.normal(0, 1, (1, 10)).astype(np.float32)], checked=False)


def custom_domain_models():
    b = Graph()
    b.node("FakeQuantize8", ["input"], "q0", "fq_input", "com.acme.npu", scale=0.02)
    b.node("Conv", ["q0", b.const("conv.weight", rng.normal(0, 0.3, (4, 3, 1, 1)).astype(np.float32))], "c0", "conv")
    b.node("FakeQuantize8", ["c0"], "q1", "fq_conv", "com.acme.npu", scale=0.05)
    b.node("Relu", ["q1"], "r0", "relu")
    b.node("FakeQuantize8", ["r0"], "output", "fq_relu", "com.acme.npu", scale=0.05)
    save(b.model("unknown_quantizer", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 4, 4])],
                 [h.make_tensor_value_info("output", T.FLOAT, [1, 4, 4, 4])], [("", 13), ("com.acme.npu", 1)]),
         "unknown_quantizer", [])

    b = Graph()
    b.node("Conv", ["input", b.const("conv.weight", rng.normal(0, 0.3, (4, 3, 1, 1)).astype(np.float32))], "c0", "conv")
    b.node("Swish", ["c0"], "output", "act", "com.example")
    save(b.model("custom_swish", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 4, 4])],
                 [h.make_tensor_value_info("output", T.FLOAT, [1, 4, 4, 4])], [("", 13), ("com.example", 1)]),
         "custom_swish", [])


def degenerate_models():
    b = Graph()
    b.nodes.append(h.make_node("Constant", [], ["k"], name="k", value=nh.from_array(np.arange(6, dtype=np.float32))))
    b.node("Identity", ["k"], "output", "out")
    save(b.model("no_input", [], [h.make_tensor_value_info("output", T.FLOAT, [6])], [("", 13)]), "no_input", [])

    b = Graph()
    b.node("Reshape", ["input", b.const("shape", np.array([1, -1], np.int64))], "flat", "flatten")
    b.node("Identity", ["flat"], "output", "out")
    save(b.model("no_compute", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 2, 2])],
                 [h.make_tensor_value_info("output", T.FLOAT, [1, 12])], [("", 13)]), "no_compute", [])


def broken_act_scale():
    """input Q/DQ (scale 0) -> conv1 -> Q/DQ (NaN) -> conv2 -> Q/DQ (-0.05) -> output."""
    b = Graph()
    f32 = lambda v: np.array(v, np.float32)  # noqa: E731

    def qdq(x, tag, scale, name):
        b.node("QuantizeLinear", [x, b.const(tag + ".scale", f32(scale)), b.const(tag + ".zero_point", np.uint8(128))],
               tag + "_q", "/%s/QuantizeLinear" % name)
        return b.node("DequantizeLinear", [tag + "_q", tag + ".scale", tag + ".zero_point"], tag + "_dq",
                      "/%s/DequantizeLinear" % name)

    def weight(tag, shape):
        w = rng.normal(0, 0.3, shape).astype(np.float32)
        s = np.float32(np.abs(w).max() / 127)
        b.const(tag + "_q", np.clip(np.round(w / s), -127, 127).astype(np.int8))
        return b.node("DequantizeLinear", [tag + "_q", b.const(tag + "_scale", s), b.const(tag + "_zp", np.int8(0))],
                      tag + "_dq", "/%s/DequantizeLinear" % tag)

    x = qdq("input", "quant.activation_post_process", 0.0, "quant")
    b.node("Conv", [x, weight("conv1.weight", (4, 3, 1, 1))], "c1", "/conv1/Conv")
    y = qdq("c1", "conv1.activation_post_process", float("nan"), "conv1")
    b.node("Conv", [y, weight("conv2.weight", (4, 4, 1, 1))], "c2", "/conv2/Conv")
    z = qdq("c2", "conv2.activation_post_process", -0.05, "conv2")
    b.node("Identity", [z], "output", "out")
    save(b.model("broken_act_scale", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 4, 4])],
                 [h.make_tensor_value_info("output", T.FLOAT, [1, 4, 4, 4])], [("", 13)], "pytorch 1.13.0"),
         "broken_act_scale", [])


def main():
    os.makedirs(OUT, exist_ok=True)
    dynamic_models()
    qgemm_dynamic()
    avgpool_models()
    brevitas_cnn()
    qonnx_fp8()
    qkeras_mlp()
    custom_domain_models()
    degenerate_models()
    broken_act_scale()
    print("wrote", sorted(os.listdir(OUT)))


if __name__ == "__main__":
    main()
