#!/usr/bin/python3
"""Planted-problem corpus for scoring QAT Doctor's diagnosis: real runs, many log layouts.

usage: /usr/bin/python3 tests/gen/make_diagnosis_corpus.py [--out DIR] [--case NAME ...] [--jobs N]
                                                           [--list]

Trains the tiny CNN of tiny_qat.py through float -> calibration -> QAT -> int8 with Debian's
python3-torch 1.13 on the CPU (engine qnnpack), reusing make_runs.py's settings and stages.py's
training code. Each case plants one training-side FAQ symptom through settings (a huge lr, an
unloaded calibration, an optimizer bound before prepare(), ...) or is a healthy run, and writes
its stages in one of several shapes: one folder per stage, all stages in one console log, a
QAT script's log that also prints the calibration result, Lightning CSV, TensorBoard only,
per-epoch lines, plain Python logging, Hugging Face trainer_state.json, short runs, sweeps.

The manifest's facts are measured on the written values (diag_facts.py); a planted id whose
condition does not hold in those numbers stops the generator, and so does any condition that
holds in a healthy case without being allowed there. Deterministic: fixed seeds, one torch
thread per process, simulated log clock. Float runs shared by several cases are trained once.

Writes <out>/<case>/..., <out>/MANIFEST.json and <out>/README.md (default out:
tests/data/diagnosis).
"""
import argparse
import calendar
import json
import multiprocessing
import os
import resource
import shutil
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import diag_facts  # noqa: E402
import diag_record  # noqa: E402
import diag_render as R  # noqa: E402
import make_runs  # noqa: E402
from hat_log import REPO_ROOT  # noqa: E402

BASE_TIME = calendar.timegm((2026, 12, 7, 9, 0, 0))
OUT = os.path.join(REPO_ROOT, "tests", "data", "diagnosis")

ALL_IDS = ["loss.nonfinite", "loss.divergence", "run.crashed", "qat.start_loss_high",
           "qat.trend_mismatch", "qat.worse_than_calibration", "qat.quantized_gap",
           "qat.no_quantized_eval", "qat.not_learning", "calib.low_accuracy", "calib.multi_gpu",
           "float.not_converged", "float.overfit", "train.batch_scaled_lr_unchanged",
           "train.aggressive_lr_schedule", "env.no_gpu", "config.march"]

SHAPES = {
    "folders": "one HAT text log per stage: float/train.log, calibration/train.log, qat/train.log, "
               "quantized/eval.log",
    "one_log": "all four stages in one console capture run.log (tools/train.py --stage float, "
               "calibration, qat, tools/predict.py --stage int_infer, with HAT's BEGIN/END banners)",
    "script_log": "float/train.log, then one console capture pipeline.log holding calibration, QAT "
                  "and the int_infer evaluation",
    "qat_prints_calib": "float/, qat/, quantized/ HAT logs; no calibration folder: the QAT script "
                        "evaluates the loaded calibration model and prints `calib_val:` itself",
    "lightning_csv": "PyTorch Lightning CSVLogger per stage: <stage>/lightning_logs/version_N/"
                     "metrics.csv + hparams.yaml (batch values every 8 steps, epoch means, val)",
    "tensorboard": "TensorBoard event files only, one SummaryWriter log dir per stage "
                   "(train/loss, train/acc, train/lr, val/loss, val/acc)",
    "per_epoch": "plain Python logging, one line of training metrics per epoch (epoch means) and "
                 "one Val line per epoch, a pprint'ed config dict first",
    "pylogging": "logging.basicConfig default format (INFO:root:...), argparse Namespace first, "
                 "'epoch e step i/N train_loss: ...' every 16 steps",
    "hf_trainer": "Hugging Face Trainer output dirs: trainer_state.json per stage (eval-only "
                  "stages: one eval entry + eval_results.json)",
    "short": "one HAT log per stage, but short runs: a QAT smoke test of one 16-step epoch, or a "
             "float run stopped inside its first epoch",
    "sweep": "one HAT log per stage and several QAT runs side by side (qat_lr*/ or qat_bs*/), "
             "the chosen one converted in quantized/",
}

F0, C0, Q0 = make_runs.FLOAT, make_runs.CALIB, make_runs.QAT
SHORT_QAT = dict(epochs=1, samples_per_epoch=512, freq=2)  # 16 steps, 8 logged points
WS4 = dict(world_size=4, freq=2)

NAN = dict(inf_weight_at=(0, 37), nan_weight_at=(0, 50))
DIVERGE = dict(lr=1.0, weight_decay=0.0)
CRASH = dict(samples_per_epoch=1536, short_sample_at=(1, 20))
NOCALIB = dict(load_calib=False)
WORSE = dict(lr=0.02, weight_decay=0.05)
KEEPFLOAT = dict(float_layer="quant")
FROZEN = dict(optimizer_before_prepare=True, fixed_scales=True, log_param_checksum=True)
NOT_CONVERGED = dict(epochs=3, lr=0.005, step_size=10)
OVERFIT = dict(n_train=160, epochs=40, lr=0.05, step_size=30, weight_decay=0.0, freq=5)
ONECYCLE = dict(scheduler="OneCycleLR", lr=0.1)
GARBAGE = dict(batches=1, garbage=True)


