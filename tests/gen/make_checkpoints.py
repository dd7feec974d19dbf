#!/usr/bin/python3
"""Writes the checkpoint fixtures of tests/data/checkpoints with Debian's python3-torch (1.13):
the containers and contents torch.save produces, read by QAT Doctor without Python.

  float_state_dict.pt    a float model's state_dict (zip container)
  qat_uncalibrated.pt    a QAT model's state_dict right after prepare_qat (observers never ran)
  qat_calibrated.pt      the same after calibration forwards (observers saw data)
  qat_whole_module.pt    torch.save(model) of that calibrated QAT model: unlike its state_dict it
                         keeps each quantizer's quant_min/quant_max, dtype, qscheme and its
                         observer's averaging_constant (qconfig attributes removed first: torch
                         cannot pickle the closure prepare_qat leaves in them)
  training_ckpt.pth      {'epoch', 'state_dict', 'optimizer', 'best_acc', 'arch'} (zip)
  legacy_state_dict.pt   the float state_dict in the legacy (pre-1.6, non-zip) format
  legacy_tar.pt          the float state_dict in the oldest form (torch <= 0.1): a tar of sys_info,
                         pickle, tensors and storages, written here member by member as that
                         torch.save did (torch 1.13 still loads it); bn1's weight and bias share
                         one storage, its running_var is a storage view
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


class TensorRef:
    """A tensor in the tar form's main pickle: only its key, by persistent id."""

    def __init__(self, key):
        self.key = key


class Py2OrderedDict:
    """Pickles an OrderedDict as Python 2 did: its items as one list of [key, value] pairs."""

    def __init__(self, items):
        self.items = items

    def __reduce__(self):
        return (collections.OrderedDict, ([[k, v] for k, v in self.items],))


class TarPickler(pickle.Pickler):
    def persistent_id(self, obj):
        return str(obj.key) if isinstance(obj, TensorRef) else None


def pickled(obj):
    import io
    buf = io.BytesIO()
    TarPickler(buf, protocol=2).dump(obj)
    return buf.getvalue()


STORAGE_TYPES = {torch.float32: (torch.FloatStorage, torch.FloatTensor),
                 torch.int64: (torch.LongStorage, torch.LongTensor)}


def write_legacy_tar(state, name):
    """The tar form: storages (count; per storage its (key, location, type), element count and
    bytes; then the views), tensors (count; per tensor (key, storage key, type), ndim, sizes,
    strides, offset) and the main pickle naming tensors by key."""
    import io
    import struct
    import tarfile
    storages, views, tensors = [], [], []  # storages: (key, dtype, flat tensor)
    # torch.load keeps storages, views and tensors in one dict by key: their keys must not meet
    tensor_base, view_key = 1_000_000, 500_000

    def add_storage(flat):
        storages.append((len(storages) + 1, flat.dtype, flat.contiguous()))
        return storages[-1][0]

    def add_tensor(t, storage_key, offset):
        tensors.append((tensor_base + len(tensors), storage_key, t, offset))
        return TensorRef(tensors[-1][0])

    refs = []
    shared = add_storage(torch.cat([state["bn1.weight"], state["bn1.bias"]]))
    running = add_storage(torch.cat([state["bn1.running_mean"], state["bn1.running_var"]]))
    views.append((view_key, running, 4, 4))
    for key, t in state.items():
        if key == "bn1.weight":
            refs.append((key, add_tensor(t, shared, 0)))
        elif key == "bn1.bias":
            refs.append((key, add_tensor(t, shared, 4)))
        elif key == "bn1.running_mean":
            refs.append((key, add_tensor(t, running, 0)))
        elif key == "bn1.running_var":
            refs.append((key, add_tensor(t, view_key, 0)))
        else:
            refs.append((key, add_tensor(t, add_storage(t.reshape(-1)), 0)))

    storage_bytes = io.BytesIO()
    storage_bytes.write(pickled(len(storages)))
    for key, dtype, flat in storages:
        storage_bytes.write(pickled((key, "cpu", STORAGE_TYPES[dtype][0])))
        storage_bytes.write(struct.pack("<q", flat.numel()))
        storage_bytes.write(flat.numpy().tobytes())
    storage_bytes.write(pickled(views))
    tensor_bytes = io.BytesIO()
    tensor_bytes.write(pickled(len(tensors)))
    for key, storage_key, t, offset in tensors:
        tensor_bytes.write(pickled((key, storage_key, STORAGE_TYPES[t.dtype][1])))
        tensor_bytes.write(struct.pack("<i", t.dim()) + bytes(4))
        tensor_bytes.write(struct.pack(f"<{t.dim()}q", *t.shape))
        tensor_bytes.write(struct.pack(f"<{t.dim()}q", *t.stride()))
        tensor_bytes.write(struct.pack("<q", offset))
    sys_info = pickled({"protocol_version": 1000, "little_endian": True,
                        "type_sizes": {"short": 2, "int": 4, "long": 4}})

    path = os.path.join(OUT, name)
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tar:
        for member, data in (("sys_info", sys_info), ("pickle", pickled(Py2OrderedDict(refs))),
                             ("tensors", tensor_bytes.getvalue()), ("storages", storage_bytes.getvalue())):
            info = tarfile.TarInfo(member)
            info.size = len(data)
            info.mtime = 1500000000.25  # a float, as time.time() was: tarfile then writes a PAX header
            tar.addfile(info, io.BytesIO(data))
    loaded = torch.load(path)
    assert list(loaded) == list(state), "torch reads the tar form back with its keys in order"
    assert all(torch.equal(loaded[k], state[k]) for k in state), "and with its values"
    print(f"{name}: {os.path.getsize(path)} bytes")


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(7)
    torch.backends.quantized.engine = "qnnpack"
    model = TinyNet().eval()
    save(model.state_dict(), "float_state_dict.pt")
    save(model.state_dict(), "legacy_state_dict.pt", _use_new_zipfile_serialization=False)
    write_legacy_tar(model.state_dict(), "legacy_tar.pt")

    qat = TinyNet().train()
    qat.load_state_dict(model.state_dict())
    qat.qconfig = get_default_qat_qconfig("qnnpack")
    qat = prepare_qat(qat)
    save(qat.state_dict(), "qat_uncalibrated.pt")
    with torch.no_grad():
        for _ in range(4):
            qat(torch.randn(2, 3, 8, 8))
    save(qat.state_dict(), "qat_calibrated.pt")
    whole = copy.deepcopy(qat)
    for module in whole.modules():
        if hasattr(module, "qconfig"):
            del module.qconfig
    save(whole, "qat_whole_module.pt")
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
