"""Tiny image classifier and the torch.ao.quantization QAT pipeline used by make_runs.py.

Data: 3x16x16 synthetic images of 4 classes. Each class is a fixed smooth random pattern; a
sample is that pattern circularly shifted by up to 3 px, scaled by a random contrast and buried
in Gaussian noise (sigma 3), so a small CNN reaches about 90 % validation accuracy, not 100 %.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.ao.quantization as tq

NUM_CLASSES = 4
ENGINE = "qnnpack"  # this CPU's torch has qnnpack and onednn, not fbgemm
NOISE_SIGMA = 3.0


def templates():
    g = torch.Generator().manual_seed(1234)
    t = torch.randn(NUM_CLASSES, 3, 16, 16, generator=g)
    t = F.avg_pool2d(F.pad(t, (2, 2, 2, 2), mode="circular"), 5, stride=1)
    return t / t.flatten(1).std(1).view(-1, 1, 1, 1)


def make_split(n, seed):
    t = templates()
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, NUM_CLASSES, (n,), generator=g)
    amp = 0.4 + 0.8 * torch.rand(n, generator=g)
    shift = torch.randint(-3, 4, (n, 2), generator=g)
    x = torch.empty(n, 3, 16, 16)
    for i in range(n):
        x[i] = torch.roll(t[y[i]], (int(shift[i, 0]), int(shift[i, 1])), (1, 2)) * amp[i]
    x += NOISE_SIGMA * torch.randn(n, 3, 16, 16, generator=g)
    return x, y


class SampleList(torch.utils.data.Dataset):
    """Per-sample access so that a corrupt sample reaches the real default_collate.

    Items are (image, label, loss weight); the weight is 1.0 unless an annotation overrides it.
    """

    def __init__(self, x, y, overrides=None, weights=None):
        self.x, self.y = x, y
        self.overrides = overrides or {}
        self.weights = weights or {}

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.overrides.get(i, self.x[i]), self.y[i], self.weights.get(i, 1.0)


def epoch_batches(n, batch, seed, epoch, samples=None):
    """Index lists of one shuffled epoch; known in advance so faults can be placed at a step."""
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed * 1000 + epoch)).tolist()
    if samples is not None:
        perm = perm[:samples]
    return [perm[i:i + batch] for i in range(0, len(perm) - batch + 1, batch)]


def loader(dataset, batches):
    return torch.utils.data.DataLoader(dataset, batch_sampler=batches, num_workers=0)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(32)
        self.relu2 = nn.ReLU()
        self.conv3 = nn.Conv2d(32, 32, 3, stride=2, padding=1, bias=False)
        self.bn3 = nn.BatchNorm2d(32)
        self.relu3 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, NUM_CLASSES)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.relu1(self.bn1(self.conv1(x)))
        x = self.relu2(self.bn2(self.conv2(x)))
        x = self.relu3(self.bn3(self.conv3(x)))
        x = torch.flatten(self.pool(x), 1)
        return self.dequant(self.fc(x))


def prepare_qat(float_model):
    """Fuse conv+bn+relu and insert fake quant (torch's default qnnpack QAT qconfig)."""
    m = copy.deepcopy(float_model).train()
    tq.fuse_modules_qat(m, [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"],
                            ["conv3", "bn3", "relu3"]], inplace=True)
    m.qconfig = tq.get_default_qat_qconfig(ENGINE)
    tq.prepare_qat(m, inplace=True)
    return m


def set_calibration_mode(m):
    """Calibration: observers collect ranges, fake quant is off (outputs stay float)."""
    m.apply(tq.disable_fake_quant)
    m.apply(tq.enable_observer)


def set_fake_quant_eval_mode(m):
    m.apply(tq.enable_fake_quant)
    m.apply(tq.disable_observer)


def set_qat_mode(m):
    m.apply(tq.enable_fake_quant)
    m.apply(tq.enable_observer)


def convert_int8(qat_model):
    torch.backends.quantized.engine = ENGINE
    return tq.convert(copy.deepcopy(qat_model).eval(), inplace=False)


@torch.no_grad()
def evaluate(model, x, y, batch=256):
    model.eval()
    loss_sum, correct = 0.0, 0
    for i in range(0, len(y), batch):
        out = model(x[i:i + batch])
        loss_sum += F.cross_entropy(out, y[i:i + batch], reduction="sum").item()
        correct += (out.argmax(1) == y[i:i + batch]).sum().item()
    return correct / len(y), loss_sum / len(y)
