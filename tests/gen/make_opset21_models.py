#!/usr/bin/python3
"""Writes the opset-21 QDQ fixtures of tests/data/models/ and adds their rows to MANIFEST.json.

    /usr/bin/python3 tests/gen/make_opset21_models.py

Needs only python3-onnx (1.12) and numpy, no torch. torch 1.13 cannot export opset 21, so the
models are built with onnx.helper, the way a newer exporter / the toolchain writes them:
* QuantizeLinear / DequantizeLinear with int16, uint16 and int32 zero points, per-tensor and
  per-axis (`axis` attribute: 0, a negative axis, and absent = the default 1 on a MatMul weight);
* opset 21's `output_dtype` attribute on a QuantizeLinear without a zero point, followed by a
  DequantizeLinear without a zero point (its type is its input's);
* weights in both forms: converted (DequantizeLinear of an integer initializer) and fake quant
  (QuantizeLinear -> DequantizeLinear of a float initializer); zero points stored both as typed
  fields (int32_data) and as raw_data;
* Cast(to=FLOAT16) around an fp16 region (the form horizon's FakeCast(torch.float16) takes):
  a Conv with float16 weights and a Sigmoid fed by a dequantizer through the Cast.

onnx 1.12's checker knows opset <= 17, so nothing here is checked with onnx.checker; the
graphs follow the opset-21 schemas except where a docstring below says otherwise.
make_models.py calls build() too, so rewriting MANIFEST.json from scratch keeps these rows.
"""
import json
import os
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import onnx_facts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "models"
PRODUCER = "tests/gen/make_opset21_models.py"
H = W = 8

CONVENTIONS = {
    "opset 21": "a QuantizeLinear's output_dtype attribute gives its dtype when it has no zero point; a "
                "DequantizeLinear without a zero point has the dtype of its input (that QuantizeLinear's)",
    "negative axis": "a per-axis quantizer's negative axis counts from the end of the quantized constant's rank "
                     "(axis -4 on a 4-D conv weight is reported as 0)",
    "float16": "Cast(to=FLOAT16/BFLOAT16) ends the walk back to a dequantizer: an input reached through it is "
               "float16 (so an op fed that way is fp16 on purpose, horizon's FakeCast, not a float island); a "
               "layer without an output quantizer outputs float16 when a Cast to float16 follows it or its first "
               "activation input is float16",
    "high precision": "model.output_low_precision is not raised for output dtypes float32, float16, bfloat16 "
                      "and int32",
}


def rng(seed):
    return np.random.default_rng(seed)


def qparams_sym(w, axis, qmax):
    """Symmetric per-axis scales for a weight (zero point 0)."""
    red = tuple(i for i in range(w.ndim) if i != axis)
    amax = np.abs(w).max(axis=red)
    return (np.maximum(amax, 1e-6) / qmax).astype(np.float32)


def quantize(w, scale, axis, zp, lo, hi, dtype):
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.rint(w / scale.reshape(shape)) + np.asarray(zp).reshape(shape)
    return np.clip(q, lo, hi).astype(dtype)


def typed(name, data_type, values, dims):
    """A tensor in the typed fields (int32_data for 8/16-bit types), not raw_data."""
    return helper.make_tensor(name, data_type, dims, [int(v) for v in np.asarray(values).reshape(-1)])


class Builder:
    def __init__(self):
        self.nodes, self.inits = [], []

    def init(self, name, arr):
        self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def node(self, op, inputs, output, name, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [output], name=name, **attrs))
        return output

    def qdq(self, x, prefix, scale, zp_tensor=None, out_name=None, **q_attrs):
        """Activation QuantizeLinear -> DequantizeLinear, named like the exporter's quantizers."""
        s = self.init(prefix + ".scale", np.array(scale, np.float32))
        ins = [x, s]
        if zp_tensor is not None:
            self.inits.append(zp_tensor)
            ins.append(zp_tensor.name)
        q = self.node("QuantizeLinear", ins, prefix + "_q", "/%s/QuantizeLinear" % prefix, **q_attrs)
        return self.node("DequantizeLinear", [q] + ins[1:], out_name or prefix + "_dq",
                         "/%s/DequantizeLinear" % prefix)

    def save(self, path, name, inputs, outputs, doc):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, initializer=self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], producer_name=PRODUCER,
                                  doc_string=doc)
        model.ir_version = 10  # opset 21 belongs to IR version 10 (onnx 1.16)
        onnx.save(model, str(path))
        return model


