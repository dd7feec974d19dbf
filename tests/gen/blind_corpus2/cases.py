"""The corpus: one entry per case.  `cfg` is what core.run_pipeline trains (real numbers),
`variants` are extra pipelines (same seed, so float/calibration are identical) a case needs,
`layout` names the writer in writers.py, `meta` carries what only the log text says
(march, world size, device ...), `expect`/`allow` go to MANIFEST.json."""

B = lambda **kw: kw  # noqa: E731


def base(seed, noise=2.8, f_epochs=6, f_lr=0.05, f_sched="cosine", q_epochs=3, q_lr=0.002,
         calib=True, int8=True, bs=64, **_):
    c = dict(seed=seed,
             data=dict(n_train=4000, n_val=1000, noise=noise),
             float=dict(epochs=f_epochs, lr=f_lr, sched=f_sched, aug_noise=0.6, bs=bs, log_every=10),
             calib=dict(n_batches=12) if calib else None,
             qat=dict(epochs=q_epochs, lr=q_lr, aug_noise=0.6, bs=bs, log_every=10,
                      int8_every_epoch=int8, int8_final=int8))
    return c


def mod(c, **stages):
    import copy
    c = copy.deepcopy(c)
    for k, v in stages.items():
        if v is None:
            c[k] = None
        else:
            c[k] = dict(c.get(k) or {}, **v)
    return c


H = "healthy"
CASES = {}


def case(cid, layout, cfg, planted, expect=(), allow=(), variants=None, meta=None):
    CASES[cid] = dict(layout=layout, cfg=cfg, planted=planted, expect=list(expect), allow=list(allow),
                      variants=variants or {}, meta=meta or {})


LADDER_Q = ["ladder.qat_drop", "qat.worse_than_calibration"]

# --- mmengine (text log + vis_data/scalars.json) -------------------------------------------
case("c01_mmengine_cls_ok", "mmengine", base(11, noise=2.6), H)
case("c02_mmengine_bgr_int8", "mmengine",
     mod(base(12, noise=2.9), qat=dict(int8_raw_input="bgr")),
     "quantized (converted int8) model evaluated with BGR input while float/QAT used RGB: int8 acc ~0.3 vs QAT ~0.94",
     expect=["qat.quantized_gap"], allow=["ladder.convert_drop"])
case("c03_mmengine_nan_qat", "mmengine",
     mod(base(13, noise=2.7, q_epochs=3), qat=dict(nan_weight_from=(1, 10), disable_observer=True)),
     "QAT loss weighting divides 0/0 on empty crops: loss NaN from QAT epoch 2, weights become NaN, accuracy collapses to chance",
     expect=["loss.nonfinite"],
     allow=LADDER_Q + ["qat.not_learning", "qat.trend_mismatch", "loss.divergence", "calib.low_accuracy"])
# --- mmcv 1.x (.log + .log.json) ------------------------------------------------------------
case("c04_mmcls_resume_ok", "mmcv", base(14, noise=2.5, q_epochs=4), H + " (QAT job preempted after epoch 2 and resumed from its checkpoint: two log pairs)",
     meta=dict(resume_after=2))
case("c05_mmcls_calib_raw", "mmcv", mod(base(15, noise=2.8), calib=dict(normalize=False)),
     "calibration data loader skipped normalisation (raw 0..1 pixels): calibration acc ~0.65 vs float ~0.95",
     expect=["calib.low_accuracy"], allow=["qat.start_loss_high", "ladder.qat_drop"])
# --- PyTorch Lightning CSVLogger --------------------------------------------------------------
case("c06_lightning_ok", "lightning", base(16, noise=3.0, f_epochs=7), H)
case("c07_lightning_frozen", "lightning", mod(base(17, noise=2.7), qat=dict(opt_on_float_params=True)),
     "optimizer built on the float model's parameters before prepare_qat: QAT weights never step, evaluations flat",
     expect=["qat.not_learning"], allow=[])
case("c08_lightning_8gpu", "lightning", base(18, noise=2.8),
     "QAT rerun on 8 GPUs (global batch 64 -> 512) with the single-GPU lr unchanged; first QAT on 1 GPU kept",
     expect=["train.batch_scaled_lr_unchanged"], allow=LADDER_Q + ["qat.trend_mismatch"],
     variants=dict(big=dict(qat=dict(bs=512, epochs=3, log_every=2))), meta=dict(big_world=8))
