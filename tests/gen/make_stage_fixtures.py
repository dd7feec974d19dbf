#!/usr/bin/env python3
"""Writes tests/data/logs/stages: logs whose stages are named by their content, in the layouts
real QAT scripts print (our own lines and numbers):

- torchvision_qat/: references/classification/train_quantization.py (QAT): MetricLogger training
  lines, then per epoch "Evaluate QAT model" + "Test: QAT ..." lines and "Evaluate Quantized
  model" + "Test: ..." lines; the newer closing line "Test: QAT Acc@1 .." (tv_new) or the older
  " * Acc@1 .." (tv_old).
- torchvision_ptq/: the same script with --post-training-quantize ("Calibrating", then
  "Evaluating post-training quantized model").
- announced/run.log: one script printing every stage's banner and a summary line per stage.
- int8_lines/qat/train.log: a QAT script that evaluates its converted copy on the same line shape
  ("int8 (qnnpack) val_loss=.. val_acc=..") and in brackets ("[int8] val_acc=..").
- jsonl_events/qat/metrics.jsonl: JSON records, a calibration result and an int8 result among the
  epochs ({"event": "calibration", ...}).
- qualifier/B_fc_weight_only_fp32_output/train.log: a QAT run in a folder named after its
  experiment (its output layer kept in fp32), the content naming QAT.
- beside_junk/: float and QAT logs with what projects keep beside them that is no log: a README,
  a JSON of expected numbers, a model's config.json, a benchmark table of FP32/AMP/INT8 builds.
- plain_console/train.log: console prints without a logging prefix, "Epoch [1/3] Step [i/N]
  loss: x acc: y" and mmdet-like "Epoch [1][i/N] loss: x".
- mmengine_gpus/: two QAT runs written by mmengine, on 1 and on 4 GPUs with the same per-GPU batch
  and lr: the batch per GPU is only in the config dump (train_dataloader = dict(batch_size=32, ..)
  over several lines), the GPU count in the environment block ("GPU number: 4").
- keras_fit/float/train.log: a Keras fit log, "Epoch N/M" then the progress line with the epoch's
  metrics (an ETA line before it, the bar redrawn with backspaces in one epoch), and
  model.evaluate() on the test set after training.
- first_epoch/float/train.log: a float run stopped inside its first epoch (step 60 of 200) while
  its loss still falls steeply, logging every 15 steps.
- prose_result/qat/train.log: a QAT log that states its converted model's accuracy in a sentence
  the reader has no words for: the reading is incomplete there (coverage), so "no quantized
  evaluation" cannot be claimed.
- chinese_print/: a pipeline printed in Chinese, one .txt per stage named by its stage only
  ("1_浮点.txt" ... "4_定点评测.txt"): spaced counters ("第 1/2 轮 [ 20/40]"), metric words in
  Chinese (损失, 准确率, 学习率), an epoch-end line with the training and the validation set
  ("训练集平均损失: .. | 验证集 损失: .. 准确率: ..%"), banners with the stage in two languages
  ("==== 量化训练（QAT） ===="), a conversion line ("QAT 模型已转换为定点（int8）模型") and an
  evaluation-only file of one metric line.
- comma_table/qat/: a detectron2-style QAT run whose evaluations are the two-line comma tables
  ("copypaste: Task: classification", "copypaste: top1,top5", "copypaste: 81.2,97.0") and whose
  int8 evaluation, after "convert -> int8 model", is one such table in int8_test/log.txt.
Deterministic: python3 tests/gen/make_stage_fixtures.py
"""
import json
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "data", "logs", "stages")


def write(rel, text):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write(text)


def tv_train(epoch, n, loss0, acc0):
    out = []
    for i in range(0, n, 4):
        loss = loss0 * (1 - 0.02 * i)
        acc = acc0 + 0.3 * i
        out.append(f"Epoch: [{epoch}]  [{i:2d}/{n}]  eta: 0:00:{n - i:02d}  lr: 0.0001  img/s: 431.7  "
                   f"loss: {loss:.4f} ({loss:.4f})  acc1: {acc:.4f} ({acc:.4f})  acc5: 100.0000 (99.2188)  "
                   f"time: 0.0741  data: 0.0031  max mem: 112")
    out.append(f"Epoch: [{epoch}] Total time: 0:00:02")
    return out


