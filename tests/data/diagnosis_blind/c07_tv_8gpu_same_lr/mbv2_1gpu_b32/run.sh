python train.py --model mobilenet_v2 --data-path /datasets/synth10 -b 32 --lr 0.1 --epochs 12 --lr-scheduler cosineannealinglr --wd 0.0005 --output-dir ./mbv2_1gpu_b32
