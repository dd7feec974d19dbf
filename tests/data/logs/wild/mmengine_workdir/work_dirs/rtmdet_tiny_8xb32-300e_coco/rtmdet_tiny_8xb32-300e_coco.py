auto_scale_lr = dict(base_batch_size=256, enable=False)
base_lr = 0.004
default_scope = 'mmdet'
log_level = 'INFO'
max_epochs = 300
model = dict(
    bbox_head=dict(num_classes=80, type='RTMDetSepBNHead'), type='RTMDet')
optim_wrapper = dict(
    optimizer=dict(lr=0.004, type='AdamW', weight_decay=0.05),
    paramwise_cfg=dict(bias_decay_mult=0, bypass_duplicate=True, norm_decay_mult=0),
    type='OptimWrapper')
train_cfg = dict(max_epochs=300, type='EpochBasedTrainLoop', val_interval=1)
work_dir = './work_dirs/rtmdet_tiny_8xb32-300e_coco'
