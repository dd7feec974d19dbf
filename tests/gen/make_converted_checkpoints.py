#!/usr/bin/python3
"""Writes tests/data/checkpoints/converted/ with Debian's python3-torch (1.13): models saved after
torch.ao's convert and quantize_dynamic in every form torch writes them, and facts.json, what torch
itself says of each (read back with torch.load / torch.jit.load), for the tests to compare with.

  float_sd.pt             the float model's state_dict (the same weights as the converted ones)
  static_sd.pt            eager static convert (qnnpack, per-tensor): QuantStub, fused ConvReLU,
                          an unfused quantized BatchNorm, a FloatFunctional add, Linear
  perchannel_sd.pt        the same with onednn's per-channel weights
  static_whole.pt         torch.save(model) of static_sd's model (pickled states, TorchBind objects)
  static_script.pt        torch.jit.save(torch.jit.script(model)): data.pkl + code/ + constants.pkl
  static_traced.pt        torch.jit.save(torch.jit.trace(model))
  static_mobile.ptl       that traced model after optimize_for_mobile, saved for the lite
                          interpreter (a Linear's packed params are the TorchBind object itself)
  training_ckpt.pth       {'epoch', 'best_acc' (a numpy float64), 'state_dict': static_sd's}
  dynamic_sd.pt           quantize_dynamic of a bidirectional 2-layer LSTM, a GRU and a Linear
  dynamic_float_sd.pt     that model's float state_dict
  dynamic_script.pt       torch.jit.script of the dynamic model
  embedding_sd.pt         an Embedding quantized weight-only (float_qparams) and a dynamic Linear
  fx_sd.pt                convert_fx of a small conv net (root buffers <name>_scale_0)
  uncalibrated_sd.pt      static convert with no calibration pass (every output scale 1.0, zero
                          point 0: uncalibrated, not dynamic) of an nn.Sequential attribute called
                          net (keys "net.0.weight": a state_dict, not a checkpoint under "net")

Deterministic: fixed seeds. Run: /usr/bin/python3 tests/gen/make_converted_checkpoints.py [OUT_DIR]
"""
import copy
import json
import os
import sys

import numpy
import torch
import torch.nn as nn
from torch.ao.quantization import (DeQuantStub, QuantStub, convert, float_qparams_weight_only_qconfig,
                                   get_default_qconfig, prepare, quantize_dynamic)
from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
from torch.ao.quantization import get_default_qconfig_mapping
from torch.utils.mobile_optimizer import optimize_for_mobile

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "checkpoints",
                                                         "converted")


class Block(nn.Module):
    """conv -> bn -> relu (fused), a second conv, an unfused BatchNorm, a residual add, a Linear."""

    def __init__(self):
        super().__init__()
        self.quant = QuantStub()
        self.stem = nn.Conv2d(3, 6, 3, padding=1)
        self.stem_bn = nn.BatchNorm2d(6)
        self.stem_act = nn.ReLU()
        self.mix = nn.Conv2d(6, 6, 1)
        self.norm = nn.BatchNorm2d(6)
        self.skip = nn.quantized.FloatFunctional()
        self.head = nn.Linear(6, 5)
        self.dequant = DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        y = self.stem_act(self.stem_bn(self.stem(x)))
        y = self.skip.add(self.norm(self.mix(y)), y)
        return self.dequant(self.head(y.mean(dim=(2, 3))))


def static_model(engine, seed=3):
    torch.backends.quantized.engine = engine
    torch.manual_seed(seed)
    float_model = Block().eval()
    m = copy.deepcopy(float_model)
    torch.ao.quantization.fuse_modules(m, [["stem", "stem_bn", "stem_act"]], inplace=True)
    m.qconfig = get_default_qconfig(engine)
    prepare(m, inplace=True)
    for _ in range(4):
        m(torch.randn(2, 3, 8, 8) * 2)
    return float_model, convert(m)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.LSTM(7, 5, num_layers=2, bidirectional=True)
        self.gru = nn.GRU(10, 4)
        self.out = nn.Linear(4, 3)

    def forward(self, x):
        y, _ = self.encoder(x)
        y, _ = self.gru(y)
        return self.out(y)


class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(12, 4)
        self.proj = nn.Linear(4, 2)

    def forward(self, x):
        return self.proj(self.tokens(x))