def tv_eval(suffix, acc1, loss, closing):
    header = f"Test: {suffix}"
    out = [f"{header}  [0/8]  eta: 0:00:01  loss: {loss:.4f} ({loss:.4f})  acc1: {acc1:.4f} ({acc1:.4f})  "
           f"acc5: 100.0000 (100.0000)  time: 0.1510  data: 0.1120  max mem: 112",
           f"{header} Total time: 0:00:01"]
    if closing == "new":
        out.append(f"{header} Acc@1 {acc1:.3f} Acc@5 99.961")
    else:
        out.append(f" * Acc@1 {acc1:.3f} Acc@5 99.961")
    return out


def torchvision_qat(closing):
    lines = ["Namespace(data_path='/data/tiny', model='mobilenet_v2', backend='qnnpack', device='cpu', "
             "batch_size=32, eval_batch_size=128, epochs=3, lr=0.0001, output_dir='./out')",
             "Loading data", "Creating model mobilenet_v2"]
    qat = [88.10, 89.35, 89.90]
    q8 = [87.70, 88.95, 89.45]
    for e in range(3):
        lines.append(f"Starting training for epoch {e}")
        lines += tv_train(e, 16, 0.41 - 0.05 * e, 82.0 + 2 * e)
        lines.append("Evaluate QAT model")
        lines += tv_eval("QAT", qat[e], 0.33 - 0.02 * e, closing)
        lines.append("Evaluate Quantized model")
        lines += tv_eval("", q8[e], 0.35 - 0.02 * e, closing)
        lines.append(f"Saving models after epoch  {e}")
    lines.append("Training time 0:00:31")
    return "\n".join(lines) + "\n"


def torchvision_ptq():
    lines = ["Namespace(data_path='/data/tiny', model='resnet18', backend='fbgemm', post_training_quantize=True)",
             "Loading data", "Creating model resnet18", "Calibrating"]
    for i in range(4):
        lines.append(f"Test:   [{i}/4]  eta: 0:00:02  loss: 0.2{i}10 (0.2{i}10)  acc1: 9{i}.5000 (9{i}.5000)  "
                     f"acc5: 100.0000 (100.0000)  time: 0.2012  data: 0.1503")
    lines += ["Test:  Total time: 0:00:01", " * Acc@1 92.750 Acc@5 100.000", "Saving quantized model",
              "Evaluating post-training quantized model"]
    lines += ["Test:   [0/8]  eta: 0:00:03  loss: 0.3320 (0.3320)  acc1: 90.6250 (90.6250)  acc5: 100.0000 (100.0000)",
              "Test:  Total time: 0:00:02", " * Acc@1 89.875 Acc@5 99.875"]
    return "\n".join(lines) + "\n"


def announced():
    lines = ["Stage float: training the float model"]
    for e in range(1, 4):
        for s in (10, 20):
            step = (e - 1) * 20 + s
            lines.append(f"epoch {e} step {step} loss {1.3 / (step / 10):.4f} acc {0.5 + 0.02 * step:.4f}")
    lines += ["Float model test accuracy: 0.9612",
              "Stage calibration: observers on 16 batches",
              "Calibration accuracy (fake-quant): 0.9544",
              "Stage qat: fine-tuning with fake quantization"]
    for e in range(1, 3):
        for s in (10, 20):
            step = (e - 1) * 20 + s
            lines.append(f"epoch {e} step {step} loss {0.21 - 0.01 * e:.4f} acc {0.93 + 0.005 * e:.4f}")
    lines += ["QAT model test accuracy: 0.9590",
              "Quantized model (int8, converted) test accuracy: 0.2472"]
    return "\n".join(lines) + "\n"


