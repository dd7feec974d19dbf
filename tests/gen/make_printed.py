#!/usr/bin/python3
"""Writes tests/data/printed/: real `print(model)` output of stock PyTorch 1.13 eager-mode QAT
models (str(model) of the live module), hand-written printouts in the layouts the toolchain
(horizon_plugin_pytorch) prints, and MANIFEST.json with the per-layer facts a parser must find.

    /usr/bin/python3 tests/gen/make_printed.py

Torch files: the facts are computed from the live modules. Hand-written files (hz_*.txt): text
and facts are both written by hand below, in the layouts of horizon-formats.md section 3 and
the FAQ seed's two ConvModule2d examples (own module names and numbers, no copied excerpts).
"""
import copy
import json
import sys
from pathlib import Path

import torch
import torch.nn as nn
import torch.ao.quantization as tq
from torch.nn.utils.fusion import fuse_conv_bn_eval

sys.path.insert(0, str(Path(__file__).resolve().parent))
import qat_common as qc  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "printed"

manifest = {
    "generator": "tests/gen/make_printed.py (Debian python3-torch %s)" % torch.__version__,
    "conventions": {
        "layers": "modules that own a weight_fake_quant or an activation_post_process (QAT) or carry "
                  "scale/zero_point (converted); name = dotted module path as printed by nesting",
        "weight_dtype": "the weight FakeQuantize's dtype as printed ('torch.qint8' stock, 'qint8' toolchain)",
        "granularity": "per-channel for per_channel_* qschemes (ch_axis given), else per-tensor",
        "output_high_precision": "true when the layer has no activation fake quant: "
                                 "'(activation_post_process): None', or no such child at all",
        "fake_quant_enabled / observer_enabled": "of the activation fake quant (weight_* for the weight's)",
        "output_scale": "the activation fake quant's scale (one element), null if none",
        "non-finite numbers": "written as the strings \"inf\", \"-inf\", \"nan\" (strict JSON)",
        "expected_findings": "model.* ids as in the model issue; printed.observer_disabled and "
                             "printed.fake_quant_disabled are suggested ids for 'fake quant or observer disabled "
                             "where QAT needs them' (issue 7 names no id)",
    },
    "files": {},
}


