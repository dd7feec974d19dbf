"""Shared pieces of the fixture generators: the small CNN, synthetic data, float training,
eager-mode QAT preparation and the exports. Run only with /usr/bin/python3 and Debian's
python3-torch 1.13 (CPU). Everything is seeded so a re-run writes the same numbers (float
results may still differ in the last bit across CPUs; the committed files are the reference).
"""
import copy
import contextlib
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.ao.quantization as tq
from torch.ao.nn.quantized import FloatFunctional

H = W = 32
NUM_CLASSES = 10
# Debian's torch 1.13 is built without FBGEMM (supported engines: qnnpack, onednn); onednn runs the
# fbgemm qconfig's per-channel int8 weights / quint8 activations on x86 the same way.
torch.backends.quantized.engine = "onednn"


def set_seed(seed):
    torch.manual_seed(seed)
    np.random.seed(seed)
    random.seed(seed)
    torch.set_num_threads(1)


def synthetic_data(n=512, seed=1234):
    """Random images whose label is a fixed linear function of their mean colour, so
    a small CNN can actually learn something and the activation ranges are realistic."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, H, W, generator=g)
    x = x + 0.5 * torch.randn(n, 3, 1, 1, generator=g)  # per-image colour cast: the signal
    teacher = torch.randn(3, NUM_CLASSES, generator=g)
    y = (x.mean((2, 3)) @ teacher).argmax(1)
    return x, y


def fixed_input(seed=4321):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(1, 3, H, W, generator=g)


class Net(nn.Module):
    """conv-bn-relu x2, a residual add through FloatFunctional, maxpool, global average pool,
    flatten, linear. Options add the pitfalls the lints look for."""

    def __init__(self, c=16, aux=False, float_island=False, shared_add=False, gridsample=False, split_add=False):
        super().__init__()
        self.opts = dict(aux=aux, float_island=float_island, shared_add=shared_add, gridsample=gridsample,
                         split_add=split_add)
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(3, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu1 = nn.ReLU()
        if float_island:
            # x * sigmoid(x) computed in float between a DeQuantStub and a QuantStub
            self.island_dequant = tq.DeQuantStub()
            self.island_quant = tq.QuantStub()
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c)
        self.relu2 = nn.ReLU()
        if gridsample:
            theta = torch.tensor([[[0.95, 0.08, 0.02], [-0.08, 0.95, -0.03]]])
            self.register_buffer("grid", F.affine_grid(theta, (1, c, H, W), align_corners=False))
            self.quant_grid = tq.QuantStub()
            self.gs = nn.Identity()  # gets the grid_sample output quantizer (see attach_output_fq)
        self.add = FloatFunctional()
        if shared_add:
            self.conv3 = nn.Conv2d(c, c, 3, padding=1)
            self.bn3 = nn.BatchNorm2d(c)
            self.relu3 = nn.ReLU()
            if split_add:
                self.add2 = FloatFunctional()  # the FAQ's fix: one FloatFunctional per call
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(c, NUM_CLASSES)
        self.dequant = tq.DeQuantStub()
        if aux:
            self.aux_conv = nn.Conv2d(c, NUM_CLASSES, 1)
            self.aux_dequant = tq.DeQuantStub()

    def fuse_groups(self):
        groups = [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"]]
        if self.opts["shared_add"]:
            groups.append(["conv3", "bn3", "relu3"])
        return groups

    def forward(self, x):
        x = self.quant(x)
        x = self.relu1(self.bn1(self.conv1(x)))
        if self.opts["float_island"]:
            x = self.island_dequant(x)
            x = x * torch.sigmoid(x)
            x = self.island_quant(x)
        y = self.relu2(self.bn2(self.conv2(x)))
        if self.opts["gridsample"]:
            y = self.gs(F.grid_sample(y, self.quant_grid(self.grid.expand(y.shape[0], -1, -1, -1)),
                                      align_corners=False))
        out = self.add.add(x, y)
        if self.opts["shared_add"]:
            z = self.relu3(self.bn3(self.conv3(out)))
            second = self.add2 if self.opts["split_add"] else self.add
            out = second.add(out, z)  # without split_add: the same FloatFunctional a second time
        out = self.pool(out)
        out = self.gap(out)
        out = torch.flatten(out, 1)
        out = self.dequant(self.fc(out))
        if self.opts["aux"]:
            return out, self.aux_dequant(self.aux_conv(x))
        return out


def loss_of(out, y):
    if isinstance(out, tuple):
        return F.cross_entropy(out[0], y) + 0.3 * F.cross_entropy(out[1].mean((2, 3)), y)
    return F.cross_entropy(out, y)


def train(model, x, y, steps, lr, seed):
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for _ in range(steps):
        idx = torch.randint(0, len(x), (32,), generator=g)
        opt.zero_grad()
        loss = loss_of(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
    return float(loss)


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        out = model(x)
        out = out[0] if isinstance(out, tuple) else out
    return float((out.argmax(1) == y).float().mean())


def train_float(net_kwargs, seed=0, steps=300):
    set_seed(seed)
    x, y = synthetic_data()
    m = Net(**net_kwargs)
    train(m, x, y, steps, 0.05, seed)
    m.eval()
    return m


# Stock PyTorch eager-mode qconfig: fbgemm, version 0 = plain FakeQuantize modules (prints
# like the toolchain's), per-channel symmetric int8 weights, activations quint8 with
# reduce_range (quant range 0..127, which torch exports as Quantize -> Clip -> Dequantize).
FBGEMM_QAT = tq.get_default_qat_qconfig("fbgemm", version=0)

# The toolchain's conventions (horizon-formats.md sections 3 and 4): symmetric int8 / int16.
HZ_ACT8 = tq.FakeQuantize.with_args(observer=tq.MovingAverageMinMaxObserver, quant_min=-128, quant_max=127,
                                    dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
HZ_ACT16 = tq.FakeQuantize.with_args(observer=tq.MovingAverageMinMaxObserver, quant_min=-32768,
                                     quant_max=32767, dtype=torch.qint32, qscheme=torch.per_tensor_symmetric)
HZ_W8 = tq.FakeQuantize.with_args(observer=tq.MovingAveragePerChannelMinMaxObserver, quant_min=-128,
                                  quant_max=127, dtype=torch.qint8, qscheme=torch.per_channel_symmetric, ch_axis=0)
HZ_QAT8 = tq.QConfig(activation=HZ_ACT8, weight=HZ_W8)
HZ_QAT16 = tq.QConfig(activation=HZ_ACT16, weight=HZ_W8)


def prepare(float_model, fold_bn=True, qconfig=FBGEMM_QAT, module_qconfigs=None):
    """fold_bn=True: conv+bn folded before QAT (ConvReLU2d). False: fuse_modules_qat keeps the
    BN inside ConvBnReLU2d, which exports as Conv -> Div -> (Add bias) -> BatchNormalization."""
    m = copy.deepcopy(float_model)
    m.eval()
    if fold_bn:
        tq.fuse_modules(m, m.fuse_groups(), inplace=True)
    else:
        m.train()
        tq.fuse_modules_qat(m, m.fuse_groups(), inplace=True)
    m.train()
    m.qconfig = qconfig
    for name, qc in (module_qconfigs or {}).items():
        m.get_submodule(name).qconfig = qc
    tq.prepare_qat(m, inplace=True)
    return m


def attach_output_fq(module, qconfig):
    """What eager-mode prepare does for leaf modules in its allow list: an output fake quant
    called from a forward hook. Used for the grid_sample output, which has no module class."""
    module.activation_post_process = qconfig.activation()
    module.register_forward_hook(lambda mod, inp, out: mod.activation_post_process(out))


def calibrate_and_qat(m, seed=0, calib_batches=8, qat_steps=120, lr=0.005, before_calib=None):
    set_seed(seed)
    x, y = synthetic_data()
    if before_calib:
        before_calib(m)
    # calibration: observers on, fake quant off, eval mode (BN statistics untouched)
    m.apply(tq.disable_fake_quant)
    m.eval()
    with torch.no_grad():
        for b in range(calib_batches):
            m(x[b * 32:(b + 1) * 32])
    m.apply(tq.enable_fake_quant)
    train(m, x, y, qat_steps, lr, seed + 1)
    freeze(m)
    return accuracy(m, x, y)


def freeze(m):
    """Eval mode with observers off: the exporter then sees fixed scales (observers that still
    run would write into the scale buffers during tracing, which the exporter rejects)."""
    m.eval()
    m.apply(tq.disable_observer)
    return m


def run(m, x):
    with torch.no_grad():
        out = m(x)
    return out[0] if isinstance(out, tuple) else out


def export(m, path, x, output_names=("logits",), horizon=False):
    with torch.no_grad():
        torch.onnx.export(m, x, str(path), opset_version=13, input_names=["input"],
                          output_names=list(output_names), do_constant_folding=True,
                          custom_opsets={"horizon": 1} if horizon else None)


# --- the toolchain's ONNX form: horizon::HzQuantize / HzDequantize (bits attribute) ---------
# Mirrors the symbolic functions horizon_plugin_pytorch registers for fake quant
# (horizon-formats.md section 4): a HzQuantize -> HzDequantize pair with bits=8/16 and the zero
# point typed int8/int16; per-channel adds axis. GridSample becomes horizon::GridSample.

def _hz_fq_per_tensor(g, x, scale, zero_point, quant_min, quant_max):
    from torch.onnx import symbolic_helper as sh
    import onnx
    qmax = sh._get_const(quant_max, "i", "quant_max")
    bits = 16 if qmax > 255 else 8
    zp = g.op("Cast", zero_point, to_i=onnx.TensorProto.INT16 if bits == 16 else onnx.TensorProto.INT8)
    q = g.op("horizon::HzQuantize", x, scale, zp, bits_i=bits)
    return g.op("horizon::HzDequantize", q, scale, zp)


def _hz_fq_per_channel(g, x, scale, zero_point, axis, quant_min, quant_max):
    from torch.onnx import symbolic_helper as sh
    import onnx
    qmax = sh._get_const(quant_max, "i", "quant_max")
    ax = sh._get_const(axis, "i", "axis")
    bits = 16 if qmax > 255 else 8
    zp = g.op("Cast", zero_point, to_i=onnx.TensorProto.INT16 if bits == 16 else onnx.TensorProto.INT8)
    q = g.op("horizon::HzQuantize", x, scale, zp, bits_i=bits, axis_i=ax)
    return g.op("horizon::HzDequantize", q, scale, zp, axis_i=ax)


def _hz_grid_sampler(g, x, grid, mode, padding_mode, align_corners):
    from torch.onnx import symbolic_helper as sh
    return g.op("horizon::GridSample", x, grid, mode_i=sh._get_const(mode, "i", "mode"),
                padding_mode_i=sh._get_const(padding_mode, "i", "padding_mode"),
                align_corners_i=int(sh._get_const(align_corners, "b", "align_corners")))


@contextlib.contextmanager
def horizon_symbolics():
    from torch.onnx import register_custom_op_symbolic, unregister_custom_op_symbolic
    ops = {"::fake_quantize_per_tensor_affine": _hz_fq_per_tensor,
           "::fake_quantize_per_channel_affine": _hz_fq_per_channel,
           "::grid_sampler": _hz_grid_sampler}
    for name, fn in ops.items():
        register_custom_op_symbolic(name, fn, 13)
    try:
        yield
    finally:
        for name in ops:
            unregister_custom_op_symbolic(name, 13)
