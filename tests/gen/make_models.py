#!/usr/bin/python3
"""Writes the ONNX model fixtures of tests/data/models/ and their MANIFEST.json.

Run from anywhere with Debian's interpreter (needs python3-torch 1.13 and python3-onnx 1.12):
    /usr/bin/python3 tests/gen/make_models.py
Tests never run this: they read the committed files.

What torch 1.13 produced (opset 13, eager-mode prepare_qat, fbgemm qconfig version 0):
* Activations: QuantizeLinear -> Clip(min '', max = Constant uint8 127) -> DequantizeLinear,
  because fbgemm's activation quantizer uses reduce_range (quant range 0..127). Node names carry
  no module path for activation quantizers ('/activation_post_process_3/QuantizeLinear': eager
  mode calls them from forward hooks), but their scale initializers do
  ('add.activation_post_process.scale').
* Scales are 1-element 1-D tensors (shape [1], not scalars) stored as initializers; zero points
  are 1-element uint8/int8 initializers with generated names ('onnx::QuantizeLinear_151').
  Identical constants are deduplicated and shared through Identity nodes at the top of the graph
  (e.g. every activation zero point 0 after the first is 'Identity(onnx::QuantizeLinear_160)').
* Weights: per-channel QuantizeLinear/DequantizeLinear with axis=0 on the weight initializer.
* BN folded before QAT (qat_qdq): DQ -> Conv(bias) -> Relu -> Q -> Clip -> DQ.
* BN kept (qat_qdq_bn, ConvBnReLU2d): the weight is pre-scaled by gamma/std (constant-folded
  into an initializer named 'onnx::QuantizeLinear_NNN'), then
  DQ -> Conv(zero bias from a Constant node) -> Div(std factor) -> Add(conv bias) ->
  BatchNormalization -> Relu -> Q -> Clip -> DQ.
* The converted int8 model (quantized_int8.onnx): no initializers at all; every weight, scale
  and zero point is a Constant node; between layers QuantizeLinear -> Cast(uint8) ->
  DequantizeLinear; the int32 bias is DequantizeLinear(Constant int32, Constant scale,
  Cast(ConstantOfShape)); MaxPool / GlobalAveragePool / Flatten are wrapped in DQ -> op -> Q.
"""
import copy
import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto
import torch
import torch.nn as nn
import torch.ao.quantization as tq

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qat_common as qc  # noqa: E402
import onnx_facts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "models"
DEMO = ROOT / "resources" / "demo" / "model"
LIBONNX_TESTDATA = Path("/usr/share/libonnx-testdata/data")

manifest = {
    "generator": "tests/gen/make_models.py (Debian python3-torch %s, python3-onnx %s)" % (torch.__version__, onnx.__version__),
    "conventions": {
        "module": "layer's module path from the exporter's node name: '/conv1/Conv' -> 'conv1', '/Add' -> '' "
                  "(FloatFunctional methods carry no scope; their output quantizer's scale initializer "
                  "'add.activation_post_process.scale' names the module)",
        "layers": "Conv, ConvTranspose, Gemm, MatMul, QLinearConv, QLinearMatMul, horizon::GridSample, and "
                  "Add/Mul/Sub/Concat with two or more non-constant inputs",
        "input_dtypes": "per activation input: the dtype of the dequantizer it comes from, walking back through "
                        "MaxPool, GlobalAveragePool, AveragePool, Flatten, Reshape, Transpose, (Un)Squeeze, "
                        "Identity, Cast, Clip; float32 if none",
        "quantizer dtype": "QuantizeLinear/DequantizeLinear: the zero point's element type (uint8 when absent); "
                           "HzQuantize/HzDequantize: bits 8 -> int8, 16 -> int16",
        "output_dtype": "the dtype of the quantizer reached from the layer's output following single consumers "
                        "through Relu, Clip, BatchNormalization, Identity and Div/Add/Mul/Sub with a constant "
                        "operand (those nodes are listed in 'absorbed'); float32 when a graph output or any "
                        "other op comes first",
        "weight_granularity": "per-channel when the weight scale has more than one element (axis from the "
                              "node's axis attribute), else per-tensor",
        "output_scale": "the output quantizer's scale (its one element)",
        "lints": "model.output_low_precision: a graph output is reached from a layer whose output_dtype is "
                 "not high precision (float32, float16, bfloat16, int32) (through dequantizers, pass-through "
                 "and follower ops). "
                 "model.shared_quant_params: two or more activation quantizers take their scale from the same "
                 "initializer (scale_root). model.uncalibrated_scale: an activation quantizer with scale "
                 "exactly 1.0 and zero point 0. model.aux_branch: quantizer nodes from which no graph output "
                 "is reachable. model.float_fallback: a non-layer, non-pass-through float op fed (through "
                 "pass-through ops) by a dequantizer whose output does not go straight into a quantizer. "
                 "model.custom_gridsample: a horizon::GridSample node. model.int16_not_applied: with the "
                 "expect file (module -> output dtype), a layer whose output_dtype differs.",
    },
    "files": {},
}