def case(shape, desc, planted, F=None, C=None, Q=None, qats=None, quantized="qat",
         allow=None, healthy=False, march=None, max_severity=None, lightning_versions=None):
    """qats: [(run name, QAT overrides)] replacing the single 'qat' run; quantized: the qat run
    the int8 eval converts (None: no int8 eval). allow: {id: reason} beyond the measured
    consequences. march: {run: march} as printed in that run's config (planting config.march)."""
    if qats is None:
        qats = [("qat", Q or {})]
    return dict(shape=shape, desc=desc, planted=list(planted), float=dict(F0, **(F or {})),
                calib=dict(C0, **(C or {})), qats=[(n, dict(Q0, **q)) for n, q in qats],
                quantized=quantized, allow=allow or {}, healthy=healthy, march=march or {},
                max_severity=max_severity, lightning_versions=lightning_versions or {})


CASES = {
    # --- non-finite loss ------------------------------------------------------------------
    "nan_loss_folders": case("folders", "two training samples carry a non-finite loss weight "
                             "(inf, NaN): the weighted QAT loss is inf/NaN on every batch holding "
                             "one (first at epoch 0 steps 37 and 50, then once per epoch each); "
                             "the trainer skips those updates and logs a warning each time",
                             ["loss.nonfinite"], Q=NAN),
    "nan_loss_tensorboard": case("tensorboard", "one training sample's loss weight is NaN (an "
                                 "empty annotation field): the QAT loss is NaN on the batch holding "
                                 "it, once per epoch (first at step 12), and so is the window mean "
                                 "written to TensorBoard", ["loss.nonfinite"],
                                 Q=dict(nan_weight_at=(0, 12))),
    "nan_loss_lightning": case("lightning_csv", "one sample's loss weight is NaN: the loss is "
                               "NaN on the batch holding it once per epoch; Lightning logs only "
                               "every 8th batch, so train_loss_step shows it once (global step 39, "
                               "epoch 0) while train_loss_epoch is nan in every epoch",
                               ["loss.nonfinite"], Q=dict(nan_weight_at=(0, 39))),
    "nan_loss_hf": case("hf_trainer", "one sample's loss weight is NaN (batch of epoch 0 step "
                        "30, then once per epoch); the Trainer runs with "
                        "logging_nan_inf_filter=False, so each logged mean over 8 steps holding "
                        "it is NaN, and so is the closing train_loss",
                        ["loss.nonfinite"], Q=dict(nan_weight_at=(0, 30))),
    "nan_loss_short": case("short", "a 16-step QAT smoke test whose batch at step 9 holds a "
                           "sample with a NaN loss weight", ["loss.nonfinite"],
                           Q=dict(SHORT_QAT, nan_weight_at=(0, 9))),
    # --- divergence -----------------------------------------------------------------------
    "divergence_folders": case("folders", "QAT with lr 1.0 (10x float's peak), no weight decay: "
                               "once BN statistics freeze the loss grows by orders of magnitude "
                               "yet stays finite", ["loss.divergence"], Q=DIVERGE),
    "divergence_one_log": case("one_log", "QAT lr 1.0 without weight decay, all stages in one "
                               "console log", ["loss.divergence"], Q=DIVERGE),
    "divergence_tensorboard": case("tensorboard", "QAT lr 1.0 without weight decay, TensorBoard "
                                   "scalars only", ["loss.divergence"], Q=DIVERGE),
    "divergence_per_epoch": case("per_epoch", "QAT lr 1.0 without weight decay over 5 epochs, "
                                 "training loss logged as epoch means", ["loss.divergence"],
                                 Q=dict(DIVERGE, epochs=5, step_size=3)),
    # --- crash ----------------------------------------------------------------------------
    "crashed_folders": case("folders", "QAT samples 1536 of 2048 images per epoch; an image "
                            "decoded one column short reaches default_collate at epoch 1 step 20: "
                            "RuntimeError logged with logging.exception, no int8 eval",
                            ["run.crashed"], Q=CRASH),
    "crashed_one_log": case("one_log", "the same collate crash inside the QAT stage of one "
                            "console log; set -e stops the script, int_infer never runs",
                            ["run.crashed"], Q=CRASH),
    "crashed_pylogging": case("pylogging", "collate crash at QAT epoch 1 step 20, traceback "
                              "through logging.exception with the root logger",
                              ["run.crashed"], Q=CRASH),
    "crashed_short": case("short", "a QAT smoke test that dies at its 7th step (an image one "
                          "column short)", ["run.crashed"],
                          Q=dict(SHORT_QAT, short_sample_at=(0, 6))),
    # --- calibration not loaded -----------------------------------------------------------
    "calib_not_loaded_folders": case("folders", "the QAT config names no checkpoint: neither the "
                                     "calibration scales nor the float weights are loaded, QAT "
                                     "starts from random init", ["qat.start_loss_high"], Q=NOCALIB),
    "calib_not_loaded_one_log": case("one_log", "QAT starts from random init (checkpoint is None, "
                                     "skip loading), all stages in one console log",
                                     ["qat.start_loss_high"], Q=NOCALIB),
    "calib_not_loaded_lightning": case("lightning_csv", "QAT LightningModule built without "
                                       "loading the calibration checkpoint",
                                       ["qat.start_loss_high"], Q=NOCALIB),
    "calib_not_loaded_tensorboard": case("tensorboard", "QAT from random init, TensorBoard only",
                                         ["qat.start_loss_high"], Q=NOCALIB),
    # --- QAT worse than calibration -------------------------------------------------------
    "worse_than_calib_folders": case("folders", "QAT with weight decay 0.05 (100x) and lr 0.02 "
                                     "(2x float's final lr): val accuracy ends below calibration",
                                     ["qat.worse_than_calibration"], Q=WORSE),
    "worse_than_calib_qat_prints_calib": case("qat_prints_calib", "weight decay 0.05 and lr 0.02 "
                                              "in QAT; the calibration accuracy is only in the QAT "
                                              "log's calib_val line",
                                              ["qat.worse_than_calibration"], Q=WORSE),
    "worse_than_calib_hf": case("hf_trainer", "weight decay 0.05 and lr 0.02 in QAT, Trainer "
                                "output dirs", ["qat.worse_than_calibration"], Q=WORSE),
    "worse_than_calib_one_log": case("one_log", "weight decay 0.05 and lr 0.02 in QAT; "
                                     "calibration, QAT and int_infer accuracies all in one "
                                     "console log", ["qat.worse_than_calibration"], Q=WORSE),
    # --- QAT vs quantized gap -------------------------------------------------------------
    "quantized_gap_folders": case("folders", "conv2's output fake quant and observer are "
                                  "switched off in calibration and QAT ('kept in high "
                                  "precision'); int8 convert uses the untrained observer's "
                                  "default scale", ["qat.quantized_gap"], C=KEEPFLOAT, Q=KEEPFLOAT),
    "quantized_gap_script_log": case("script_log", "conv2 kept in float through calibration and "
                                     "QAT; calibration, QAT and int_infer in one console log",
                                     ["qat.quantized_gap"], C=KEEPFLOAT, Q=KEEPFLOAT),
    "quantized_gap_per_epoch": case("per_epoch", "conv2 kept in float through calibration and "
                                    "QAT, per-epoch lines", ["qat.quantized_gap"],
                                    C=KEEPFLOAT, Q=KEEPFLOAT),
    "quantized_gap_one_log": case("one_log", "conv2 kept in float through calibration and "
                                  "QAT; all four stages in one console log, the int_infer "
                                  "evaluation last", ["qat.quantized_gap"], C=KEEPFLOAT,
                                  Q=KEEPFLOAT),
    # --- QAT not learning -----------------------------------------------------------------
    "not_learning_folders": case("folders", "fixed-scale QAT (observers off after calibration) "
                                 "whose optimizer was created on the float model before "
                                 "prepare(): no QAT parameter is ever updated; the script logs "
                                 "the parameters' norm and sha1 before and after training",
                                 ["qat.not_learning"], Q=FROZEN),
    "not_learning_tensorboard": case("tensorboard", "optimizer bound before prepare(), fixed "
                                     "scales; TensorBoard only (no checksums)",
                                     ["qat.not_learning"], Q=FROZEN),
    "not_learning_per_epoch": case("per_epoch", "optimizer bound before prepare(), fixed scales, "
                                   "per-epoch lines plus the parameter norm/sha1 lines",
                                   ["qat.not_learning"], Q=FROZEN),
    "not_learning_short": case("short", "optimizer bound before prepare() in a 16-step QAT smoke "
                               "test: one evaluation only, identical parameter checksums before "
                               "and after", ["qat.not_learning"], Q=dict(FROZEN, **SHORT_QAT)),
    # --- float not converged --------------------------------------------------------------
    "float_not_converged_folders": case("folders", "float stopped after 3 epochs at lr 0.005 "
                                        "while val accuracy was still rising",
                                        ["float.not_converged"], F=NOT_CONVERGED),
    "float_not_converged_lightning": case("lightning_csv", "float stopped after 3 epochs at lr "
                                          "0.005, Lightning CSV", ["float.not_converged"],
                                          F=NOT_CONVERGED),
    "float_not_converged_tensorboard": case("tensorboard", "float stopped after 3 epochs at lr "
                                            "0.005, TensorBoard only", ["float.not_converged"],
                                            F=NOT_CONVERGED),
    "float_fraction_of_epoch_short": case("short", "float stopped after 32 steps, half of its "
                                          "first epoch (one evaluation at the end), training loss "
                                          "still falling steeply", ["float.not_converged"],
                                          F=dict(epochs=1, samples_per_epoch=1024, freq=2)),
    # --- batch scaled, lr unchanged -------------------------------------------------------
    "batch_scaled_folders": case("folders", "QAT rerun on 4 GPUs (32 per GPU, effective 128) "
                                 "with the lr of the single-GPU QAT run in qat_1gpu/",
                                 ["train.batch_scaled_lr_unchanged"],
                                 qats=[("qat_1gpu", {}), ("qat", WS4)]),
    "batch_scaled_sweep": case("sweep", "QAT batch-size sweep on one GPU (32, 64, 128) keeping "
                               "lr 0.001", ["train.batch_scaled_lr_unchanged"],
                               qats=[("qat_bs32", {}), ("qat_bs64", dict(batch=64, freq=4)),
                                     ("qat_bs128", dict(batch=128, freq=2))],
                               quantized="qat_bs128"),
    "batch_scaled_pylogging": case("pylogging", "QAT on 1 GPU, then on 4 GPUs with the same lr "
                                   "(qat_1gpu/, qat_4gpu/)", ["train.batch_scaled_lr_unchanged"],
                                   qats=[("qat_1gpu", {}), ("qat_4gpu", WS4)],
                                   quantized="qat_4gpu"),
    "batch_scaled_lightning": case("lightning_csv", "QAT rerun with devices=4: "
                                   "qat/lightning_logs/version_0 (1 device) and version_1 "
                                   "(4 devices, same lr)", ["train.batch_scaled_lr_unchanged"],
                                   qats=[("qat_1gpu", {}), ("qat", WS4)],
                                   lightning_versions={"qat_1gpu": ("qat", 0), "qat": ("qat", 1)}),
    # --- aggressive lr schedule -----------------------------------------------------------
    "aggressive_lr_folders": case("folders", "QAT with OneCycleLR, max_lr 0.1 = float's peak lr",
                                  ["train.aggressive_lr_schedule"], Q=ONECYCLE),
    "aggressive_lr_sweep": case("sweep", "QAT lr sweep 0.001 / 0.01 / 0.1 (StepLR); the 0.1 run "
                                "uses float's peak lr; the 0.001 run is converted",
                                ["train.aggressive_lr_schedule"],
                                qats=[("qat_lr0.001", {}), ("qat_lr0.01", dict(lr=0.01)),
                                      ("qat_lr0.1", dict(lr=0.1))], quantized="qat_lr0.001"),
    "aggressive_lr_tensorboard": case("tensorboard", "QAT OneCycleLR max_lr 0.1, TensorBoard "
                                      "only (train/lr scalars)",
                                      ["train.aggressive_lr_schedule"], Q=ONECYCLE),
    "aggressive_lr_lightning": case("lightning_csv", "QAT StepLR from lr 0.08 (0.8x float's "
                                    "peak)", ["train.aggressive_lr_schedule"], Q=dict(lr=0.08)),
    # --- multi-GPU calibration ------------------------------------------------------------
    "multi_gpu_calib_folders": case("folders", "calibration on 2 GPUs (world_size 2, ranges not "
                                    "synchronised: only rank 0's observers are saved)",
                                    ["calib.multi_gpu"], C=dict(world_size=2)),
    "multi_gpu_calib_one_log": case("one_log", "calibration on 2 GPUs, all stages in one console "
                                    "log", ["calib.multi_gpu"], C=dict(world_size=2)),
    "multi_gpu_calib_pylogging": case("pylogging", "calibration on 2 GPUs (Namespace world_size=2)",
                                      ["calib.multi_gpu"], C=dict(world_size=2)),
    # --- float overfit --------------------------------------------------------------------
    "float_overfit_folders": case("folders", "float trained 40 epochs on 160 images without "
                                  "weight decay: it memorises them, val accuracy stays far below",
                                  ["float.overfit"], F=OVERFIT),
    "float_overfit_lightning": case("lightning_csv", "float on 160 images for 40 epochs, "
                                    "Lightning CSV", ["float.overfit"], F=OVERFIT),
    "float_overfit_tensorboard": case("tensorboard", "float on 160 images for 40 epochs, "
                                      "TensorBoard only", ["float.overfit"], F=OVERFIT),
    # --- calibration accuracy low ---------------------------------------------------------
    "calib_low_folders": case("folders", "calibration on one batch of un-normalised data (raw "
                              "0..255 values)", ["calib.low_accuracy"], C=GARBAGE),
    "calib_low_qat_prints_calib": case("qat_prints_calib", "calibration on raw 0..255 data; the "
                                       "QAT script prints the calibrated model's accuracy "
                                       "(calib_val) before training", ["calib.low_accuracy"],
                                       C=GARBAGE),
    # --- others ---------------------------------------------------------------------------
    "no_quantized_eval_script_log": case("script_log", "healthy training, but the script runs "
                                         "calibration and QAT only: no int_infer evaluation",
                                         ["qat.no_quantized_eval"], quantized=None),
    "march_mismatch_folders": case("folders", "the QAT config was copied from an older project: "
                                   "march bayes-e while float, calibration and int_infer use "
                                   "nash-e", ["config.march"], march={"qat": "bayes-e"}),
    "no_gpu_pylogging": case("pylogging", "float log starts with torch's CUDA initialisation "
                             "warning (logging.captureWarnings) and a CPU fallback line",
                             ["env.no_gpu"], F=dict(no_gpu=True)),
    # --- healthy --------------------------------------------------------------------------
    "healthy_folders": case("folders", "float converges, calibration close to float, QAT lr 0.1x "
                            "float's final lr, int8 close to QAT", [], healthy=True),
    "healthy_one_log": case("one_log", "healthy pipeline in one console log", [], healthy=True),
    "healthy_script_log": case("script_log", "healthy pipeline; calibration, QAT and int_infer in "
                               "one console log", [], healthy=True),
    "healthy_qat_prints_calib": case("qat_prints_calib", "healthy pipeline; the QAT log prints the "
                                     "calibration accuracy", [], healthy=True),
    "healthy_lightning": case("lightning_csv", "healthy pipeline, Lightning CSV", [], healthy=True),
    "healthy_tensorboard": case("tensorboard", "healthy pipeline, TensorBoard only", [],
                                healthy=True),
    "healthy_per_epoch": case("per_epoch", "healthy pipeline, per-epoch lines", [], healthy=True),
    "healthy_pylogging": case("pylogging", "healthy pipeline, root-logger lines", [], healthy=True),
    "healthy_hf": case("hf_trainer", "healthy pipeline, Trainer output dirs", [], healthy=True,
                       allow={"config.march": "trainer_state.json holds no training arguments: "
                              "the QAT run's shown settings have no march (a warning about the "
                              "missing march is fair)"}),
    "healthy_sweep": case("sweep", "QAT lr sweep 0.0005 / 0.001 / 0.002, all healthy; the 0.001 "
                          "run is converted", [], healthy=True,
                          qats=[("qat_lr0.0005", dict(lr=0.0005)), ("qat_lr0.001", {}),
                                ("qat_lr0.002", dict(lr=0.002))], quantized="qat_lr0.001"),
    "healthy_short": case("short", "healthy float and calibration, then a 16-step QAT smoke test "
                          "(one evaluation) and its int8 eval", [], healthy=True, Q=SHORT_QAT),
    "healthy_val_nan_recovers": case("folders", "healthy pipeline, except that one validation "
                                     "image is read as NaN in float's epoch-2 evaluation (a file "
                                     "rewritten while read): that val loss is NaN, the next "
                                     "epoch's is finite again; training never saw it",
                                     [], healthy=True, F=dict(nan_val_at=(2, 1234)),
                                     allow={"loss.nonfinite": "the NaN is really in float's "
                                            "epoch-2 val loss; a warning is fair, an error "
                                            "(or a verdict blaming it) is not"},
                                     max_severity="warning"),
}

