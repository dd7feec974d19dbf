default_scope = 'mmpretrain'
model = dict(type='ImageClassifier', backbone=dict(type='TinyConvNet', width=16), head=dict(type='LinearClsHead', num_classes=10, in_channels=128, loss=dict(type='CrossEntropyLoss', loss_weight=1.0)))
val_dataloader = dict(batch_size=250, num_workers=2, dataset=dict(type='CustomDataset', data_root='data/blobs10', ann_file='meta/val.txt'))
val_evaluator = dict(type='Accuracy', topk=(1, 5))
default_hooks = dict(logger=dict(type='LoggerHook', interval=10), checkpoint=dict(type='CheckpointHook', interval=1))
env_cfg = dict(cudnn_benchmark=False, dist_cfg=dict(backend='nccl'))
test_dataloader = val_dataloader
test_evaluator = val_evaluator
qat_mode = 'calibration'
load_from = 'work_dirs/tinycls_8xb64_fp32/epoch_6.pth'
custom_hooks = [dict(type='QuantCalibrationHook', num_batches=12, observer='MinMaxObserver')]