# --- Hugging Face Trainer ---------------------------------------------------------------------
case("c09_hf_trainer_ok", "hf", base(19, noise=2.7), H)
case("c10_hf_no_float_ckpt", "hf", mod(base(20, noise=2.7), qat=dict(fresh_float=True)),
     "QAT started from a freshly initialised model (float checkpoint path wrong, load skipped): QAT loss starts ~2.3 vs float end ~0.6",
     expect=["qat.start_loss_high"], allow=LADDER_Q + ["qat.trend_mismatch", "float.not_converged"])
# --- timm -------------------------------------------------------------------------------------
case("c11_timm_warmup_ok", "timm",
     mod(base(21, noise=2.6, f_epochs=7), float=dict(sched="warmup_cosine", lr=0.15, sched_kw=dict(warmup=40, warmup_start=0.02))),
     H + " (float warmup to lr 0.15 gives an early loss bump; QAT from the converged model)")
case("c12_timm_underfit", "timm",
     mod(base(22, noise=2.8), float=dict(epochs=1, lr=0.004, sched="const")),
     "float trained 1 epoch at lr 0.004 (val acc ~0.25, loss still falling) before calibration and QAT",
     expect=["float.not_converged"], allow=["qat.trend_mismatch", "calib.low_accuracy"])
# --- detectron2 metrics.json ------------------------------------------------------------------
case("c13_d2_qat_lr", "detectron2", mod(base(23, noise=2.8), qat=dict(lr=0.6)),
     "QAT lr 0.6 (12x float's 0.05, 300x the usual): QAT acc ~0.85 below calibration ~0.95",
     expect=["qat.worse_than_calibration"],
     allow=["train.aggressive_lr_schedule", "qat.start_loss_high", "qat.trend_mismatch", "ladder.qat_drop", "loss.divergence"])
case("c14_d2_ok", "detectron2", base(24, noise=2.6), H)
# --- YOLOv5 / ultralytics results.csv ---------------------------------------------------------
case("c15_yolov5cls_trend", "yolov5", mod(base(25, noise=2.8, calib=False, q_epochs=4), qat=dict(lr=0.01, wd=0.1)),
     "QAT weight_decay typo 0.1 (float used 5e-4): QAT train loss climbs every epoch (0.79 -> 1.56) while float's fell; val acc ~0.75 vs float ~0.93",
     expect=["qat.trend_mismatch"],
     allow=["ladder.qat_drop", "qat.start_loss_high", "loss.divergence", "qat.quantized_gap"])
case("c16_ultralytics_ok", "ultralytics", base(26, noise=2.9), H)
# --- Keras ------------------------------------------------------------------------------------
case("c17_keras_overfit", "keras",
     mod(base(27, noise=2.6), float=dict(n_train=400, aug_noise=0, epochs=30, wd=0.0, sched="const", lr=0.03, log_every=2),
         qat=dict(n_train=400, aug_noise=0, log_every=2)),
     "float trained on 400 samples without augmentation for 30 epochs: train acc 1.0 vs val ~0.68",
     expect=["float.overfit"], allow=["qat.trend_mismatch"])
case("c18_keras_calib_255", "keras", mod(base(28, noise=2.7), calib=dict(normalize=False)),
     "calibration batches not normalised: calibration acc far below float",
     expect=["calib.low_accuracy"], allow=["qat.start_loss_high"])
# --- HAT (horizon) ----------------------------------------------------------------------------
case("c19_hat_onefile_ok", "hat_onefile", base(29, noise=2.8), H, meta=dict(march="nash-e"))
case("c20_hat_march", "hat_files", base(30, noise=2.7),
     "float and calibration set march nash-e, the QAT config still says bayes-e",
     expect=["config.march"], allow=[], meta=dict(march="nash-e", qat_march="bayes-e"))
case("c21_hat_calib_4gpu", "hat_files", mod(base(31, noise=2.8), calib=dict(shard=(0, 4), n_batches=3)),
     "calibration launched on 4 GPUs (world_size 4, each rank saw a quarter of the batches)",
     expect=["calib.multi_gpu"], allow=["calib.low_accuracy"], meta=dict(march="nash-m", calib_world=4))