def act_in(name="input", c=3):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, c, H, W])


def make_int16(files):
    """int16 / uint16 activations and weights; the last layer leaves through an int16 quantizer."""
    r = rng(21)
    b = Builder()
    x = b.qdq("input", "quant", 0.0002, typed("quant.zero_point", TensorProto.INT16, [0], []))

    # conv1: converted int16 weight (DequantizeLinear of an int16 initializer), per-channel along axis -4.
    w1 = r.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32)
    s1 = qparams_sym(w1, 0, 32767)
    b.init("conv1.weight_q", quantize(w1, s1, 0, 0, -32768, 32767, np.int16))
    b.init("conv1.weight_scale", s1)
    b.inits.append(typed("conv1.weight_zero_point", TensorProto.INT16, np.zeros(4), [4]))
    w1dq = b.node("DequantizeLinear", ["conv1.weight_q", "conv1.weight_scale", "conv1.weight_zero_point"],
                  "conv1.weight_dq", "/conv1/weight/DequantizeLinear", axis=-4)
    b.init("conv1.bias", r.normal(0, 0.1, 4).astype(np.float32))
    c1 = b.node("Conv", [x, w1dq, "conv1.bias"], "conv1_out", "/conv1/Conv", pads=[1, 1, 1, 1])
    r1 = b.node("Relu", [c1], "relu1_out", "/relu1/Relu")
    a1 = b.qdq(r1, "conv1.activation_post_process", 0.00011,
               numpy_helper.from_array(np.array(0, np.int16), "conv1.activation_post_process.zero_point"))

    # conv2: fake-quant int8 weight (Q -> DQ of a float initializer, axis 0), uint16 output.
    w2 = r.normal(0, 0.2, (6, 4, 3, 3)).astype(np.float32)
    s2 = qparams_sym(w2, 0, 127)
    b.init("conv2.weight", w2)
    b.init("conv2.weight_scale", s2)
    b.init("conv2.weight_zero_point", np.zeros(6, np.int8))
    wq = b.node("QuantizeLinear", ["conv2.weight", "conv2.weight_scale", "conv2.weight_zero_point"],
                "conv2.weight_q", "/conv2/weight_fake_quant/QuantizeLinear", axis=0)
    w2dq = b.node("DequantizeLinear", [wq, "conv2.weight_scale", "conv2.weight_zero_point"],
                  "conv2.weight_dq", "/conv2/weight_fake_quant/DequantizeLinear", axis=0)
    c2 = b.node("Conv", [a1, w2dq], "conv2_out", "/conv2/Conv", pads=[1, 1, 1, 1])
    a2 = b.qdq(c2, "conv2.activation_post_process", 0.00005,
               typed("conv2.activation_post_process.zero_point", TensorProto.UINT16, [32768], []))

    # fc: GlobalAveragePool -> Flatten -> MatMul with an int16 weight per column (axis attribute
    # absent: the default axis 1) -> Add(bias) -> int16 output quantizer -> the graph output.
    gap = b.node("GlobalAveragePool", [a2], "gap_out", "/pool/GlobalAveragePool")
    flat = b.node("Flatten", [gap], "flat_out", "/flatten/Flatten", axis=1)
    w3 = r.normal(0, 0.4, (6, 5)).astype(np.float32)
    s3 = qparams_sym(w3, 1, 32767)
    b.init("fc.weight_q", quantize(w3, s3, 1, 0, -32768, 32767, np.int16))
    b.init("fc.weight_scale", s3)
    b.init("fc.weight_zero_point", np.zeros(5, np.int16))
    w3dq = b.node("DequantizeLinear", ["fc.weight_q", "fc.weight_scale", "fc.weight_zero_point"],
                  "fc.weight_dq", "/fc/weight/DequantizeLinear")
    mm = b.node("MatMul", [flat, w3dq], "fc_mm", "/fc/MatMul")
    b.init("fc.bias", r.normal(0, 0.1, 5).astype(np.float32))
    add = b.node("Add", [mm, "fc.bias"], "fc_out", "/fc/Add")
    b.qdq(add, "fc.activation_post_process", 0.0003,
          typed("fc.activation_post_process.zero_point", TensorProto.INT16, [0], []), out_name="logits")
    path = OUT / "opset21_int16.onnx"
    model = b.save(path, "opset21_int16", [act_in()], [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                                                                      [1, 5])],
                   "int16/uint16 QDQ, per-axis weights; output through an int16 quantizer")
    record(files, path, model,
           "opset 21, built with onnx.helper: int16 input quantizer; conv1 with a converted int16 weight "
           "(DequantizeLinear axis=-4, per channel) and int16 output; conv2 with a fake-quant int8 weight "
           "(axis=0) and a uint16 output (zero point 32768); MatMul fc with an int16 weight per column (axis "
           "attribute absent = 1) whose output leaves through an int16 quantizer: low-precision output",
           ["model.output_low_precision"])