def rel(p):
    return os.path.relpath(str(p), str(OUT))


def record(path, description, lints, expect=None, extra=None, producer="torch.onnx.export"):
    model = onnx.load(str(path))
    onnx.checker.check_model(model)
    f = onnx_facts.facts(model)
    derived = onnx_facts.derive_lints(f, expect)
    if sorted(lints) != derived:
        raise SystemExit("%s: expected lints %s but the rules give %s" % (path, sorted(lints), derived))
    entry = {"description": description, "producer": producer, "size_bytes": os.path.getsize(path),
             "lints": sorted(lints)}
    entry.update(f)
    if extra:
        entry.update(extra)
    manifest["files"][rel(path)] = entry
    size = os.path.getsize(path)
    assert size < 300 * 1024 or str(path).startswith(str(DEMO)), (path, size)
    print("%-34s %7d bytes  %3d nodes  lints=%s" % (rel(path), size, f["node_count"], ",".join(lints) or "-"))
    return entry


def save_npy(name, t):
    arr = t.detach().numpy().astype(np.float32) if isinstance(t, torch.Tensor) else t
    np.save(OUT / name, arr)
    return name


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    x_in = qc.fixed_input()
    save_npy("qat_qdq.input_0.npy", x_in)

    # ---- float model (shared by all stock-torch variants) ---------------------------------
    base = qc.train_float({}, seed=0)
    xs, ys = qc.synthetic_data()
    float_acc = qc.accuracy(base, xs, ys)
    qc.export(base, OUT / "float_only.onnx", x_in)
    save_npy("float_only.output_0.npy", qc.run(base, x_in))
    record(OUT / "float_only.onnx", "the float model (no quantizers) exported plainly", [],
           extra={"train_accuracy": float_acc, "reference_output": "float_only.output_0.npy"})

    # ---- qat_qdq: BN folded before QAT, last layer followed by an 8-bit quantizer ------------
    refs = {}
    for name, fold in (("qat_qdq", True), ("qat_qdq_bn", False)):
        m = qc.prepare(base, fold_bn=fold)
        acc = qc.calibrate_and_qat(m)
        qc.export(m, OUT / (name + ".onnx"), x_in)
        fake = qc.run(m, x_in)
        nofq = copy.deepcopy(m)
        nofq.apply(tq.disable_fake_quant)
        flt = qc.run(nofq, x_in)
        conv = tq.convert(copy.deepcopy(m).eval())
        i8 = qc.run(conv, x_in)
        save_npy(name + ".torch_fake.npy", fake)
        save_npy(name + ".torch_int8.npy", i8)
        save_npy(name + ".float.npy", flt)
        if name == "qat_qdq":
            save_npy("qat_qdq.input_0.npy", x_in)
            qat_model, int8_model = m, conv
            ds = OUT / "qat_qdq_dataset"
            ds.mkdir(exist_ok=True)
            (ds / "input_0.pb").write_bytes(numpy_helper.from_array(x_in.numpy(), "input").SerializeToString())
            (ds / "output_0.pb").write_bytes(numpy_helper.from_array(fake.numpy(), "logits").SerializeToString())
        else:
            save_npy("qat_qdq_bn.input_0.npy", x_in)
        refs[name] = {
            "input": name + ".input_0.npy",
            "torch_fake": name + ".torch_fake.npy",
            "torch_int8": name + ".torch_int8.npy",
            "float": name + ".float.npy",
            "float_note": "the same QAT weights with every fake quant disabled (= this ONNX with its "
                          "Q/DQ pairs removed)",
            "int8_output_scale": float(conv.fc.scale),
            "int8_output_zero_point": int(conv.fc.zero_point),
            "int8_output_dtype": "quint8",
            "max_abs_fake_vs_int8": float((fake - i8).abs().max()),
            "max_abs_fake_vs_float": float((fake - flt).abs().max()),
            "qat_train_accuracy": acc,
            "float_train_accuracy": float_acc,
        }
        refs[name]["layers"] = layer_codes(m, conv, x_in, name, OUT / (name + ".onnx"))
        if name == "qat_qdq":
            refs[name]["onnx_test_data_set"] = "qat_qdq_dataset (input_0.pb = input, output_0.pb = torch_fake)"
        desc = ("small CNN (conv-bn-relu x2, FloatFunctional residual add, maxpool, global avg pool, flatten, "
                "linear), eager prepare_qat with fbgemm qconfig (per-channel int8 weights, quint8 0..127 "
                "activations), calibrated then QAT-trained briefly on synthetic data, exported in fake-quant "
                "form. ")
        if fold:
            desc += "BN folded into the convs before QAT (ConvReLU2d). The Linear's output has an 8-bit quantizer."
        else:
            desc += ("BN kept by fuse_modules_qat (ConvBnReLU2d): Conv -> Div -> Add(bias) -> BatchNormalization "
                     "-> Relu -> Q -> Clip -> DQ. The Linear's output has an 8-bit quantizer.")
        record(OUT / (name + ".onnx"), desc, ["model.output_low_precision"], extra={"references": refs[name]})

    # ---- converted int8 model ---------------------------------------------------------------
    qc.export(int8_model, OUT / "quantized_int8.onnx", x_in)
    record(OUT / "quantized_int8.onnx",
           "qat_qdq's QAT model after torch.ao.quantization.convert (fbgemm), exported at opset 13: "
           "no initializers, every weight/scale/zero point in Constant nodes",
           ["model.output_low_precision"],
           extra={"references": {"input": "qat_qdq.input_0.npy", "torch_int8": "qat_qdq.torch_int8.npy"}})

    # ---- high-precision output -----------------------------------------------------------------
    m = qc.prepare(base)
    m.fc.activation_post_process = nn.Identity()  # no output fake quant: Gemm result stays float
    qc.calibrate_and_qat(m)
    qc.export(m, OUT / "qat_qdq_highprec.onnx", x_in)
    save_npy("qat_qdq_highprec.torch_fake.npy", qc.run(m, x_in))
    record(OUT / "qat_qdq_highprec.onnx",
           "as qat_qdq but the Linear's output fake quant replaced by nn.Identity after prepare_qat: "
           "Gemm -> graph output in float (high precision)", [],
           extra={"references": {"input": "qat_qdq.input_0.npy", "torch_fake": "qat_qdq_highprec.torch_fake.npy",
                                 "note": "float output: equal to an ONNX-spec evaluation up to float32 "
                                         "summation order in the Gemm"}})

    # ---- FloatFunctional called twice -------------------------------------------------------------
    base_shared = qc.train_float({"shared_add": True}, seed=0)
    m = qc.prepare(base_shared)
    m.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(m)
    qc.export(m, OUT / "qat_shared_add.onnx", x_in)
    record(OUT / "qat_shared_add.onnx",
           "one FloatFunctional instance called twice (add.add(x, y) then add.add(out, z)): both Add outputs "
           "are quantized with the same initializer add.activation_post_process.scale; high-precision output",
           ["model.shared_quant_params"])

    # ---- an activation quantizer that never observed data -----------------------------------------
    m = qc.prepare(base)
    m.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(m, before_calib=lambda mm: mm.conv2.activation_post_process.disable_observer())
    assert float(m.conv2.activation_post_process.scale) == 1.0
    qc.export(m, OUT / "qat_uncalibrated.onnx", x_in)
    record(OUT / "qat_uncalibrated.onnx",
           "conv2's output quantizer had its observer disabled before calibration: scale stays 1.0, zero "
           "point 0 (conv2.activation_post_process.scale); high-precision output",
           ["model.uncalibrated_scale"])

    # ---- auxiliary head whose quantized output reaches no graph output ------------------------------
    base_aux = qc.train_float({"aux": True}, seed=0)
    m = qc.prepare(base_aux)
    m.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(m)
    path = OUT / "qat_aux_branch.onnx"
    qc.export(m, path, x_in, output_names=("logits", "aux_logits"))
    # torch's exporter drops ops that reach no output, so the aux head is exported as a second
    # output and that output is then removed from graph.output (nodes kept), as a deployment
    # script that only declares the main output would leave it.
    model = onnx.load(str(path))
    keep = [o for o in model.graph.output if o.name != "aux_logits"]
    del model.graph.output[:]
    model.graph.output.extend(keep)
    onnx.save(model, str(path))
    record(path, "an auxiliary 1x1 conv head (aux_conv, with its own 8-bit output quantizer) on conv1's "
                 "output; exported as a second output, then 'aux_logits' removed from graph.output with "
                 "python3-onnx (nodes kept): its quantizers reach no graph output; high-precision main output",
           ["model.aux_branch"], producer="torch.onnx.export + python3-onnx post-edit")

    # ---- float island ---------------------------------------------------------------------------
    base_isl = qc.train_float({"float_island": True}, seed=0)
    m = qc.prepare(base_isl)
    m.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(m)
    qc.export(m, OUT / "qat_float_island.onnx", x_in)
    record(OUT / "qat_float_island.onnx",
           "x * sigmoid(x) computed in float between a DeQuantStub and a QuantStub after conv1: "
           "DQ -> Sigmoid -> Mul -> Q; the Sigmoid's output has no quantizer; high-precision output",
           ["model.float_fallback"])

    # ---- QLinearConv + QLinearMatMul built from the converted int8 weights ----------------------------
    make_qlinear(int8_model, x_in)

    # ---- external data, escapes, damaged files -------------------------------------------------------
    make_damaged()

    # ---- the toolchain's form (horizon domain) ------------------------------------------------------
    make_horizon(base, x_in)

    # ---- demo model -----------------------------------------------------------------------------------
    make_demo(x_in)

    # ---- opset 21 QDQ (int16 / uint16 / int32, per axis, Cast to float16): onnx.helper only ----------
    import make_opset21_models
    make_opset21_models.build(manifest)

    manifest["libonnx_testdata"] = scan_libonnx_testdata()
    # An independent numpy evaluation of the ONNX spec on the committed files vs PyTorch's outputs
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, allow_nan=False) + "\n")
    import check_references
    manifest["onnx_spec_vs_torch"] = check_references.compare()
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, allow_nan=False) + "\n")
    print("wrote", OUT / "MANIFEST.json")


