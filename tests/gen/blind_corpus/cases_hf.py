"""Hugging Face Trainer layout cases (trainer_state.json, *_results.json, console)."""
import copy
import json
import os

import engine as E
from casekit import std_pipeline, healthy_pipeline, check_healthy, numbers, entry, need, case_dir, save_state
from common import Clock, write, write_json, mean
from writers import hf_log_history, hf_state

LAYOUT = "hf_trainer"


def _nparams(m):
    return sum(p.numel() for p in m.parameters() if p.requires_grad)


def _pretty_metrics(split, d):
    keys = sorted(d)
    w = max(len(k) for k in keys)
    out = ["***** %s metrics *****" % split]
    for k in keys:
        v = d[k]
        if isinstance(v, float):
            vs = "%.4f" % v if abs(v) < 1e6 else "%.0fGF" % (v / 1e9)
        else:
            vs = str(v)
        out.append("  %s = %s" % (k.ljust(w), vs.rjust(10)))
    return out


def _train_console(R, hist, nparams, epochs, bs, out_dir, n_train=4000, n_val=1000, save_every_epoch=True,
                   extra_after_epoch=None):
    iters = R["iters"]
    lines = ["***** Running training *****", "  Num examples = {:,}".format(n_train), "  Num Epochs = %d" % epochs,
             "  Instantaneous batch size per device = %d" % bs,
             "  Total train batch size (w. parallel, distributed & accumulation) = %d" % bs,
             "  Gradient Accumulation steps = 1", "  Total optimization steps = {:,}".format(iters * epochs),
             "  Number of trainable parameters = {:,}".format(nparams)]
    for h in hist:
        if any(k.endswith("_accuracy") for k in h) and not h.get("loss"):
            pre = [k for k in h if k.endswith("_accuracy")][0].rsplit("_", 1)[0]
            lines += ["***** Running Evaluation *****", "  Num examples = %d" % n_val, "  Batch size = 200"]
        lines.append(repr(_console_order(h)))
        if any(k.endswith("_accuracy") for k in h) and save_every_epoch and h.get("epoch", 0) == int(h.get("epoch", 0)) \
                and "eval_accuracy" in h:
            lines.append("Saving model checkpoint to %s/checkpoint-%d" % (out_dir, h["step"]))
            lines.append("Model weights saved in %s/checkpoint-%d/pytorch_model.bin" % (out_dir, h["step"]))
    lines += ["", "", "Training completed. Do not forget to share your model on huggingface.co/models =)", "", ""]
    return lines


def _console_order(h):
    """The Trainer prints its dicts in insertion order (loss first, epoch last)."""
    order = ["loss", "grad_norm", "learning_rate"]
    d = {}
    for k in order:
        if k in h:
            d[k] = h[k]
    for suffix in ("_loss", "_accuracy", "_runtime", "_samples_per_second", "_steps_per_second"):
        for k in h:
            if k.endswith(suffix) and k not in d and k not in ("train_loss",):
                d[k] = h[k]
    for k in h:
        if k not in d and k not in ("epoch", "step"):
            d[k] = h[k]
    d["epoch"] = h["epoch"]
    return d


def _finish(hist, R, epochs, bs, runtime):
    steps = len(R["steps"])
    tl = mean([s["loss"] for s in R["steps"]])
    fin = {"epoch": float(epochs), "step": steps, "total_flos": float(steps * bs * 2.1e7), "train_loss": tl,
           "train_runtime": round(runtime, 4), "train_samples_per_second": round(steps * bs / runtime, 3),
           "train_steps_per_second": round(steps / runtime, 3)}
    hist.append(fin)
    return fin