# --- plan and layout ----------------------------------------------------------------------

def _float_key(cfg):
    return json.dumps(cfg, sort_keys=True)


def _plan(c):
    plan = [dict(name="calibration", role="calibration", cfg=c["calib"], gap=45.0)]
    for name, q in c["qats"]:
        plan.append(dict(name=name, role="qat", cfg=q, source="calibration", gap=60.0))
    if c["quantized"]:
        plan.append(dict(name="quantized", role="quantized", cfg={}, source=c["quantized"], gap=30.0))
    return plan


def _freq(rec):
    if rec["role"] == "quantized":
        return 1
    return rec["cfg"].get("freq", 8)


def _write(name, c, records, case_dir):
    shape = c["shape"]
    shown = {}
    if shape in ("folders", "short", "sweep"):
        for rec in records:
            v = R.view(rec, "window", _freq(rec))
            shown[rec["name"]] = R.write_hat(case_dir, rec["name"], v, _freq(rec),
                                             march=c["march"].get(rec["name"]))
    elif shape == "qat_prints_calib":
        calib = next(r for r in records if r["role"] == "calibration")
        cv = R.view(calib, "window", _freq(calib))
        for rec in records:
            if rec["role"] == "calibration":
                continue
            v = R.view(rec, "window", _freq(rec))
            shown[rec["name"]] = R.write_hat(case_dir, rec["name"], v, _freq(rec),
                                             calib_view=cv if rec["role"] == "qat" else None)
    elif shape == "one_log":
        views = [R.view(r, "window", _freq(r)) for r in records]
        shown.update(R.write_hat_combined(case_dir, "run.log", views, 8))
    elif shape == "script_log":
        fl = records[0]
        shown["float"] = R.write_hat(case_dir, "float", R.view(fl, "window", _freq(fl)), _freq(fl))
        views = [R.view(r, "window", _freq(r)) for r in records[1:]]
        shown.update(R.write_hat_combined(case_dir, "pipeline.log", views, 8))
    elif shape == "lightning_csv":
        for rec in records:
            folder, version = c["lightning_versions"].get(rec["name"], (rec["name"], 0))
            v = R.view(rec, "batch", _freq(rec))
            shown[rec["name"]] = R.write_lightning(case_dir, folder, v, _freq(rec), version)
    elif shape == "tensorboard":
        for rec in records:
            shown[rec["name"]] = R.write_tensorboard(case_dir, rec["name"],
                                                     R.view(rec, "window", _freq(rec)), _freq(rec))
    elif shape == "per_epoch":
        for rec in records:
            shown[rec["name"]] = R.write_per_epoch(case_dir, rec["name"], R.view(rec, "window", 1))
    elif shape == "pylogging":
        for rec in records:
            n = 2 * _freq(rec) if rec["role"] in ("float", "qat") else _freq(rec)
            shown[rec["name"]] = R.write_pylogging(case_dir, rec["name"], R.view(rec, "window", n), n)
    elif shape == "hf_trainer":
        for rec in records:
            shown[rec["name"]] = R.write_hf(case_dir, rec["name"], R.view(rec, "hf", _freq(rec)), _freq(rec))
    else:
        raise ValueError(shape)
    return shown