def layer_codes(qat, int8, x_in, name, onnx_path):
    """Per-layer integer codes of every activation quantizer, from PyTorch: the QAT model's fake
    quant outputs turned back into codes (rint(x / scale) + zero_point, exact since fake quant
    outputs (q - zp) * scale) and the converted model's quantized tensors (int_repr). Written
    as uint8 .npy files in <name>_layers/ and keyed by the ONNX tensor the matching
    DequantizeLinear produces, so a simulator can compare layer by layer."""
    folder = OUT / (name + "_layers")
    folder.mkdir(exist_ok=True)
    fake, ints = {}, {}

    def grab(store, key):
        return lambda mod, inp, out: store.__setitem__(key, out.detach().clone())

    mods = [n[:-len(".activation_post_process")] for n, mod in qat.named_modules()
            if n.endswith("activation_post_process") and isinstance(mod, tq.FakeQuantize)
            and not n.endswith("weight_fake_quant.activation_post_process")]
    hooks = []
    for mod_name in mods:
        hooks.append(qat.get_submodule(mod_name + ".activation_post_process").register_forward_hook(grab(fake, mod_name)))
        target = int8.get_submodule(mod_name)
        if hasattr(target, "activation_post_process"):  # QFunctional: add() calls it (an Identity)
            target = target.activation_post_process
        hooks.append(target.register_forward_hook(grab(ints, mod_name)))
    qc.run(qat, x_in)
    qc.run(int8, x_in)
    for h in hooks:
        h.remove()
    model = onnx.load(str(onnx_path))
    g = onnx_facts.Graph(model)
    by_scale = {}
    for n in model.graph.node:
        if n.op_type == "DequantizeLinear" and not onnx_facts.is_constant_dq(g, n):
            by_scale.setdefault(g.const_root(n.input[1]), n.output[0])
    table = {}
    for mod_name in mods:
        fq = qat.get_submodule(mod_name + ".activation_post_process")
        scale, zp = float(fq.scale), int(fq.zero_point)
        codes_fake = np.rint(fake[mod_name].numpy() / np.float32(scale)) + zp
        assert np.all(((codes_fake - zp) * np.float32(scale)).astype(np.float32) == fake[mod_name].numpy())
        codes_int = ints[mod_name].int_repr().numpy()
        np.save(folder / (mod_name + ".torch_fake_q.npy"), codes_fake.astype(np.uint8))
        np.save(folder / (mod_name + ".torch_int8_q.npy"), codes_int.astype(np.uint8))
        diff = np.abs(codes_fake.astype(np.int32) - codes_int.astype(np.int32))
        table[mod_name] = {
            "onnx_tensor": by_scale.get(mod_name + ".activation_post_process.scale"),
            "scale": scale, "zero_point": zp, "dtype": "uint8", "shape": list(codes_int.shape),
            "torch_fake_q": "%s_layers/%s.torch_fake_q.npy" % (name, mod_name),
            "torch_int8_q": "%s_layers/%s.torch_int8_q.npy" % (name, mod_name),
            "fake_vs_int8_max_code_diff": int(diff.max()),
            "fake_vs_int8_differing_codes": int((diff > 0).sum()),
        }
    return table


