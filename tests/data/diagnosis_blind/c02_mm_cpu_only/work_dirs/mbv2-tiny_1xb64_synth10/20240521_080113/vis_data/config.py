auto_scale_lr = dict(base_batch_size=64, enable=False)
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
    optimizer=dict(lr=0.1, momentum=0.9, type='SGD', weight_decay=0.0005))
param_scheduler = dict(
    T_max=12, begin=0, by_epoch=True, end=12, type='CosineAnnealingLR')
randomness = dict(deterministic=False, seed=None)
resume = False
test_cfg = dict()
train_cfg = dict(by_epoch=True, max_epochs=12, val_interval=1)
train_dataloader = dict(
    batch_size=64,
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
work_dir = './work_dirs/mbv2-tiny_1xb64_synth10'