def _runs_for_facts(c, records, shown):
    runs = []
    plan = {p["name"]: p for p in _plan(c)}
    for rec in records:
        if rec["name"] not in shown:
            continue  # never written (a stage after a crash in a console log)
        s = dict(shown[rec["name"]])
        s.update(name=rec["name"], role=rec["role"], params=rec["params"],
                 planned_epochs=rec["cfg"].get("epochs"),
                 params_logged=bool(rec["cfg"].get("log_param_checksum"))
                 and c["shape"] not in ("tensorboard", "lightning_csv", "hf_trainer"),
                 source=plan.get(rec["name"], {}).get("source"))
        runs.append(s)
    return runs


# --- jobs ---------------------------------------------------------------------------------

def _train_float_job(job):
    key, cfg = job
    torch.set_num_threads(1)
    seed = zlib.crc32(key.encode()) & 0xFFFF
    return key, diag_record.train_float(cfg, BASE_TIME, seed)


def _case_job(job):
    name, float_result, out = job
    c = CASES[name]
    t0 = time.time()
    records = diag_record.run_pipeline(float_result, _plan(c), zlib.crc32(name.encode()) & 0xFFFF)
    case_dir = os.path.join(out, name)
    if os.path.isdir(case_dir):
        shutil.rmtree(case_dir)
    os.makedirs(case_dir)
    shown = _write(name, c, records, case_dir)
    runs = _runs_for_facts(c, records, shown)
    cond = diag_facts.conditions(runs)
    try:
        entry = _manifest_entry(name, c, runs, cond, case_dir)
    except RuntimeError as e:
        print("FAILED %s" % e, flush=True)
        return name, None
    print("case %-36s %5.1fs  expect %s allow %s" % (name, time.time() - t0, entry["expect"],
                                                    entry["allow"]), flush=True)
    return name, entry


