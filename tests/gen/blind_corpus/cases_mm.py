"""mmengine / mmpretrain / mmrazor layout cases."""
import os

import engine as E
from casekit import std_pipeline, healthy_pipeline, check_healthy, numbers, entry, need, case_dir, float_end_loss, qat_start_loss
from common import Clock, write
from writers import mmengine_run

LAYOUT = "mmengine"


def float_cfg(bs, lr, epochs, work_dir, auto_scale=True, extra=""):
    return f"""auto_scale_lr = dict(base_batch_size={bs}{', enable=False' if auto_scale else ''})
data_preprocessor = dict(
    mean=[
        127.5,
    ], num_classes=10, std=[
        63.75,
    ], to_rgb=False)
data_root = 'data/synth10/'
dataset_type = 'CustomDataset'
default_hooks = dict(
    checkpoint=dict(interval=1, max_keep_ckpts=3, type='CheckpointHook'),
    logger=dict(interval=10, type='LoggerHook'),
    param_scheduler=dict(type='ParamSchedulerHook'),
    sampler_seed=dict(type='DistSamplerSeedHook'),
    timer=dict(type='IterTimerHook'),
    visualization=dict(enable=False, type='VisualizationHook'))
default_scope = 'mmpretrain'
env_cfg = dict(
    cudnn_benchmark=False,
    dist_cfg=dict(backend='nccl'),
    mp_cfg=dict(mp_start_method='fork', opencv_num_threads=0))
launcher = 'pytorch'
load_from = None
log_level = 'INFO'
model = dict(
    backbone=dict(type='MobileNetTiny', widen_factor=1.0),
    head=dict(
        in_channels=128,
        loss=dict(loss_weight=1.0, type='CrossEntropyLoss'),
        num_classes=10,
        type='LinearClsHead'),
    neck=dict(type='GlobalAveragePooling'),
    type='ImageClassifier')
optim_wrapper = dict(
    optimizer=dict(lr={lr}, momentum=0.9, type='SGD', weight_decay=0.0005))
param_scheduler = dict(
    T_max={epochs}, begin=0, by_epoch=True, end={epochs}, type='CosineAnnealingLR')
randomness = dict(deterministic=False, seed=None)
resume = False
test_cfg = dict()
train_cfg = dict(by_epoch=True, max_epochs={epochs}, val_interval=1)
train_dataloader = dict(
    batch_size={bs},
    dataset=dict(
        data_root='data/synth10/',
        pipeline=[
            dict(type='LoadImageFromFile'),
            dict(crop_size=16, padding=1, type='RandomCrop'),
            dict(type='PackInputs'),
        ],
        split='train',
        type='CustomDataset'),
    num_workers=4,
    sampler=dict(shuffle=True, type='DefaultSampler'))
val_cfg = dict()
val_dataloader = dict(
    batch_size=200,
    dataset=dict(
        data_root='data/synth10/',
        pipeline=[
            dict(type='LoadImageFromFile'),
            dict(type='PackInputs'),
        ],
        split='val',
        type='CustomDataset'),
    num_workers=4,
    sampler=dict(shuffle=False, type='DefaultSampler'))
val_evaluator = dict(topk=(
    1,
    5,
), type='Accuracy')
{extra}work_dir = '{work_dir}'
"""


