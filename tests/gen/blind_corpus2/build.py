"""Write cases/<id>/ from the cached real runs (gen/cache, made by run.py) and MANIFEST.json.
Usage: /usr/bin/python3 gen/build.py            (train whatever is not cached, then write)
       /usr/bin/python3 gen/build.py --retrain  (train everything again first)"""
import json
import os
import pickle
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# writes tests/data/diagnosis_blind2 (cases and MANIFEST.json) from tests/gen/blind_corpus2
ROOT = os.path.join(HERE, "..", "..", "data", "diagnosis_blind2")
sys.path.insert(0, HERE)

import cases  # noqa: E402
from common import Stages  # noqa: E402
from writers import WRITERS  # noqa: E402

LAYOUT_NAMES = {
    "mmengine": "mmengine text log + vis_data/scalars.json + config.py, one timestamped run dir per stage",
    "mmcv": "mmcv 1.x / mmcls 0.x <timestamp>.log + .log.json pairs (calibration text-only, int8 test log)",
    "lightning": "PyTorch Lightning CSVLogger version_N/metrics.csv + hparams.yaml per stage",
    "hf": "Hugging Face Trainer trainer_state.json (+checkpoint-N copy, all_results.json) + transformers console log",
    "timm": "timm output/train/<ts>-<model>/summary.csv + args.yaml + train console, validate.py int8 log",
    "detectron2": "detectron2 metrics.json (JSON lines by iteration) + log.txt with copypaste evaluation",
    "yolov5": "YOLOv5-cls runs/train-cls/expN/results.csv (padded) + opt.yaml + console",
    "ultralytics": "ultralytics runs/classify/trainN/results.csv + args.yaml + val console",
    "keras": "Keras CSVLogger csv + model.fit() console progress bars",
    "hat_onefile": "Horizon HAT-style log, single file holding all stages (BEGIN/END <STAGE> STAGE banners)",
    "hat_files": "Horizon HAT-style logs, one file per stage (Epoch[e] Step[s] GlobalStep[g], config dump with march)",
    "pylogging": "Python logging records with timestamps (Epoch i/N, Step j/M, Loss:, Val Acc:)",
    "zh_print": "Chinese-language print logs (浮点/校准/量化训练/定点), one case GBK-encoded",
    "jsonl": "JSON lines (plain metrics/*.jsonl, or wandb files/wandb-history.jsonl + config.yaml per run)",
    "tqdm": "tqdm progress-bar lines (\\r-joined updates or final bars) + val print lines",
    "torchvision": "torchvision references MetricLogger logs (train.py / train_quantization.py flow)",
}