def _manifest_entry(name, c, runs, cond, case_dir):
    holds = sorted(k for k, v in cond.items() if v["holds"])
    problems = []
    for fid in c["planted"]:
        if fid not in holds:
            problems.append("planted %s does not hold: %s" % (fid, cond.get(fid, {}).get("why", "no data")))
    consequences = [k for k in holds if k not in c["planted"]]
    borderline = sorted(k for k, v in cond.items() if v["borderline"] and k not in c["planted"])
    if c["healthy"]:
        for fid in consequences + borderline:
            if fid not in c["allow"]:
                problems.append("healthy case, but %s %s: %s" % (
                    fid, "holds" if fid in holds else "is borderline", cond[fid]["why"]))
    if problems:
        raise RuntimeError("case %s: %s" % (name, "; ".join(problems)))
    allow = sorted(set(consequences) | set(borderline) | set(c["allow"]))
    allow_reasons = {}
    for fid in allow:
        if fid in c["allow"]:
            allow_reasons[fid] = c["allow"][fid]
        elif fid in borderline:
            allow_reasons[fid] = "borderline in the numbers: " + cond[fid]["why"]
        else:
            allow_reasons[fid] = "consequence of the planted problem: " + cond[fid]["why"]
    files = []
    for root, _, names in os.walk(case_dir):
        for n in names:
            files.append(os.path.relpath(os.path.join(root, n), case_dir))
    entry = {
        "shape": c["shape"],
        "description": c["desc"],
        "healthy": c["healthy"],
        "expect": list(c["planted"]),
        "allow": allow,
        "allow_reasons": allow_reasons,
        "files": sorted(files),
        "key": {
            "final_val_acc": diag_facts.headline(runs),
            "runs": {r["name"]: diag_facts.run_facts(r) for r in runs},
            "conditions": {k: cond[k] for k in sorted(cond)},
        },
    }
    if c["max_severity"]:
        entry["max_severity"] = c["max_severity"]
    return entry


