"""Measured facts of one diagnosis case and the FAQ conditions they satisfy.

Input: what each run's files *show* (diag_render.py: the points as written, rounded as the layout
rounds, the metadata a reader can find, the text events) plus, per run, the parameter change the
training really made (diag_record.py). Output: the manifest's `key` and, per finding id, whether
its condition holds in those numbers, with the numbers (`conditions`).

The conditions follow the FAQ symptoms and the defaults of resources/thresholds.json, computed
here independently of the C++ rules (medians, quarters, ratios as thresholds.json describes
them). They decide a case's `expect` (the planted ids; each must hold, or the generator fails)
and `allow` (other ids that hold as consequences of the planted problem).
"""
import json
import math
import os
import statistics

from hat_log import REPO_ROOT

with open(os.path.join(REPO_ROOT, "resources", "thresholds.json")) as _f:
    T = {k: v["value"] for k, v in json.load(_f)["thresholds"].items()}


def jnum(v, nd=6):
    if v is None:
        return None
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return round(v, nd)


def _finite(vals):
    return [v for v in vals if v is not None and math.isfinite(v)]


def _med(vals):
    return statistics.median(vals) if vals else None


def _quarters(vals):
    n = len(vals)
    if n < 4:  # per-epoch logs of short runs: first, middle, middle, last point
        return [[vals[0]], [vals[n // 2]], [vals[n // 2]], [vals[-1]]]
    q = max(1, n // 4)
    return [vals[i * q:(i + 1) * q] if i < 3 else vals[3 * q:] for i in range(4)]


def _late_drop_per_tenth(vals):
    """Least-squares line through the last 30 % of the points (at least 3): how much it falls
    per tenth of the run, relative to its value at the last point (noise-robust version of
    thresholds.json's 'second-to-last vs last tenth')."""
    n = len(vals)
    m = max(3, int(round(0.3 * n)))
    ys = vals[-m:]
    xs = list(range(m))
    mx, my = sum(xs) / m, sum(ys) / m
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    end = my + slope * (xs[-1] - mx)
    return -slope * (n / 10.0) / end


def _num(meta, *keys):
    for k in keys:
        if k in meta:
            try:
                return float(meta[k])
            except ValueError:
                pass
    return None


def _world(meta):
    return _num(meta, "world_size", "devices", "num_gpus", "gpus", "nproc_per_node") or 1.0


def _lr_peak(r):
    lrs = _finite([p["lr"] for p in r["train"] if p.get("lr") is not None])
    if lrs:
        return max(lrs), "lr points (max of %d)" % len(lrs)
    lr = _num(r["metadata"], "max_lr", "lr")
    return (lr, "settings") if lr is not None else (None, None)


def _lr_setting(r):
    lr = _num(r["metadata"], "lr")
    if lr is not None:
        return lr
    lrs = _finite([p["lr"] for p in r["train"] if p.get("lr") is not None])
    return lrs[0] if lrs else None


def run_facts(r):
    loss = [p["loss"] for p in r["train"]]
    fin = _finite(loss)
    bad = [p for p in r["train"] if not math.isfinite(p["loss"])]
    out = {"role": r["role"], "files": r["files"]}
    if r["train"]:
        out["train_loss"] = {
            "points": len(loss), "first": jnum(loss[0], 4), "last": jnum(loss[-1], 4),
            "min": jnum(min(fin), 4) if fin else None, "max": jnum(max(fin), 4) if fin else None,
            "nonfinite_points": len(bad),
            "first_nonfinite": ({"step": bad[0]["gstep"], "epoch": bad[0]["epoch"],
                                 "value": jnum(bad[0]["loss"])} if bad else None)}
        accs = [p["acc"] for p in r["train"] if p.get("acc") is not None]
        if accs:
            last_ep = r["train"][-1]["epoch"]
            ep_accs = [p["acc"] for p in r["train"] if p["epoch"] == last_ep and p.get("acc") is not None]
            out["train_acc_last_epoch_mean"] = jnum(sum(ep_accs) / len(ep_accs), 4)
        lrs = _finite([p["lr"] for p in r["train"] if p.get("lr") is not None])
        if lrs:
            out["lr"] = {"first": jnum(lrs[0], 8), "max": jnum(max(lrs), 8), "last": jnum(lrs[-1], 8)}
    if r["val"]:
        out["val_acc"] = [jnum(x["acc"], 4) for x in r["val"]]
        out["val_loss"] = [jnum(x["loss"], 4) for x in r["val"]]
    meta = {k: r["metadata"][k] for k in ("batch_size", "train_batch_size", "world_size", "devices",
                                          "lr", "max_lr", "lr_scheduler", "march", "epochs",
                                          "max_epochs", "num_calib_batches")
            if k in r["metadata"]}
    if meta:
        out["settings_shown"] = meta
    if r.get("stage_series"):
        out["stage_series"] = r["stage_series"]
    if r["events"]["traceback"]:
        out["traceback"] = r["events"].get("exception")
    if r["events"]["warnings"]:
        out["warnings"] = len(r["events"]["warnings"])
    if r.get("planned_epochs") is not None and r["role"] in ("float", "qat"):
        out["planned_epochs"] = r["planned_epochs"]
        out["completed_epochs"] = len(r["val"])
    if r.get("params"):
        p = r["params"]
        out["parameters"] = {"norm_before": jnum(p["before"]["norm"]), "norm_after": jnum(p["after"]["norm"]),
                             "relative_change": jnum(p["relative_change"], 8),
                             "identical": p["identical"], "logged": r.get("params_logged", False)}
    return out


# --- conditions ---------------------------------------------------------------------------

def _by_role(runs, role):
    return [r for r in runs if r["role"] == role]


def _last_acc(r):
    return r["val"][-1]["acc"] if r["val"] else None


def _calib_acc(runs, qat):
    cal = _by_role(runs, "calibration")
    if cal and cal[0]["val"]:
        return cal[0]["val"][-1]["acc"], cal[0]["name"]
    c = qat.get("stage_series", {}).get("calibration")
    if c:
        return c["acc"], qat["name"] + " (calib_val line)"
    return None, None


def conditions(runs):
    """{finding id: {"holds": bool, "borderline": bool, "why": text with the numbers}} for every
    id that had data; borderline: does not hold, but a second reasonable reading of the numbers
    (named in why) crosses the threshold."""
    out = {}

    def put(fid, holds, why, borderline=False):
        holds = bool(holds)
        if fid in out and out[fid]["holds"] and not holds:
            return
        if fid in out and out[fid]["holds"] == holds:
            out[fid]["why"] += "; " + why
            out[fid]["borderline"] |= borderline
            return
        out[fid] = {"holds": holds, "borderline": borderline and not holds, "why": why}

    floats, qats = _by_role(runs, "float"), _by_role(runs, "qat")
    fl = floats[0] if floats else None

    for r in runs:
        bad = [p for p in r["train"] + r.get("train_epoch", []) if not math.isfinite(p["loss"])]
        vbad = [x for x in r["val"] if not math.isfinite(x["loss"])]
        if r["train"] or r["val"]:
            put("loss.nonfinite", bad or vbad,
                "%s: %d of %d training loss points non-finite%s; %d of %d evaluation losses non-finite%s"
                % (r["name"], len(bad), len(r["train"]),
                   " (first at step %d: %s)" % (bad[0]["gstep"], jnum(bad[0]["loss"])) if bad else "",
                   len(vbad), len(r["val"]),
                   " (epoch %s, next epoch %s)" % (vbad[0]["epoch"], _next_val(r, vbad[0])) if vbad else ""))
        if r["role"] in ("float", "qat") and r["train"]:
            fin = _finite([p["loss"] for p in r["train"]])
            if len(fin) >= 2:
                # early level: the first 5 points, fewer in short series (a per-epoch log of 5
                # epochs has its early level in its first point, not in all five)
                k = min(T["divergence.early_points"], max(1, len(fin) // 4))
                early = _med(fin[:k])
                qs = [_med(q) for q in _quarters(fin)]
                grow = max(fin) / early
                rising = qs[3] >= T["divergence.rising_ratio"] * early and all(qs[3] > q for q in qs[:3])
                put("loss.divergence", grow >= T["divergence.growth_factor"] or rising,
                    "%s: early loss %.4g (median of first %d finite points), max %.4g (%.3gx), "
                    "last-quarter median %.4g" % (r["name"], early, k, max(fin), grow, qs[3]))
        put("run.crashed", r["events"]["traceback"],
            "%s: %s" % (r["name"], ("traceback, %s; %d of %s epochs completed"
                                   % (r["events"].get("exception"), len(r["val"]), r.get("planned_epochs")))
                        if r["events"]["traceback"] else "no traceback"))
        cuda = [w for w in r["events"]["warnings"] if "CUDA" in w]
        put("env.no_gpu", cuda, "%s: %d CUDA warnings" % (r["name"], len(cuda)))

    if fl and fl["val"]:
        accs = [x["acc"] for x in fl["val"]]
        if len(accs) >= 2:
            gain = (accs[-1] - accs[-2]) / accs[-2]
            put("float.not_converged", gain > T["float_converged.min_last_gain"],
                "float val acc %s: last gain %+.2f%% (relative)" % ([round(a, 4) for a in accs], 100 * gain))
        else:
            fin = _finite([p["loss"] for p in fl["train"]])
            if len(fin) >= 6:
                k = max(1, len(fin) // 10)
                a, b = _med(fin[-2 * k:-k]), _med(fin[-k:])
                rate = _late_drop_per_tenth(fin)
                put("float.not_converged", rate > T["float_converged.loss_late_drop"],
                    "float has %d evaluation; training loss %d points from %.4f to %.4f; a line "
                    "fitted to its last 30%% falls %.1f%% of its end level per tenth of the run "
                    "(medians of the last two tenths: %.4f -> %.4f)"
                    % (len(accs), len(fin), fin[0], fin[-1], 100 * rate, a, b))
        tr = [p["acc"] for p in fl["train"] if p.get("acc") is not None and p["epoch"] == fl["train"][-1]["epoch"]]
        if tr:
            gap = sum(tr) / len(tr) - accs[-1]
            put("float.overfit", gap > T["overfit.max_gap"],
                "float last-epoch train acc %.4f vs val acc %.4f (gap %.4f)" % (sum(tr) / len(tr), accs[-1], gap))

    for c in _by_role(runs, "calibration"):
        w = _num(c["metadata"], "world_size", "devices", "num_gpus", "gpus", "nproc_per_node")
        if w is not None:
            put("calib.multi_gpu", w > 1, "%s: world size %g" % (c["name"], w))

    for q in qats:
        cacc, cname = _calib_acc(runs, q)
        qacc = _last_acc(q)
        if fl and fl["val"] and cacc is not None:
            facc = fl["val"][-1]["acc"]
            put("calib.low_accuracy", cacc < facc * (1 - T["calib_low.max_drop"]),
                "calibration acc %.4f (%s) vs float %.4f (%.1f%% relative)"
                % (cacc, cname, facc, 100 * (cacc - facc) / facc))
        if cacc is not None and qacc is not None:
            put("qat.worse_than_calibration", qacc < cacc * (1 - T["qat_vs_calib.min_drop"]),
                "%s final val acc %.4f vs calibration %.4f (%+.1f%% relative)"
                % (q["name"], qacc, cacc, 100 * (qacc - cacc) / cacc))
        qfin = _finite([p["loss"] for p in q["train"]])
        if fl and qfin:
            ffin = _finite([p["loss"] for p in fl["train"]])
            # float's end: its last logged point, or the median of its last 5 (one noisy window
            # should not decide); when the two readings disagree the case is borderline
            q0, f1, f5 = qfin[0], ffin[-1], _med(ffin[-5:])
            high = [q0 >= T["qat_start.loss_ratio"] * f and q0 - f >= T["qat_start.min_loss_delta"]
                    for f in (f1, f5)]
            put("qat.start_loss_high", all(high),
                "%s first loss %.4f vs float's last %.4f (%.2fx) / median of its last 5 %.4f (%.2fx)"
                % (q["name"], q0, f1, q0 / f1, f5, q0 / f5), borderline=any(high) and not all(high))
            if len(qfin) >= 4 and len(ffin) >= 4:
                qq = _quarters(qfin)
                rise_q = (_med(qq[3]) - _med(qq[0])) / _med(qq[0])
                late = ffin[-max(2, int(round(len(ffin) * T["trend.late_fraction"]))):]
                h = len(late) // 2
                rise_f = (_med(late[h:]) - _med(late[:h])) / _med(late[:h])
                put("qat.trend_mismatch", rise_q - rise_f > T["trend.max_rise"],
                    "%s loss quarter medians %.4f -> %.4f (%+.0f%%), float late phase %+.0f%%"
                    % (q["name"], _med(qq[0]), _med(qq[3]), 100 * rise_q, 100 * rise_f))
        # not learning: the weights (trained facts), evidenced by the logs where they can show it
        p = q.get("params")
        if p is not None and q["val"]:
            accs = [x["acc"] for x in q["val"]]
            why = "%s parameters %s (relative change %.3g)%s; val acc %s" % (
                q["name"], "identical before/after" if p["identical"] else "changed",
                p["relative_change"], ", checksums logged" if q.get("params_logged") else "",
                [round(a, 4) for a in accs])
            put("qat.not_learning", p["identical"], why)
        quant = [r for r in _by_role(runs, "quantized") if r.get("source") == q["name"]]
        if quant and quant[0]["val"] and qacc is not None:
            qa = quant[0]["val"][-1]["acc"]
            put("qat.quantized_gap", qa < qacc * (1 - T["quantized_gap.max_drop"]),
                "%s int8 acc %.4f vs %s %.4f (%+.1f%% relative)"
                % (quant[0]["name"], qa, q["name"], qacc, 100 * (qa - qacc) / qacc))
    if qats:
        has_q = bool(_by_role(runs, "quantized"))
        put("qat.no_quantized_eval", not has_q,
            "quantized evaluation %s" % ("present" if has_q else "absent"))

    # batch scaled, lr unchanged: any two runs of one role
    for role in ("float", "qat"):
        rs = [r for r in _by_role(runs, role) if _num(r["metadata"], "batch_size", "train_batch_size")]
        for a in rs:
            for b in rs:
                if a is b:
                    continue
                ea = _num(a["metadata"], "batch_size", "train_batch_size") * _world(a["metadata"])
                eb = _num(b["metadata"], "batch_size", "train_batch_size") * _world(b["metadata"])
                la, lb = _lr_setting(a), _lr_setting(b)
                if ea >= T["batch_scale.min_factor"] * eb and la is not None and lb is not None:
                    put("train.batch_scaled_lr_unchanged", la <= T["batch_scale.lr_tolerance"] * lb,
                        "%s effective batch %g (lr %g) vs %s %g (lr %g)" % (a["name"], ea, la, b["name"], eb, lb))
    if fl:
        fpeak, _ = _lr_peak(fl)
        for q in qats:
            qpeak, how = _lr_peak(q)
            if fpeak and qpeak:
                put("train.aggressive_lr_schedule", qpeak >= T["aggressive_lr.peak_ratio"] * fpeak,
                    "%s peak lr %g (%s) vs float peak %g (%.2fx)" % (q["name"], qpeak, how, fpeak, qpeak / fpeak))

    marches = {r["name"]: r["metadata"]["march"] for r in runs if "march" in r["metadata"]}
    if marches:
        put("config.march", len(set(marches.values())) > 1, "march per run: %s" % marches)
    return out


def _next_val(r, x):
    i = r["val"].index(x)
    return jnum(r["val"][i + 1]["loss"], 4) if i + 1 < len(r["val"]) else None


def headline(runs):
    """The accuracies per stage, for the manifest and the README table."""
    h = {}
    for r in runs:
        if r["val"]:
            h[r["name"]] = jnum(r["val"][-1]["acc"], 4)
        if r.get("stage_series", {}).get("calibration"):
            h[r["name"] + ":calib_val"] = r["stage_series"]["calibration"]["acc"]
    return h