def qat_cfg(lr, epochs, wd, work_dir, float_ckpt, bs=64, extra=""):
    return f"""_base_ = ['mmpretrain::mobilenet_tiny/mbv2-tiny_1xb64_synth10.py']
float_checkpoint = '{float_ckpt}'
global_qconfig = dict(
    a_fakequant=dict(type='FakeQuantize'),
    a_observer=dict(type='MovingAverageMinMaxObserver'),
    a_qscheme=dict(bit=8, is_symmetry=False, averaging_constant=0.01),
    w_fakequant=dict(type='FakeQuantize'),
    w_observer=dict(type='MinMaxObserver'),
    w_qscheme=dict(bit=8, is_symmetry=True, is_symmetric_range=True))
model = dict(
    _delete_=True,
    architecture=dict(init_cfg=dict(checkpoint='{float_ckpt}', type='Pretrained')),
    float_checkpoint='{float_ckpt}',
    quantizer=dict(
        global_qconfig=global_qconfig,
        tracer=dict(type='mmrazor.CustomTracer'),
        type='mmrazor.NativeQuantizer'),
    type='mmrazor.MMArchitectureQuant')
optim_wrapper = dict(
    optimizer=dict(lr={lr}, momentum=0.9, type='SGD', weight_decay={wd}))
param_scheduler = dict(by_epoch=True, factor=1.0, type='ConstantLR')
custom_hooks = [
    dict(type='mmrazor.QATHook', calibrate_steps=16, disable_observer_begin=-1),
]
train_cfg = dict(
    calibrate_dataloader=dict(batch_size={bs}, num_workers=4),
    max_epochs={epochs},
    type='mmrazor.QATEpochBasedLoop',
    val_interval=1)
val_cfg = dict(type='mmrazor.QATValLoop')
test_cfg = dict(type='mmrazor.PTQLoop')
train_dataloader = dict(batch_size={bs})
{extra}work_dir = '{work_dir}'
"""


def _qat_cos_cfg(lr, epochs, wd, work_dir, float_ckpt, bs=64):
    return qat_cfg(lr, epochs, wd, work_dir, float_ckpt, bs).replace(
        "param_scheduler = dict(by_epoch=True, factor=1.0, type='ConstantLR')",
        "param_scheduler = dict(\n    T_max=%d, begin=0, by_epoch=True, end=%d, type='CosineAnnealingLR')" % (epochs, epochs))


def _ptq_test(p, root, name, clock, float_ckpt):
    cfg_text = f"""_base_ = ['mmpretrain::mobilenet_tiny/mbv2-tiny_1xb64_synth10.py']
float_checkpoint = '{float_ckpt}'
model = dict(
    _delete_=True,
    architecture=dict(init_cfg=dict(checkpoint='{float_ckpt}', type='Pretrained')),
    float_checkpoint='{float_ckpt}',
    quantizer=dict(type='mmrazor.NativeQuantizer', tracer=dict(type='mmrazor.CustomTracer')),
    type='mmrazor.MMArchitectureQuant')
test_cfg = dict(
    calibrate_dataloader=dict(batch_size=64, num_workers=4),
    calibrate_steps=16,
    type='mmrazor.PTQLoop')
work_dir = './work_dirs/{name}'
"""
    return mmengine_run(os.path.join(root, "work_dirs", name), None, {"load_from": float_ckpt}, clock, cfg_text,
                        mode="test", test_result=p.res["calib"]["final"])


def _int8_test(ev, root, name, clock, qat_ckpt):
    cfg_text = f"""_base_ = ['./qat_native_mbv2-tiny_1xb64_3e_synth10.py']
deploy_cfg = dict(backend_config=dict(type='qnnpack'), codebase_config=dict(task='Classification', type='mmpretrain'))
load_from = '{qat_ckpt}'
model = dict(type='mmrazor.MMArchitectureQuant', deploy=True, convert_to='int8')
test_cfg = dict(type='TestLoop')
work_dir = './work_dirs/{name}'
"""
    return mmengine_run(os.path.join(root, "work_dirs", name), None, {"load_from": qat_ckpt}, clock, cfg_text,
                        mode="test", test_result=ev)


