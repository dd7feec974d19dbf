"""The four pipeline stages (float, calibration, QAT, quantized eval), each writing one run folder.

Every stage really trains / calibrates / converts the tiny model with torch.ao.quantization; a
case only changes the settings (learning rate, scheduler, what is loaded, which data), never the
logged numbers.
"""
import copy
import warnings

import torch
import torch.nn.functional as F
import torch.ao.quantization as tq

import hat_log
import tiny_qat as tqat
from hat_log import StageLog

N_TRAIN, N_VAL = 2048, 4096
_DATA = {}


def data():
    if not _DATA:
        _DATA["train"] = tqat.make_split(N_TRAIN, 1)
        _DATA["val"] = tqat.make_split(N_VAL, 2)
    return _DATA["train"], _DATA["val"]


def _optimizer_items(c):
    items = [("lr", c["lr"]), ("optimizer", "SGD"), ("momentum", 0.9),
             ("weight_decay", c["weight_decay"]), ("lr_scheduler", c["scheduler"])]
    if c["scheduler"] == "StepLR":
        items += [("lr_step_size", c["step_size"]), ("lr_gamma", c["gamma"])]
    else:
        items += [("max_lr", c["lr"]), ("pct_start", 0.3)]
    return items


def _make_scheduler(opt, c, steps_per_epoch):
    """Returns (scheduler, stepped_per_iteration)."""
    if c["scheduler"] == "OneCycleLR":
        return torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=c["lr"], total_steps=c["epochs"] * steps_per_epoch, pct_start=0.3), True
    return torch.optim.lr_scheduler.StepLR(opt, c["step_size"], c["gamma"]), False


def _keep_float(model, layers):
    """Layers the user 'kept in high precision' by switching their output fake quant off."""
    for layer in (layers or "").split(","):
        if layer:
            app = getattr(model, layer).activation_post_process
            app.disable_fake_quant()
            app.disable_observer()


def train_loop(log, clock, model, opt, c, prefix, val_prefix, ckpt, val_fn, overrides=None,
               epoch_hook=None, weights=None):
    """HAT-like loop: metric line every log_freq steps (window averages), val each epoch."""
    (x, y), _ = data()
    ws = c.get("world_size", 1)
    eff_batch = c["batch"] * ws  # world_size ranks of c["batch"] each, simulated as one batch
    samples = c.get("samples_per_epoch")
    spe = (samples or N_TRAIN) // eff_batch
    sched, per_step = _make_scheduler(opt, c, spe)
    dataset = tqat.SampleList(x, y, overrides, weights)
    gstep = 0
    for epoch in range(c["epochs"]):
        model.train()
        if epoch_hook:
            epoch_hook(epoch)
        w_loss, w_steps, w_correct, w_n = 0.0, 0, 0, 0
        batches = tqat.epoch_batches(N_TRAIN, eff_batch, c["seed"], epoch, samples)
        for step, (xb, yb, wb) in enumerate(tqat.loader(dataset, batches)):
            lr = opt.param_groups[0]["lr"]
            out = model(xb)
            loss = (F.cross_entropy(out, yb, reduction="none") * wb).mean()
            opt.zero_grad()
            if torch.isfinite(loss):
                loss.backward()
                if c.get("clip"):
                    torch.nn.utils.clip_grad_norm_(model.parameters(), c["clip"])
                opt.step()
            else:
                # The usual trainer guard: keep the weights finite, report and go on.
                log.warning("non-finite loss (%s) at global step %d, optimizer step skipped"
                            % (loss.item(), gstep))
            if per_step:
                sched.step()
            w_loss += loss.item()
            w_steps += 1
            w_correct += (out.argmax(1) == yb).sum().item()
            w_n += len(yb)
            clock.step()
            if (step + 1) % c["freq"] == 0:
                log.step_metrics(epoch, step, gstep, prefix,
                                 [("loss", w_loss / w_steps), ("acc", w_correct / w_n)], lr)
                w_loss, w_steps, w_correct, w_n = 0.0, 0, 0, 0
            gstep += 1
        if not per_step:
            sched.step()
        acc, vloss = val_fn(model)
        log.epoch_metrics(epoch, val_prefix, [("acc", acc), ("loss", vloss)], gstep - 1)
        log.checkpoint(epoch, ckpt)
    return model


def _spe(c):
    return (c.get("samples_per_epoch") or N_TRAIN) // (c["batch"] * c.get("world_size", 1))