def _write_run(root, sub, R, epochs, bs, nparams, runtime, hist, best=None, ckpt_hook=None, extra_results=None):
    out_dir = "./" + sub
    fin = _finish(hist, R, epochs, bs, runtime)
    iters = R["iters"]
    st = hf_state(hist, len(R["steps"]), epochs, iters * epochs, 10, bs,
                  best=best, best_ckpt=None if best is None else "%s/checkpoint-%d" % (out_dir, best[1]),
                  save_steps=500)
    write_json(os.path.join(root, sub, "trainer_state.json"), st, sort_keys=True)
    # checkpoints saved each epoch carry the state up to their step
    for e in R["evals"]:
        step = (e["epoch"] + 1) * iters
        part = [h for h in hist if h.get("step", 0) <= step and "train_runtime" not in h]
        cs = hf_state(part, step, epochs, iters * epochs, 10, bs, save_steps=500)
        cs["epoch"] = float(e["epoch"] + 1)
        write_json(os.path.join(root, sub, "checkpoint-%d" % step, "trainer_state.json"), cs, sort_keys=True)
        if ckpt_hook:
            ckpt_hook(e["epoch"], os.path.join(root, sub, "checkpoint-%d" % step))
    last = R["evals"][-1]
    ev = {"epoch": float(epochs), "eval_accuracy": last["acc1"] / 100.0, "eval_loss": last["loss"],
          "eval_runtime": 1.21, "eval_samples_per_second": 826.4, "eval_steps_per_second": 4.132}
    tr = {k: v for k, v in fin.items() if k not in ("step",)}
    write_json(os.path.join(root, sub, "train_results.json"), tr, indent=4, sort_keys=True)
    write_json(os.path.join(root, sub, "eval_results.json"), ev, indent=4, sort_keys=True)
    allr = dict(tr)
    allr.update(ev)
    if extra_results:
        allr.update(extra_results)
    write_json(os.path.join(root, sub, "all_results.json"), allr, indent=4, sort_keys=True)
    return fin, ev


def _int8_hist(R, prefix="int8"):
    iters = R["iters"]
    out = []
    for e in R["int8_evals"]:
        rt = 3.9 + 0.1 * (e["epoch"] % 3)
        out.append({"epoch": float(e["epoch"] + 1), "%s_accuracy" % prefix: e["acc1"] / 100.0,
                    "%s_loss" % prefix: e["loss"], "%s_runtime" % prefix: round(rt, 4),
                    "%s_samples_per_second" % prefix: round(1000 / rt, 3),
                    "%s_steps_per_second" % prefix: round(5 / rt, 3), "step": (e["epoch"] + 1) * iters})
    return out


def _merge(hist, extra):
    out = []
    ex = sorted(extra, key=lambda h: h["step"])
    j = 0
    for i, h in enumerate(hist):
        out.append(h)
        # int8 evaluation runs right after the regular evaluation of the same step
        if "eval_accuracy" in h:
            while j < len(ex) and ex[j]["step"] <= h["step"]:
                out.append(ex[j])
                j += 1
    out.extend(ex[j:])
    return out


def _float_part(p, root, clk):
    R = p.res["float"]
    hist = hf_log_history(R, 10, R["iters"])
    lines = _train_console(R, hist, _nparams(p.float_model), 12, 64, "./float")
    fin, ev = _write_run(root, "float", R, 12, 64, _nparams(p.float_model), 71.83, hist,
                         best=(R["evals"][-1]["acc1"] / 100.0, R["iters"] * 12))
    lines.append(repr(_console_order({k: v for k, v in fin.items() if k not in ("step", "total_flos")})))
    lines += _pretty_metrics("train", {k: v for k, v in fin.items() if k != "step"})
    lines += ["***** Running Evaluation *****", "  Num examples = 1000", "  Batch size = 200"]
    lines += _pretty_metrics("eval", ev)
    write(os.path.join(root, "float", "train.log"), "\n".join(lines) + "\n")


def _calib_part(p, root):
    c = p.res["calib"]["final"]
    ev = {"epoch": 0.0, "eval_accuracy": c["acc1"] / 100.0, "eval_loss": c["loss"], "eval_runtime": 1.8741,
          "eval_samples_per_second": 533.589, "eval_steps_per_second": 2.668}
    write_json(os.path.join(root, "calib", "eval_results.json"), ev, indent=4, sort_keys=True)
    write_json(os.path.join(root, "calib", "all_results.json"), ev, indent=4, sort_keys=True)
    lines = ["Loading float weights from ./float/checkpoint-%d" % (p.res["float"]["iters"] * 12),
             "prepare_qat_fx: backend=qnnpack", "Calibrating: 16 batches x 64 images, observers on, fake-quant off",
             "Calibration done, fake-quant enabled",
             "***** Running Evaluation *****", "  Num examples = 1000", "  Batch size = 200"]
    lines.append(repr({k: v for k, v in ev.items()}))
    lines += _pretty_metrics("eval", ev)
    write(os.path.join(root, "calib", "calibrate.log"), "\n".join(lines) + "\n")