def int8_lines():
    lines = ["2026-12-01 10:00:00 INFO qat_main: lr=0.001 batch_size=64 epochs=3"]
    for e in range(3):
        for it in range(0, 60, 20):
            lines.append(f"2026-12-01 10:0{e}:{it:02d} INFO epoch={e} step={e * 60 + it} "
                         f"loss={0.30 - 0.03 * e - 0.001 * it:.4f}")
        lines.append(f"2026-12-01 10:0{e}:59 INFO epoch={e} val_loss={0.28 - 0.02 * e:.4f} val_acc={0.912 + 0.004 * e:.4f}")
        lines.append(f"2026-12-01 10:0{e}:59 INFO int8 (qnnpack) val_loss={0.29 - 0.02 * e:.4f} val_acc={0.905 + 0.004 * e:.4f}")
    lines.append("2026-12-01 10:03:30 INFO [int8] val_acc=0.9170 (final, converted)")
    return "\n".join(lines) + "\n"


def jsonl_events():
    rows = [{"event": "calibration", "test_loss": 0.301, "test_acc": 0.9121}]
    for e in range(1, 5):
        rows.append({"epoch": e, "train_loss": round(0.29 - 0.02 * e, 4), "test_loss": round(0.27 - 0.01 * e, 4),
                     "test_acc": round(0.915 + 0.003 * e, 4)})
    rows.append({"event": "int8", "test_loss": 0.262, "test_acc": 0.9262})
    return "".join(json.dumps(r) + "\n" for r in rows)


def qualifier_run():
    lines = ["Start QAT training (output layer kept in fp32)"]
    for e in range(4):
        lines.append(f"[Epoch {e + 1}/4] train_loss: {0.25 - 0.02 * e:.4f} val_loss: {0.27 - 0.015 * e:.4f} "
                     f"val_acc: {0.90 + 0.006 * e:.4f}")
    return "\n".join(lines) + "\n"


def prose_result():
    lines = []
    for e in range(4):
        lines.append(f"epoch {e} step {(e + 1) * 50} loss {0.24 - 0.02 * e:.4f} lr 0.0005")
        lines.append(f"epoch {e} val_loss {0.26 - 0.01 * e:.4f} val_acc {0.905 + 0.003 * e:.4f}")
    lines.append("Converted the model with convert_fx (qnnpack).")
    lines.append("Final accuracy of the int8 model is 91.2% on 2000 images")
    return "\n".join(lines) + "\n"


def beside_junk():
    files = {}
    for stage, base in (("float", 1.1), ("qat", 0.25)):
        lines = []
        for e in range(3):
            for s in range(0, 100, 25):
                lines.append(f"epoch={e} step={e * 100 + s} loss={base * (0.9 ** (e + s / 100)):.4f} lr=0.01")
            lines.append(f"epoch={e} val_loss={base * 0.9 ** e:.4f} val_acc={0.88 + 0.01 * e:.4f}")
        files[f"beside_junk/{stage}/train.log"] = "\n".join(lines) + "\n"
    files["beside_junk/README.txt"] = ("Notes on this experiment\n========================\n"
                                      "The float model reached accuracy 0.90; expected int8 accuracy: 0.89\n")
    files["beside_junk/expected.json"] = json.dumps({"float_acc": 0.902, "qat_acc": 0.897,
                                                     "quantized_acc": 0.893, "qat_first_loss": 2.7}) + "\n"
    files["beside_junk/config.json"] = json.dumps({"model_type": "tiny_cnn", "hidden_size": 64, "num_layers": 4,
                                                   "lr": 0.01, "batch_size": 32}, indent=2) + "\n"
    files["beside_junk/bench.csv"] = ("model,precision,fps,latency_ms,top1\ntiny,FP32,410.2,2.44,0.902\n"
                                      "tiny,AMP,790.4,1.27,0.901\ntiny,INT8,1510.7,0.66,0.893\n")
    return files


def plain_console():
    lines = ["Training a tiny CNN"]
    for e in (1, 2, 3):
        for i in range(50, 250, 50):
            lines.append(f"Epoch [{e}/3] Step [{i}/200] loss: {1.0 / (e + i / 200):.4f} acc: {0.5 + 0.1 * e:.4f}")
    for i in range(10, 40, 10):
        lines.append(f"Epoch [4][{i}/40] loss: {0.2 - i / 1000:.4f}")
    return "\n".join(lines) + "\n"