case("c22_hat_onecycle", "hat_onefile",
     mod(base(32, noise=2.8), float=dict(sched="onecycle", lr=0.05, sched_kw=dict(max_lr=0.2)),
         qat=dict(sched="onecycle", lr=0.2, sched_kw=dict(max_lr=0.2, pct_start=0.3))),
     "QAT reuses the float OneCycle schedule (peak lr 0.2) instead of a small stable lr",
     expect=["train.aggressive_lr_schedule"],
     allow=LADDER_Q + ["qat.start_loss_high", "qat.trend_mismatch", "loss.divergence"], meta=dict(march="nash-e"))
# --- Python logging ---------------------------------------------------------------------------
case("c23_logging_explode", "pylogging",
     mod(base(33, noise=2.7, q_epochs=2), float=dict(bn=False, lr=0.02), qat=dict(lr=0.15, wd=0.0, log_every=1)),
     "BN-free net, QAT lr 0.15 (float 0.02): QAT loss 0.77 -> 6.8 within 5 steps, then stuck at chance (2.30)",
     expect=["loss.divergence"],
     allow=LADDER_Q + ["qat.trend_mismatch", "qat.not_learning", "train.aggressive_lr_schedule", "qat.start_loss_high"])
case("c24_logging_crash", "pylogging", mod(base(34, noise=2.8, int8=False), qat=dict(crash_at=(1, 30))),
     "QAT crashes in epoch 2 (default_collate: a corrupted 15-pixel-high sample), traceback, nothing after",
     expect=["run.crashed"], allow=["qat.no_quantized_eval"])
# --- Chinese print logs -----------------------------------------------------------------------
case("c25_zh_stages_ok", "zh_print", base(35, noise=2.7), H + " (folders 浮点/校准/量化训练/定点)")
case("c26_zh_no_int8", "zh_print", base(36, noise=2.8, int8=False),
     "QAT monitored only with the fake-quant model; no quantized (定点) evaluation anywhere (GBK-encoded logs)",
     expect=["qat.no_quantized_eval"], allow=[], meta=dict(encoding="gbk"))
case("c27_zh_cpu", "zh_print", base(37, noise=2.6),
     "torch could not see the GPU (driver missing in the container); the whole run fell back to CPU",
     expect=["env.no_gpu"], allow=[], meta=dict(no_gpu=True))
# --- JSONL ------------------------------------------------------------------------------------
case("c28_jsonl_raw_int8", "jsonl", mod(base(38, noise=2.9), qat=dict(int8_raw_input="raw")),
     "int8 evaluation script feeds un-normalised pixels to the converted model: int8 acc ~0.15 vs QAT ~0.94",
     expect=["qat.quantized_gap"], allow=["ladder.convert_drop"])
case("c29_jsonl_ok", "jsonl", base(39, noise=3.1, f_epochs=8), H)
# --- tqdm -------------------------------------------------------------------------------------
case("c30_tqdm_3bit", "tqdm", mod(base(40, noise=2.8, calib=False), qat=dict(bits=3)),
     "qconfig mis-set to 3-bit fake quant (no calibration step): QAT acc ~0.82 vs float ~0.95",
     expect=["ladder.qat_drop"], allow=["qat.start_loss_high", "qat.trend_mismatch", "qat.worse_than_calibration", "qat.quantized_gap"])
case("c31_tqdm_4gpu", "tqdm", base(41, noise=2.7),
     "QAT moved from 1 GPU (batch 64) to 4 GPUs (global batch 256), lr 0.002 kept",
     expect=["train.batch_scaled_lr_unchanged"], allow=LADDER_Q + ["qat.trend_mismatch"],
     variants=dict(big=dict(qat=dict(bs=256, epochs=3))), meta=dict(big_world=4))
# --- torchvision references (MetricLogger, train_quantization.py) -----------------------------
case("c32_tv_underfit", "torchvision", mod(base(42, noise=2.6), float=dict(epochs=2, lr=0.003, sched="const")),
     "float stopped after 2 epochs at lr 0.003 (val acc far from plateau, loss still dropping fast)",
     expect=["float.not_converged"], allow=["qat.trend_mismatch"])
case("c33_tv_ok", "torchvision", base(43, noise=2.8, q_epochs=4), H)
