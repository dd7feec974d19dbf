#include "core/logs/log_layouts.h"

namespace qatdoctor::core::logs {

const std::vector<LogLayout>& logLayouts()
{
    // Most specific first: detectLayout takes the first row that matches.
    static const std::vector<LogLayout> kLayouts = {
        // rows: {id, format, framework, file name, needles}
        {"hat_text", "text", "HAT (Horizon) text log", nullptr, {"GlobalStep["}},
        {"mmengine_text", "text", "mmengine / mmdetection 3.x text log", nullptr, {"Epoch(train)"}},
        {"mmengine_text", "text", "mmengine / mmdetection 3.x text log", nullptr, {"Iter(train)"}},
        {"mmengine_text", "text", "mmengine / mmdetection 3.x text log", nullptr, {" - mmengine - "}},
        {"mmdet2_text", "text", "mmdetection 2.x text log", nullptr, {"Epoch [", "]["}},
        {"mmdet2_text",
         "text",
         "mmdetection 2.x text log",
         nullptr,
         {"Epoch(val) ["}},  // mmcv 1.x, evaluation only
        {"torchvision_metric_logger",
         "text",
         "torchvision reference scripts' MetricLogger",
         nullptr,
         {"Epoch: [", "eta:"}},
        {"pytorch_examples_progress",
         "text",
         "PyTorch examples' ProgressMeter (imagenet)",
         nullptr,
         {"Epoch: [", "]["}},
        {"yolo_console", "text", "YOLOv5 / Ultralytics console output", nullptr, {"Epoch", "GPU_mem"}, true},
        {"skorch_table", "text", "skorch's printed epoch table", nullptr, {"epoch", "dur", "-------"}, true},
        {"python_logging", "text", "Python logging", nullptr, {" - INFO - "}},
        {"python_logging", "text", "Python logging", nullptr, {"INFO:"}},
        {"text", "text", "text log (key: value lines)", nullptr, {}},
        {"mmengine_scalars", "jsonl", "mmengine vis_data/scalars.json", "scalars.json", {}},
        {"detectron2_metrics", "jsonl", "Detectron2 metrics.json", "metrics.json", {"\"iteration\""}},
        {"mmdet2_json", "jsonl", "mmdetection 2.x .log.json", nullptr, {"\"mode\": \"train\"", "\"iter\""}},
        {"mmdet2_json", "jsonl", "mmdetection 2.x .log.json", nullptr, {"\"mode\": \"val\"", "\"epoch\""}},
        {"jsonl", "jsonl", "JSON lines", nullptr, {}},
        {"yolov5_results_csv", "csv", "YOLOv5 results.csv", nullptr, {"metrics/mAP_0.5"}},
        {"ultralytics_results_csv", "csv", "Ultralytics (YOLOv8+) results.csv", nullptr, {"metrics/mAP50"}},
        {"lightning_csv", "csv", "PyTorch Lightning CSVLogger metrics.csv", "metrics.csv", {"step"}},
        {"csv", "csv", "CSV / TSV table", nullptr, {}},
        {"hf_trainer_state",
         "json_history",
         "Hugging Face Trainer trainer_state.json",
         nullptr,
         {"\"log_history\""}},
        {"skorch_history", "json_history", "skorch history.json", nullptr, {"\"batches\""}},
        {"json_history", "json_history", "JSON training history", nullptr, {}},
        {"tensorboard", "tfevents", "TensorBoard event file", nullptr, {}},
    };
    return kLayouts;
}

const LogLayout* findLayout(std::string_view id)
{
    for (const LogLayout& l : logLayouts())
        if (id == l.id) return &l;
    return nullptr;
}

const LogLayout& detectLayout(std::string_view format, std::string_view name, std::string_view head)
{
    const LogLayout* generic = nullptr;
    for (const LogLayout& l : logLayouts()) {
        if (format != l.format) continue;
        if (std::string_view(l.id) == format) generic = &l;
        if (l.fileName && name != l.fileName) continue;
        bool all = true;
        for (const char* n : l.needles) all = all && head.find(n) != std::string_view::npos;
        if (all) return l;
    }
    static const LogLayout kUnknown{"unknown", "", "unknown layout", nullptr, {}};
    return generic ? *generic : kUnknown;
}

}  // namespace qatdoctor::core::logs
