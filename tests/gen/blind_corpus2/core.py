"""Real float -> calibration -> QAT -> int8 pipeline on a tiny CNN with synthetic data.

Every number the case writers print comes from here: torch.ao eager-mode quantization
(fuse_modules_qat, prepare_qat, FusedMovingAvgObsFakeQuantize observers, convert) on the
qnnpack engine, CPU, one thread, fixed seeds.  Planted problems are real settings passed in
`cfg` (learning rates, schedules, a calibration model that is never loaded, an optimizer built
on the wrong parameters, unnormalised calibration data, NaN pixels in the data...).
"""
import copy
import math
import traceback

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.ao.quantization as tq

torch.set_num_threads(1)
torch.backends.quantized.engine = "qnnpack"

NUM_CLASSES = 10
IMG = 16
MEAN, STD = 0.45, 0.25     # the "dataset statistics" used for normalisation


# ----------------------------------------------------------------------------- data
def make_data(seed=0, n_train=4000, n_val=1000, noise=0.9, label_noise=0.04):
    """Raw 'pixel' images in [0,1]-ish: per-class templates + per-sample noise + jitter."""
    g = torch.Generator().manual_seed(1234)          # templates are the same for every case
    templates = torch.rand(NUM_CLASSES, 3, IMG, IMG, generator=g)
    templates = F.avg_pool2d(templates, 3, 1, 1)      # smooth blobs
    templates = (templates - templates.mean()) * 3.0 + 0.45
    gs = torch.Generator().manual_seed(seed)

    def draw(n):
        y = torch.randint(0, NUM_CLASSES, (n,), generator=gs)
        x = templates[y] + noise * 0.25 * torch.randn(n, 3, IMG, IMG, generator=gs)
        shift = torch.randint(-2, 3, (n, 2), generator=gs)
        for i in range(n):
            x[i] = torch.roll(x[i], shifts=(int(shift[i, 0]), int(shift[i, 1])), dims=(1, 2))
        x = x * (0.8 + 0.4 * torch.rand(n, 1, 1, 1, generator=gs))
        flip = torch.rand(n, generator=gs) < label_noise
        y = torch.where(flip, torch.randint(0, NUM_CLASSES, (n,), generator=gs), y)
        return x, y

    xtr, ytr = draw(n_train)
    xva, yva = draw(n_val)
    return xtr, ytr, xva, yva


def normalize(x):
    return (x - MEAN) / STD


def batches(x, y, bs, shuffle, gen=None):
    n = x.shape[0]
    idx = torch.randperm(n, generator=gen) if shuffle else torch.arange(n)
    for i in range(0, n - (bs - 1 if shuffle else 0), bs):
        j = idx[i:i + bs]
        if len(j) == 0:
            break
        yield x[j], y[j]