def json_safe(v):
    """Strict JSON has no inf/nan: an unobserved observer's min_val=inf is written as "inf"."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return str(v)
    if isinstance(v, dict):
        return {k: json_safe(x) for k, x in v.items()}
    if isinstance(v, list):
        return [json_safe(x) for x in v]
    return v


def qscheme_granularity(fq):
    return "per-channel" if fq.qscheme in (torch.per_channel_affine, torch.per_channel_symmetric) else "per-tensor"


def fq_facts(fq, prefix):
    d = {prefix + "dtype": str(fq.dtype), prefix + "granularity": qscheme_granularity(fq),
         prefix + "quant_min": int(fq.quant_min), prefix + "quant_max": int(fq.quant_max),
         prefix + "fake_quant_enabled": bool(fq.fake_quant_enabled[0]),
         prefix + "observer_enabled": bool(fq.observer_enabled[0])}
    if d[prefix + "granularity"] == "per-channel":
        d[prefix + "ch_axis"] = int(fq.ch_axis)
        d[prefix + "scale_count"] = int(fq.scale.numel())
        d[prefix + "scale_range"] = [float(fq.scale.min()), float(fq.scale.max())]
    else:
        d[prefix + "scale"] = float(fq.scale.reshape(-1)[0])
        d[prefix + "zero_point"] = int(fq.zero_point.reshape(-1)[0])
    obs = fq.activation_post_process
    d[prefix + "observer"] = type(obs).__name__
    mn = getattr(obs, "min_val", None)
    if mn is not None and mn.numel() == 1:
        d[prefix + "observer_min_val"] = float(mn)
        d[prefix + "observer_max_val"] = float(obs.max_val)
    return d


def torch_layer_facts(model):
    layers = []
    for name, mod in model.named_modules():
        if not name:
            continue
        wfq = getattr(mod, "weight_fake_quant", None)
        app = mod._modules.get("activation_post_process") if hasattr(mod, "_modules") else None
        is_fq = isinstance(app, tq.FakeQuantizeBase)
        if isinstance(mod, tq.FakeQuantizeBase) or isinstance(mod, tq.ObserverBase):
            continue
        if wfq is None and not is_fq and not hasattr(mod, "scale"):
            continue
        f = {"name": name, "type": mod._get_name()}  # the name repr prints (QuantizedLinear, ...)
        if wfq is not None:
            f.update(fq_facts(wfq, "weight_"))
        f["output_high_precision"] = not is_fq and not hasattr(mod, "scale")
        if is_fq:
            f.update(fq_facts(app, ""))
            f["output_scale"] = f.pop("scale", None)
        elif hasattr(mod, "scale") and not isinstance(mod.scale, torch.Tensor):
            # converted modules print scale=..., zero_point=... as plain numbers
            f["output_scale"] = float(mod.scale)
            f["output_zero_point"] = int(mod.zero_point)
        elif hasattr(mod, "scale"):
            f["output_scale"] = float(mod.scale.reshape(-1)[0])
            f["output_zero_point"] = int(mod.zero_point.reshape(-1)[0])
        if callable(getattr(mod, "weight", None)):  # converted modules: weight() is a quantized tensor
            w = mod.weight()
            f["weight_dtype"] = str(w.dtype)
            f["weight_granularity"] = ("per-channel" if w.qscheme() in (torch.per_channel_affine,
                                       torch.per_channel_symmetric) else "per-tensor")
        layers.append(f)
    return layers


def training_state(m):
    """As during QAT training: observers running again after the export-time freeze."""
    m.apply(tq.enable_observer)
    m.train()
    return m


def write_torch(fname, model, description, findings, extra=None, text=None):
    text = text if text is not None else str(model)
    (OUT / fname).write_text(text + "\n")
    entry = {"source": "print(model) of a live PyTorch %s module" % torch.__version__,
             "description": description, "expected_findings": findings,
             "layers": torch_layer_facts(model)}
    if extra:
        entry.update(extra)
    manifest["files"][fname] = entry
    print("%-34s %6d bytes %3d layers" % (fname, len(text), len(entry["layers"])))


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    torch.set_printoptions(profile="default")
    base = qc.train_float({}, seed=0)

    # 1/2: prepared QAT model before and after calibration + QAT
    m = qc.prepare(base)
    write_torch("qat_prepared_uncalibrated.txt", m,
                "prepare_qat (fbgemm qconfig, BN folded: ConvReLU2d) before any data: observers show "
                "min_val=inf / max_val=-inf, every scale 1.0 and zero point 0",
                ["model.uncalibrated_scale", "model.output_low_precision"])
    qc.calibrate_and_qat(m)
    training_state(m)
    write_torch("qat_calibrated.txt", m,
                "the same model after calibration and a short QAT run, fake quant and observers enabled",
                ["model.output_low_precision"])

    # a damaged paste: the same printout cut off inside a FakeQuantize (unbalanced parentheses)
    text = str(m)
    cut = text.index("(activation_post_process): FakeQuantize(", text.index("(conv2)")) + 60
    (OUT / "qat_truncated.txt").write_text(text[:cut])
    manifest["files"]["qat_truncated.txt"] = {
        "source": "qat_calibrated.txt cut after %d of %d characters" % (cut, len(text)),
        "description": "a paste cut off in the middle of conv2's activation FakeQuantize line: the parser must "
                       "report the damage (unclosed modules) and may still show quant, conv1 and conv2's weight",
        "expected_findings": [], "expected": "warning or error: truncated printout"}

    # 3: one module's observers disabled during QAT (the rest observing)
    m = qc.prepare(base)
    qc.calibrate_and_qat(m)
    training_state(m)
    m.conv2.apply(tq.disable_observer)
    write_torch("qat_observer_disabled.txt", m,
                "calibrated QAT model with observers enabled everywhere except conv2 (weight and activation)",
                ["model.output_low_precision", "printed.observer_disabled"],
                extra={"disabled_observer_module": "conv2"})

    # 4: fake quant disabled on one module
    m = qc.prepare(base)
    qc.calibrate_and_qat(m)
    training_state(m)
    m.conv1.apply(tq.disable_fake_quant)
    write_torch("qat_fake_quant_disabled.txt", m,
                "calibrated QAT model with fake quant disabled on conv1 (weight and activation)",
                ["model.output_low_precision", "printed.fake_quant_disabled"],
                extra={"disabled_fake_quant_module": "conv1"})

    # 5: converted int8 model
    m = qc.prepare(base)
    qc.calibrate_and_qat(m)
    q = tq.convert(copy.deepcopy(m).eval())
    write_torch("quantized_int8.txt", q,
                "torch.ao.quantization.convert of the calibrated model: QuantizedConvReLU2d(..., scale=, "
                "zero_point=), QFunctional, QuantizedLinear with qscheme=torch.per_channel_affine", [],
                extra={"quant_input": {"scale": float(q.quant.scale), "zero_point": int(q.quant.zero_point)}})

    # 6: fused ConvBnReLU2d (BN kept for QAT) and ConvReLU2d (BN folded by hand)
    f = copy.deepcopy(base).eval()
    f.conv2 = fuse_conv_bn_eval(f.conv2, f.bn2)
    f.bn2 = nn.Identity()
    f.train()
    tq.fuse_modules_qat(f, [["conv1", "bn1", "relu1"], ["conv2", "relu2"]], inplace=True)
    f.qconfig = qc.FBGEMM_QAT
    tq.prepare_qat(f, inplace=True)
    qc.calibrate_and_qat(f)
    training_state(f)
    write_torch("qat_fused.txt", f,
                "conv1 fused by fuse_modules_qat into ConvBnReLU2d (BN kept, printed inside as (bn)), conv2 "
                "folded with its BN by hand then fused into ConvReLU2d", ["model.output_low_precision"])

    # 7: >64 channels with a small print threshold: multi-line tensors with '...' elisions
    wide = qc.train_float({"c": 96}, seed=3, steps=60)
    m = qc.prepare(wide)
    qc.calibrate_and_qat(m, qat_steps=20)
    training_state(m)
    torch.set_printoptions(threshold=20, edgeitems=3)
    text = str(m)
    torch.set_printoptions(profile="default")
    write_torch("qat_wide_elided.txt", m,
                "96-channel convs printed with torch.set_printoptions(threshold=20, edgeitems=3): per-channel "
                "scale / zero_point / min_val / max_val tensors are elided with '...'; the facts give the "
                "true channel counts (scale_count) although the text shows only 6 values",
                ["model.output_low_precision"], text=text,
                extra={"printoptions": {"threshold": 20, "edgeitems": 3}})
    m = qc.prepare(wide)
    qc.calibrate_and_qat(m, qat_steps=20)
    training_state(m)
    write_torch("qat_wide_full.txt", m,
                "the same 96-channel model printed with default print options: full per-channel tensors "
                "wrapped over many lines", ["model.output_low_precision"])

    # 8: one FloatFunctional called twice
    shared = qc.train_float({"shared_add": True}, seed=0)
    m = qc.prepare(shared)
    qc.calibrate_and_qat(m)
    training_state(m)
    write_torch("qat_shared_add.txt", m,
                "one FloatFunctional ('add') called twice in forward; the printout lists it once, so a "
                "printout alone can only hint at sharing", ["model.output_low_precision"],
                extra={"hint": "add is called twice in forward (not visible in the text)"})

    write_hand_written()
    (OUT / "MANIFEST.json").write_text(json.dumps(json_safe(manifest), indent=1, allow_nan=False) + "\n")
    print("wrote", OUT / "MANIFEST.json")


# ---------------------------------------------------------------------------------------------
# Hand-written toolchain-style printouts. Layout rules taken from horizon-formats.md section 3
# and the FAQ seed's examples: dtype printed as qint8 / qint16 (no 'torch.'), symmetric qschemes,
# int16 as quant_min=-32768, quant_max=32767, ConvModule2d wrapping (0): Conv2d / ConvReLU2d,
# FakeQuantize fields split over three lines (seed) or one long line (user guide), high-precision
# output as '(activation_post_process): None' or no activation_post_process child at all.
# ---------------------------------------------------------------------------------------------

HZ_LOWPREC = """\
DetNet(
  (quant): QuantStub(
    (activation_post_process): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
      quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_tensor_symmetric, ch_axis=-1,
      scale=tensor([0.0215]), zero_point=tensor([0])
      (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([-2.7304]), max_val=tensor([2.6118]))
    )
  )
  (backbone): Sequential(
    (0): ConvModule2d(
      (0): ConvReLU2d(
        3, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1)
        (weight_fake_quant): FakeQuantize(
          fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
          quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_channel_symmetric, ch_axis=0,
          scale=tensor([0.0031, 0.0027, 0.0042, 0.0019, 0.0036, 0.0024, 0.0030, 0.0045]), zero_point=tensor([0, 0, 0, 0, 0, 0, 0, 0])
          (activation_post_process): MovingAveragePerChannelMinMaxObserver(min_val=tensor([-0.3937, -0.3429, -0.5334, -0.2413, -0.4572, -0.3048, -0.3810, -0.5715]), max_val=tensor([0.3810, 0.3302, 0.4826, 0.2286, 0.4318, 0.2921, 0.3683, 0.5080]))
        )
        (activation_post_process): FakeQuantize(
          fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
          quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_tensor_symmetric, ch_axis=-1,
          scale=tensor([0.0472]), zero_point=tensor([0])
          (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([0.]), max_val=tensor([5.9944]))
        )
      )
    )
    (1): ConvModule2d(
      (0): ConvReLU2d(
        8, 24, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)
        (weight_fake_quant): FakeQuantize(
          fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
          quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_channel_symmetric, ch_axis=0,
          scale=tensor([0.0012, 0.0017, 0.0009, 0.0021, 0.0014, 0.0011, 0.0016, 0.0019, 0.0013, 0.0010,
                        0.0018, 0.0015, 0.0020, 0.0012, 0.0008, 0.0017, 0.0014, 0.0022, 0.0011, 0.0016,
                        0.0013, 0.0019, 0.0010, 0.0015]),
          zero_point=tensor([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
          (activation_post_process): MovingAveragePerChannelMinMaxObserver(
            min_val=tensor([-0.1524, -0.2159, -0.1143, -0.2667, -0.1778, -0.1397, -0.2032, -0.2413, -0.1651,
                            -0.1270, -0.2286, -0.1905, -0.2540, -0.1524, -0.1016, -0.2159, -0.1778, -0.2794,
                            -0.1397, -0.2032, -0.1651, -0.2413, -0.1270, -0.1905]),
            max_val=tensor([0.1397, 0.2032, 0.1016, 0.2540, 0.1651, 0.1270, 0.1905, 0.2286, 0.1524, 0.1143,
                            0.2159, 0.1778, 0.2413, 0.1397, 0.0889, 0.2032, 0.1651, 0.2667, 0.1270, 0.1905,
                            0.1524, 0.2286, 0.1143, 0.1778])
          )
        )
        (activation_post_process): FakeQuantize(
          fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
          quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_tensor_symmetric, ch_axis=-1,
          scale=tensor([0.0388]), zero_point=tensor([0])
          (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([0.]), max_val=tensor([4.9276]))
        )
      )
    )
  )
  (head): ConvModule2d(
    (0): Conv2d(
      24, 4, kernel_size=(1, 1), stride=(1, 1)
      (weight_fake_quant): FakeQuantize(
        fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
        quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_channel_symmetric, ch_axis=0,
        scale=tensor([0.0025, 0.0033, 0.0029, 0.0021]), zero_point=tensor([0, 0, 0, 0])
        (activation_post_process): MovingAveragePerChannelMinMaxObserver(min_val=tensor([-0.3175, -0.4191, -0.3683, -0.2667]), max_val=tensor([0.2921, 0.3937, 0.3556, 0.2540]))
      )
      (activation_post_process): FakeQuantize(
        fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
        quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_tensor_symmetric, ch_axis=-1,
        scale=tensor([0.0611]), zero_point=tensor([0])
        (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([-7.7597]), max_val=tensor([6.9025]))
      )
    )
  )
  (dequant): DeQuantStub()
)
"""


def hz_highprec_from(low, variant):
    """The same model with the head left in high precision: variant 'none' prints
    '(activation_post_process): None' (user-guide layout), 'absent' has no such child (seed)."""
    start = low.index("  (head): ConvModule2d(")
    head = low[start:low.index("  (dequant)")]
    fq_start = head.index("      (activation_post_process): FakeQuantize(")
    fq_end = head.index("      )\n", head.index("MovingAverageMinMaxObserver", fq_start)) + len("      )\n")
    repl = "      (activation_post_process): None\n" if variant == "none" else ""
    return low[:start] + head[:fq_start] + repl + head[fq_end:] + low[low.index("  (dequant)"):]


HZ_ONE_LINE = """\
TinyNet(
  (quant): QuantStub(
    (activation_post_process): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),            quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_tensor_symmetric, ch_axis=-1,         scale=tensor([0.0160]), zero_point=tensor([0])
      (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([-2.0312]), max_val=tensor([1.9876]))
    )
  )
  (conv_a): Conv2d(
    3, 6, kernel_size=(1, 1), stride=(1, 1)
    (weight_fake_quant): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),            quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_channel_symmetric, ch_axis=0,         scale=tensor([0.0051, 0.0047, 0.0022, 0.0039, 0.0060, 0.0033]), zero_point=tensor([0, 0, 0, 0, 0, 0])
      (activation_post_process): MovingAveragePerChannelMinMaxObserver(min_val=tensor([-0.6477, -0.5969, -0.2794, -0.4953, -0.7620, -0.4191]), max_val=tensor([0.6350, 0.5842, 0.2667, 0.4826, 0.7493, 0.4064]))
    )
    (activation_post_process): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),            quant_min=-32768, quant_max=32767, dtype=qint16, qscheme=torch.per_tensor_symmetric, ch_axis=-1,         scale=tensor([9.1553e-05]), zero_point=tensor([0])
      (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([-2.9801]), max_val=tensor([2.9998]))
    )
  )
  (conv_b): Conv2d(
    6, 6, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)
    (weight_fake_quant): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([0], dtype=torch.uint8),            quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_channel_symmetric, ch_axis=0,         scale=tensor([0.0018, 0.0020, 0.0015, 0.0023, 0.0017, 0.0019]), zero_point=tensor([0, 0, 0, 0, 0, 0])
      (activation_post_process): MovingAveragePerChannelMinMaxObserver(min_val=tensor([-0.2286, -0.2540, -0.1905, -0.2921, -0.2159, -0.2413]), max_val=tensor([0.2159, 0.2413, 0.1778, 0.2794, 0.2032, 0.2286]))
    )
    (activation_post_process): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([0], dtype=torch.uint8),            quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_tensor_symmetric, ch_axis=-1,         scale=tensor([0.0237]), zero_point=tensor([0])
      (activation_post_process): MovingAverageMinMaxObserver(min_val=tensor([-3.0102]), max_val=tensor([2.8347]))
    )
  )
  (act): FakeCast(dtype=torch.float16, min_val=tensor([-3.0102]), max_val=tensor([2.8347]))
  (conv_out): Conv2d(
    6, 2, kernel_size=(1, 1), stride=(1, 1)
    (weight_fake_quant): FakeQuantize(
      fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),            quant_min=-32768, quant_max=32767, dtype=qint16, qscheme=torch.per_channel_symmetric, ch_axis=0,         scale=tensor([1.2207e-05, 1.5259e-05]), zero_point=tensor([0, 0])
      (activation_post_process): MovingAveragePerChannelMinMaxObserver(min_val=tensor([-0.4000, -0.5000]), max_val=tensor([0.3815, 0.4731]))
    )
    (activation_post_process): None
  )
  (dequant): DeQuantStub()
)
"""

HZ_CALIB = """\
SegHead(
  (quant): QuantStub(
    (activation_post_process): CalibFakeQuantize(
      (activation_post_process): CalibObserver(bins=2048, upsample_rate=128)
    )
  )
  (stem): ConvModule2d(
    (0): ConvReLU2d(
      3, 16, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1)
      (weight_fake_quant): CalibFakeQuantize(
        (activation_post_process): NoopObserver()
      )
      (activation_post_process): CalibFakeQuantize(
        (activation_post_process): CalibObserver(bins=2048, upsample_rate=128)
      )
    )
  )
  (blend): FloatFunctional(
    (activation_post_process): CalibFakeQuantize(
      (activation_post_process): CalibObserver(bins=2048, upsample_rate=128)
    )
  )
  (postproc): Sequential(
    (0): _WrappedCalibFakeQuantize(
      (activation_post_process): CalibFakeQuantize(
        (activation_post_process): CalibObserver(bins=2048, upsample_rate=128)
      )
    )
    (1): Softmax(dim=1)
  )
  (postproc_input_dequant): DeQuantStub()
  (classifier): ConvModule2d(
    (0): Conv2d(
      16, 5, kernel_size=(1, 1), stride=(1, 1)
      (weight_fake_quant): CalibFakeQuantize(
        (activation_post_process): NoopObserver()
      )
      (activation_post_process): None
    )
  )
  (dequant): DeQuantStub()
)
"""


def hz_layer(name, typ, wdtype="qint8", gran="per-channel", high=False, scale=None, fq=True, obs=True,
             dtype="qint8", **kw):
    d = {"name": name, "type": typ, "weight_dtype": wdtype, "weight_granularity": gran,
         "output_high_precision": high}
    if not high:
        d.update({"dtype": dtype, "output_scale": scale, "fake_quant_enabled": fq, "observer_enabled": obs})
    d.update(kw)
    return d


def write_hand_written():
    low_layers = [
        {"name": "quant", "type": "QuantStub", "output_high_precision": False, "dtype": "qint8",
         "output_scale": 0.0215, "fake_quant_enabled": True, "observer_enabled": True,
         "observer_min_val": -2.7304, "observer_max_val": 2.6118},
        hz_layer("backbone.0.0", "ConvReLU2d", scale=0.0472, weight_scale_count=8, weight_ch_axis=0),
        hz_layer("backbone.1.0", "ConvReLU2d", scale=0.0388, weight_scale_count=24, weight_ch_axis=0),
        hz_layer("head.0", "Conv2d", scale=0.0611, weight_scale_count=4, weight_ch_axis=0),
    ]
    hand = {
        "hz_lowprec_output.txt": (HZ_LOWPREC, "toolchain-style QAT printout, ConvModule2d nesting, FakeQuantize "
                                              "fields over three lines; the output conv head.0 still has an int8 "
                                              "activation FakeQuantize (low precision)",
                                  ["model.output_low_precision"], low_layers),
        "hz_highprec_none.txt": (hz_highprec_from(HZ_LOWPREC, "none"),
                                 "as hz_lowprec_output.txt but head.0 prints '(activation_post_process): None' "
                                 "(high-precision output)", [],
                                 low_layers[:3] + [hz_layer("head.0", "Conv2d", high=True, weight_scale_count=4,
                                                            weight_ch_axis=0)]),
        "hz_highprec_absent.txt": (hz_highprec_from(HZ_LOWPREC, "absent"),
                                   "as hz_lowprec_output.txt but head.0 has no activation_post_process child at "
                                   "all (the FAQ example's high-precision form)", [],
                                   low_layers[:3] + [hz_layer("head.0", "Conv2d", high=True, weight_scale_count=4,
                                                              weight_ch_axis=0)]),
        "hz_int16_fakecast.txt": (HZ_ONE_LINE,
                                  "user-guide layout (fields on one long line with runs of spaces); conv_a "
                                  "output qint16 (quant_min=-32768), conv_b observers disabled "
                                  "(observer_enabled=tensor([0])), an fp16 FakeCast module, conv_out with a "
                                  "qint16 weight and '(activation_post_process): None'",
                                  ["printed.observer_disabled"],
                                  [{"name": "quant", "type": "QuantStub", "output_high_precision": False,
                                    "dtype": "qint8", "output_scale": 0.0160, "fake_quant_enabled": True,
                                    "observer_enabled": True},
                                   hz_layer("conv_a", "Conv2d", scale=9.1553e-05, dtype="qint16",
                                            quant_min=-32768, quant_max=32767, weight_scale_count=6),
                                   hz_layer("conv_b", "Conv2d", scale=0.0237, obs=False, weight_observer_enabled=False,
                                            weight_scale_count=6),
                                   {"name": "act", "type": "FakeCast", "dtype": "torch.float16",
                                    "output_high_precision": False, "observer_min_val": -3.0102,
                                    "observer_max_val": 2.8347},
                                   hz_layer("conv_out", "Conv2d", wdtype="qint16", high=True, weight_scale_count=2,
                                            weight_quant_min=-32768, weight_quant_max=32767)]),
        "hz_calib.txt": (HZ_CALIB,
                         "toolchain calibration model: CalibFakeQuantize with CalibObserver for activations and "
                         "NoopObserver for weights (no scales printed yet), a _WrappedCalibFakeQuantize in front of "
                         "a CPU Softmax with an auto-inserted postproc_input_dequant, classifier.0 high precision. "
                         "The CalibObserver/CalibFakeQuantize argument lists are not documented verbatim "
                         "anywhere we could read; the parser should accept any arguments there",
                         [],
                         [{"name": "quant", "type": "QuantStub", "output_high_precision": False,
                           "fake_quant": "CalibFakeQuantize", "observer": "CalibObserver"},
                          {"name": "stem.0", "type": "ConvReLU2d", "output_high_precision": False,
                           "fake_quant": "CalibFakeQuantize", "observer": "CalibObserver",
                           "weight_observer": "NoopObserver"},
                          {"name": "blend", "type": "FloatFunctional", "output_high_precision": False,
                           "fake_quant": "CalibFakeQuantize", "observer": "CalibObserver"},
                          {"name": "postproc.0", "type": "_WrappedCalibFakeQuantize",
                           "output_high_precision": False, "fake_quant": "CalibFakeQuantize"},
                          {"name": "classifier.0", "type": "Conv2d", "output_high_precision": True,
                           "weight_observer": "NoopObserver"}]),
    }
    for fname, (text, desc, findings, layers) in hand.items():
        (OUT / fname).write_text(text)
        manifest["files"][fname] = {"source": "hand-written in the toolchain's print layout",
                                    "description": desc, "expected_findings": findings, "layers": layers}
        print("%-34s %6d bytes %3d layers (hand-written)" % (fname, len(text), len(layers)))


if __name__ == "__main__":
    main()
