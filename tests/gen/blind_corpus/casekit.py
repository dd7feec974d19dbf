"""Shared pieces for the case generators: standard pipeline runs, checks, manifest entries."""
import copy
import os

import torch

import engine as E

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data",
                    "diagnosis_blind")

FLOAT_KW = dict(epochs=12, bs=64, lr=0.1, sched="cos", wd=5e-4)
QAT_KW = dict(epochs=3, lr=0.005, sched="cos", bs=64, wd=5e-5)


class PlantCheckFailed(AssertionError):
    pass


def need(cond, msg):
    if not cond:
        raise PlantCheckFailed(msg)


def case_dir(cid):
    d = os.path.join(ROOT, cid)
    os.makedirs(d, exist_ok=True)
    return d


def std_pipeline(data_seed, model_seed, float_kw=None, calib_kw=None, qat_kw=None, width=16, fx=False,
                 backend="qnnpack", skip_qat=False, skip_calib=False, n_train=4000, hidden=0):
    p = E.Pipeline(data_seed=data_seed, model_seed=model_seed, width=width, fx=fx, backend=backend,
                   n_train=n_train, hidden=hidden)
    fk = dict(FLOAT_KW)
    fk.update(float_kw or {})
    p.run_float(**fk)
    p.float_kw = fk
    if skip_calib:
        return p
    ck = dict(n_batches=16, bs=64)
    ck.update(calib_kw or {})
    p.run_calib(**ck)
    p.calib_kw = ck
    if skip_qat:
        return p
    qk = dict(QAT_KW)
    qk.update(qat_kw or {})
    p.run_qat(**qk)
    p.qat_kw = qk
    return p


def float_end_loss(R, k=20):
    st = [s["loss"] for s in R["steps"][-k:]]
    return sum(st) / len(st)


def qat_start_loss(R, k=5):
    st = [s["loss"] for s in R["steps"][:k]]
    return sum(st) / len(st)


def check_healthy(p, allow_qat_below_calib=0.0, max_gap=0.8, max_overfit=8.0, tail_tol=1.6):
    """The numbers of a run that nobody should call a problem."""
    f = p.res["float"]
    ev = f["evals"]
    need(len(ev) >= 3, "float needs evaluations")
    tail = [e["acc1"] for e in ev[-3:]]
    need(max(tail) - min(tail) <= tail_tol, "float tail not flat: %s" % tail)
    need(ev[-1]["train_acc"] - ev[-1]["acc1"] <= max_overfit, "float overfits")
    c = p.res.get("calib")
    if c:
        need(f["final"]["acc1"] - c["final"]["acc1"] <= 1.0, "calib drop too big")
    q = p.res.get("qat")
    if q:
        need(q["final"]["acc1"] >= c["final"]["acc1"] - allow_qat_below_calib,
             "QAT below calibration: %.2f vs %.2f" % (q["final"]["acc1"], c["final"]["acc1"]))
        if q.get("int8_final"):
            need(q["final"]["acc1"] - q["int8_final"]["acc1"] <= max_gap, "int8 gap too big")
        need(qat_start_loss(q) <= 1.5 * float_end_loss(f), "QAT start loss high: %.3f vs %.3f"
             % (qat_start_loss(q), float_end_loss(f)))


def numbers(p, extra=None):
    n = {}
    f = p.res.get("float")
    if f:
        n["float_top1"] = round(f["final"]["acc1"], 2)
        n["float_val_loss"] = round(f["final"]["loss"], 4)
        n["float_train_loss_end"] = round(float_end_loss(f), 4)
        if f["evals"]:
            n["float_train_acc_end"] = round(f["evals"][-1]["train_acc"], 2)
    c = p.res.get("calib")
    if c:
        n["calib_top1"] = round(c["final"]["acc1"], 2)
    q = p.res.get("qat")
    if q:
        if q.get("final"):
            n["qat_top1"] = round(q["final"]["acc1"], 2)
        n["qat_start_loss"] = round(qat_start_loss(q), 4) if q["steps"] else None
        if q.get("int8_final"):
            n["int8_top1"] = round(q["int8_final"]["acc1"], 2)
    if extra:
        n.update(extra)
    return n


def entry(cid, layout, description, healthy, expect=(), allow=None, nums=None, files=None):
    return dict(id=cid, layout=layout, description=description, healthy=healthy, expect=list(expect),
                allow=dict(allow or {}), numbers=nums or {})


def save_state(model, path, wrap=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    sd = {k: v.detach().clone() for k, v in model.state_dict().items()}
    obj = sd if wrap is None else wrap(sd)
    torch.save(obj, path)


def healthy_pipeline(seeds, check_kw=None, **kw):
    """Run the standard pipeline with the first seed whose numbers are all healthy."""
    last = None
    for sd in seeds:
        p = std_pipeline(sd, sd, **kw)
        try:
            check_healthy(p, **(check_kw or {}))
            p.seed = sd
            return p
        except PlantCheckFailed as e:
            last = e
    raise last
