"""PyTorch Lightning CSVLogger layout cases (lightning_logs/version_N/{metrics.csv,hparams.yaml})."""
import os

import engine as E
from casekit import std_pipeline, healthy_pipeline, check_healthy, numbers, entry, need, case_dir
from common import Clock, write
from writers import lightning_metrics_csv, yaml_dump, _csv_num

LAYOUT = "lightning_csv"

SUMMARY = """GPU available: True (cuda), used: True
TPU available: False, using: 0 TPU cores
IPU available: False, using: 0 IPUs
HPU available: False, using: 0 HPUs
LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]

  | Name      | Type             | Params
-----------------------------------------------
0 | model     | {mtype:<16} | 3.7 K
1 | criterion | CrossEntropyLoss | 0
-----------------------------------------------
3.7 K     Trainable params
0         Non-trainable params
3.7 K     Total params
0.015     Total estimated model params size (MB)
"""


def _validate_table(acc, loss):
    bar = "\u2500" * 78
    return "\n".join([bar, "       Validate metric               DataLoader 0", bar,
                      "           val_acc                %s" % repr(float("%.8g" % acc)),
                      "          val_loss                %s" % repr(float("%.8g" % loss)), bar]) + "\n"


def _hp(stage, bs, lr, epochs, extra=None):
    d = {"arch": "mbv2_tiny", "num_classes": 10, "stage": stage, "batch_size": bs, "lr": lr, "momentum": 0.9,
         "weight_decay": 5e-4 if stage == "float" else 5e-5, "max_epochs": epochs, "optimizer": "SGD",
         "scheduler": "cosine", "qconfig_backend": "qnnpack", "data_root": "/data/synth10", "seed": 42}
    if extra:
        d.update(extra)
    return yaml_dump(d) + "\n"


def _pl_pipeline(p, root, qat_hp, qat_log_every=50, qat_console_epochs=3, acc_scale=0.01):
    base = os.path.join(root, "lightning_logs")
    f = p.res["float"]
    write(os.path.join(base, "version_0", "metrics.csv"), lightning_metrics_csv(f, log_every_n_steps=50))
    write(os.path.join(base, "version_0", "hparams.yaml"), _hp("float", 64, 0.1, 12))
    c = p.res["calib"]["final"]
    write(os.path.join(base, "version_1", "metrics.csv"),
          "epoch,step,val_acc,val_loss\n0,0,%s,%s\n" % (_csv_num(c["acc1"] / 100.0), _csv_num(c["loss"])))
    write(os.path.join(base, "version_1", "hparams.yaml"),
          _hp("calibration", 64, 0.0, 0, {"calib_batches": 16, "ckpt_path": "lightning_logs/version_0/checkpoints/epoch=11-step=744.ckpt"}))
    q = p.res["qat"]
    write(os.path.join(base, "version_2", "metrics.csv"),
          lightning_metrics_csv(q, log_every_n_steps=qat_log_every, int8_rows=q["int8_evals"],
                                int8_names=("int8_val_loss", "int8_val_acc")))
    write(os.path.join(base, "version_2", "hparams.yaml"), qat_hp)
    cons = [SUMMARY.format(mtype="MobileNetTiny"), "`Trainer.fit` stopped: `max_epochs=12` reached.",
            "", SUMMARY.format(mtype="GraphModule").split("\n\n")[0], "", _validate_table(c["acc1"] / 100.0, c["loss"]),
            SUMMARY.format(mtype="GraphModule"), "`Trainer.fit` stopped: `max_epochs=%d` reached." % qat_console_epochs]
    write(os.path.join(root, "train.out"), "\n".join(cons) + "\n")


def c10_pl_noisy_loss():
    cid = "c10_pl_noisy_loss"
    root = case_dir(cid)
    p = healthy_pipeline([41, 141, 241, 341], fx=True, qat_kw=dict(bs=8, lr=0.0008, epochs=2, sched="cos"))
    q = p.res["qat"]
    import statistics
    sd = statistics.pstdev([s["loss"] for s in q["steps"]])
    need(sd > 0.25, "QAT loss not noisy enough: %.3f" % sd)
    _pl_pipeline(p, root, _hp("qat", 8, 0.0008, 2, {"ckpt_path": "lightning_logs/version_1/checkpoints/calib.ckpt",
                                                   "log_every_n_steps": 10}),
                 qat_log_every=10, qat_console_epochs=2)
    return entry(cid, LAYOUT, "Lightning CSVLogger runs: float (version_0), calibration via trainer.validate "
                 "(version_1, one row) and a QAT run with batch size 8 (version_2) whose per-step training loss "
                 "swings widely from step to step while val_acc and int8_val_acc are stable. Healthy.", True, [], {},
                 numbers(p, dict(qat_step_loss_std=round(sd, 4), qat_batch_size=8)))


def c11_pl_qat_worse_than_calib():
    cid = "c11_pl_qat_worse_than_calib"
    root = case_dir(cid)
    p = std_pipeline(42, 42, fx=True, skip_qat=True)
    xs, ys = p.data.x_train[:128], p.data.y_train[:128]
    p.run_qat(epochs=12, lr=0.05, sched="const", bs=32, x_train=xs, y_train=ys, augment=False, wd=5e-5)
    q = p.res["qat"]
    cal = p.res["calib"]["final"]["acc1"]
    need(cal - q["final"]["acc1"] >= 3.0, "QAT not clearly below calibration: %.2f vs %.2f" % (q["final"]["acc1"], cal))
    tl = [e["train_loss"] for e in q["evals"]]
    need(tl[-1] < tl[0] * 0.5, "QAT train loss should fall")
    _pl_pipeline(p, root, _hp("qat", 32, 0.05, 12, {"ckpt_path": "lightning_logs/version_1/checkpoints/calib.ckpt",
                                                   "train_subset": 128, "scheduler": "constant",
                                                   "log_every_n_steps": 2}),
                 qat_log_every=2, qat_console_epochs=12)
    return entry(cid, LAYOUT, "Lightning QAT run left with a debugging option train_subset=128 and a constant lr "
                 "of 0.05 for 12 epochs: the training loss keeps falling (it memorises the 128 images) while val_acc "
                 "ends clearly below the calibration accuracy; int8_val_acc follows the QAT model.", False,
                 ["qat.worse_than_calibration"],
                 {"qat.trend_mismatch": "the QAT validation loss rises while its training loss falls (overfitting "
                                        "the subset)"},
                 numbers(p, dict(qat_top1_per_epoch=[round(e["acc1"], 2) for e in q["evals"]],
                                 qat_train_loss_per_epoch=[round(x, 4) for x in tl])))


CASES = [c10_pl_noisy_loss, c11_pl_qat_worse_than_calib]