ABOUT = {
    "generator": "tests/gen/make_diagnosis_corpus.py (run with /usr/bin/python3, Debian "
                 "python3-torch 1.13, CPU, engine qnnpack); training code from stages.py / "
                 "tiny_qat.py, settings from make_runs.py",
    "cases": "one folder per case, laid out as a user would open it; 'shape' names the layout "
             "(see 'shapes')",
    "expect": "finding ids that MUST fire on `qatdoctor-cli analyze <case>`: the planted problem, "
              "each verified by the generator in the measured numbers (key.conditions[id].holds)",
    "allow": "ids that MAY fire: conditions that also hold in the numbers as consequences of the "
             "planted problem, conditions that are borderline (two reasonable readings of the "
             "numbers fall on both sides of the threshold), or ids a layout makes fair; "
             "allow_reasons says which, with the numbers. Any other warning/error id of "
             "finding_ids firing is a false positive. Healthy cases expect nothing and allow "
             "only what allow_reasons justifies",
    "max_severity": "when present: an allowed id may fire at most at this severity",
    "key.final_val_acc": "last evaluation accuracy of each run as written ('<run>:calib_val' = "
                         "the calibration accuracy printed by the QAT script)",
    "key.runs": "per run as its files show it: training-loss summary (points as logged: HAT / "
                "pylogging window means, Lightning batch values every N steps, per-epoch means, "
                "HF means since the last log), val accuracy/loss per evaluation, lr first/max/last, "
                "the settings a reader can find, traceback, and 'parameters': the QAT/float "
                "model's parameter norm before/after training measured on the real model "
                "('logged': the script printed norm and sha1 lines)",
    "key.conditions": "per finding id with data: holds + the numbers; computed by "
                      "tests/gen/diag_facts.py from the written values with the defaults of "
                      "resources/thresholds.json (independent of the C++ rules); "
                      "qat.not_learning holds when the QAT parameters are identical before and "
                      "after training; loss.divergence takes its early level from the first "
                      "min(5, n/4) points (a 5-point per-epoch series starts at its first); "
                      "float.not_converged without two evaluations fits a line to the last 30 % "
                      "of the training loss (its fall per tenth of the run vs the 10 % threshold)",
    "values": "accuracies are fractions of the 4096-image val set (one standard error ~0.45 "
              "points at 91 %); non-finite values are the strings \"nan\", \"inf\"",
    "steps": "global steps as the layout counts them (HAT GlobalStep from 0, HF steps from 1)",
}


