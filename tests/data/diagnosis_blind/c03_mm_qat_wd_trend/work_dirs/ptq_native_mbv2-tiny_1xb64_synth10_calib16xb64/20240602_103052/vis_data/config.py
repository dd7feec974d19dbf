_base_ = ['mmpretrain::mobilenet_tiny/mbv2-tiny_1xb64_synth10.py']
float_checkpoint = 'work_dirs/mbv2-tiny_1xb64_synth10/epoch_12.pth'
model = dict(
    _delete_=True,
    architecture=dict(init_cfg=dict(checkpoint='work_dirs/mbv2-tiny_1xb64_synth10/epoch_12.pth', type='Pretrained')),
    float_checkpoint='work_dirs/mbv2-tiny_1xb64_synth10/epoch_12.pth',
    quantizer=dict(type='mmrazor.NativeQuantizer', tracer=dict(type='mmrazor.CustomTracer')),
    type='mmrazor.MMArchitectureQuant')
test_cfg = dict(
    calibrate_dataloader=dict(batch_size=64, num_workers=4),
    calibrate_steps=16,
    type='mmrazor.PTQLoop')
work_dir = './work_dirs/ptq_native_mbv2-tiny_1xb64_synth10_calib16xb64'
