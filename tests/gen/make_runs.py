#!/usr/bin/python3
"""Real float -> calibration -> QAT -> int8 training runs, as HAT-style logs, for QAT Doctor.

usage: /usr/bin/python3 tests/gen/make_runs.py [--out DIR] [--demo-out DIR] [--case NAME ...]
                                              [--jobs N] [--facts-only]

Trains a tiny CNN (tiny_qat.py) through torch.ao.quantization's QAT pipeline with Debian's
python3-torch 1.13 on the CPU (engine qnnpack). Each case changes only *settings* so that a
real symptom appears (a huge learning rate, a corrupt sample, an unloaded calibration ...).
Deterministic: fixed seeds, one torch thread per case, simulated log clock. About 1.5 CPU
minutes in total (cases run in --jobs processes, default 2).

Writes <out>/<case>/{float,calibration,qat,quantized}/..., the demo case into --demo-out, and
<out>/MANIFEST.json with facts computed by re-reading the written files (facts.py).
Defaults: --out tests/data/runs, --demo-out resources/demo/logs (relative to the repo root).
"""
import argparse
import calendar
import json
import multiprocessing
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import facts  # noqa: E402
import stages  # noqa: E402
from hat_log import Clock, REPO_ROOT  # noqa: E402

BASE_TIME = calendar.timegm((2026, 11, 2, 10, 0, 0))

FLOAT = dict(epochs=6, lr=0.1, scheduler="StepLR", step_size=3, gamma=0.1, batch=32,
             world_size=1, freq=8, weight_decay=5e-4, seed=7)
CALIB = dict(batches=16, batch=32, world_size=1, freq=4, seed=11)
# QAT lr = 0.1 x float's final lr (0.1 -> 0.01 after StepLR), same batch, StepLR.
QAT = dict(epochs=3, lr=0.001, scheduler="StepLR", step_size=2, gamma=0.1, batch=32,
           world_size=1, freq=8, weight_decay=5e-4, seed=13, freeze_bn_epoch=1,
           freeze_observer_epoch=2)

ALL_WARNINGS = ["loss.nonfinite", "loss.divergence", "run.crashed", "qat.start_loss_high",
                "qat.trend_mismatch", "qat.worse_than_calibration", "qat.quantized_gap",
                "qat.no_quantized_eval", "qat.not_learning", "calib.low_accuracy",
                "float.not_converged", "train.batch_scaled_lr_unchanged",
                "train.aggressive_lr_schedule", "calib.multi_gpu", "env.no_gpu"]


def case(desc, expect, allow=(), float_=None, calib=None, qat=None, qat_ref=None,
         quantized=True, side_formats=False):
    return dict(desc=desc, expect=list(expect), allow=list(allow),
                float=dict(FLOAT, **(float_ or {})), calib=dict(CALIB, **(calib or {})),
                qat=dict(QAT, **(qat or {})),
                qat_ref=dict(QAT, **qat_ref) if qat_ref is not None else None,
                quantized=quantized, side_formats=side_formats)


# QAT on 4 ranks of 32 (effective batch 128, 4x fewer steps) with the single-GPU QAT lr.
_WS4 = dict(world_size=4, freq=2)

CASES = {
    "healthy": case("float converges, calibration close to float, QAT lr 0.1x float's final lr, "
                    "quantized close to QAT", []),
    "nan_loss": case("two training samples carry a non-finite loss weight (inf, NaN); the "
                     "weighted QAT loss is inf/NaN on every batch holding them (first at epoch 0 "
                     "step 37), the trainer skips those updates and keeps logging",
                     ["loss.nonfinite"], ["loss.divergence"],
                     qat=dict(inf_weight_at=(0, 37), nan_weight_at=(0, 50), jsonl=True),
                     side_formats=True),
    "divergence": case("QAT with lr 1.0 (10x float's peak), no weight decay, no clipping: once BN "
                       "statistics freeze the loss grows by 10^7 yet stays finite",
                       ["loss.divergence"],
                       ["qat.trend_mismatch", "qat.worse_than_calibration", "qat.start_loss_high",
                        "train.aggressive_lr_schedule", "qat.quantized_gap", "qat.not_learning"],
                       qat=dict(lr=1.0, weight_decay=0.0)),
    "crashed": case("QAT samples 1536 of 2048 images per epoch; an image decoded one column short "
                    "reaches default_collate at epoch 1 step 20: RuntimeError, logged with "
                    "logging.exception, no quantized eval",
                    ["run.crashed"], ["qat.no_quantized_eval"],
                    qat=dict(samples_per_epoch=1536, short_sample_at=(1, 20)), quantized=False),
    "start_loss_high": case("QAT config names no checkpoint: neither the calibration scales nor "
                            "the float weights are loaded, QAT starts from random init",
                            ["qat.start_loss_high"],
                            ["qat.worse_than_calibration", "qat.trend_mismatch",
                             "qat.quantized_gap", "qat.not_learning"],
                            qat=dict(load_calib=False)),
    "worse_than_calibration": case("QAT with weight decay 0.05 (100x) and lr 0.02 (2x float's "
                                   "final lr): the QAT loss rises while float's late-phase loss "
                                   "fell, and val accuracy ends below calibration",
                                   ["qat.worse_than_calibration", "qat.trend_mismatch"],
                                   ["qat.quantized_gap", "loss.divergence"],
                                   qat=dict(lr=0.02, weight_decay=0.05)),
    "quantized_gap": case("conv2's output fake quant and observer are switched off in calibration "
                          "and QAT (kept 'high precision'); int8 convert uses the untrained "
                          "observer's default scale 1.0",
                          ["qat.quantized_gap"], [],
                          calib=dict(float_layer="quant"), qat=dict(float_layer="quant")),
    "no_quantized_eval": case("healthy pipeline, but only the QAT model is evaluated",
                              ["qat.no_quantized_eval"], [], quantized=False),
    "not_learning": case("fixed-scale QAT (observers off after calibration) whose optimizer was "
                         "created on the float model before prepare(): no QAT parameter is ever "
                         "updated, val acc/loss are identical every epoch",
                         ["qat.not_learning"], ["qat.worse_than_calibration"],
                         qat=dict(optimizer_before_prepare=True, fixed_scales=True)),
    "calib_low": case("calibration on one batch of un-normalised data (raw 0..255 values)",
                      ["calib.low_accuracy"],
                      ["qat.start_loss_high", "qat.trend_mismatch"],
                      calib=dict(batches=1, garbage=True)),
    "float_not_converged": case("float stopped after 3 epochs at lr 0.005 while val accuracy was "
                                "still rising",
                                ["float.not_converged"],
                                ["qat.trend_mismatch", "qat.start_loss_high"],
                                float_=dict(epochs=3, lr=0.005, step_size=10)),
    "batch_scaled": case("QAT rerun on 4 GPUs (32 per GPU, effective 128) with the lr of the "
                         "single-GPU QAT run in qat_1gpu/",
                         ["train.batch_scaled_lr_unchanged"], ["qat.trend_mismatch"],
                         qat=_WS4, qat_ref={}),
    "aggressive_lr": case("QAT with OneCycleLR, max_lr 0.1 = float's peak lr",
                          ["train.aggressive_lr_schedule"],
                          ["qat.trend_mismatch", "qat.worse_than_calibration", "qat.quantized_gap",
                           "loss.divergence", "qat.not_learning"],
                          qat=dict(scheduler="OneCycleLR", lr=0.1)),
    "multi_gpu_calib": case("calibration on 2 GPUs (world_size 2, ranges not synchronised)",
                            ["calib.multi_gpu"], ["qat.worse_than_calibration"],
                            calib=dict(world_size=2)),
    "no_gpu": case("float log starts with torch's CUDA initialisation warning and a CPU fallback "
                   "line", ["env.no_gpu"], [], float_=dict(no_gpu=True)),
}