def _readme(manifest, seconds, cpu):
    cases = manifest["cases"]
    planted = [n for n, c in cases.items() if not c["healthy"]]
    healthy = [n for n, c in cases.items() if c["healthy"]]
    lines = [
        "# Diagnosis corpus: planted problems and healthy runs",
        "",
        "Real float → calibration → QAT → int8 training runs of a tiny CNN (tests/gen/tiny_qat.py, "
        "3×16×16 images, 4 classes) trained on the CPU with Debian's python3-torch 1.13 "
        "(engine qnnpack). Each of the %d planted cases plants one training-side FAQ symptom "
        "through *settings* (a huge learning rate, an unloaded calibration checkpoint, an optimizer "
        "created before `prepare()`, …); the %d healthy cases plant nothing. The logs are written "
        "in the shapes users open, so the corpus measures QAT Doctor's diagnosis (precision and "
        "recall of `findings[].id`) across layouts, not one format." % (len(planted), len(healthy)),
        "",
        "`MANIFEST.json` holds, per case: `shape`, `description`, `healthy`, `expect` (ids that must "
        "fire), `allow` (ids that may fire, with `allow_reasons`), `files`, and `key`, the measured "
        "facts: final accuracy per run, per-run training-loss / val / lr / settings summaries and, "
        "per finding id, whether its FAQ condition holds in the written numbers "
        "(`key.conditions`). Its `about` explains each field.",
        "",
        "Every planted id was checked by the generator in the numbers it wrote (if the planted "
        "problem had not shown, the generator would have stopped); conditions that hold as "
        "consequences (e.g. a QAT run from random init also ends below calibration) are "
        "`allow`ed, not expected.",
        "",
        "## Regenerate",
        "",
        "```sh",
        "/usr/bin/python3 tests/gen/make_diagnosis_corpus.py          # all cases, --jobs 2",
        "/usr/bin/python3 tests/gen/make_diagnosis_corpus.py --case healthy_folders",
        "```",
        "",
        "Deterministic (fixed seeds, one torch thread per process, simulated log clock; the "
        "files are byte-identical on a rerun). About %.1f CPU minutes (last run: %.0f s wall "
        "with --jobs 2). Training code: tests/gen/stages.py and tiny_qat.py (as for "
        "tests/data/runs), settings from make_runs.py; recording and layouts: diag_record.py, "
        "diag_render.py; facts: diag_facts.py." % (cpu / 60.0, seconds),
        "",
        "Notes:",
        "",
        "- `healthy_val_nan_recovers` is healthy-ish: one float val loss is NaN (a val image read "
        "as NaN in that one evaluation) and the next epoch's is finite; `loss.nonfinite` is "
        "allowed there at most as a warning (`max_severity`).",
        "- `qat.not_learning` is decided on the real model (parameters identical before and after "
        "QAT); the not_learning cases also show it in the logs: flat val accuracy over 3 "
        "evaluations, and where the script prints them, identical parameter norm/sha1 lines "
        "(`not_learning_short` has one evaluation only, so the checksums are its evidence).",
        "- `borderline` conditions (two reasonable readings of the numbers on both sides of a "
        "threshold, e.g. QAT's first loss 2.83x float's last point but 3.09x the median of its "
        "last 5) are allowed, never expected.",
        "- Lightning's `hparams.yaml` names the GPU count `devices` (the Trainer argument), HF's "
        "`trainer_state.json` carries only `train_batch_size`; TensorBoard-only cases have no "
        "settings at all, so settings-based symptoms are planted in the text shapes.",
        "",
        "To score the tool: `qatdoctor-cli analyze tests/data/diagnosis/<case> --json`, compare "
        "`findings[].id` (warning/error) with `expect` (recall) and with `expect` ∪ `allow` "
        "(false positives).",
        "",
        "## Shapes",
        "",
        "| shape | layout |",
        "|---|---|",
    ]
    for s, d in SHAPES.items():
        lines.append("| `%s` | %s |" % (s, d))
    lines += ["", "## Cases", "", "| case | shape | planted problem | expect | allow |", "|---|---|---|---|---|"]
    for n in sorted(cases, key=lambda k: (cases[k]["healthy"], k)):
        c = cases[n]
        lines.append("| `%s` | %s | %s | %s | %s |" % (
            n, c["shape"], ("healthy: " if c["healthy"] else "") + c["description"],
            ", ".join("`%s`" % e for e in c["expect"]) or "—",
            ", ".join("`%s`" % e for e in c["allow"]) or "—"))
    lines += ["", "## Symptoms × shapes", "", "| expected id | cases (shape) |", "|---|---|"]
    by_id = {}
    for n, c in cases.items():
        for e in c["expect"]:
            by_id.setdefault(e, []).append("%s (%s)" % (n, c["shape"]))
    for e in ALL_IDS:
        if e in by_id:
            lines.append("| `%s` | %s |" % (e, ", ".join(sorted(by_id[e]))))
    lines.append("")
    return "\n".join(lines)


