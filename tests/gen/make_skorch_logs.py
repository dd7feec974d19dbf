#!/usr/bin/python3
"""Writes the skorch cases of the wild log corpus with skorch itself (Debian python3-skorch).

Run: /usr/bin/python3 tests/gen/make_skorch_logs.py   (from anywhere; needs python3-skorch)

A tiny classifier is fitted on synthetic data on the CPU (a few seconds). What skorch writes is
kept as it comes out:
  tests/data/logs/wild/skorch_history/history.json   net.save_params(f_history=...)
  tests/data/logs/wild/skorch_table/train.log        the PrintLog table skorch prints on stdout
                                                     (ANSI colours on the best values included)
The numbers are seeded; `dur` differs on every run, which no manifest relies on. After a re-run
the figures in skorch_history.expected.json / skorch_table.expected.json must be checked again.
"""
import contextlib
import io
import json
import os
import sys
import tempfile

import numpy as np
import torch
from torch import nn

from skorch import NeuralNetClassifier
from skorch.callbacks import Checkpoint, LRScheduler

WILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "logs", "wild")


class TinyNet(nn.Module):
    def __init__(self, n_in=12, n_hidden=48, n_out=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Linear(n_hidden, n_out))

    def forward(self, x):
        return torch.softmax(self.body(x), dim=-1)


def data(seed=7, n=240, n_in=12, n_cls=3):
    rng = np.random.RandomState(seed)
    centers = rng.randn(n_cls, n_in) * 1.2
    y = rng.randint(0, n_cls, size=n)
    x = centers[y] + rng.randn(n, n_in) * 2.6
    return x.astype(np.float32), y.astype(np.int64)


def fit(ckpt_dir, epochs):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    x, y = data()
    net = NeuralNetClassifier(
        TinyNet,
        max_epochs=epochs,
        lr=0.4,
        batch_size=64,
        optimizer=torch.optim.SGD,
        iterator_train__shuffle=True,
        callbacks=[
            ("lr_scheduler", LRScheduler(policy="StepLR", step_size=5, gamma=0.5)),
            ("checkpoint", Checkpoint(dirname=ckpt_dir, monitor="valid_loss_best")),
        ],
        device="cpu",
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        net.fit(x, y)
    return net, out.getvalue()


def main():
    hist_dir = os.path.join(WILD, "skorch_history")
    table_dir = os.path.join(WILD, "skorch_table")
    os.makedirs(hist_dir, exist_ok=True)
    os.makedirs(table_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        net, printed = fit(os.path.join(tmp, "cp"), epochs=12)
        net.save_params(f_history=os.path.join(hist_dir, "history.json"))
    with open(os.path.join(table_dir, "train.log"), "w") as f:
        f.write(printed)
    # the figures the manifests need, printed for checking by hand against the files
    with open(os.path.join(hist_dir, "history.json")) as f:
        hist = json.load(f)
    for key in ("train_loss", "valid_loss", "valid_acc", "event_lr"):
        vals = [row[key] for row in hist if key in row]
        print(key, len(vals), "first", repr(vals[0]), "last", repr(vals[-1]))
    print("epochs", hist[0]["epoch"], "..", hist[-1]["epoch"])
    sys.stdout.write(printed)


if __name__ == "__main__":
    main()
