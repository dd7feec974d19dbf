python main.py --epochs 1 --batch-size 64 --lr 0.1 --dry-run-steps 27 --save-model
