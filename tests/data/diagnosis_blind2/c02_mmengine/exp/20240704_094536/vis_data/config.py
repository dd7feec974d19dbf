default_scope = 'mmpretrain'
model = dict(type='ImageClassifier', backbone=dict(type='TinyConvNet', width=16), head=dict(type='LinearClsHead', num_classes=10, in_channels=128, loss=dict(type='CrossEntropyLoss', loss_weight=1.0)))
train_dataloader = dict(batch_size=64, num_workers=4, dataset=dict(type='CustomDataset', data_root='data/blobs10', ann_file='meta/train.txt'))
val_dataloader = dict(batch_size=250, num_workers=2, dataset=dict(type='CustomDataset', data_root='data/blobs10', ann_file='meta/val.txt'))
val_evaluator = dict(type='Accuracy', topk=(1, 5))
optim_wrapper = dict(optimizer=dict(type='SGD', lr=0.002, momentum=0.9, weight_decay=0.0005))
param_scheduler = [dict(type='ConstantLR', by_epoch=True, begin=0, end=3)]
train_cfg = dict(by_epoch=True, max_epochs=3, val_interval=1)
default_hooks = dict(logger=dict(type='LoggerHook', interval=10), checkpoint=dict(type='CheckpointHook', interval=1))
env_cfg = dict(cudnn_benchmark=False, dist_cfg=dict(backend='nccl'))
qat_mode = 'qat'
load_from = 'work_dirs/tinycls_calibration/calib.pth'
custom_hooks = [dict(type='QATHook', prepare='prepare_qat', fake_quant=True, observer=True)]