DEMO = case("demo: QAT moved to 4 GPUs with the single-GPU lr (qat_1gpu/ is the earlier "
            "single-GPU QAT), and conv2 kept in float during calibration/QAT so the int8 model "
            "falls well below QAT; text + JSONL (float) + CSV + tfevents (qat) side by side",
            ["train.batch_scaled_lr_unchanged", "qat.quantized_gap"], ["qat.trend_mismatch"],
            calib=dict(float_layer="quant"), qat=dict(_WS4, float_layer="quant"),
            qat_ref=dict(float_layer="quant"), side_formats=True)


def run_case(name, cfg, root):
    if os.path.isdir(root):
        shutil.rmtree(root)
    os.makedirs(root)
    clock = Clock(BASE_TIME, seed=len(name))
    float_model = stages.run_float(os.path.join(root, "float"), cfg["float"], clock,
                                   cfg["side_formats"])
    clock.t += 45.0
    calib_model = stages.run_calibration(os.path.join(root, "calibration"), float_model,
                                         cfg["calib"], clock)
    if cfg["qat_ref"] is not None:
        clock.t += 60.0
        stages.run_qat(os.path.join(root, "qat_1gpu"), float_model, calib_model, cfg["qat_ref"],
                       clock)
    clock.t += 60.0
    qat_model = stages.run_qat(os.path.join(root, "qat"), float_model, calib_model, cfg["qat"],
                               clock, cfg["side_formats"])
    if cfg["quantized"] and qat_model is not None:
        clock.t += 30.0
        stages.run_quantized(os.path.join(root, "quantized"), qat_model, clock)


def _run_named(job):
    name, root = job
    torch.set_num_threads(1)  # one thread per case: identical floats whatever --jobs is
    torch.manual_seed(0)
    print("case %s -> %s" % (name, root), flush=True)
    run_case(name, DEMO if name == "demo" else CASES[name], root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "tests", "data", "runs"))
    ap.add_argument("--demo-out", default=os.path.join(REPO_ROOT, "resources", "demo", "logs"))
    ap.add_argument("--case", action="append", choices=sorted(CASES) + ["demo"],
                    help="only this case (repeatable); default: all cases and the demo")
    ap.add_argument("--facts-only", action="store_true",
                    help="do not train; recompute MANIFEST.json from the files already written")
    ap.add_argument("--jobs", type=int, default=2, help="cases trained in parallel (default 2)")
    args = ap.parse_args()
    names = args.case or sorted(CASES) + ["demo"]
    manifest_path = os.path.join(args.out, "MANIFEST.json")
    manifest = {"cases": {}}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    roots = {n: args.demo_out if n == "demo" else os.path.join(args.out, n) for n in names}
    if not args.facts_only:
        jobs = [(n, roots[n]) for n in names]
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                pool.map(_run_named, jobs, chunksize=1)
        else:
            for job in jobs:
                _run_named(job)
    for name in names:
        cfg = DEMO if name == "demo" else CASES[name]
        root = roots[name]
        entry = facts.case_facts(root, cfg)
        entry["root"] = os.path.relpath(root, REPO_ROOT)
        manifest["cases"][name] = entry
    manifest["about"] = facts.ABOUT
    manifest["finding_ids"] = ALL_WARNINGS
    os.makedirs(args.out, exist_ok=True)
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