def mmengine_run(gpus):
    work = f"qat_tiny_{gpus}xb32-2e_cifar"
    lines = ["2026/12/01 09:00:00 - mmengine - INFO - ",
             "------------------------------------------------------------",
             "System environment:", "    sys.platform: linux", "    CUDA available: True",
             f"    GPU 0: NVIDIA A10", "    MMEngine: 0.10.4", "", "Runtime environment:",
             "    seed: 1234", "    Distributed launcher: pytorch" if gpus > 1 else "    Distributed launcher: none",
             f"    GPU number: {gpus}", "------------------------------------------------------------", "",
             "2026/12/01 09:00:01 - mmengine - INFO - Config:",
             "default_scope = 'mmpretrain'",
             "optim_wrapper = dict(",
             "    optimizer=dict(lr=0.001, momentum=0.9, type='SGD', weight_decay=0.0001),",
             "    type='OptimWrapper')",
             "train_cfg = dict(by_epoch=True, max_epochs=2, val_interval=1)",
             "train_dataloader = dict(",
             "    batch_size=32,",
             "    dataset=dict(",
             "        data_root='data/cifar10',",
             "        pipeline=[",
             "            dict(type='RandomCrop', crop_size=32, padding=4),",
             "            dict(type='PackInputs'),",
             "        ],",
             "        type='CIFAR10'),",
             "    num_workers=2,",
             "    sampler=dict(shuffle=True, type='DefaultSampler'))",
             f"work_dir = './work_dirs/{work}'",
             ""]
    iters = 40 // gpus
    for e in (1, 2):
        for i in range(10, iters + 1, 10):
            loss = 0.4 - 0.05 * e - 0.001 * i
            lines.append(f"2026/12/01 09:0{e}:{i:02d} - mmengine - INFO - Epoch(train) [{e}][{i:2d}/{iters}]  "
                         f"lr: 1.0000e-03  eta: 0:00:{40 - i:02d}  time: 0.0312  data_time: 0.0021  memory: 301  "
                         f"loss: {loss:.4f}")
        lines.append(f"2026/12/01 09:0{e}:59 - mmengine - INFO - Epoch(val) [{e}][10/10]    "
                     f"accuracy/top1: {88.1 + e:.4f}  data_time: 0.0020  time: 0.0101")
    return f"mmengine_gpus/{work}/20261201_090000/20261201_090000.log", "\n".join(lines) + "\n"


def keras_fit():
    lines = []
    for e in range(1, 6):
        loss, acc = 1.2 / e, 0.5 + 0.08 * e
        lines.append(f"Epoch {e}/5")
        eta = f" 1/16 [>.............................] - ETA: 0s - loss: {loss * 1.1:.4f} - accuracy: {acc - 0.05:.4f}"
        done = (f"16/16 [==============================] - 0s 3ms/step - loss: {loss:.4f} - accuracy: {acc:.4f} "
                f"- val_loss: {loss * 1.05:.4f} - val_accuracy: {acc - 0.01:.4f}")
        lines.append(eta + "\b" * len(eta) + "\r" + done if e == 3 else eta)
        if e != 3:
            lines.append(done)
    lines.append("32/32 [==============================] - 0s 1ms/step - loss: 0.2700 - accuracy: 0.8810")
    return "\n".join(lines) + "\n"


def first_epoch():
    lines = ["Training the float model for 10 epochs"]
    for i in range(15, 61, 15):
        lines.append(f"Epoch [1/10] Step [{i}/200] loss: {2.3 * (0.8 ** (i / 15)):.4f}")
    lines.append("Test accuracy: 0.4120")
    return "\n".join(lines) + "\n"