def _cpu_seconds():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--case", action="append", choices=sorted(CASES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="print the cases and exit")
    args = ap.parse_args()
    if args.list:
        for n, c in CASES.items():
            print("%-36s %-16s %s" % (n, c["shape"], c["planted"] or "healthy"))
        return
    t0 = time.time()
    names = args.case or list(CASES)
    os.makedirs(args.out, exist_ok=True)
    floats = {}
    for n in names:
        floats.setdefault(_float_key(CASES[n]["float"]), CASES[n]["float"])
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    mapper = pool.map if pool else map
    trained = dict(mapper(_train_float_job, list(floats.items())))
    print("float runs: %d (%.1fs)" % (len(trained), time.time() - t0), flush=True)
    jobs = [(n, trained[_float_key(CASES[n]["float"])], args.out) for n in names]
    if pool:
        entries = dict(pool.map(_case_job, jobs, chunksize=1))
        pool.close()
        pool.join()
    else:
        entries = dict(map(_case_job, jobs))
    seconds = time.time() - t0
    failed = sorted(n for n, e in entries.items() if e is None)
    if failed:
        sys.exit("planted problems not shown / healthy cases not clean: %s" % ", ".join(failed))
    path = os.path.join(args.out, "MANIFEST.json")
    manifest = {"cases": {}}
    if args.case and os.path.exists(path):
        with open(path) as f:
            manifest = json.load(f)
    else:
        for d in os.listdir(args.out):  # stale case folders of an earlier table
            if os.path.isdir(os.path.join(args.out, d)) and d not in CASES:
                shutil.rmtree(os.path.join(args.out, d))
    manifest["cases"].update(entries)
    manifest["cases"] = {n: manifest["cases"][n] for n in CASES if n in manifest["cases"]}
    manifest["about"] = ABOUT
    manifest["shapes"] = SHAPES
    manifest["finding_ids"] = ALL_IDS
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
    if not args.case:
        with open(os.path.join(args.out, "README.md"), "w") as f:
            f.write(_readme(manifest, seconds, _cpu_seconds()))
    print("%d cases in %.1fs" % (len(entries), seconds))


if __name__ == "__main__":
    main()