def make_qlinear(conv, x_in):
    """Quantize -> QLinearConv(conv1) -> QLinearConv(conv2) -> Dequantize -> GlobalAveragePool ->
    Flatten -> Quantize -> QLinearMatMul(fc, per-column weight scales) -> Dequantize. The fc bias is
    left out (QLinearMatMul takes none); relu is implied by the convs' output zero point 0 with
    uint8 (0..255 clamps negatives)."""
    def qconv(name, mod, x_name, x_scale, x_zp, out):
        w = mod.weight()
        wq = w.int_repr().numpy().astype(np.int8)
        ws = w.q_per_channel_scales().numpy().astype(np.float32)
        wz = w.q_per_channel_zero_points().numpy().astype(np.int8)
        b = mod.bias().detach().numpy()
        bq = np.round(b / (x_scale * ws)).astype(np.int32)
        inits = [numpy_helper.from_array(wq, name + ".w"), numpy_helper.from_array(ws, name + ".w_scale"),
                 numpy_helper.from_array(wz, name + ".w_zero_point"), numpy_helper.from_array(bq, name + ".bias"),
                 numpy_helper.from_array(np.array(mod.scale, np.float32), name + ".y_scale"),
                 numpy_helper.from_array(np.array(mod.zero_point, np.uint8), name + ".y_zero_point")]
        node = helper.make_node("QLinearConv", [x_name, x_scale_name(x_name), x_zp_name(x_name), name + ".w",
                                                name + ".w_scale", name + ".w_zero_point", name + ".y_scale",
                                                name + ".y_zero_point", name + ".bias"], [out],
                                name="/%s/QLinearConv" % name, kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                strides=[1, 1], dilations=[1, 1], group=1)
        return inits, node

    scales = {}

    def x_scale_name(n):
        return scales[n][0]

    def x_zp_name(n):
        return scales[n][1]

    in_s, in_z = float(conv.quant.scale), int(conv.quant.zero_point)
    inits = [numpy_helper.from_array(np.array(in_s, np.float32), "input.scale"),
             numpy_helper.from_array(np.array(in_z, np.uint8), "input.zero_point")]
    nodes = [helper.make_node("QuantizeLinear", ["input", "input.scale", "input.zero_point"], ["q_input"],
                              name="/quant/QuantizeLinear")]
    scales["q_input"] = ("input.scale", "input.zero_point")
    i1, n1 = qconv("conv1", conv.conv1, "q_input", in_s, in_z, "conv1_out")
    scales["conv1_out"] = ("conv1.y_scale", "conv1.y_zero_point")
    i2, n2 = qconv("conv2", conv.conv2, "conv1_out", float(conv.conv1.scale), 0, "conv2_out")
    inits += i1 + i2
    nodes += [n1, n2]
    nodes.append(helper.make_node("DequantizeLinear", ["conv2_out", "conv2.y_scale", "conv2.y_zero_point"],
                                  ["conv2_f"], name="/conv2/DequantizeLinear"))
    nodes.append(helper.make_node("GlobalAveragePool", ["conv2_f"], ["gap"], name="/gap/GlobalAveragePool"))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], name="/Flatten", axis=1))
    nodes.append(helper.make_node("QuantizeLinear", ["flat", "conv2.y_scale", "conv2.y_zero_point"], ["q_flat"],
                                  name="/fc/QuantizeLinear"))
    fw = conv.fc.weight()
    wq = fw.int_repr().numpy().astype(np.int8).T.copy()  # (in, out): per-column scales
    ws = fw.q_per_channel_scales().numpy().astype(np.float32)
    inits += [numpy_helper.from_array(wq, "fc.w"), numpy_helper.from_array(ws, "fc.w_scale"),
              numpy_helper.from_array(np.zeros(ws.shape, np.int8), "fc.w_zero_point"),
              numpy_helper.from_array(np.array(conv.fc.scale, np.float32), "fc.y_scale"),
              numpy_helper.from_array(np.array(conv.fc.zero_point, np.uint8), "fc.y_zero_point")]
    nodes.append(helper.make_node("QLinearMatMul", ["q_flat", "conv2.y_scale", "conv2.y_zero_point", "fc.w",
                                                    "fc.w_scale", "fc.w_zero_point", "fc.y_scale",
                                                    "fc.y_zero_point"], ["fc_q"], name="/fc/QLinearMatMul"))
    nodes.append(helper.make_node("DequantizeLinear", ["fc_q", "fc.y_scale", "fc.y_zero_point"], ["logits"],
                                  name="/dequant/DequantizeLinear"))
    graph = helper.make_graph(nodes, "qlinear", [helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                                                                [1, 3, qc.H, qc.W])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, qc.NUM_CLASSES])],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="tests/gen/make_models.py")
    model.ir_version = 7
    onnx.save(model, str(OUT / "qlinear.onnx"))
    record(OUT / "qlinear.onnx",
           "built with onnx.helper from qat_qdq's converted int8 weights: QLinearConv x2 (per-channel int8 "
           "weights, int32 bias), QLinearMatMul (per-column int8 weights, no bias); output 8-bit",
           ["model.output_low_precision"], producer="onnx.helper")


