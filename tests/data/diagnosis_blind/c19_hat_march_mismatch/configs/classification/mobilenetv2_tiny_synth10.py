import torch
from horizon_plugin_pytorch.march import March

# deployment target: J6E board (RDK S100)
task_name = "mobilenetv2_tiny_synth10"
num_classes = 10
batch_size_per_gpu = 64
device_ids = [0]
march = March.BAYES

convert_mode = "fx"
qat_mode = "fuse_bn"
compile_cfg = dict(
    march="nash-e",
    input_source="ddr",
    opt=2,
    out_dir="./tmp_compile/mobilenetv2_tiny_synth10",
)