def c08_hf_qat_not_learning():
    cid = "c08_hf_qat_not_learning"
    root = case_dir(cid)
    saved = {}

    def hook(ep, model):
        saved[ep] = {k: v.detach().clone() for k, v in model.state_dict().items()}

    p = std_pipeline(31, 31, skip_qat=True, fx=True)
    # the optimizer was created for the float model; prepare_qat_fx then worked on a deep copy
    fm = copy.deepcopy(p.float_model)
    opt = E.make_optimizer(fm.parameters(), "sgd", 0.005, 0.9, 5e-5)
    q = copy.deepcopy(p.calib_model)
    p.run_qat(start_model=q, epochs=3, lr=0.005, sched="cos", bs=64, optimizer=opt, epoch_hook=hook)
    R = p.res["qat"]
    wn = [e["wnorm"] for e in R["evals"]]
    need(max(wn) - min(wn) == 0.0, "weights changed")
    wkeys = [k for k in saved[0] if k.endswith("weight") and "post_process" not in k and "fake_quant" not in k]
    need(all(bool((saved[0][k] == saved[2][k]).all()) for k in wkeys), "checkpoint weights differ")
    clk = Clock("2024-08-14 16:20:00", 31)
    _float_part(p, root, clk)
    _calib_part(p, root)
    import torch
    hist = hf_log_history(R, 10, R["iters"])
    hist = _merge(hist, _int8_hist(R))

    def ck(ep, d):
        torch.save(saved[ep], os.path.join(d, "pytorch_model.bin"))

    fin, ev = _write_run(root, "qat", R, 3, 64, _nparams(q), 41.2, hist, ckpt_hook=ck,
                         extra_results={"int8_accuracy": R["int8_final"]["acc1"] / 100.0,
                                        "int8_loss": R["int8_final"]["loss"]})
    lines = ["Loading calibrated model from ./calib", "Building optimizer: SGD(lr=0.005, momentum=0.9)",
             "prepare_qat_fx done (backend=qnnpack), fake-quant and observers enabled"]
    lines += _train_console(R, hist, _nparams(q), 3, 64, "./qat")
    lines.append(repr(_console_order({k: v for k, v in fin.items() if k not in ("step", "total_flos")})))
    lines += _pretty_metrics("train", {k: v for k, v in fin.items() if k != "step"})
    write(os.path.join(root, "qat", "train.log"), "\n".join(lines) + "\n")
    return entry(cid, LAYOUT, "HF Trainer QAT whose optimizer was built from the float model before "
                 "prepare_qat_fx(deepcopy(model)): the QAT model's weights never change (identical weights in "
                 "checkpoint-62/124/186 pytorch_model.bin), the loss stays flat and eval/int8 accuracy barely move.",
                 False, ["qat.not_learning"],
                 {"qat.worse_than_calibration": "a QAT that cannot update its weights may end a few tenths below "
                                                "the calibration accuracy (observer drift only)"},
                 numbers(p, dict(
                     qat_weight_norm_per_epoch=wn, qat_top1_per_epoch=[round(e["acc1"], 2) for e in R["evals"]],
                     qat_train_loss_per_epoch=[round(e["train_loss"], 4) for e in R["evals"]])))


def c09_hf_pipeline_int8_prefix():
    cid = "c09_hf_pipeline_int8_prefix"
    root = case_dir(cid)
    p = healthy_pipeline([32, 132, 232, 332], fx=True)
    clk = Clock("2024-09-03 09:00:00", 32)
    _float_part(p, root, clk)
    _calib_part(p, root)
    R = p.res["qat"]
    hist = _merge(hf_log_history(R, 10, R["iters"]), _int8_hist(R))
    fin, ev = _write_run(root, "qat", R, 3, 64, _nparams(p.qat_model), 44.7, hist,
                         extra_results={"int8_accuracy": R["int8_final"]["acc1"] / 100.0,
                                        "int8_loss": R["int8_final"]["loss"]})
    lines = ["Loading calibrated model from ./calib",
             "QAT: fake-quant + observers on; an Int8EvalCallback converts a copy with convert_fx after each epoch "
             "and calls trainer.evaluate(metric_key_prefix='int8')"]
    lines += _train_console(R, hist, _nparams(p.qat_model), 3, 64, "./qat")
    lines.append(repr(_console_order({k: v for k, v in fin.items() if k not in ("step", "total_flos")})))
    lines += _pretty_metrics("train", {k: v for k, v in fin.items() if k != "step"})
    write(os.path.join(root, "qat", "train.log"), "\n".join(lines) + "\n")
    return entry(cid, LAYOUT, "Healthy pipeline run with the HF Trainer: float/ and qat/ trainer_state.json, "
                 "calibration as a lone eval_results.json, and the converted int8 model evaluated with "
                 "metric_key_prefix='int8' so its results appear as int8_accuracy/int8_loss entries in the QAT "
                 "log_history.", True, [], {}, numbers(p))


CASES = [c08_hf_qat_not_learning, c09_hf_pipeline_int8_prefix]