def run_float(folder, c, clock, side_formats=False):
    log = StageLog(folder, clock, jsonl=side_formats)
    if c.get("no_gpu"):
        # This Debian torch is built without CUDA, so it cannot emit this warning itself; the
        # text is torch 1.13's own message, formatted by the real warnings module.
        msg = warnings.formatwarning(
            "CUDA initialization: Found no NVIDIA driver on your system. Please check that you "
            "have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx "
            "(Triggered internally at ../c10/cuda/CUDAFunctions.cpp:109.)", UserWarning,
            "/usr/lib/python3/dist-packages/torch/cuda/__init__.py", 88,
            "return torch._C._cuda_getDeviceCount() > 0")
        log.warning(msg.rstrip("\n"), hat_log.SRC_WARN)
        log.warning("CUDA is not available, falling back to CPU", ("train.py", 52))
    log.config([("task_name", "tiny_cls"), ("training_step", "float"), ("march", "nash-e"),
                ("batch_size", c["batch"]), ("world_size", c.get("world_size", 1)),
                ("epochs", c["epochs"])] + _optimizer_items(c)
               + [("log_freq", c["freq"]), ("num_classes", tqat.NUM_CLASSES),
                  ("input_shape", "[3, 16, 16]"), ("seed", c["seed"])])
    log.info("steps_per_epoch: %d" % _spe(c))
    torch.manual_seed(c["seed"])
    model = tqat.TinyNet()
    opt = torch.optim.SGD(model.parameters(), lr=c["lr"], momentum=0.9,
                          weight_decay=c["weight_decay"])
    _, (xv, yv) = data()
    train_loop(log, clock, model, opt, c, "float_train", "float_val",
               "float-checkpoint-last.pth.tar", lambda m: tqat.evaluate(m, xv, yv))
    log.info("Training finished")
    log.close()
    return model


def run_calibration(folder, float_model, c, clock):
    (x, y), (xv, yv) = data()
    log = StageLog(folder, clock)
    ws = c.get("world_size", 1)
    per_rank = c["batches"] // ws
    log.config([("task_name", "tiny_cls"), ("training_step", "calibration"), ("march", "nash-e"),
                ("batch_size", c["batch"]), ("world_size", ws), ("epochs", 1),
                ("optimizer", "None"), ("lr_scheduler", "None"), ("log_freq", c["freq"]),
                ("num_calib_batches", c["batches"]), ("seed", c["seed"])])
    log.info("steps_per_epoch: %d" % per_rank)
    log.info("Load float checkpoint from ./float-checkpoint-last.pth.tar", hat_log.SRC_LOAD)
    model = tqat.prepare_qat(float_model)
    tqat.set_calibration_mode(model)
    _keep_float(model, c.get("float_layer"))
    if c.get("float_layer"):
        log.info("%s output kept in float (fake quant and observer disabled)"
                 % " and ".join(c["float_layer"].split(",")))
    model.eval()
    batches = tqat.epoch_batches(N_TRAIN, c["batch"], c["seed"], 0)[:c["batches"]]
    if c.get("garbage"):
        # A calibration loader that skipped normalisation: raw 0..255 pixel values.
        g = torch.Generator().manual_seed(c["seed"])
        calib = [(torch.rand(c["batch"], 3, 16, 16, generator=g) * 255.0, y[b]) for b in batches]
    else:
        calib = [(x[b], y[b]) for b in batches]
    # Each simulated rank observes its own share; only rank 0's observers end up in the
    # checkpoint (ranges are not synchronised), which is what goes wrong with multi-GPU calib.
    ranks = [model] + [copy.deepcopy(model) for _ in range(ws - 1)]
    w_loss, w_correct, w_n, w_steps = 0.0, 0, 0, 0
    with torch.no_grad():
        for i, (xb, yb) in enumerate(calib):
            out = ranks[i % ws](xb)
            if i % ws:
                continue
            step = i // ws
            w_loss += F.cross_entropy(out, yb).item()
            w_steps += 1
            w_correct += (out.argmax(1) == yb).sum().item()
            w_n += len(yb)
            clock.step(0.08)
            if (step + 1) % c["freq"] == 0 or step + 1 == per_rank:
                log.step_metrics(0, step, step, "calibration",
                                 [("loss", w_loss / w_steps), ("acc", w_correct / w_n)])
                w_loss, w_correct, w_n, w_steps = 0.0, 0, 0, 0
    tqat.set_fake_quant_eval_mode(model)
    _keep_float(model, c.get("float_layer"))
    acc, vloss = tqat.evaluate(model, xv, yv)
    log.epoch_metrics(0, "calib_val", [("acc", acc), ("loss", vloss)])
    log.checkpoint(0, "calibration-checkpoint-last.pth.tar")
    log.info("Calibration finished")
    log.close()
    return model


