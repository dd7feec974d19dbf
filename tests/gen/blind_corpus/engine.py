"""Real float -> calibration -> QAT -> int8 training on a tiny CNN with torch.ao.

Everything written into the corpus comes out of these functions: losses, accuracies,
learning rates and weight fingerprints are measured on real runs (CPU, one thread,
fixed seeds).  Nothing here knows about log layouts.
"""
import copy
import math
import time
import traceback

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.ao.quantization as tq
from torch.ao.quantization import QuantStub, DeQuantStub

torch.set_num_threads(1)
torch.backends.quantized.engine = "qnnpack"

NUM_CLASSES = 10
IMG = 16
MEAN, STD = 0.5, 0.25


# --------------------------------------------------------------------- data --
class Data:
    """Synthetic 10-class images: a smooth prototype per class, shifted, scaled and noised.

    `x_*` hold raw pixels in roughly [0, 1]; loaders normalise with (x - MEAN) / STD
    unless a case plants a preprocessing mistake.
    """

    def __init__(self, seed=0, n_train=4000, n_val=1000, noise=0.9, shift=2, proto_seed=1234):
        g = np.random.RandomState(proto_seed)
        protos = []
        for _ in range(NUM_CLASSES):
            base = g.randn(IMG // 4, IMG // 4)
            up = np.kron(base, np.ones((4, 4)))
            # smooth a little
            k = np.array([0.25, 0.5, 0.25])
            up = np.apply_along_axis(lambda r: np.convolve(r, k, mode="same"), 0, up)
            up = np.apply_along_axis(lambda r: np.convolve(r, k, mode="same"), 1, up)
            up = (up - up.min()) / (up.max() - up.min() + 1e-9)
            protos.append(up)
        self.protos = np.stack(protos).astype(np.float32)
        r = np.random.RandomState(seed)
        self.x_train, self.y_train = self._make(r, n_train, noise, shift)
        self.x_val, self.y_val = self._make(r, n_val, noise, shift)

    def _make(self, r, n, noise, shift):
        y = r.randint(0, NUM_CLASSES, size=n)
        xs = np.empty((n, 1, IMG, IMG), dtype=np.float32)
        for i in range(n):
            p = self.protos[y[i]]
            dx, dy = r.randint(-shift, shift + 1, size=2)
            p = np.roll(np.roll(p, dx, axis=0), dy, axis=1)
            amp = r.uniform(0.6, 1.2)
            xs[i, 0] = np.clip(amp * p + noise * r.randn(IMG, IMG) * 0.5 + 0.1, 0.0, 1.0)
        return torch.from_numpy(xs), torch.from_numpy(y.astype(np.int64))


def normalise(x):
    return (x - MEAN) / STD


def batches(x, y, bs, shuffle, gen=None, drop_last=False):
    n = x.shape[0]
    idx = torch.randperm(n, generator=gen) if shuffle else torch.arange(n)
    for s in range(0, n, bs):
        j = idx[s:s + bs]
        if drop_last and len(j) < bs:
            break
        yield x[j], y[j]


def augment_batch(xb, gen):
    """Random shift by up to one pixel and a little pixel noise (like RandomCrop + jitter)."""
    n = xb.shape[0]
    sh = torch.randint(-1, 2, (2,), generator=gen)
    xb = torch.roll(xb, shifts=(int(sh[0]), int(sh[1])), dims=(2, 3))
    xb = xb + 0.08 * torch.randn(xb.shape, generator=gen)
    return xb.clamp(0.0, 1.0)


# -------------------------------------------------------------------- model --
class TinyNet(nn.Module):
    """MobileNet-like: a stem conv, two depthwise-separable blocks, pooling, classifier."""

    def __init__(self, width=16, dropout=0.0, hidden=0):
        super().__init__()
        w = width
        self.quant = QuantStub()
        self.conv1 = nn.Conv2d(1, w, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(w)
        self.relu1 = nn.ReLU()
        self.dw2 = nn.Conv2d(w, w, 3, stride=2, padding=1, groups=w, bias=False)
        self.bn2 = nn.BatchNorm2d(w)
        self.relu2 = nn.ReLU()
        self.pw2 = nn.Conv2d(w, 2 * w, 1, bias=False)
        self.bn2b = nn.BatchNorm2d(2 * w)
        self.relu2b = nn.ReLU()
        self.dw3 = nn.Conv2d(2 * w, 2 * w, 3, stride=2, padding=1, groups=2 * w, bias=False)
        self.bn3 = nn.BatchNorm2d(2 * w)
        self.relu3 = nn.ReLU()
        self.pw3 = nn.Conv2d(2 * w, 2 * w, 1, bias=False)
        self.bn3b = nn.BatchNorm2d(2 * w)
        self.relu3b = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.flat = nn.Flatten()
        self.drop = nn.Dropout(dropout) if dropout > 0 else nn.Identity()
        if hidden:
            self.fc0 = nn.Linear(8 * w, hidden)
            self.relu_fc0 = nn.ReLU()
            self.fc = nn.Linear(hidden, NUM_CLASSES)
        else:
            self.fc0 = None
            self.fc = nn.Linear(8 * w, NUM_CLASSES)
        self.dequant = DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.relu1(self.bn1(self.conv1(x)))
        x = self.relu2(self.bn2(self.dw2(x)))
        x = self.relu2b(self.bn2b(self.pw2(x)))
        x = self.relu3(self.bn3(self.dw3(x)))
        x = self.relu3b(self.bn3b(self.pw3(x)))
        x = self.flat(self.pool(x))
        x = self.drop(x)
        if self.fc0 is not None:
            x = self.relu_fc0(self.fc0(x))
        x = self.fc(x)
        return self.dequant(x)

    def fuse_list(self):
        l = [["conv1", "bn1", "relu1"], ["dw2", "bn2", "relu2"], ["pw2", "bn2b", "relu2b"],
             ["dw3", "bn3", "relu3"], ["pw3", "bn3b", "relu3b"]]
        if self.fc0 is not None:
            l.append(["fc0", "relu_fc0"])
        return l


def make_model(seed, **kw):
    torch.manual_seed(seed)
    return TinyNet(**kw)


def weight_norm(model):
    s = 0.0
    for n, p in model.named_parameters():
        if "weight" in n:
            s += float((p.detach().double() ** 2).sum())
    return math.sqrt(s)


def weight_checksum(model):
    s = 0.0
    for n, p in model.named_parameters():
        s += float(p.detach().double().abs().sum())
    return s


# --------------------------------------------------------------- evaluation --
@torch.no_grad()
def evaluate(model, x, y, bs=200, pre=normalise):
    model.eval()
    tot, loss_sum, c1, c5 = 0, 0.0, 0, 0
    per = []
    for xb, yb in batches(x, y, bs, False):
        out = model(pre(xb))
        bl = float(F.cross_entropy(out, yb, reduction="sum"))
        loss_sum += bl
        top5 = out.topk(5, dim=1).indices
        b1 = int((top5[:, 0] == yb).sum())
        b5 = int((top5 == yb[:, None]).any(dim=1).sum())
        c1 += b1
        c5 += b5
        tot += yb.numel()
        per.append(dict(loss=bl / yb.numel(), acc1=100.0 * b1 / yb.numel(), acc5=100.0 * b5 / yb.numel(),
                        n=yb.numel()))
    return {"loss": loss_sum / tot, "acc1": 100.0 * c1 / tot, "acc5": 100.0 * c5 / tot, "n": tot,
            "batches": per}


# ------------------------------------------------------------------ training --
def make_optimizer(params, opt="sgd", lr=0.1, momentum=0.9, wd=5e-4):
    if opt == "sgd":
        return torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=wd)
    if opt == "adam":
        return torch.optim.Adam(params, lr=lr, weight_decay=wd)
    if opt == "adamw":
        return torch.optim.AdamW(params, lr=lr, weight_decay=wd)
    raise ValueError(opt)


def lr_at(sched, base_lr, epoch_f, total_epochs, steps_per_epoch=None, warmup_epochs=0.0,
          restart_every=None, max_lr=None, pct_start=0.3):
    """Learning rate for a fractional epoch, for the schedules used in the corpus."""
    if sched == "const":
        lr = base_lr
    elif sched == "cos":
        lr = 0.5 * base_lr * (1 + math.cos(math.pi * min(epoch_f / total_epochs, 1.0)))
    elif sched == "step":
        lr = base_lr * (0.1 ** int(epoch_f // max(1, int(total_epochs * 0.6))))
    elif sched == "sgdr":
        t = epoch_f % restart_every
        lr = 0.5 * base_lr * (1 + math.cos(math.pi * t / restart_every))
    elif sched == "onecycle":
        m = max_lr or base_lr
        p = epoch_f / total_epochs
        if p < pct_start:
            lr = m / 25.0 + (m - m / 25.0) * (1 - math.cos(math.pi * p / pct_start)) / 2
        else:
            q = (p - pct_start) / (1 - pct_start)
            lr = m / 1e4 + (m - m / 1e4) * (1 + math.cos(math.pi * min(q, 1.0))) / 2
    else:
        raise ValueError(sched)
    if warmup_epochs and epoch_f < warmup_epochs and sched != "onecycle":
        lr = lr * (0.01 + 0.99 * epoch_f / warmup_epochs)
    return lr


def train(model, data, epochs, bs=64, lr=0.1, opt="sgd", momentum=0.9, wd=5e-4, sched="cos",
          seed=0, log_every=1, warmup_epochs=0.0, restart_every=None, max_lr=None,
          x_train=None, y_train=None, pre=normalise, optimizer=None, eval_every=1,
          stop_after_steps=None, crash_at_step=None, nan_sample_at_step=None,
          val_x=None, val_y=None, grad_clip=None, on_epoch_end=None, eval_fn=None,
          start_epoch=0, epoch_subset=None, augment=True, lr_fn=None, total_epochs=None):
    """Train and record what a training script would print.

    Returns dict(steps=[...], evals=[...], crashed=traceback-or-None, stopped=bool).
    steps: epoch (0-based), iter (1-based within epoch), iters (per epoch), gstep,
           loss (this batch), loss_avg (running avg of epoch), acc (batch acc %), lr.
    evals: epoch, gstep, val loss/acc1/acc5, train_acc (epoch), train_loss (epoch).
    """
    x_train = data.x_train if x_train is None else x_train
    y_train = data.y_train if y_train is None else y_train
    val_x = data.x_val if val_x is None else val_x
    val_y = data.y_val if val_y is None else val_y
    gen = torch.Generator().manual_seed(seed)
    if optimizer is None:
        optimizer = make_optimizer(model.parameters(), opt, lr, momentum, wd)
    n = x_train.shape[0]
    iters = n // bs  # drop_last
    steps, evals = [], []
    gstep = start_epoch * iters
    crashed = None
    stopped = False
    for ep in range(start_epoch, start_epoch + epochs):
        model.train()
        run_loss, run_n, corr, tot = 0.0, 0, 0, 0
        try:
            for it, (xb, yb) in enumerate(batches(x_train, y_train, bs, True, gen, drop_last=True), 1):
                ef = ep + (it - 1) / iters
                cur_lr = lr_fn(ef) if lr_fn else lr_at(sched, lr, ef, total_epochs or (start_epoch + epochs), iters,
                                                        warmup_epochs, restart_every, max_lr)
                for g in optimizer.param_groups:
                    g["lr"] = cur_lr
                if crash_at_step is not None and gstep + 1 == crash_at_step:
                    # one decoded sample has the wrong width: default_collate's torch.stack fails
                    samples = [xb[k] for k in range(xb.shape[0])]
                    samples[5] = torch.zeros(1, IMG, IMG + 3)
                    xb = torch.stack(samples, 0)
                if augment:
                    xb = augment_batch(xb, gen)
                xin = pre(xb)
                if nan_sample_at_step is not None and gstep + 1 == nan_sample_at_step:
                    xin = xin.clone()
                    xin[3, 0, 5, 7] = float("nan")  # one corrupted pixel in one sample
                out = model(xin)
                loss = F.cross_entropy(out, yb)
                optimizer.zero_grad()
                model.zero_grad(set_to_none=True)
                loss.backward()
                gn = 0.0
                for prm in model.parameters():
                    if prm.grad is not None:
                        gn += float(prm.grad.detach().double().pow(2).sum())
                gn = math.sqrt(gn) if math.isfinite(gn) else float("nan")
                if grad_clip:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
                optimizer.step()
                gstep += 1
                lv = float(loss.detach())
                if math.isfinite(lv):
                    run_loss += lv * yb.numel()
                else:
                    run_loss = float("nan")
                run_n += yb.numel()
                with torch.no_grad():
                    t5 = out.detach().topk(5, dim=1).indices
                    c = int((t5[:, 0] == yb).sum())
                    c5b = int((t5 == yb[:, None]).any(dim=1).sum())
                corr += c
                tot += yb.numel()
                if it % log_every == 0 or it == iters:
                    steps.append(dict(epoch=ep, iter=it, iters=iters, gstep=gstep, loss=lv,
                                      loss_avg=run_loss / max(run_n, 1), acc=100.0 * c / yb.numel(),
                                      lr=cur_lr, gnorm=gn, bs=int(yb.numel()),
                                      acc5=100.0 * c5b / yb.numel()))
                if stop_after_steps is not None and gstep >= stop_after_steps:
                    stopped = True
                    break
        except Exception as e:
            crashed = dict(tb=traceback.format_exc(), type=type(e).__module__ + "." + type(e).__name__
                           if type(e).__module__ not in ("builtins",) else type(e).__name__,
                           msg=str(e), gstep=gstep + 1, epoch=ep, iter=it)
            break
        if stopped:
            break
        if (ep + 1 - start_epoch) % eval_every == 0 or ep == start_epoch + epochs - 1:
            ev = (eval_fn or evaluate)(model, val_x, val_y)
            ev.update(epoch=ep, gstep=gstep, train_acc=100.0 * corr / max(tot, 1),
                      train_loss=run_loss / max(run_n, 1), wnorm=weight_norm(model),
                      wsum=weight_checksum(model))
            evals.append(ev)
        if on_epoch_end:
            on_epoch_end(ep, model)
    return dict(steps=steps, evals=evals, crashed=crashed, stopped=stopped, iters=iters,
                optimizer=optimizer)


# ------------------------------------------------------------ quantization --
def qat_prepare(float_model, backend="qnnpack", fx=False):
    """Fuse + prepare_qat (eager) or prepare_qat_fx.  Returns a new model."""
    torch.backends.quantized.engine = backend if backend != "fbgemm" else "onednn"
    m = copy.deepcopy(float_model)
    if fx:
        from torch.ao.quantization.quantize_fx import prepare_qat_fx
        from torch.ao.quantization import get_default_qat_qconfig_mapping
        m.train()
        qmap = get_default_qat_qconfig_mapping(backend if backend != "fbgemm" else "onednn")
        m = prepare_qat_fx(m, qmap, example_inputs=(torch.randn(2, 1, IMG, IMG),))
    else:
        m.train()
        m = tq.fuse_modules_qat(m, m.fuse_list())
        m.qconfig = tq.get_default_qat_qconfig(backend if backend != "fbgemm" else "onednn")
        tq.prepare_qat(m, inplace=True)
    return m


def calibrate(qmodel, data, n_batches=16, bs=64, pre=normalise, x=None, seed=7):
    """Observers on, fake quant off, eval-mode forward over calibration batches."""
    x = data.x_train if x is None else x
    y = data.y_train
    qmodel.eval()
    qmodel.apply(tq.enable_observer)
    qmodel.apply(tq.disable_fake_quant)
    gen = torch.Generator().manual_seed(seed)
    seen = 0
    with torch.no_grad():
        for i, (xb, _) in enumerate(batches(x, y, bs, True, gen, drop_last=True)):
            if i >= n_batches:
                break
            qmodel(pre(xb))
            seen += xb.shape[0]
    qmodel.apply(tq.enable_fake_quant)
    qmodel.apply(tq.disable_observer)
    return seen


def qat_eval(qmodel, x, y, pre=normalise):
    return evaluate(qmodel, x, y, pre=pre)


def convert_int8(qmodel, fx=False, backend="qnnpack"):
    torch.backends.quantized.engine = backend if backend != "fbgemm" else "onednn"
    m = copy.deepcopy(qmodel).eval()
    if fx:
        from torch.ao.quantization.quantize_fx import convert_fx
        return convert_fx(m)
    return tq.convert(m, inplace=False)


def int8_eval(qmodel, data, fx=False, backend="qnnpack", pre=normalise):
    m = convert_int8(qmodel, fx=fx, backend=backend)
    return evaluate(m, data.x_val, data.y_val, pre=pre)


def set_qat_mode(qmodel):
    qmodel.train()
    qmodel.apply(tq.enable_observer)
    qmodel.apply(tq.enable_fake_quant)


def freeze_observers_bn(qmodel):
    qmodel.apply(tq.disable_observer)
    try:
        qmodel.apply(torch.nn.intrinsic.qat.freeze_bn_stats)
    except Exception:
        pass


# ----------------------------------------------------------- whole pipeline --
class Pipeline:
    """float -> calibration -> QAT -> int8 with switches for planted mistakes."""

    def __init__(self, data_seed=0, model_seed=0, width=16, noise=0.9, n_train=4000, n_val=1000,
                 backend="qnnpack", fx=False, hidden=0, dropout=0.0):
        self.data = Data(seed=data_seed, n_train=n_train, n_val=n_val, noise=noise)
        self.model_seed = model_seed
        self.width = width
        self.backend = backend
        self.fx = fx
        self.hidden = hidden
        self.dropout = dropout
        self.res = {}

    def new_model(self):
        return make_model(self.model_seed, width=self.width, hidden=self.hidden, dropout=self.dropout)

    def run_float(self, **kw):
        m = self.new_model()
        r = train(m, self.data, **kw)
        self.float_model = m
        r["final"] = evaluate(m, self.data.x_val, self.data.y_val)
        self.res["float"] = r
        return r

    def run_calib(self, n_batches=16, bs=64, pre=normalise, x=None, model=None):
        q = qat_prepare(model or self.float_model, self.backend, self.fx)
        seen = calibrate(q, self.data, n_batches, bs, pre=pre, x=x)
        ev = qat_eval(q, self.data.x_val, self.data.y_val)
        self.calib_model = q
        r = dict(final=ev, seen=seen, n_batches=n_batches)
        self.res["calib"] = r
        return r

    def run_qat(self, start_model=None, epochs=4, lr=0.01, observer_epochs=None, bn_epochs=None,
                int8_each_epoch=True, int8_pre=normalise, epoch_hook=None, **kw):
        q = start_model if start_model is not None else copy.deepcopy(self.calib_model)
        set_qat_mode(q)
        int8_evals = []

        def on_end(ep, model):
            if observer_epochs is not None and ep + 1 >= observer_epochs:
                model.apply(tq.disable_observer)
            if bn_epochs is not None and ep + 1 >= bn_epochs:
                try:
                    model.apply(torch.nn.intrinsic.qat.freeze_bn_stats)
                except Exception:
                    pass
            if int8_each_epoch:
                ev = int8_eval(model, self.data, self.fx, self.backend, pre=int8_pre)
                ev["epoch"] = ep
                int8_evals.append(ev)
            if epoch_hook:
                epoch_hook(ep, model)
            model.train()

        r = train(q, self.data, epochs=epochs, lr=lr, on_epoch_end=on_end, **kw)
        self.qat_model = q
        r["final"] = r["evals"][-1] if r["evals"] else None
        r["int8_evals"] = int8_evals
        if int8_evals:
            r["int8_final"] = int8_evals[-1]
        self.res["qat"] = r
        return r


def t():
    return time.time()
