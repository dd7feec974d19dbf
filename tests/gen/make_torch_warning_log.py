#!/usr/bin/python3
"""A training log with a real PyTorch warning in it (Debian python3-torch): Python prints the
warning, then the source line that issued it, indented ("  warnings.warn(..."), which is code,
not a second event. Writes tests/data/logs/torch_warning/train.log (stdout and stderr, as a
shell's `> train.log 2>&1` does); the timestamps are the run's.

Run: /usr/bin/python3 tests/gen/make_torch_warning_log.py
"""
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "logs", "torch_warning", "train.log")

TRAIN = r'''
import logging, sys, torch, warnings
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
torch.manual_seed(0)
m = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 2)
x, y = torch.randn(32, 4), torch.randn(32, 1)
for epoch in range(4):
    sched.step()   # before optimizer.step(): torch warns about the order
    loss = torch.nn.functional.mse_loss(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    logging.info("Epoch [%d] loss: %.4f lr: %.4f", epoch, loss.item(), opt.param_groups[0]["lr"])
    sys.stdout.flush()
'''

if __name__ == "__main__":
    with open(OUT, "w") as f:
        subprocess.run([sys.executable, "-c", TRAIN], stdout=f, stderr=subprocess.STDOUT, check=True)
