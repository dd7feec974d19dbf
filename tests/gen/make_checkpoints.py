#!/usr/bin/python3
"""Writes the checkpoint fixtures of tests/data/checkpoints with Debian's python3-torch (1.13):
the containers and contents torch.save produces, read by QAT Doctor without Python.

  float_state_dict.pt    a float model's state_dict (zip container)
  qat_uncalibrated.pt    a QAT model's state_dict right after prepare_qat (observers never ran)
  qat_calibrated.pt      the same after calibration forwards (observers saw data)
  training_ckpt.pth      {'epoch', 'state_dict', 'optimizer', 'best_acc', 'arch'} (zip)
  legacy_state_dict.pt   the float state_dict in the legacy (pre-1.6, non-zip) format
  whole_module.pt        torch.save(model): a pickled nn.Module of a class defined here
  malicious.pt           a pickle whose reduce calls os.system to create a file (never to be run)
  qat_trained.pt         qat_calibrated after QAT steps whose optimizer holds the QAT model's
                         parameters: weights and scales changed
  qat_frozen.pt          qat_calibrated after the same steps with an optimizer built on a stale
                         copy of the parameters (the FAQ's "optimizer before prepare"): weights
                         byte-identical, scales changed
  qat_fq_disabled.pt     qat_calibrated with fake quant switched off in two modules
  float_nan.pt           the float state_dict with NaN and Inf planted in conv1.weight
  hostile_sizes.pt       a hand-made zip whose pickle claims a 2^40-element tensor over a 4-element
                         storage (the reader must refuse it without allocating)

Deterministic: fixed seeds. Run: /usr/bin/python3 tests/gen/make_checkpoints.py [OUT_DIR]
"""
import collections
import copy
import os
import pickle
import sys
import zipfile

import torch
import torch.nn as nn
from torch.ao.quantization import get_default_qat_qconfig, prepare_qat

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "checkpoints")


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        return self.fc(x.mean(dim=(2, 3)))


class Planted:
    """What a hostile checkpoint carries: unpickling it runs a shell command."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, ("touch " + self.marker,))


def save(obj, name, **kw):
    path = os.path.join(OUT, name)
    torch.save(obj, path, **kw)
    print(f"{name}: {os.path.getsize(path)} bytes")


def qat_steps(qat, optimizer, steps=3):
    batches = torch.Generator().manual_seed(11)  # its own stream: the later fixtures stay as they were
    for _ in range(steps):
        optimizer.zero_grad()
        loss = qat(torch.randn(2, 3, 8, 8, generator=batches)).pow(2).sum()
        loss.backward()
        optimizer.step()


class HugeTensor:
    """Pickles as torch's tensor rebuild call over a 4-element storage, with a shape of 2^40."""

    def __reduce__(self):
        return (torch._utils._rebuild_tensor_v2,
                (HUGE_STORAGE, 0, (1 << 40,), (1,), False, collections.OrderedDict()))


HUGE_STORAGE = object()


class StoragePickler(pickle.Pickler):
    def persistent_id(self, obj):
        return ("storage", torch.FloatStorage, "0", "cpu", 4) if obj is HUGE_STORAGE else None


def write_hostile_sizes(name):
    import io
    buf = io.BytesIO()
    StoragePickler(buf, protocol=2).dump(collections.OrderedDict([("w", HugeTensor())]))
    path = os.path.join(OUT, name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for entry, data in (("hostile/data.pkl", buf.getvalue()), ("hostile/data/0", bytes(16)),
                            ("hostile/version", b"3\n")):
            z.writestr(zipfile.ZipInfo(entry, date_time=(2026, 1, 1, 0, 0, 0)), data)
    print(f"{name}: {os.path.getsize(path)} bytes")


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(7)
    torch.backends.quantized.engine = "qnnpack"
    model = TinyNet().eval()
    save(model.state_dict(), "float_state_dict.pt")
    save(model.state_dict(), "legacy_state_dict.pt", _use_new_zipfile_serialization=False)

    qat = TinyNet().train()
    qat.load_state_dict(model.state_dict())
    qat.qconfig = get_default_qat_qconfig("qnnpack")
    qat = prepare_qat(qat)
    save(qat.state_dict(), "qat_uncalibrated.pt")
    with torch.no_grad():
        for _ in range(4):
            qat(torch.randn(2, 3, 8, 8))
    save(qat.state_dict(), "qat_calibrated.pt")
    calibrated = copy.deepcopy(qat.state_dict())

    qat.train()
    qat_steps(qat, torch.optim.SGD(qat.parameters(), lr=0.05))
    save(qat.state_dict(), "qat_trained.pt")

    qat.load_state_dict(calibrated)
    stale = copy.deepcopy(qat)  # the optimizer holds these, not the model's own parameters
    qat_steps(qat, torch.optim.SGD(stale.parameters(), lr=0.05))
    save(qat.state_dict(), "qat_frozen.pt")

    qat.load_state_dict(calibrated)
    qat.conv1.activation_post_process.disable_fake_quant()
    qat.fc.weight_fake_quant.disable_fake_quant()
    save(qat.state_dict(), "qat_fq_disabled.pt")

    nan = copy.deepcopy(model.state_dict())
    nan["conv1.weight"][0, 0, 0, 1] = float("nan")
    nan["conv1.weight"][1, 2, 2, 2] = float("inf")
    save(nan, "float_nan.pt")
    write_hostile_sizes("hostile_sizes.pt")

    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    model.train()
    loss = model(torch.randn(2, 3, 8, 8)).sum()
    loss.backward()
    optimizer.step()
    save({"epoch": 3, "arch": "TinyNet", "best_acc": 0.875, "state_dict": model.state_dict(),
          "optimizer": optimizer.state_dict()}, "training_ckpt.pth")
    save(model, "whole_module.pt")
    save({"state_dict": model.state_dict(), "payload": Planted("/tmp/qatdoctor_pwned_by_checkpoint")},
         "malicious.pt")


if __name__ == "__main__":
    main()
