_base_ = ['mmpretrain::mobilenet_tiny/mbv2-tiny_1xb64_synth10.py']
float_checkpoint = 'work_dirs/mbv2-tiny_1xb64_synth10/epoch_12.pth'
global_qconfig = dict(
    a_fakequant=dict(type='FakeQuantize'),
    a_observer=dict(type='MovingAverageMinMaxObserver'),
    a_qscheme=dict(bit=8, is_symmetry=False, averaging_constant=0.01),
    w_fakequant=dict(type='FakeQuantize'),
    w_observer=dict(type='MinMaxObserver'),
    w_qscheme=dict(bit=8, is_symmetry=True, is_symmetric_range=True))
model = dict(
    _delete_=True,
    architecture=dict(init_cfg=dict(checkpoint='work_dirs/mbv2-tiny_1xb64_synth10/epoch_12.pth', type='Pretrained')),
    float_checkpoint='work_dirs/mbv2-tiny_1xb64_synth10/epoch_12.pth',
    quantizer=dict(
        global_qconfig=global_qconfig,
        tracer=dict(type='mmrazor.CustomTracer'),
        type='mmrazor.NativeQuantizer'),
    type='mmrazor.MMArchitectureQuant')
optim_wrapper = dict(
    optimizer=dict(lr=0.02, momentum=0.9, type='SGD', weight_decay=0.03))
param_scheduler = dict(by_epoch=True, factor=1.0, type='ConstantLR')
custom_hooks = [
    dict(type='mmrazor.QATHook', calibrate_steps=16, disable_observer_begin=-1),
]
train_cfg = dict(
    calibrate_dataloader=dict(batch_size=64, num_workers=4),
    max_epochs=4,
    type='mmrazor.QATEpochBasedLoop',
    val_interval=1)
val_cfg = dict(type='mmrazor.QATValLoop')
test_cfg = dict(type='mmrazor.PTQLoop')
train_dataloader = dict(batch_size=64)
work_dir = './work_dirs/qat_native_mbv2-tiny_1xb64_4e_synth10'
