#!/usr/bin/python3
"""Writes tests/data/compare/: before / after pairs of one QAT model, each pair a fix the FAQ
suggests, made with Debian's torch 1.13 from real calibration + QAT runs on one float model:

* output/    the Linear's output fake quant removed (high-precision output).
* shared/    a FloatFunctional called twice (one shared observer) split into two.
* int16/     toolchain-form (horizon::HzQuantize) models. Before: all int8, conv1's output
             quantizer with a fixed scale far too small (a planted bad layer: it clips). After:
             conv1 and the residual add at int16 (took effect); conv2 configured int16 in
             qconfig_dtypes.pt.py but left at int8 (as the toolchain's automatic fallback leaves
             it). Each side also has the profiler's per-layer comparison
             (compare_per_layer_out.txt) and sensitivity table
             (output_logits_L1_sensitive_ops.txt) in the toolchain's layouts (see
             make_toolchain.py), their numbers measured on these models: the float model is the
             QAT model with fake quant off, each layer's output taken from its output quantizer.

MANIFEST.json says what a comparison must answer for each pair.

Run: /usr/bin/python3 tests/gen/make_compare_pairs.py   (python3-torch, python3-onnx, python3-tabulate)
"""
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn as nn
import torch.ao.quantization as tq
from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qat_common as qc  # noqa: E402
from make_toolchain import COMPARE_HEADERS, cls  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "compare"
MANIFEST = {"generator": "tests/gen/make_compare_pairs.py (Debian python3-torch %s)" % torch.__version__,
            "pairs": {}}


def export(m, path, x, horizon=False):
    path.parent.mkdir(parents=True, exist_ok=True)
    if horizon:
        with qc.horizon_symbolics():
            qc.export(m, path, x, horizon=True)
    else:
        qc.export(m, path, x)


# ---- the profiler's tables, measured ----------------------------------------------------------------

# module name -> (module, its output quantizer, op class for the tables)
def quantized_modules(m):
    out = []
    for name, mod in m.named_modules():
        fq = getattr(mod, "activation_post_process", None)
        if isinstance(fq, tq.FakeQuantize):
            out.append((name, mod, fq))
    return out


def layer_outputs(m, x, fake_quant):
    """Each quantized module's output as its output quantizer gives it."""
    m.apply(tq.enable_fake_quant if fake_quant else tq.disable_fake_quant)
    seen, hooks = {}, []
    for name, _, fq in quantized_modules(m):
        hooks.append(fq.register_forward_hook(lambda mod, i, o, name=name: seen.setdefault(name, o.detach().clone())))
    with torch.no_grad():
        final = m(x)
    for h in hooks:
        h.remove()
    m.apply(tq.enable_fake_quant)
    return seen, final


def dtype_of(fq):
    return "qint16" if fq.quant_max > 127 else "qint8"


def compare_per_layer(m, x, path):
    base, _ = layer_outputs(m, x, fake_quant=False)
    analy, _ = layer_outputs(m, x, fake_quant=True)
    rows = []
    for i, (name, mod, fq) in enumerate(quantized_modules(m)):
        b, a = base[name].flatten().double(), analy[name].flatten().double()
        err = a - b
        cos = float(torch.nn.functional.cosine_similarity(b, a, dim=0))
        mse, l1 = float((err ** 2).mean()), float(err.abs().mean())
        sqnr = float(10 * torch.log10((b ** 2).sum() / (err ** 2).sum().clamp_min(1e-30)))
        pb, pa = torch.softmax(b, 0), torch.softmax(a, 0)
        kl = float((pb * (pb.clamp_min(1e-30).log() - pa.clamp_min(1e-30).log())).sum())
        atol = float(err.abs().max())
        rtol = float((err.abs() / b.abs().clamp_min(1e-6)).median())
        scale = float(fq.scale)
        rows.append([i, name, type(mod).__module__ + "." + type(mod).__name__,
                     type(mod).__module__ + "." + type(mod).__name__, "torch.Size(%s)" % list(base[name].shape),
                     dtype_of(fq), "%.4g" % scale, cos, mse, l1, kl, sqnr, atol, rtol,
                     float(b.min()), float(a.min()), float(b.max()), float(a.max()), float(b.mean()), float(a.mean()),
                     float(b.var()), float(a.var()), atol, "%.4g" % (atol / scale)])
    path.write_text(tabulate(rows, headers=COMPARE_HEADERS, tablefmt="psql", floatfmt=".7f") + "\n")
    return {r[1]: r[7] for r in rows}


def flops_of(m, x):
    """Multiply-accumulates per sample of each module with a weight, as the profiler counts them."""
    base, _ = layer_outputs(m, x, fake_quant=False)
    macs = {}
    for name, mod, _ in quantized_modules(m):
        w = getattr(mod, "weight", None)
        macs[name] = int(base[name][0].numel() * (w[0].numel() if w is not None else 0))
    total = sum(macs.values()) or 1
    return {k: "%d(%.2f%%)" % (v, 100.0 * v / total) for k, v in macs.items()}


def sensitivity(m, x, path):
    """The profiler's sensitivity: the final output's L1 against float with only one quantizer on."""
    _, ref = layer_outputs(m, x, fake_quant=False)
    flops = flops_of(m, x)
    rows = []
    for name, mod, fq in quantized_modules(m):
        for kind, quantizer in (("activation", fq), ("weight", getattr(mod, "weight_fake_quant", None))):
            if quantizer is None:
                continue
            m.apply(tq.disable_fake_quant)
            quantizer.enable_fake_quant()
            with torch.no_grad():
                out = m(x)
            m.apply(tq.enable_fake_quant)
            l1 = float((out - ref).abs().mean())
            rows.append((name, kind, cls(type(mod).__module__ + "." + type(mod).__name__), round(l1, 6),
                         dtype_of(quantizer) if kind == "activation" else "qint8", flops[name]))
    rows.sort(key=lambda r: -r[3])
    path.write_text(tabulate(rows, headers=["op_name", "sensitive_type", "op_type", "L1", "quant_dtype", "flops"]) + "\n")
    return [(r[0], r[1]) for r in rows]