# ---------------------------------------------------------------- cases --
def c01_mm_4xb32_same_lr():
    cid = "c01_mm_4xb32_same_lr"
    root = case_dir(cid)
    a = std_pipeline(11, 11, float_kw=dict(bs=32, lr=0.1), skip_calib=True)
    b = std_pipeline(11, 11, float_kw=dict(bs=128, lr=0.1), skip_calib=True)
    fa, fb = a.res["float"]["final"]["acc1"], b.res["float"]["final"]["acc1"]
    need(fa - fb >= 1.5, "4x batch run not clearly worse: %.2f vs %.2f" % (fa, fb))
    clk = Clock("2024-03-04 10:12:40", 1)
    n1 = "mbv2-tiny_1xb32_synth10"
    mmengine_run(os.path.join(root, "work_dirs", n1), a.res["float"], dict(epochs=12, abs_work_dir="/home/dev/mmpretrain/work_dirs/" + n1),
                 clk, float_cfg(32, 0.1, 12, "./work_dirs/" + n1), gpus=1, seed=1701042, sec_per_iter=0.045)
    clk = Clock("2024-03-06 19:40:05", 2)
    n4 = "mbv2-tiny_4xb32_synth10"
    mmengine_run(os.path.join(root, "work_dirs", n4), b.res["float"], dict(epochs=12, abs_work_dir="/home/dev/mmpretrain/work_dirs/" + n4),
                 clk, float_cfg(32, 0.1, 12, "./work_dirs/" + n4), gpus=4, seed=399281, sec_per_iter=0.05)
    write(os.path.join(root, "work_dirs", n1, n1 + ".py"), float_cfg(32, 0.1, 12, "./work_dirs/" + n1))
    write(os.path.join(root, "work_dirs", n4, n4 + ".py"), float_cfg(32, 0.1, 12, "./work_dirs/" + n4))
    return entry(cid, LAYOUT, "Float model trained twice with the same config: once on 1 GPU (1xb32) and once on "
                 "4 GPUs (4xb32, total batch 128) with lr still 0.1 and auto_scale_lr disabled; the 4-GPU run ends "
                 "clearly lower.", False, ["train.batch_scaled_lr_unchanged"], {},
                 dict(float_top1_1gpu=round(fa, 2), float_top1_4gpu=round(fb, 2), total_batch_1gpu=32,
                      total_batch_4gpu=128, lr=0.1))


def c02_mm_cpu_only():
    cid = "c02_mm_cpu_only"
    root = case_dir(cid)
    p = std_pipeline(12, 12, skip_calib=True)
    f = p.res["float"]
    clk = Clock("2024-05-21 08:01:13", 3)
    name = "mbv2-tiny_1xb64_synth10"
    warn = ("/opt/conda/lib/python3.8/site-packages/torch/cuda/__init__.py:88: UserWarning: CUDA initialization: "
            "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver "
            "from http://www.nvidia.com/Download/index.aspx (Triggered internally at "
            "../c10/cuda/CUDAFunctions.cpp:109.)\n  return torch._C._cuda_getDeviceCount() > 0")
    ts = mmengine_run(os.path.join(root, "work_dirs", name), f, dict(epochs=12, abs_work_dir="/workspace/mmpretrain/work_dirs/" + name),
                      clk, float_cfg(64, 0.1, 12, "./work_dirs/" + name), gpus=1, cuda=False, seed=5021,
                      sec_per_iter=2.9)
    logp = os.path.join(root, "work_dirs", name, ts, ts + ".log")
    txt = open(logp).read()
    # the CUDA warning goes to stderr first; the user captured both streams; CPU runs print no memory field
    import re
    txt = re.sub(r"  memory: \d+", "", txt)
    write(logp, warn + "\n" + txt)
    write(os.path.join(root, "nohup.out"), warn + "\n" + txt)
    return entry(cid, LAYOUT, "Training launched in a Docker container started without GPU access: torch warns "
                 "'Found no NVIDIA driver', the env block says 'CUDA available: False', and the run goes on on CPU "
                 "(about 3 s per iteration). The float model itself trains normally.", False, ["env.no_gpu"], {},
                 numbers(p, dict(sec_per_iter=2.9)))


