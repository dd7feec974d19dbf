"""Runs the real pipeline stages of stages.py and records what each stage logs, step by step.

make_diagnosis_corpus.py needs the same training in many log layouts (HAT text, Lightning CSV,
TensorBoard, per-epoch lines, ...). Instead of writing HAT text directly, every stage of
stages.py is run with `stages.StageLog` replaced by `Recorder`, which keeps each logging call
(with the simulated clock's time) and the per-step metrics (the stages run with freq=1, so
every training step is recorded). diag_render.py then writes the layouts from the records,
each with its own logging policy (HAT window means every N steps, Lightning's batch value every
N steps, epoch means, ...). Nothing here changes how a stage trains.

Three small hooks, all through stages.py's and tiny_qat.py's module attributes:
  * train_loop is wrapped to measure the model's parameters before and after training (and, when
    the config asks for it, to log their norm and checksum as a training script would);
  * float configs with `n_train` train on the first n images only (stages.N_TRAIN);
  * float configs with `nan_val_at` see one validation image as NaN in that one evaluation.
"""
import contextlib
import hashlib
import os
import sys
import traceback

import torch

import hat_log
import stages
import tiny_qat
from hat_log import Clock, REPO_ROOT


class Recorder:
    """Stand-in for hat_log.StageLog with the same methods; keeps entries instead of lines."""

    created = []

    def __init__(self, folder, clock, log_name="train.log", csv=False, jsonl=False,
                 tfevents_host=None):
        self.name = folder
        self.clock = clock
        self.log_name = log_name
        self.entries = []
        self.params = None
        Recorder.created.append(self)

    def _add(self, kind, **kw):
        kw["kind"] = kind
        kw["t"] = self.clock.now()
        self.entries.append(kw)

    def info(self, msg, src=hat_log.SRC_TRAIN):
        self._add("info", msg=msg, src=src)

    def warning(self, msg, src=hat_log.SRC_TRAIN):
        self._add("warning", msg=msg, src=src)

    def exception(self, msg, src=hat_log.SRC_CRASH):
        # as logging.exception formats it, minus the frame of this module's train_loop wrapper
        te = traceback.TracebackException(*sys.exc_info())
        te.stack = traceback.StackSummary.from_list(
            [f for f in te.stack if os.path.basename(f.filename) != "diag_record.py"])
        tb = "".join(te.format()).rstrip("\n").replace(REPO_ROOT + os.sep, "")
        self._add("exception", msg=msg, src=src, tb=tb)

    def config(self, items):
        self._add("config", items=list(items))

    def step_metrics(self, epoch, step, gstep, prefix, metrics, lr=None):
        self._add("step", epoch=epoch, step=step, gstep=gstep, prefix=prefix,
                  metrics=dict(metrics), lr=lr)

    def epoch_metrics(self, epoch, prefix, metrics, gstep=None):
        self._add("val", epoch=epoch, prefix=prefix, metrics=dict(metrics), gstep=gstep)

    def checkpoint(self, epoch, name):
        self._add("ckpt", epoch=epoch, name=name)

    def close(self):
        self._add("close")


def _param_vector(model):
    return torch.cat([p.detach().reshape(-1).double() for p in model.parameters()])


def param_summary(model):
    v = _param_vector(model)
    digest = hashlib.sha1(v.float().numpy().tobytes()).hexdigest()[:12]
    return {"norm": float(v.norm()), "sha1": digest}


_orig_train_loop = stages.train_loop


def _train_loop(log, clock, model, opt, c, *args, **kw):
    before = _param_vector(model).clone()
    summary = param_summary(model)
    if c.get("log_param_checksum"):
        log.info("parameters before training: norm %.6f sha1 %s" % (summary["norm"], summary["sha1"]))
    out = _orig_train_loop(log, clock, model, opt, c, *args, **kw)
    after = _param_vector(model)
    changed = float((after - before).abs().max())
    rel = float((after - before).norm() / before.norm())
    summary_after = param_summary(model)
    if c.get("log_param_checksum"):
        log.info("parameters after training: norm %.6f sha1 %s"
                 % (summary_after["norm"], summary_after["sha1"]))
    log.params = {"before": summary, "after": summary_after, "max_abs_change": changed,
                  "relative_change": rel, "identical": changed == 0.0}
    return out


@contextlib.contextmanager
def recording():
    """stages.py's StageLog and train_loop replaced for the duration (one process, one case)."""
    saved = stages.StageLog, stages.train_loop
    stages.StageLog, stages.train_loop = Recorder, _train_loop
    Recorder.created = []
    try:
        yield
    finally:
        stages.StageLog, stages.train_loop = saved


@contextlib.contextmanager
def _float_hooks(c):
    stages.data()  # the splits are made once, at full size, before N_TRAIN is changed
    saved_n, saved_eval = stages.N_TRAIN, tiny_qat.evaluate
    if c.get("n_train"):
        stages.N_TRAIN = c["n_train"]
    if c.get("nan_val_at"):
        epoch, index = c["nan_val_at"]
        calls = [0]

        def evaluate(model, x, y, batch=256):
            # A validation image read while another process rewrote it: decoded as NaN in
            # this one evaluation, intact in the next.
            if calls[0] == epoch:
                x = x.clone()
                x[index] = float("nan")
            calls[0] += 1
            return saved_eval(model, x, y, batch)

        tiny_qat.evaluate = evaluate
    try:
        yield
    finally:
        stages.N_TRAIN, tiny_qat.evaluate = saved_n, saved_eval


def _stage_record(rec, name, role, cfg):
    return {"name": name, "role": role, "cfg": cfg, "entries": rec.entries, "params": rec.params,
            "log_name": rec.log_name}


def train_float(cfg, start_t, seed):
    """(record, state_dict, end time) of one float run."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    clock = Clock(start_t, seed)
    with recording(), _float_hooks(cfg):
        model = stages.run_float("float", dict(cfg, freq=1), clock)
        rec = Recorder.created[-1]
    return _stage_record(rec, "float", "float", cfg), model.state_dict(), clock.t


def run_pipeline(float_result, plan, seed):
    """Runs the plan's stages after a (cached) float run.

    plan: list of dicts {name, role: calibration|qat|quantized, cfg, source (quantized: name of
    the qat run it converts; qat: name of the calibration run it loads), gap (s before it)}.
    Returns the records in order, the float record first.
    """
    torch.set_num_threads(1)
    torch.manual_seed(0)
    float_rec, state, end_t = float_result
    float_model = tiny_qat.TinyNet()
    float_model.load_state_dict(state)
    float_model.eval()
    clock = Clock(end_t, seed)
    records, models = [float_rec], {}
    with recording():
        for st in plan:
            clock.t += st.get("gap", 45.0)
            c = dict(st["cfg"], freq=1)
            if st["role"] == "calibration":
                models[st["name"]] = stages.run_calibration(st["name"], float_model, c, clock)
            elif st["role"] == "qat":
                calib = models[st.get("source", "calibration")]
                models[st["name"]] = stages.run_qat(st["name"], float_model, calib, c, clock)
            elif st["role"] == "quantized":
                qat_model = models.get(st.get("source", "qat"))
                if qat_model is None:
                    continue  # the QAT run crashed: nothing to convert
                stages.run_quantized(st["name"], qat_model, clock)
            else:
                raise ValueError(st["role"])
            records.append(_stage_record(Recorder.created[-1], st["name"], st["role"], st["cfg"]))
    return records