def qconfig_dtypes(path, configured):
    lines = ["# QconfigSetter: configured dtypes per module (input / weight / output)", "qconfig_dtypes = {"]
    for name, (weight, output) in configured.items():
        parts = ["'input': [qint8]"]
        if weight:
            parts.append("'weight': %s" % weight)
        parts.append("'output': %s" % output)
        lines.append("    '%s': {%s}," % (name, ", ".join(parts)))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


# ---- the pairs ----------------------------------------------------------------------------------------

def output_pair(base, x):
    before = qc.prepare(base)
    qc.calibrate_and_qat(before)
    export(before, OUT / "output" / "before" / "model.onnx", x)
    after = qc.prepare(base)
    after.fc.activation_post_process = nn.Identity()  # no output fake quant: the Gemm result stays float
    qc.calibrate_and_qat(after)
    export(after, OUT / "output" / "after" / "model.onnx", x)
    MANIFEST["pairs"]["output"] = {
        "change": "fc's output fake quant removed after prepare_qat",
        "answers": {"compare.output_high_precision": ["fc"]},
        "resolved": ["model.output_low_precision"]}


def shared_pair(x):
    shared = qc.train_float({"shared_add": True}, seed=0)
    before = qc.prepare(shared)
    before.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(before)
    export(before, OUT / "shared" / "before" / "model.onnx", x)
    split = qc.Net(shared_add=True, split_add=True)
    split.load_state_dict(shared.state_dict())  # FloatFunctional holds no weights: one float model
    split.eval()
    after = qc.prepare(split)
    after.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(after)
    export(after, OUT / "shared" / "after" / "model.onnx", x)
    MANIFEST["pairs"]["shared"] = {
        "change": "the second add.add(...) call given its own FloatFunctional (add2)",
        "answers": {"compare.shared_split": ["add2"]},
        "split_rows": {"add (/Add_1)": "add2"},
        "resolved": ["model.shared_quant_params"]}


def int16_pair(base, x):
    xs, _ = qc.synthetic_data()
    probe = xs[:64]

    def plant_fixed_scale(mm):
        # a fixed scale set by hand and far too small for conv1's output: it clips
        fq = mm.conv1.activation_post_process
        fq.disable_observer()
        fq.scale.fill_(0.002)
        fq.zero_point.fill_(0)

    before = qc.prepare(base, qconfig=qc.HZ_QAT8)
    before.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(before, before_calib=plant_fixed_scale)
    export(before, OUT / "int16" / "before" / "model.onnx", x, horizon=True)
    cos_before = compare_per_layer(before, probe, OUT / "int16" / "before" / "compare_per_layer_out.txt")
    rank_before = sensitivity(before, probe, OUT / "int16" / "before" / "output_logits_L1_sensitive_ops.txt")

    after = qc.prepare(base, qconfig=qc.HZ_QAT8, module_qconfigs={"conv1": qc.HZ_QAT16, "add": qc.HZ_QAT16})
    after.fc.activation_post_process = nn.Identity()
    qc.calibrate_and_qat(after)
    export(after, OUT / "int16" / "after" / "model.onnx", x, horizon=True)
    cos_after = compare_per_layer(after, probe, OUT / "int16" / "after" / "compare_per_layer_out.txt")
    rank_after = sensitivity(after, probe, OUT / "int16" / "after" / "output_logits_L1_sensitive_ops.txt")
    qconfig_dtypes(OUT / "int16" / "after" / "qconfig_dtypes.pt.py",
                   {"quant": (None, "qint8"), "conv1": ("qint8", "qint16"), "conv2": ("qint8", "qint16"),
                    "add": (None, "qint16"), "fc": ("qint8", "None")})
    assert rank_before[0] == ("conv1", "activation"), rank_before
    assert cos_after["conv1"] > cos_before["conv1"] + 0.01, (cos_before, cos_after)
    MANIFEST["pairs"]["int16"] = {
        "change": "conv1, conv2 and add configured int16 (qconfig_dtypes.pt.py); conv2 stayed int8; conv1's "
                  "too-small fixed scale replaced by an observed int16 one",
        "answers": {"compare.int16_took_effect": ["conv1", "add"], "compare.int16_fell_back": ["conv2"],
                    "compare.similarity_improved": ["conv1"], "compare.sensitivity_dropped": ["conv1"]},
        "cosine": {"before": cos_before, "after": cos_after},
        "sensitivity_rank": {"before": ["%s %s" % r for r in rank_before],
                             "after": ["%s %s" % r for r in rank_after]}}


def main():
    x = qc.fixed_input()
    base = qc.train_float({}, seed=0)
    output_pair(base, x)
    shared_pair(x)
    int16_pair(base, x)
    (OUT / "MANIFEST.json").write_text(json.dumps(MANIFEST, indent=1, ensure_ascii=False) + "\n")
    for p in sorted(OUT.rglob("*")):
        if p.is_file():
            print("%-60s %7d bytes" % (p.relative_to(ROOT), os.path.getsize(p)))


if __name__ == "__main__":
    main()
