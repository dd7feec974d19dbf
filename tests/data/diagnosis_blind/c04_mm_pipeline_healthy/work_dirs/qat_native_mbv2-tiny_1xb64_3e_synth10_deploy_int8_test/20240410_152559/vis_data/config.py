_base_ = ['./qat_native_mbv2-tiny_1xb64_3e_synth10.py']
deploy_cfg = dict(backend_config=dict(type='qnnpack'), codebase_config=dict(task='Classification', type='mmpretrain'))
load_from = 'work_dirs/qat_native_mbv2-tiny_1xb64_3e_synth10/epoch_3.pth'
model = dict(type='mmrazor.MMArchitectureQuant', deploy=True, convert_to='int8')
test_cfg = dict(type='TestLoop')
work_dir = './work_dirs/qat_native_mbv2-tiny_1xb64_3e_synth10_deploy_int8_test'