REAL_EXAMPLES = {
    "mmengine": ["duanbo320/openmmlab_camp:20230605_200941/20230605_200941.log",
                 "duanbo320/openmmlab_camp:vis_data/scalars.json",
                 "PKurnikov/mmdetection:vis_data/scalars.json"],
    "mmcv": ["bruce1408/BEVDet:configs/_base_/default_runtime.py (TextLoggerHook -> .log/.log.json)",
             "JeffersonQin/sjtu-huawei-rongchang-2022:wrc/mmdetection/configs/_base_/runtime_resnet101.py",
             "vghost2008/mmaction2:configs/_base_/default_runtime.py",
             "wangzehui20/farmland-instance-segmentation:experiment_farmland/mask_rcnn/1024_256/code/mask_rcnn_res50/default_runtime.py"],
    "lightning": ["FelixSoderstrom/waste-classification-cnn:lightning_logs/version_0/metrics.csv",
                  "Awritrojit/AIOPS_learning_mnist:lightning_logs/version_0/metrics.csv",
                  "purefunctor/auraloss:examples/distance/report.py (reads lightning_logs/version_2/metrics.csv)",
                  "HCDescamps/cv-image-classification:lightning_logs/version_0/metrics.csv"],
    "hf": ["yuanhuanghuang/quality:baselines/lrqa/__init__.py (trainer_state.json content)",
           "NguyenThaoVi0702/whisper_app_test:finetune-whisper-grok/error.py (trainer_state.json content)",
           "Dude-0313/LogClassifier_Roberta_V1:output/trainer_state.json",
           "queque5987/NERSOTA:read_trainer_state.py"],
    "timm": ["huggingface/pytorch-image-models timm/utils/summary.py update_summary (summary.csv writer; copies found by search)",
             "bolotyuh/hf-exp:rafflesia/run-exp-wds.sh (timm train.py run)",
             "epfml/ghost-noise:experiment_scripts/i1k_rn50/base64.sh (timm train.py --output)",
             "epfml/REQ:experiments/appx_J_2_constraining_rotational_dynamics/i1k_resnet50_rvsgd.sh"],
    "detectron2": ["Kevindic0214/detectron2_training:output/metrics.json",
                   "Elbhnasy/Medical_Waste_Detection_Detectron2:output/metrics.json",
                   "Levi-Magny/Train-Detectron2:output/metrics.json",
                   "Richard-cpu2333/tx2dl:models/log/R50-FPN_log.py (d2 console log)"],
    "yolov5": ["Grafit-Kil/helmet-detection-yolov5:runs/train/exp/results.csv",
               "17kaushalsingh/yolov5:runs/train/exp/results.csv",
               "Hourenfeng/YOLOv5-dangerous_driving_behavior_detection:runs/train/exp/results.csv"],
    "ultralytics": ["Abonia1/YOLOv8-Fire-and-Smoke-Detection:runs/detect/train/results.csv",
                    "01-Zhangsaisai/Wheat-Weed-Detection-YOLOv8:runs/detect/train/results.csv",
                    "AbdulRahmaan03/Yolov8-Custom-Dataset-Training:runs/detect/train/results.csv"],
    "keras": ["ttukei/Twitter-language-models-about-Ukraine:TCSS456_NLP_FinalProject/ReadMe.txt (fit console)",
              "keras-team/keras-io:examples/vision/md/mnist_moe.md (fit console)",
              "veaba/tensorflow-docs:docs/tf.keras/callbacks/CSVLogger.md",
              "rstudio/keras3:man-src/callback_csv_logger/2-translated.Rmd"],
    "hat_onefile": ["shared/docs/horizon-formats.md section 6: HAT hat/callbacks/metric_updater.py (index id 6875845462)",
                    "HAT lr updater (index id 31965032790) 'Epoch[%d] Step[%d] GlobalStep[%d] lr=%f'",
                    "HorizonRobotics/RoboOrchardLab 'Epoch[{}] Step[{}] GlobalStep[{}]: ' (per horizon-formats.md)"],
    "hat_files": ["shared/docs/horizon-formats.md section 6: HAT hat/callbacks/metric_updater.py (index id 6875845462)",
                  "HAT-style trainers, index ids 66866482168 / 31552230974 (per horizon-formats.md)",
                  "horizon_plugin_pytorch march.py (index id 31212512250) for march names"],
    "pylogging": ["Nuist-XZX/QWen:README.md (asctime [INFO] training log)",
                  "beijn/bachelor-thesis:detection/traingraph.py (logged training lines)",
                  "deep-learning-algorithm/LightWeightCNN:docs/squeezenet/log.md"],
    "zh_print": ["jayphone17/SOMETHIN-BOUT-CNN:Multi-Model-Ensemble/README.md",
                 "michael0420/BADOU-AI-Tsinghua:56-姜巍-大连/week10/CIFAR-10/运行日志.md",
                 "deep-learning-algorithm/ResNet:docs/resnet/log-resnet_18-vs-34-vs-50.md (训练日志)"],
    "jsonl": ["Ajayghimire-invenaut/dreamer_v3:logs/metrics.jsonl",
              "junjungoal/dreamerv3-torch:logs/metrics.jsonl",
              "sushantmehta-code/tinker-cookbook:logs/metrics.jsonl",
              "saforem2/ezpz:docs/examples/vit.md (wandb run files)"],
    "tqdm": ["dhairyag/ImageNet1k_ResNet50:log_output.md",
             "saraspreitzhofer/Challenge2:results/ReadMe.md",
             "Nuist-XZX/QWen:README.md (tqdm lines between log records)"],
    "torchvision": ["beijn/bachelor-thesis:detection/traingraph.py (MetricLogger 'Epoch: [0]  [0/6]  eta: ... loss: v (avg)')",
                    "pytorch/vision references/classification/train_quantization.py ('Evaluate QAT model' / 'Evaluate Quantized model')",
                    "dhairyag/ImageNet1k_ResNet50:log_output.md (Acc@1 / Acc@5 summaries)"],
}


def main():
    t0 = time.time()
    cache = os.path.join(HERE, "cache")
    need = [cid for cid, c in cases.CASES.items()
            if not all(os.path.exists(os.path.join(cache, f"{cid}.{v}.pkl")) for v in ["main"] + list(c["variants"]))]
    if "--retrain" in sys.argv:
        need = list(cases.CASES)
    if need:
        subprocess.check_call([sys.executable, os.path.join(HERE, "run.py")] + need)
    out = ROOT
    for old in (os.listdir(out) if os.path.isdir(out) else []):
        if os.path.isdir(os.path.join(out, old)):
            shutil.rmtree(os.path.join(out, old))
    os.makedirs(out, exist_ok=True)
    manifest = {"corpus": "qatdoctor blind batch2: real tiny-CNN float/calibration/QAT/int8 runs (torch.ao, CPU) "
                          "written in 16 public log layouts",
                "generated_by": "gen/run.py (trains, caches gen/cache/*.pkl) + gen/build.py (writes cases/ and this file)",
                "cases": {}}
    for cid, c in cases.CASES.items():
        R = {}
        for v in ["main"] + list(c["variants"]):
            with open(os.path.join(cache, f"{cid}.{v}.pkl"), "rb") as f:
                R[v] = Stages(pickle.load(f))
        oid = cid.split("_")[0] + "_" + c["layout"]   # neutral folder name: number + layout, never the plant
        WRITERS[c["layout"]](os.path.join(out, oid), cid, c, R)
        manifest["cases"][oid] = {"layout": c["layout"] + ": " + LAYOUT_NAMES[c["layout"]],
                                  "real_examples": REAL_EXAMPLES[c["layout"]],
                                  "planted": c["planted"], "expect": c["expect"], "allow": c["allow"],
                                  "healthy": not c["expect"]}
    with open(os.path.join(ROOT, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(manifest['cases'])} cases in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