def make_int32_out(files):
    """Two heads: one leaves through an int32 quantizer, one in float. Neither is low precision.

    QuantizeLinear-21 does not list int32 among its output types (DequantizeLinear does, for
    biases): the int32 output quantizer stands for a high-precision int32 output as a graph
    editor or the toolchain writes it; readers must not take it for a low-precision one."""
    r = rng(2121)
    b = Builder()
    # Input: opset 21's output_dtype attribute (int16), no zero point on either node.
    x = b.qdq("input", "quant", 0.0002, None, output_dtype=TensorProto.INT16)

    w1 = r.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32)
    s1 = qparams_sym(w1, 0, 127)
    b.init("conv1.weight_q", quantize(w1, s1, 0, 0, -128, 127, np.int8))
    b.init("conv1.weight_scale", s1)
    b.init("conv1.weight_zero_point", np.zeros(4, np.int8))
    w1dq = b.node("DequantizeLinear", ["conv1.weight_q", "conv1.weight_scale", "conv1.weight_zero_point"],
                  "conv1.weight_dq", "/conv1/weight/DequantizeLinear", axis=0)
    # int32 bias, per channel: bias scale = input scale * weight scale (the converted form).
    bs = (np.float32(0.0002) * s1).astype(np.float32)
    bias = r.normal(0, 0.1, 4).astype(np.float32)
    b.init("conv1.bias_q", np.rint(bias / bs).astype(np.int32))
    b.init("conv1.bias_scale", bs)
    b.inits.append(typed("conv1.bias_zero_point", TensorProto.INT32, np.zeros(4), [4]))
    bdq = b.node("DequantizeLinear", ["conv1.bias_q", "conv1.bias_scale", "conv1.bias_zero_point"],
                 "conv1.bias_dq", "/conv1/bias/DequantizeLinear", axis=0)
    c1 = b.node("Conv", [x, w1dq, bdq], "conv1_out", "/conv1/Conv", pads=[1, 1, 1, 1])
    r1 = b.node("Relu", [c1], "relu1_out", "/relu1/Relu")
    a1 = b.qdq(r1, "conv1.activation_post_process", 0.00004,
               typed("conv1.activation_post_process.zero_point", TensorProto.UINT16, [0], []))

    # head_a: Flatten -> Gemm (int16 weight per output row, transB) -> int32 quantizer -> output.
    gap = b.node("GlobalAveragePool", [a1], "gap_out", "/pool/GlobalAveragePool")
    flat = b.node("Flatten", [gap], "flat_out", "/flatten/Flatten", axis=1)
    w2 = r.normal(0, 0.4, (5, 4)).astype(np.float32)
    s2 = qparams_sym(w2, 0, 32767)
    b.init("head_a.weight_q", quantize(w2, s2, 0, 0, -32768, 32767, np.int16))
    b.init("head_a.weight_scale", s2)
    b.inits.append(typed("head_a.weight_zero_point", TensorProto.INT16, np.zeros(5), [5]))
    w2dq = b.node("DequantizeLinear", ["head_a.weight_q", "head_a.weight_scale", "head_a.weight_zero_point"],
                  "head_a.weight_dq", "/head_a/weight/DequantizeLinear", axis=0)
    g = b.node("Gemm", [flat, w2dq], "head_a_out", "/head_a/Gemm", transB=1)
    b.qdq(g, "head_a.activation_post_process", 1e-6,
          numpy_helper.from_array(np.array(0, np.int32), "head_a.activation_post_process.zero_point"),
          out_name="logits")

    # head_b: a conv with a per-channel uint16 weight (zero point 32768) and no output quantizer.
    w3 = r.normal(0, 0.2, (2, 4, 1, 1)).astype(np.float32)
    s3 = qparams_sym(w3, 0, 32767)
    b.init("head_b.weight_q", quantize(w3, s3, 0, 32768, 0, 65535, np.uint16))
    b.init("head_b.weight_scale", s3)
    b.init("head_b.weight_zero_point", np.full(2, 32768, np.uint16))
    w3dq = b.node("DequantizeLinear", ["head_b.weight_q", "head_b.weight_scale", "head_b.weight_zero_point"],
                  "head_b.weight_dq", "/head_b/weight/DequantizeLinear", axis=0)
    b.node("Conv", [a1, w3dq], "feature", "/head_b/Conv")
    path = OUT / "opset21_int32_out.onnx"
    model = b.save(path, "opset21_int32_out", [act_in()],
                   [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 5]),
                    helper.make_tensor_value_info("feature", TensorProto.FLOAT, [1, 2, H, W])],
                   "output_dtype without zero point, int32 bias, int32 and float outputs")
    record(files, path, model,
           "opset 21, built with onnx.helper: input QuantizeLinear with output_dtype=INT16 and no zero point "
           "(DequantizeLinear without one either); conv1 with an int8 weight per channel and an int32 bias "
           "(DequantizeLinear, int32 zero point, axis 0), uint16 output; head_a Gemm with an int16 weight per "
           "row (transB) leaving through an int32-zero-point quantizer (outside QuantizeLinear-21's types: "
           "stands for a high-precision int32 output); head_b Conv with a uint16 weight per channel leaving in "
           "float. Neither output is low precision", [])