def run_qat(folder, float_model, calib_model, c, clock, side_formats=False):
    (x, y), (xv, yv) = data()
    log = StageLog(folder, clock, csv=side_formats, jsonl=c.get("jsonl", False),
                   tfevents_host="gpu-node0" if side_formats else None)
    log.config([("task_name", "tiny_cls"), ("training_step", "qat"), ("march", "nash-e"),
                ("batch_size", c["batch"]), ("world_size", c.get("world_size", 1)),
                ("epochs", c["epochs"])] + _optimizer_items(c)
               + [("log_freq", c["freq"]), ("num_classes", tqat.NUM_CLASSES),
                  ("input_shape", "[3, 16, 16]"), ("seed", c["seed"])])
    log.info("steps_per_epoch: %d" % _spe(c))
    torch.manual_seed(c["seed"])
    opt_kw = dict(lr=c["lr"], momentum=0.9, weight_decay=c["weight_decay"])
    if c.get("optimizer_before_prepare"):
        # The FAQ's 'weights do not update' bug: the optimizer holds the float model's
        # parameters, prepare() works on a copy, so no QAT parameter is ever stepped.
        base = copy.deepcopy(float_model)
        opt = torch.optim.SGD(base.parameters(), **opt_kw)
        model = tqat.prepare_qat(base)
    elif c.get("load_calib", True):
        model = tqat.prepare_qat(float_model)
        opt = None
    else:
        # The QAT config names no checkpoint: neither the float weights nor the calibrated
        # scales are loaded, the model starts from its random initialisation.
        model = tqat.prepare_qat(tqat.TinyNet())
        opt = None
    if c.get("load_calib", True):
        model.load_state_dict(calib_model.state_dict())
        log.info("Load calibration checkpoint from ./calibration-checkpoint-last.pth.tar",
                 hat_log.SRC_LOAD)
    else:
        log.warning("checkpoint is None, skip loading", hat_log.SRC_LOAD)
    tqat.set_qat_mode(model)
    if c.get("fixed_scales"):
        model.apply(tq.disable_observer)
        log.info("Observers disabled: QAT keeps the calibrated scales fixed")
    _keep_float(model, c.get("float_layer"))
    if c.get("float_layer"):
        log.info("%s output kept in float (fake quant and observer disabled)"
                 % " and ".join(c["float_layer"].split(",")))
    if opt is None:
        opt = torch.optim.SGD(model.parameters(), **opt_kw)
    overrides, weights = _faults(c, x)

    def freeze(epoch):
        # torch's QAT recipe: freeze BN statistics, then the observers, for the last epochs.
        if epoch == c["freeze_bn_epoch"]:
            model.apply(torch.nn.intrinsic.qat.freeze_bn_stats)
            log.info("Epoch %d: BN statistics frozen" % epoch)
        if epoch == c["freeze_observer_epoch"] and not c.get("fixed_scales"):
            model.apply(tq.disable_observer)
            _keep_float(model, c.get("float_layer"))
            log.info("Epoch %d: observers frozen" % epoch)

    try:
        train_loop(log, clock, model, opt, c, "qat_train", "qat_val",
                   "qat-checkpoint-last.pth.tar", lambda m: tqat.evaluate(m, xv, yv), overrides,
                   freeze, weights)
    except Exception:
        log.exception("Training failed with an exception, exiting")
        log.close()
        return None
    log.info("Training finished")
    log.close()
    return model


def _faults(c, x):
    """Corrupt samples placed where the sampler will deliver them at a chosen (epoch, step)."""
    overrides, weights = {}, {}
    eff_batch = c["batch"] * c.get("world_size", 1)
    n = c.get("samples_per_epoch")
    # Annotation errors in per-sample loss weights: an inf (1/0 class frequency) and a NaN (an
    # empty field read as NaN). An inf/NaN *image* cannot be used: torch's fused observer then
    # aborts the run ("min should be less than or equal to max") instead of logging NaN.
    for key, value in (("inf_weight_at", float("inf")), ("nan_weight_at", float("nan"))):
        if c.get(key):
            epoch, step = c[key]
            weights[tqat.epoch_batches(N_TRAIN, eff_batch, c["seed"], epoch, n)[step][5]] = value
    if c.get("short_sample_at"):
        epoch, step = c["short_sample_at"]
        seen = set()
        for e in range(epoch):
            for b in tqat.epoch_batches(N_TRAIN, eff_batch, c["seed"], e, n):
                seen.update(b)
        batch = tqat.epoch_batches(N_TRAIN, eff_batch, c["seed"], epoch, n)[step]
        k = next(i for i in batch if i not in seen)  # first delivered at that step
        overrides[k] = x[k][:, :, :15].clone()  # an image decoded one column short
    return overrides, weights


def run_quantized(folder, qat_model, clock):
    _, (xv, yv) = data()
    log = StageLog(folder, clock, log_name="eval.log")
    log.config([("task_name", "tiny_cls"), ("training_step", "int_infer"), ("march", "nash-e"),
                ("batch_size", 256), ("world_size", 1), ("engine", tqat.ENGINE)])
    log.info("Load qat checkpoint from ./qat-checkpoint-last.pth.tar", hat_log.SRC_LOAD)
    log.info("Convert qat model to quantized model")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        qmodel = tqat.convert_int8(qat_model)
    for w in caught:
        log.warning(warnings.formatwarning(w.message, w.category, w.filename, w.lineno).rstrip("\n"),
                    hat_log.SRC_WARN)
    clock.step(2.0)
    acc, vloss = tqat.evaluate(qmodel, xv, yv)
    log.epoch_metrics(0, "quantized_val", [("acc", acc), ("loss", vloss)])
    log.info("Evaluation finished")
    log.close()