def c03_mm_qat_weight_decay():
    cid = "c03_mm_qat_wd_trend"
    root = case_dir(cid)
    p = std_pipeline(13, 13, qat_kw=dict(epochs=4, lr=0.02, wd=0.03, sched="const"))
    q = p.res["qat"]
    tl = [e["train_loss"] for e in q["evals"]]
    need(tl[-1] > tl[0] + 0.15 and all(tl[i + 1] > tl[i] - 0.02 for i in range(len(tl) - 1)),
         "QAT train loss does not rise steadily: %s" % tl)
    fl = [e["train_loss"] for e in p.res["float"]["evals"]]
    need(fl[-1] < fl[0], "float loss should fall")
    _mm_pipeline(p, root, cid, qat_lr=0.02, qat_wd=0.03, qat_epochs=4, start="2024-06-02 09:30:00")
    return entry(cid, LAYOUT, "mmrazor QAT whose config sets weight_decay=0.03 (60x the float recipe) with a constant "
                 "lr of 0.02: the QAT training loss climbs epoch after epoch while the float run's fell; accuracy "
                 "drops well below the PTQ calibration.", False, ["qat.trend_mismatch"],
                 {"qat.worse_than_calibration": "consequence: the weight decay drags QAT accuracy below calibration",
                  "loss.divergence": "the QAT loss rises steadily over the run (a slow climb, no explosion)"},
                 numbers(p, dict(qat_train_loss_per_epoch=[round(x, 4) for x in tl],
                                 float_train_loss_per_epoch=[round(x, 4) for x in fl])))


def _mm_pipeline(p, root, cid, qat_lr=0.005, qat_wd=5e-5, qat_epochs=3, start="2024-04-10 14:00:00", cos=True):
    clk = Clock(start, 7)
    fname = "mbv2-tiny_1xb64_synth10"
    fck = "work_dirs/%s/epoch_12.pth" % fname
    mmengine_run(os.path.join(root, "work_dirs", fname), p.res["float"],
                 dict(epochs=12, abs_work_dir="/data/user/mmrazor/work_dirs/" + fname),
                 clk, float_cfg(64, 0.1, 12, "./work_dirs/" + fname, auto_scale=False), gpus=1, seed=77231,
                 sec_per_iter=0.06)
    clk.tick(3600)
    pname = "ptq_native_mbv2-tiny_1xb64_synth10_calib16xb64"
    _ptq_test(p, root, pname, clk, fck)
    clk.tick(900)
    qname = "qat_native_mbv2-tiny_1xb64_%de_synth10" % qat_epochs
    mk = _qat_cos_cfg if cos and qat_wd < 1e-3 else qat_cfg
    qtext = mk(qat_lr, qat_epochs, qat_wd, "./work_dirs/" + qname, fck)
    mmengine_run(os.path.join(root, "work_dirs", qname), p.res["qat"],
                 dict(epochs=qat_epochs, abs_work_dir="/data/user/mmrazor/work_dirs/" + qname),
                 clk, qtext, gpus=1, seed=9102, sec_per_iter=0.11, memory=842)
    write(os.path.join(root, "work_dirs", qname, qname + ".py"), qtext)
    clk.tick(600)
    _int8_test(p.res["qat"]["int8_final"], root, qname + "_deploy_int8_test", clk,
               "work_dirs/%s/epoch_%d.pth" % (qname, qat_epochs))


def c04_mm_pipeline_healthy():
    cid = "c04_mm_pipeline_healthy"
    root = case_dir(cid)
    p = healthy_pipeline([14, 114, 214, 314])
    _mm_pipeline(p, root, cid, start="2024-04-10 14:00:00")
    return entry(cid, LAYOUT, "Healthy mmpretrain float run, mmrazor PTQ calibration (test loop), mmrazor QAT "
                 "(val per epoch) and a test of the converted int8 model, each in its own work_dir; QAT starts a "
                 "little above float's final loss.", True, [], {}, numbers(p))


CASES = [c01_mm_4xb32_same_lr, c02_mm_cpu_only, c03_mm_qat_weight_decay, c04_mm_pipeline_healthy]