def make_fp16(files):
    """int8 layers around an fp16 region: DQ -> Cast(FLOAT16) -> {Conv fp16, Sigmoid} -> Cast(FLOAT) -> Q."""
    r = rng(2116)
    b = Builder()
    x = b.qdq("input", "quant", 0.02, numpy_helper.from_array(np.array(0, np.int8), "quant.zero_point"))
    w1 = r.normal(0, 0.3, (4, 3, 3, 3)).astype(np.float32)
    s1 = qparams_sym(w1, 0, 127)
    b.init("conv1.weight_q", quantize(w1, s1, 0, 0, -128, 127, np.int8))
    b.init("conv1.weight_scale", s1)
    b.init("conv1.weight_zero_point", np.zeros(4, np.int8))
    w1dq = b.node("DequantizeLinear", ["conv1.weight_q", "conv1.weight_scale", "conv1.weight_zero_point"],
                  "conv1.weight_dq", "/conv1/weight/DequantizeLinear", axis=0)
    c1 = b.node("Conv", [x, w1dq], "conv1_out", "/conv1/Conv", pads=[1, 1, 1, 1])
    r1 = b.node("Relu", [c1], "relu1_out", "/relu1/Relu")
    a1 = b.qdq(r1, "conv1.activation_post_process", 0.01,
               numpy_helper.from_array(np.array(0, np.int8), "conv1.activation_post_process.zero_point"))
    h = b.node("Cast", [a1], "conv1_fp16", "/fake_cast/Cast", to=TensorProto.FLOAT16)

    # The fp16 region: conv2 with float16 weights, and a Sigmoid fed by the dequantizer through the Cast.
    b.init("conv2.weight", r.normal(0, 0.2, (4, 4, 3, 3)).astype(np.float16))
    b.init("conv2.bias", r.normal(0, 0.1, 4).astype(np.float16))
    c2 = b.node("Conv", [h, "conv2.weight", "conv2.bias"], "conv2_out", "/conv2/Conv", pads=[1, 1, 1, 1])
    r2 = b.node("Relu", [c2], "relu2_out", "/relu2/Relu")
    f2 = b.node("Cast", [r2], "conv2_fp32", "/conv2/Cast", to=TensorProto.FLOAT)
    a2 = b.qdq(f2, "conv2.activation_post_process", 0.01,
               numpy_helper.from_array(np.array(0, np.int8), "conv2.activation_post_process.zero_point"))
    sg = b.node("Sigmoid", [h], "gate_fp16", "/gate/Sigmoid")
    fg = b.node("Cast", [sg], "gate_fp32", "/gate/Cast", to=TensorProto.FLOAT)
    a3 = b.qdq(fg, "gate.activation_post_process", 1.0 / 255,
               numpy_helper.from_array(np.array(0, np.uint8), "gate.activation_post_process.zero_point"))

    # add (two int8 activations) -> pool -> fc (int8 weight, per tensor) -> Cast(FLOAT16) -> output.
    add = b.node("Add", [a2, a3], "add_out", "/add/Add")
    a4 = b.qdq(add, "add.activation_post_process", 0.015,
               numpy_helper.from_array(np.array(0, np.int8), "add.activation_post_process.zero_point"))
    gap = b.node("GlobalAveragePool", [a4], "gap_out", "/pool/GlobalAveragePool")
    flat = b.node("Flatten", [gap], "flat_out", "/flatten/Flatten", axis=1)
    w3 = r.normal(0, 0.4, (5, 4)).astype(np.float32)
    s3 = np.array(np.abs(w3).max() / 127, np.float32)
    b.init("fc.weight_q", np.clip(np.rint(w3 / s3), -128, 127).astype(np.int8))
    b.init("fc.weight_scale", s3)
    b.init("fc.weight_zero_point", np.array(0, np.int8))
    w3dq = b.node("DequantizeLinear", ["fc.weight_q", "fc.weight_scale", "fc.weight_zero_point"],
                  "fc.weight_dq", "/fc/weight/DequantizeLinear")
    b.init("fc.bias", r.normal(0, 0.1, 5).astype(np.float32))
    g = b.node("Gemm", [flat, w3dq, "fc.bias"], "fc_out", "/fc/Gemm", transB=1)
    b.node("Cast", [g], "logits", "/output/Cast", to=TensorProto.FLOAT16)
    path = OUT / "opset21_fp16.onnx"
    model = b.save(path, "opset21_fp16", [act_in()],
                   [helper.make_tensor_value_info("logits", TensorProto.FLOAT16, [1, 5])],
                   "int8 layers around a Cast(FLOAT16) region; float16 output")
    record(files, path, model,
           "opset 21, built with onnx.helper: int8 conv1 (per-channel weight) -> DequantizeLinear -> "
           "Cast(to=FLOAT16); in float16: conv2 (float16 weight and bias) -> Relu -> Cast(FLOAT) -> int8 "
           "quantizer, and a Sigmoid fed by the same Cast -> Cast(FLOAT) -> uint8 quantizer (an fp16 island, "
           "FakeCast's export form: not a float fallback); add of the two; fc Gemm (int8 weight per tensor) "
           "-> Cast(FLOAT16) -> the graph output in float16 (high precision)", [])