def make_damaged():
    src = OUT / "qat_qdq.onnx"
    ext = OUT / "external_data"
    if ext.exists():
        shutil.rmtree(ext)
    ext.mkdir()
    model = onnx.load(str(src))
    onnx.save_model(model, str(ext / "model.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
                    location="weights.bin", size_threshold=0)
    e = record(ext / "model.onnx", "qat_qdq.onnx saved with every initializer in external data "
                                   "(location 'weights.bin', size_threshold 0)", ["model.output_low_precision"],
               producer="python3-onnx save_model(save_as_external_data=True)")
    m2 = onnx.load(str(ext / "model.onnx"), load_external_data=False)
    e["external_initializers"] = sum(1 for i in m2.graph.initializer if i.data_location == TensorProto.EXTERNAL)
    e["external_file"] = "weights.bin"
    e["external_file_bytes"] = os.path.getsize(ext / "weights.bin")

    esc = OUT / "external_escape"
    if esc.exists():
        shutil.rmtree(esc)
    esc.mkdir()
    for i in m2.graph.initializer:
        for kv in i.external_data:
            if kv.key == "location":
                kv.value = "../outside.bin"
    (esc / "model.onnx").write_bytes(m2.SerializeToString())
    # the escaping file really exists next to the folder, so only a location check refuses it
    shutil.copyfile(ext / "weights.bin", OUT / "outside.bin")
    manifest["files"]["external_escape/model.onnx"] = {
        "description": "qat_qdq.onnx with external data whose location is '../outside.bin' (the file exists "
                       "in tests/data/models/); loading must be refused: the location leaves the model's folder",
        "expected": "error: external data location escapes the model directory",
        "external_location": "../outside.bin",
        "size_bytes": os.path.getsize(esc / "model.onnx")}

    data = src.read_bytes()
    (OUT / "truncated.onnx").write_bytes(data[:len(data) // 2])
    manifest["files"]["truncated.onnx"] = {
        "description": "the first half (%d of %d bytes) of qat_qdq.onnx" % (len(data) // 2, len(data)),
        "expected": "error: truncated / corrupt protobuf", "size_bytes": len(data) // 2}
    (OUT / "not_onnx.onnx").write_text(
        "This is a plain text file renamed to .onnx.\nIt is not a protobuf and not a model.\n")
    manifest["files"]["not_onnx.onnx"] = {"description": "a text file renamed to .onnx",
                                          "expected": "error: not an ONNX model",
                                          "size_bytes": os.path.getsize(OUT / "not_onnx.onnx")}
    manifest["files"]["outside.bin"] = {"description": "copy of external_data/weights.bin; the target of "
                                                       "external_escape's '../outside.bin'"}


def make_horizon(base, x_in):
    """The toolchain's ONNX form: symmetric int8 (and int16) fake quant exported as
    horizon::HzQuantize/HzDequantize through the same symbolic functions the plugin registers
    (see qat_common.horizon_symbolics), from real QAT runs on the same float weights."""
    # hz_qat: qat_qdq in horizon form plus a grid_sample (as horizon::GridSample)
    base_gs = copy.deepcopy(base)
    gs_net = qc.Net(gridsample=True)
    gs_net.load_state_dict(base_gs.state_dict(), strict=False)
    m = qc.prepare(gs_net, qconfig=qc.HZ_QAT8)
    qc.attach_output_fq(m.gs, qc.HZ_QAT8)
    qc.calibrate_and_qat(m)
    with qc.horizon_symbolics():
        qc.export(m, OUT / "hz_qat.onnx", x_in, horizon=True)
    record(OUT / "hz_qat.onnx",
           "qat_qdq's network in the toolchain's form: symmetric int8 activations and per-channel int8 "
           "weights exported as horizon::HzQuantize/HzDequantize (bits=8, int8 zero points, axis on weights), "
           "plus a grid_sample on conv2's output exported as horizon::GridSample (grid quantized by its own "
           "QuantStub). The Linear's output has an 8-bit quantizer.",
           ["model.output_low_precision", "model.custom_gridsample"],
           producer="torch.onnx.export with the plugin's fake-quant symbolics (custom domain 'horizon')")

    # qat_int16: conv1 and the add at int16, conv2 left at int8 although the user expects int16
    m = qc.prepare(base, qconfig=qc.HZ_QAT8, module_qconfigs={"conv1": qc.HZ_QAT16, "add": qc.HZ_QAT16})
    m.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(m)
    with qc.horizon_symbolics():
        qc.export(m, OUT / "qat_int16.onnx", x_in, horizon=True)
    expect = {"conv1": "int16", "conv2": "int16", "fc": "float32"}
    (OUT / "qat_int16.expect.json").write_text(json.dumps(expect, indent=1) + "\n")
    record(OUT / "qat_int16.onnx",
           "toolchain form with int16 outputs for conv1 and the residual add (HzQuantize bits=16, int16 zero "
           "points) and int8 elsewhere; conv2 stays int8 although qat_int16.expect.json expects int16 (as an "
           "automatic int16 -> int8 fallback would leave it); the Linear output is high precision",
           ["model.int16_not_applied"], expect=expect,
           extra={"expect_file": "qat_int16.expect.json",
                  "expect_mismatches": {"conv2": {"expected": "int16", "actual": "int8"}}},
           producer="torch.onnx.export with the plugin's fake-quant symbolics (custom domain 'horizon')")
    # make sure the standard symbolics are back (later exports must give QuantizeLinear again)
    probe = qc.prepare(base)
    qc.calibrate_and_qat(probe, qat_steps=1)
    qc.export(probe, "/tmp/_probe.onnx", x_in)
    assert any(n.op_type == "QuantizeLinear" for n in onnx.load("/tmp/_probe.onnx").graph.node)
    os.remove("/tmp/_probe.onnx")


def make_demo(x_in):
    """A slightly bigger net (32 channels, one FloatFunctional used twice) whose Linear output keeps
    its 8-bit fake quant: two realistic findings."""
    DEMO.mkdir(parents=True, exist_ok=True)
    base = qc.train_float({"shared_add": True, "c": 32}, seed=7)
    m = qc.prepare(base)
    acc = qc.calibrate_and_qat(m, seed=7)
    path = DEMO / "demo_qat.onnx"
    qc.export(m, path, x_in)
    m.apply(tq.enable_observer)  # print it as it looks during QAT training (observers running)
    (DEMO / "demo_qat_printed.txt").write_text(str(m) + "\n")
    e = record(path, "demo: 32-channel CNN, FloatFunctional called twice, 8-bit quantized output",
               ["model.output_low_precision", "model.shared_quant_params"])
    e["qat_train_accuracy"] = acc
    assert os.path.getsize(path) < 500 * 1024


def scan_libonnx_testdata():
    """Runs the same rules over Debian's libonnx-testdata models: lists which trigger a lint."""
    if not LIBONNX_TESTDATA.is_dir():
        return {"note": "libonnx-testdata not installed when the manifest was written"}
    checked, flagged = 0, {}
    for p in sorted(LIBONNX_TESTDATA.rglob("model.onnx")):
        try:
            model = onnx.load(str(p))
        except Exception:  # noqa: BLE001 - a few test models are not loadable by onnx 1.12
            continue
        checked += 1
        try:
            lints = onnx_facts.derive_lints(onnx_facts.facts(model))
        except Exception as exc:  # noqa: BLE001
            flagged[str(p.relative_to(LIBONNX_TESTDATA))] = ["facts failed: %s" % exc]
            continue
        if lints:
            flagged[str(p.relative_to(LIBONNX_TESTDATA))] = lints
    return {"root": str(LIBONNX_TESTDATA), "models_checked": checked,
            "note": "every other model (all float models) must trigger no lint; the listed ones are "
                    "single-op quantization tests whose output really is 8-bit",
            "with_lints": flagged}


if __name__ == "__main__":
    main()