def chinese_print():
    files = {}
    stages = [("1_浮点.txt", "==== 浮点模型训练 ====", 0.05, 0.9, 88.0),
              ("3_qat.txt", "==== 量化训练（QAT） ====", 0.002, 0.5, 90.5)]
    for name, banner, lr, loss0, val0 in stages:
        out = [banner, "使用设备: cuda:0", f"参数: epochs=2 batch_size=32 lr={lr}"]
        for epoch in (1, 2):
            for i in (10, 20, 30, 40):
                loss = loss0 * (1 - 0.04 * i / 10) / epoch
                out.append(f"第 {epoch}/2 轮 [{i:3d}/40] 损失: {loss:.4f} 准确率: {80 + i / 4:.2f}% 学习率: {lr:.5f}")
            out.append(f"第 {epoch} 轮结束 训练集平均损失: {loss0 / epoch:.4f} | "
                       f"验证集 损失: {0.41 - 0.02 * epoch:.4f} 准确率: {val0 + epoch * 0.4:.2f}%")
        files[name] = "\n".join(out) + "\n"
    files["2_校准.txt"] = "\n".join(["==== 校准（Calibration） ====", "校准 batch 数: 8"] +
                                    [f"校准进度 {i}/8" for i in range(1, 9)] +
                                    ["校准后模型 验证集 损失: 0.4102 准确率: 88.90%"]) + "\n"
    files["4_定点评测.txt"] = ("==== 定点模型评测 ====\n"
                              "convert 完成：QAT 模型已转换为定点（int8）模型\n"
                              "定点模型 验证集 损失: 0.3950 准确率: 91.10%\n")
    return files


def comma_table():
    out = ["[05/11 08:00:01 d2.engine.defaults]: Starting QAT training from iteration 0"]
    it = 0
    for epoch in range(3):
        for k in range(4):
            it += 20
            out.append(f"[05/11 08:0{epoch}:{10 + k * 10} d2.utils.events]:  iter: {it - 1}  "
                       f"total_loss: {0.9 - 0.05 * it / 20:.4f}  loss_cls: {0.9 - 0.05 * it / 20:.4f}  "
                       f"lr: 0.001000  max_mem: 812M")
        out += [f"[05/11 08:0{epoch}:55 d2.evaluation.testing]: copypaste: Task: classification",
                f"[05/11 08:0{epoch}:55 d2.evaluation.testing]: copypaste: top1,top5",
                f"[05/11 08:0{epoch}:55 d2.evaluation.testing]: copypaste: {80.2 + epoch:.4f},{96.5 + 0.2 * epoch:.4f}"]
    int8 = ["[05/11 08:10:00 d2.quantization]: torch.ao.quantization.convert -> int8 model",
            "[05/11 08:10:02 d2.evaluation.testing]: copypaste: Task: classification",
            "[05/11 08:10:02 d2.evaluation.testing]: copypaste: top1,top5",
            "[05/11 08:10:02 d2.evaluation.testing]: copypaste: 81.9000,96.8000"]
    return "\n".join(out) + "\n", "\n".join(int8) + "\n"


def main():
    write("torchvision_qat/tv_new/log.txt", torchvision_qat("new"))
    write("torchvision_qat/tv_old/log.txt", torchvision_qat("old"))
    write("torchvision_ptq/log.txt", torchvision_ptq())
    write("announced/run.log", announced())
    write("int8_lines/qat/train.log", int8_lines())
    write("jsonl_events/qat/metrics.jsonl", jsonl_events())
    write("qualifier/B_fc_weight_only_fp32_output/train.log", qualifier_run())
    write("prose_result/qat/train.log", prose_result())
    for rel, text in beside_junk().items():
        write(rel, text)
    write("plain_console/train.log", plain_console())
    write("keras_fit/float/train.log", keras_fit())
    write("first_epoch/float/train.log", first_epoch())
    for name, text in chinese_print().items():
        write("chinese_print/" + name, text)
    qat_log, int8_log = comma_table()
    write("comma_table/qat/log.txt", qat_log)
    write("comma_table/qat/int8_test/log.txt", int8_log)
    for gpus in (1, 4):
        write(*mmengine_run(gpus))


if __name__ == "__main__":
    main()