def record(files, path, model, description, lints):
    # Re-read what was written: the facts describe the file, not the in-memory graph.
    model = onnx.load(str(path))
    f = onnx_facts.facts(model)
    derived = onnx_facts.derive_lints(f)
    if sorted(lints) != derived:
        raise SystemExit("%s: expected lints %s but the rules give %s" % (path, sorted(lints), derived))
    entry = {"description": description, "producer": "onnx.helper (%s)" % PRODUCER,
             "size_bytes": os.path.getsize(path), "lints": sorted(lints)}
    entry.update(f)
    files[os.path.relpath(str(path), str(OUT))] = entry
    assert entry["size_bytes"] < 64 * 1024, (path, entry["size_bytes"])
    print("%-26s %6d bytes  %3d nodes  lints=%s" % (path.name, entry["size_bytes"], f["node_count"],
                                                   ",".join(lints) or "-"))


def build(manifest):
    """Writes the models and puts their rows (and the conventions they add) into manifest."""
    OUT.mkdir(parents=True, exist_ok=True)
    manifest.setdefault("conventions", {}).update(CONVENTIONS)
    files = manifest.setdefault("files", {})
    make_int16(files)
    make_int32_out(files)
    make_fp16(files)


def main():
    path = OUT / "MANIFEST.json"
    manifest = json.loads(path.read_text()) if path.exists() else {}
    build(manifest)
    path.write_text(json.dumps(manifest, indent=1, allow_nan=False) + "\n")
    print("updated", path)


if __name__ == "__main__":
    main()