class Wrapped(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = QuantStub()
        self.net = nn.Sequential(nn.Conv1d(2, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(16, 3))
        self.dequant = DeQuantStub()

    def forward(self, x):
        return self.dequant(self.net(self.quant(x)))


class Fx(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean(dim=(2, 3)))


def weight_facts(w):
    """What torch says of a quantized weight: dtype, scheme, scales, zero points, axis."""
    f = {"dtype": str(w.dtype).replace("torch.", ""), "shape": list(w.shape)}
    if w.qscheme() in (torch.per_tensor_affine, torch.per_tensor_symmetric):
        f.update(scheme="per_tensor", scales=[w.q_scale()], zero_points=[w.q_zero_point()], axis=None)
    else:
        f.update(scheme="per_channel", scales=w.q_per_channel_scales().tolist(),
                 zero_points=w.q_per_channel_zero_points().tolist(), axis=w.q_per_channel_axis())
    return f


def layer_facts(model):
    """Per converted module: its weight's facts and its output scale / zero point (None: float)."""
    out = {}
    for name, mod in model.named_modules():
        w = None
        if hasattr(mod, "weight") and callable(getattr(mod, "weight")):
            try:
                w = mod.weight()
            except Exception:
                w = None
        if isinstance(w, tuple):
            w = w[0]
        if w is None or not w.is_quantized:
            continue
        f = weight_facts(w)
        scale = getattr(mod, "scale", None)
        dynamic = type(mod).__module__.find(".dynamic.") >= 0
        f["output_scale"] = None if dynamic or scale is None else float(scale)
        f["output_zero_point"] = None if dynamic or scale is None else int(mod.zero_point)
        f["dynamic"] = dynamic
        out[name] = f
    return out


def rnn_facts(model):
    """A dynamic LSTM / GRU's quantized matrices by their float names."""
    out = {}
    for name, mod in model.named_modules():
        if not hasattr(mod, "_all_weight_values"):
            continue
        dirs = 2 if mod.bidirectional else 1
        for i, packed in enumerate(mod._all_weight_values):
            layer, reverse = divmod(i, dirs)
            suffix = "_l%d%s" % (layer, "_reverse" if reverse else "")
            state = packed.param.__getstate__()[0]
            for gate, lin in zip(("ih", "hh"), state[4]):
                w = lin.__getstate__()[0][0]
                out["%s.weight_%s%s" % (name, gate, suffix)] = weight_facts(w)
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    facts = {}

    float_model, q = static_model("qnnpack")
    torch.save(float_model.state_dict(), os.path.join(OUT, "float_sd.pt"))
    torch.save(q.state_dict(), os.path.join(OUT, "static_sd.pt"))
    torch.save(q, os.path.join(OUT, "static_whole.pt"))
    torch.jit.save(torch.jit.script(q), os.path.join(OUT, "static_script.pt"))
    traced_model = torch.jit.trace(q, torch.randn(1, 3, 8, 8))
    torch.jit.save(traced_model, os.path.join(OUT, "static_traced.pt"))
    optimize_for_mobile(traced_model)._save_for_lite_interpreter(os.path.join(OUT, "static_mobile.ptl"))
    torch.save({"epoch": 7, "best_acc": numpy.float64(0.8125), "state_dict": q.state_dict()},
               os.path.join(OUT, "training_ckpt.pth"))
    static = layer_facts(q)
    static["quant"] = {"output_scale": float(q.quant.scale), "output_zero_point": int(q.quant.zero_point)}
    static["norm"] = {"output_scale": float(q.norm.scale), "output_zero_point": int(q.norm.zero_point)}
    static["skip"] = {"output_scale": float(q.skip.scale), "output_zero_point": int(q.skip.zero_point)}
    for name in ("static_sd.pt", "static_whole.pt", "static_script.pt", "training_ckpt.pth"):
        facts[name] = {"dynamic": False, "layers": static}
    # a traced module keeps a Linear's output scale in its code, not in data.pkl
    traced = {k: dict(v) for k, v in static.items() if k in ("stem", "mix", "head")}
    traced["head"].update(output_scale=None, output_zero_point=None)
    facts["static_traced.pt"] = {"dynamic": False, "layers": traced}
    facts["static_mobile.ptl"] = {"dynamic": False, "layers": traced}
    facts["training_ckpt.pth"]["metadata"] = {"epoch": 7, "best_acc": 0.8125}

    _, qc = static_model("onednn")
    torch.save(qc.state_dict(), os.path.join(OUT, "perchannel_sd.pt"))
    facts["perchannel_sd.pt"] = {"dynamic": False, "layers": layer_facts(qc)}

    torch.backends.quantized.engine = "qnnpack"
    torch.manual_seed(5)
    tagger = Tagger().eval()
    torch.save(tagger.state_dict(), os.path.join(OUT, "dynamic_float_sd.pt"))
    d = quantize_dynamic(copy.deepcopy(tagger), {nn.LSTM, nn.GRU, nn.Linear}, dtype=torch.qint8)
    torch.save(d.state_dict(), os.path.join(OUT, "dynamic_sd.pt"))
    torch.jit.save(torch.jit.script(d), os.path.join(OUT, "dynamic_script.pt"))
    dyn = layer_facts(d)
    dyn.update(rnn_facts(d))
    facts["dynamic_sd.pt"] = {"dynamic": True, "layers": dyn}
    facts["dynamic_script.pt"] = {"dynamic": True, "layers": dyn}

    torch.manual_seed(6)
    bag = Bag().eval()
    bag.tokens.qconfig = float_qparams_weight_only_qconfig
    prepare(bag, inplace=True)
    qb = convert(bag)
    qb = quantize_dynamic(qb, {nn.Linear}, dtype=torch.qint8)
    torch.save(qb.state_dict(), os.path.join(OUT, "embedding_sd.pt"))
    tokens = weight_facts(qb.tokens.weight())
    tokens.update(output_scale=None, output_zero_point=None, dynamic=False)
    facts["embedding_sd.pt"] = {"dynamic": True, "layers": {"tokens": tokens}}

    torch.manual_seed(7)
    f = Fx().eval()
    p = prepare_fx(f, get_default_qconfig_mapping("qnnpack"), (torch.randn(1, 3, 6, 6),))
    p(torch.randn(2, 3, 6, 6))
    fq = convert_fx(p)
    torch.save(fq.state_dict(), os.path.join(OUT, "fx_sd.pt"))
    facts["fx_sd.pt"] = {"dynamic": False, "layers": layer_facts(fq)}

    torch.manual_seed(8)
    w = Wrapped().eval()
    w.qconfig = get_default_qconfig("qnnpack")
    prepare(w, inplace=True)  # no calibration forward: the observers keep their defaults
    qw = convert(w)
    torch.save(qw.state_dict(), os.path.join(OUT, "uncalibrated_sd.pt"))
    facts["uncalibrated_sd.pt"] = {"dynamic": False, "layers": layer_facts(qw)}

    with open(os.path.join(OUT, "facts.json"), "w") as out:
        json.dump(facts, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