# ----------------------------------------------------------------------------- model
class Net(nn.Module):
    def __init__(self, width=16, hidden=0, dropout=0.0, bn=True):
        super().__init__()
        self.has_bn = bn
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(3, width, 3, padding=1, bias=not bn)
        self.bn1 = nn.BatchNorm2d(width) if bn else nn.Identity()
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(width, 2 * width, 3, stride=2, padding=1, bias=not bn)
        self.bn2 = nn.BatchNorm2d(2 * width) if bn else nn.Identity()
        self.relu2 = nn.ReLU()
        self.conv3 = nn.Conv2d(2 * width, 2 * width, 3, stride=2, padding=1, bias=not bn)
        self.bn3 = nn.BatchNorm2d(2 * width) if bn else nn.Identity()
        self.relu3 = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.flat = nn.Flatten()
        feat = 2 * width * 4
        self.hidden = hidden
        if hidden:
            self.fc0 = nn.Linear(feat, hidden)
            self.relu4 = nn.ReLU()
            feat = hidden
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(feat, NUM_CLASSES)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.relu1(self.bn1(self.conv1(x)))
        x = self.relu2(self.bn2(self.conv2(x)))
        x = self.relu3(self.bn3(self.conv3(x)))
        x = self.flat(self.pool(x))
        if self.hidden:
            x = self.relu4(self.fc0(x))
        x = self.fc(self.drop(x))
        return self.dequant(x)

    def fuse_list(self):
        if self.has_bn:
            l = [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"], ["conv3", "bn3", "relu3"]]
        else:
            l = [["conv1", "relu1"], ["conv2", "relu2"], ["conv3", "relu3"]]
        if self.hidden:
            l.append(["fc0", "relu4"])
        return l


def weight_checksum(model):
    s = 0.0
    for n, p in model.named_parameters():
        s += float(p.detach().double().abs().sum())
    return s


# ----------------------------------------------------------------------------- eval
@torch.no_grad()
def evaluate(model, x, y, bs=250, preprocess=normalize):
    model.eval()
    tot_loss, correct, correct5, n = 0.0, 0, 0, 0
    per_batch = []
    for xb, yb in batches(x, y, bs, False):
        out = model(preprocess(xb))
        bl = float(F.cross_entropy(out, yb, reduction="sum"))
        bc = int((out.argmax(1) == yb).sum())
        b5 = int((out.topk(5, dim=1).indices == yb[:, None]).any(1).sum())
        tot_loss += bl
        correct += bc
        correct5 += b5
        n += len(yb)
        per_batch.append((len(yb), bl / len(yb), bc / len(yb), b5 / len(yb)))
    evaluate.last = dict(top5=correct5 / n, batches=per_batch)   # read by the log writers
    return tot_loss / n, correct / n


def make_sched(opt, kind, steps_per_epoch, epochs, lr, **kw):
    total = steps_per_epoch * epochs
    if kind == "const" or kind is None:
        return None
    if kind == "step":
        return torch.optim.lr_scheduler.StepLR(opt, step_size=kw.get("step_size", max(1, total // 3)), gamma=0.1)
    if kind == "cosine":
        return torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total)
    if kind == "onecycle":
        return torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=kw.get("max_lr", lr), total_steps=total,
                                                   pct_start=kw.get("pct_start", 0.3))
    if kind == "warmup_cosine":
        wu = kw.get("warmup", steps_per_epoch)
        def f(s):
            if s < wu:
                return kw.get("warmup_start", 0.0) + (1 - kw.get("warmup_start", 0.0)) * s / wu
            return 0.5 * (1 + math.cos(math.pi * (s - wu) / max(1, total - wu)))
        return torch.optim.lr_scheduler.LambdaLR(opt, f)
    if kind == "sgdr":
        return torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=kw.get("T_0", steps_per_epoch * 3))
    if kind == "multistep":
        return torch.optim.lr_scheduler.MultiStepLR(opt, milestones=kw["milestones"], gamma=0.1)
    raise ValueError(kind)


def acc_of(out, y):
    return float((out.argmax(1) == y).float().mean())


# ----------------------------------------------------------------------------- stages
def train_loop(model, params, data, c, stage, events, start_gstep=0, eval_fn=None, int8_fn=None, res_out=None):
    """Generic loop. Returns dict(train=[...], val=[...], int8=[...], epoch=[...])."""
    xtr, ytr, xva, yva = data
    bs = c.get("bs", 64)
    epochs = c.get("epochs", 5)
    lr = c.get("lr", 0.05)
    opt_kind = c.get("opt", "sgd")
    if opt_kind == "sgd":
        opt = torch.optim.SGD(params, lr=lr, momentum=c.get("momentum", 0.9), weight_decay=c.get("wd", 5e-4))
    elif opt_kind == "adam":
        opt = torch.optim.Adam(params, lr=lr, weight_decay=c.get("wd", 0.0))
    else:
        raise ValueError(opt_kind)
    n_tr = c.get("n_train", xtr.shape[0])
    xtr, ytr = xtr[:n_tr], ytr[:n_tr]
    spe = n_tr // bs
    sched = make_sched(opt, c.get("sched"), spe, epochs, lr, **c.get("sched_kw", {}))
    gen = torch.Generator().manual_seed(c.get("seed", 0) + 17)
    res = res_out if res_out is not None else {}
    res.update({"train": [], "val": [], "int8": [], "epoch": [], "steps_per_epoch": spe, "bs": bs, "lr": lr})
    gstep = start_gstep
    log_every = c.get("log_every", 10)
    nan_inputs = c.get("nan_inputs", None)      # (epoch, iter) from which some inputs are NaN
    clip = c.get("clip", None)
    start_epoch = c.get("start_epoch", 0)
    crash_at = c.get("crash_at", None)
    for ep in range(start_epoch, epochs):
        model.train()
        if c.get("freeze_bn_after") is not None and ep >= c["freeze_bn_after"]:
            model.apply(torch.nn.intrinsic.qat.freeze_bn_stats)
        if c.get("disable_observer_after") is not None and ep >= c["disable_observer_after"]:
            model.apply(tq.disable_observer)
        run_loss, run_acc, cnt = 0.0, 0.0, 0
        ep_loss, ep_acc, ep_n = 0.0, 0.0, 0
        for it, (xb, yb) in enumerate(batches(xtr, ytr, bs, True, gen)):
            if crash_at is not None and (ep, it) == tuple(crash_at):
                # a corrupted sample reaches the collate function: real torch error
                bad = [xb[i] for i in range(len(xb))]
                bad[7] = bad[7][:, :-1, :]
                torch.utils.data.default_collate(bad)
            if c.get("aug_noise"):
                xb = xb + c["aug_noise"] * torch.randn(xb.shape, generator=gen)
                sh = int(torch.randint(-2, 3, (1,), generator=gen))
                xb = torch.roll(xb, shifts=(sh,), dims=(3,))
            xin = normalize(xb)
            if nan_inputs is not None and (ep, it) >= tuple(nan_inputs):
                # constant (blank) frames: per-image standardisation divides by a zero std
                xb2 = xb.clone()
                xb2[:2] = 0.5
                xin = (xb2 - xb2.mean(dim=(1, 2, 3), keepdim=True)) / xb2.std(dim=(1, 2, 3), keepdim=True)
            out = model(xin)
            if c.get("nan_weight_from") is not None and (ep, it) >= tuple(c["nan_weight_from"]) and it % c.get("nan_every", 7) == 0:
                # per-sample weights from the 'valid area' of each crop; an empty crop gives 0/0
                area = torch.ones(len(yb)); valid = torch.ones(len(yb))
                area[3] = 0.0; valid[3] = 0.0
                w = valid / area
                loss = (w * F.cross_entropy(out, yb, reduction="none")).mean()
            else:
                loss = F.cross_entropy(out, yb)
            opt.zero_grad()
            loss.backward()
            if clip:
                torch.nn.utils.clip_grad_norm_(params if not isinstance(params, list) else params, clip)
            opt.step()
            cur_lr = opt.param_groups[0]["lr"]
            if sched is not None:
                sched.step()
            gstep += 1
            lv = float(loss)
            av = acc_of(out, yb)
            run_loss += lv; run_acc += av; cnt += 1
            ep_loss += lv; ep_acc += av; ep_n += 1
            if (it + 1) % log_every == 0 or c.get("log_every_step"):
                res["train"].append(dict(epoch=ep, it=it, iters=spe, gstep=gstep, loss=lv,
                                         loss_avg=run_loss / cnt, acc=av, acc_avg=run_acc / cnt, lr=cur_lr))
                run_loss, run_acc, cnt = 0.0, 0.0, 0
        res["epoch"].append(dict(epoch=ep, gstep=gstep, loss=ep_loss / max(ep_n, 1), acc=ep_acc / max(ep_n, 1),
                                 lr=opt.param_groups[0]["lr"]))
        vl, va = (eval_fn or (lambda m: evaluate(m, xva, yva)))(model)
        res["val"].append(dict(epoch=ep, gstep=gstep, loss=vl, acc=va, **evaluate.last))
        if int8_fn is not None and c.get("int8_every_epoch", False):
            il, ia = int8_fn(model)
            res["int8"].append(dict(epoch=ep, gstep=gstep, loss=il, acc=ia, **evaluate.last))
    res["gstep"] = gstep
    res["opt"] = opt
    return res


def low_bit_qconfig(bits):
    """A mis-set qconfig: activations and weights restricted to `bits` bits."""
    n = 2 ** bits
    act = tq.FusedMovingAvgObsFakeQuantize.with_args(observer=tq.MovingAverageMinMaxObserver,
                                                     quant_min=0, quant_max=n - 1, reduce_range=False)
    wt = tq.FusedMovingAvgObsFakeQuantize.with_args(observer=tq.MovingAverageMinMaxObserver,
                                                    quant_min=-(n // 2), quant_max=n // 2 - 1,
                                                    dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
    return tq.QConfig(activation=act, weight=wt)


def prepare_qat_model(float_model, bits=8):
    m = copy.deepcopy(float_model)
    m.eval()
    m = tq.fuse_modules_qat(m, m.fuse_list()) if hasattr(tq, "fuse_modules_qat") else tq.fuse_modules(m, m.fuse_list())
    m.qconfig = tq.get_default_qat_qconfig("qnnpack") if bits == 8 else low_bit_qconfig(bits)
    m.train()
    tq.prepare_qat(m, inplace=True)
    return m


def int8_eval(qat_model, xva, yva, preprocess=normalize):
    q = copy.deepcopy(qat_model)
    q.eval()
    tq.convert(q, inplace=True)
    return evaluate(q, xva, yva, preprocess=preprocess)


def calibrate(qat_model, xcal, n_batches, bs=64, preprocess=normalize, log=None):
    """Horizon-style calibration: observers on, fake quant off, eval mode."""
    qat_model.eval()
    qat_model.apply(tq.disable_fake_quant)
    qat_model.apply(tq.enable_observer)
    with torch.no_grad():
        for i in range(n_batches):
            xb = xcal[i * bs:(i + 1) * bs]
            qat_model(preprocess(xb))
            if log is not None:
                log.append(i)
    qat_model.apply(tq.disable_observer)
    qat_model.apply(tq.enable_fake_quant)
    return qat_model


def run_pipeline(cfg):
    """cfg: dict(seed, data={}, float={}, calib={}|None, qat={}|None)."""
    seed = cfg.get("seed", 0)
    torch.manual_seed(seed)
    np.random.seed(seed)
    data = make_data(seed=seed, **cfg.get("data", {}))
    xtr, ytr, xva, yva = data
    out = {"events": [], "cfg": cfg}
    fc = cfg.get("float", {})
    model = Net(width=fc.get("width", 16), hidden=fc.get("hidden", 0), dropout=fc.get("dropout", 0.0), bn=fc.get("bn", True))
    if fc.get("init_from") is not None:
        model.load_state_dict(fc["init_from"])
    # ---------------- float
    if fc.get("skip"):
        out["float"] = None
    else:
        try:
            fr = train_loop(model, list(model.parameters()), data, fc, "float", out["events"])
            fr.pop("opt")
            out["float"] = fr
        except Exception:
            out["float_traceback"] = traceback.format_exc()
            out["float"] = None
            out["float_partial"] = True
            return out
    out["float_state"] = copy.deepcopy(model.state_dict())
    out["float_train_eval"] = evaluate(model, xtr[:fc.get("n_train", xtr.shape[0])], ytr[:fc.get("n_train", xtr.shape[0])])
    # ---------------- calibration
    cc = cfg.get("calib")
    qat_model = None
    if cc is not None:
        qat_model = prepare_qat_model(model)
        pre = normalize if cc.get("normalize", True) else (lambda x: x * 255.0)
        cal_log = []
        g = torch.Generator().manual_seed(seed + 5)
        perm = torch.randperm(xtr.shape[0], generator=g)
        xcal = xtr[perm]
        if cc.get("shard"):
            r, w = cc["shard"]
            xcal = xcal[r::w]
        calibrate(qat_model, xcal, cc.get("n_batches", 20), preprocess=pre, log=cal_log)
        vl, va = evaluate(qat_model, xva, yva)
        out["calib"] = dict(n_batches=cc.get("n_batches", 20), val_loss=vl, val_acc=va, batches=cal_log,
                            eval=dict(evaluate.last))
        out["calib_state"] = copy.deepcopy(qat_model.state_dict())
        if cc.get("int8_eval"):
            il, ia = int8_eval(qat_model, xva, yva)
            out["calib"]["int8_loss"], out["calib"]["int8_acc"] = il, ia
    # ---------------- QAT
    qc = cfg.get("qat")
    if qc is not None:
        if qc.get("fresh_float"):
            # the float checkpoint was never loaded: QAT starts from a freshly initialised net
            torch.manual_seed(seed + 99)
            fresh = Net(width=fc.get("width", 16), hidden=fc.get("hidden", 0), dropout=fc.get("dropout", 0.0), bn=fc.get("bn", True))
            qm = prepare_qat_model(fresh)
        elif qc.get("bits", 8) != 8:
            # the qconfig template was mis-set: a low-bit fake quant instead of int8
            qm = prepare_qat_model(model, bits=qc["bits"])
        elif qc.get("load_calib", True) and qat_model is not None:
            qm = qat_model
        else:
            # calibration result not loaded: fresh prepared model, observers at init
            qm = prepare_qat_model(model)
        if qc.get("disable_observer", False):
            qm.apply(tq.disable_observer)
        else:
            qm.apply(tq.enable_observer)
        qm.apply(tq.enable_fake_quant)
        if qc.get("opt_on_float_params", False):
            # the optimizer was created from the float model's parameters before prepare
            # (and prepare ran on a deepcopy): the QAT weights are never stepped
            params = list(model.parameters())
        else:
            params = list(qm.parameters())
        w0 = weight_checksum(qm)
        raw = qc.get("int8_raw_input")
        pre8 = normalize if not raw else ((lambda x: x * 255.0) if raw == "x255" else
                                               (lambda x: normalize(x.flip(1))) if raw == "bgr" else (lambda x: x))
        i8 = (lambda m: int8_eval(m, xva, yva, preprocess=pre8))
        qat_start = evaluate(qm, xva, yva)
        partial = {}
        try:
            qr = train_loop(qm, params, data, qc, "qat", out["events"], int8_fn=i8, res_out=partial)
        except Exception:
            out["qat_traceback"] = traceback.format_exc()
            partial.pop("opt", None)
            partial["start_eval"] = qat_start
            out["qat_partial"] = partial
            return out
        qr.pop("opt")
        qr["w_checksum_start"] = w0
        qr["w_checksum_end"] = weight_checksum(qm)
        qr["start_eval"] = qat_start
        if qc.get("int8_final", True):
            qr["int8_final"] = i8(qm)
            qr["int8_final_eval"] = dict(evaluate.last)
        out["qat"] = qr
    return out


def summary(res):
    s = {}
    if res.get("float"):
        s["float_val_acc"] = round(res["float"]["val"][-1]["acc"], 4)
        s["float_val_loss"] = round(res["float"]["val"][-1]["loss"], 4)
        s["float_train_loss_last"] = round(res["float"]["epoch"][-1]["loss"], 4)
        s["float_train_acc_last"] = round(res["float"]["epoch"][-1]["acc"], 4)
    if res.get("calib"):
        s["calib_val_acc"] = round(res["calib"]["val_acc"], 4)
        if "int8_acc" in res["calib"]:
            s["calib_int8_acc"] = round(res["calib"]["int8_acc"], 4)
    if res.get("qat"):
        q = res["qat"]
        s["qat_first_train_loss"] = round(q["train"][0]["loss"], 4) if q["train"] else None
        s["qat_val_acc"] = round(q["val"][-1]["acc"], 4) if not math.isnan(q["val"][-1]["acc"]) else None
        s["qat_val_loss_last"] = q["val"][-1]["loss"]
        if "int8_final" in q:
            s["int8_acc"] = round(q["int8_final"][1], 4)
        s["qat_weights_changed"] = abs(q["w_checksum_end"] - q["w_checksum_start"]) > 1e-9
    return s
