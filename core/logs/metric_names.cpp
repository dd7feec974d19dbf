#include "core/logs/metric_names.h"

#include <array>
#include <vector>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

bool isAlnum(char c)
{
    return isAlpha(c) || isDigit(c);
}

std::vector<std::string_view> tokens(std::string_view s)
{
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && !isAlnum(s[i])) ++i;
        const size_t b = i;
        while (i < s.size() && isAlnum(s[i])) ++i;
        if (i > b) out.push_back(s.substr(b, i - b));
    }
    return out;
}

bool isValToken(std::string_view t)
{
    for (std::string_view w :
         {"val", "valid", "validation", "validate", "validating", "eval", "evaluation", "test"})
        if (equalsNoCase(t, w)) return true;
    return false;
}

// true when every '_' token of p is a split word; sets val for a validation token.
bool isStageOrSplit(std::string_view p, bool& val)
{
    bool sawVal = false;
    size_t b = 0;
    for (size_t i = 0; i <= p.size(); ++i) {
        if (i < p.size() && p[i] != '_' && p[i] != '-') continue;
        const std::string_view t = p.substr(b, i - b);
        b = i + 1;
        if (t.empty()) continue;
        if (isValToken(t)) {
            sawVal = true;
            continue;
        }
        bool known = false;
        // (stage words come off before: stagedSeriesName, splitKeyStage)
        for (std::string_view w : {"train", "training"}) known |= equalsNoCase(t, w);
        if (!known) return false;
    }
    val |= sawVal;
    return true;
}

// Keys (the last path component, case-insensitive) that the frameworks log beside their metrics
// but that measure the job: mmdet/mmengine (eta, time, data_time, memory), torchvision
// (img/s, max mem), HF Trainer (*_runtime, *_per_second, total_flos), Detectron2 (eta_seconds,
// rank_data_time), skorch (dur, batches), HAT (Speed, Cost Time), YOLO (GPU_mem, Instances, Size).
bool isSystemKey(std::string_view key)
{
    const size_t slash = key.rfind('/');
    const std::string_view last = slash == std::string_view::npos ? key : key.substr(slash + 1);
    static constexpr std::string_view kExact[] = {"eta",
                                                  "eta_seconds",
                                                  "time",
                                                  "data_time",
                                                  "rank_data_time",
                                                  "data",
                                                  "memory",
                                                  "mem",
                                                  "max mem",
                                                  "max_mem",
                                                  "gpu_mem",
                                                  "img/s",
                                                  "samples/s",
                                                  "samples_per_sec",
                                                  "dur",
                                                  "batches",
                                                  "batch_count",
                                                  "speed",
                                                  "cost time",
                                                  "cost_time",
                                                  "remaining step percent",
                                                  "percent",
                                                  "total_flos",
                                                  "iou_thr",
                                                  "instances",
                                                  "size",
                                                  "node",
                                                  "rank",
                                                  "iter_time",
                                                  "epoch_time",
                                                  "batch_time"};
    for (std::string_view k : kExact)
        if (equalsNoCase(last, k) || equalsNoCase(key, k)) return true;
    // (mmdet's bbox_mAP_copypaste is the results again, as a list; skorch flags *_best)
    static constexpr std::string_view kSuffix[] = {"_runtime", "_per_second", "_flos",       "_best",
                                                   "_time_s",  "_copypaste",  "_batch_count"};
    for (std::string_view suf : kSuffix)
        if (last.size() > suf.size() && equalsNoCase(last.substr(last.size() - suf.size()), suf)) return true;
    return false;
}

}  // namespace

KeyKind classifyKey(std::string_view key)
{
    if (isSystemKey(key)) return KeyKind::System;
    if (key.size() > 12 || key.size() < 2) return KeyKind::Metric;
    switch (key[0] | 0x20) {
        case 'g':
            for (std::string_view k : {"global_step", "globalstep", "gstep"})
                if (equalsNoCase(key, k)) return KeyKind::GlobalStep;
            break;
        case 's':
            if (equalsNoCase(key, "step")) return KeyKind::Step;
            break;
        case 'i':
            for (std::string_view k : {"iter", "iteration", "it"})
                if (equalsNoCase(key, k)) return KeyKind::Step;
            break;
        case 'e':
            if (equalsNoCase(key, "epoch")) return KeyKind::Epoch;
            break;
        case 't':
            if (equalsNoCase(key, "total_step") || equalsNoCase(key, "total_steps")) return KeyKind::Metric;
            if (equalsNoCase(key, "timestamp")) return KeyKind::WallTime;
            break;
        case 'w':
            if (equalsNoCase(key, "wall_time") || equalsNoCase(key, "walltime") ||
                equalsNoCase(key, "wall time"))
                return KeyKind::WallTime;
            break;
        default:
            break;
    }
    return KeyKind::Metric;
}

namespace {

// Chinese words of a training log and the words every parser knows. Longer terms first: "验证集"
// before "验证". "平均" (mean) goes: "训练集平均损失" is the training loss.
constexpr std::pair<std::string_view, std::string_view> kChineseTerms[] = {
    {"迭代", " iter "}, {"：", ": "},        {"，", ", "},       {"（", " ("},          {"）", ") "},
    {"学习率", " lr"},  {"损失", " loss"},   {"准确率", " acc"}, {"正确率", " acc"},    {"准确度", " acc"},
    {"精度", " acc"},   {"验证集", " val "}, {"验证", " val "},  {"训练集", " train "}, {"测试集", " test "},
    {"平均", ""},       {"批次", " batch "}, {"耗时", " time"},
};

bool hasChineseTerm(std::string_view line)
{
    if (line.find("第") != std::string_view::npos) return true;
    for (const auto& [term, word] : kChineseTerms)
        if (line.find(term) != std::string_view::npos) return true;
    return false;
}

}  // namespace

bool rewriteChineseCounters(std::string_view line, std::string& out)
{
    if (!hasChineseTerm(line)) return false;
    out.clear();
    for (size_t i = 0; i < line.size();) {
        const std::string_view rest = line.substr(i);
        // 第N轮 / 第 N/M 轮: epoch N (of M); 第N步: step N
        if (rest.starts_with("第")) {
            size_t j = 3;  // past 第
            while (j < rest.size() && rest[j] == ' ') ++j;
            const size_t numberBegin = j;
            while (j < rest.size() && (isDigit(rest[j]) || rest[j] == '/')) ++j;
            const std::string_view number = rest.substr(numberBegin, j - numberBegin);
            size_t unitAt = j;
            while (unitAt < rest.size() && rest[unitAt] == ' ') ++unitAt;
            for (const auto& [unit, word] : {std::pair<std::string_view, std::string_view>{"轮", "epoch "},
                                             {"个epoch", "epoch "},
                                             {"步", "step "}})
                if (!number.empty() && isDigit(number[0]) && rest.substr(unitAt).starts_with(unit)) {
                    out += word;
                    out += number;
                    out += ' ';
                    i += unitAt + unit.size();
                    goto next;
                }
        }
        for (const auto& [term, word] : kChineseTerms)
            if (rest.starts_with(term)) {
                // one space between words: "验证集 损失" reads "val loss", one key
                const bool spaced = out.empty() || out.back() == ' ';
                out += spaced && word.starts_with(' ') ? word.substr(1) : word;
                if (rest.substr(term.size()).starts_with(' ') && word.ends_with(' ')) ++i;
                i += term.size();
                goto next;
            }
        out += line[i++];
    next:;
    }
    return true;
}

bool countsWithTotal(std::string_view key)
{
    return equalsNoCase(key, "batch") || equalsNoCase(key, "it") || equalsNoCase(key, "minibatch");
}

bool isHyperParameter(std::string_view key)
{
    static constexpr std::array<std::string_view, 30> kKeys = {"batch_size",
                                                               "lr",
                                                               "base_lr",
                                                               "learning_rate",
                                                               "world_size",
                                                               "num_gpus",
                                                               "gpus",
                                                               "ngpus",
                                                               "march",
                                                               "epochs",
                                                               "num_epochs",
                                                               "max_epoch",
                                                               "max_epochs",
                                                               "optimizer",
                                                               "lr_scheduler",
                                                               "scheduler",
                                                               "weight_decay",
                                                               "momentum",
                                                               "seed",
                                                               "steps_per_epoch",
                                                               "total_steps",
                                                               "max_steps",
                                                               "num_workers",
                                                               "arch",
                                                               "model",
                                                               "dataset",
                                                               "training_step",
                                                               "warmup_epochs",
                                                               "total_batch_size",
                                                               "device"};
    for (std::string_view k : kKeys)
        if (equalsNoCase(key, k)) return true;
    return false;
}

bool isLearningRateKey(std::string_view key)
{
    return equalsNoCase(key, "lr") || equalsNoCase(key, "base_lr") || equalsNoCase(key, "learning_rate") ||
           (key.size() == 3 && startsWithNoCase(key, "lr") && isDigit(key[2]));
}

bool isValidationWord(std::string_view word)
{
    for (std::string_view t : tokens(word))
        if (isValToken(t)) return true;
    return false;
}

namespace {

// Which split a name component marks.
enum class Split { None, Train, Val, Test };

Split splitOf(std::string_view t)
{
    if (equalsNoCase(t, "train") || equalsNoCase(t, "training")) return Split::Train;
    if (equalsNoCase(t, "test") || equalsNoCase(t, "testing")) return Split::Test;
    if (isValToken(t) || equalsNoCase(t, "metrics"))
        return Split::Val;  // YOLO's metrics/* are its evaluation
    return Split::None;
}

bool isEvaluationTask(std::string_view t)
{
    for (std::string_view w :
         {"bbox", "segm", "keypoints", "sem_seg", "panoptic_seg", "coco", "pascal_voc", "classification"})
        if (equalsNoCase(t, w)) return true;
    return false;
}

}  // namespace

std::string seriesName(std::string_view key, bool validation)
{
    // Lightning's LearningRateMonitor names the optimizer: "lr-SGD", "lr-AdamW/pg1" are the lr
    if (key.size() > 3 && key.starts_with("lr-") && key[3] >= 'A' && key[3] <= 'Z') {
        size_t end = 3;
        while (end < key.size() && (isAlpha(key[end]) || isDigit(key[end]))) ++end;
        return seriesName("lr" + std::string(key.substr(end)), validation);
    }
    // Fast path: a plain key ("loss", "acc", "lr") is its own name.
    bool plain = true;
    for (char c : key)
        if (c == '/' || c == '.' || c == '_' || c == ' ') {
            plain = false;
            break;
        }
    if (plain && splitOf(key) == Split::None)
        return validation ? "val/" + std::string(key) : std::string(key);

    std::vector<std::string_view> parts;
    size_t b = 0;
    for (size_t i = 0; i <= key.size(); ++i) {
        if (i == key.size() || key[i] == '/') {
            if (i > b) parts.push_back(key.substr(b, i - b));
            b = i + 1;
        }
    }
    Split split = validation ? Split::Val : Split::None;
    auto mark = [&split](Split s) {
        if (s == Split::Val || s == Split::Test) split = s;
    };
    std::string rest;
    for (size_t pi = 0; pi < parts.size(); ++pi) {
        std::string_view p = parts[pi];
        const Split whole = splitOf(p);
        if (whole != Split::None && pi + 1 < parts.size()) {
            mark(whole);
            continue;
        }
        if (whole != Split::None && parts.size() == 1) mark(whole);
        // COCO-style evaluators name the task: Detectron2's "bbox/AP", "segm/AP50" are results
        if (pi == 0 && pi + 1 < parts.size() && isEvaluationTask(p)) mark(Split::Val);
        // YOLOv5 files its learning rates under "x/" ("x/lr0"): the group says nothing
        if (pi == 0 && pi + 1 < parts.size() && p == "x") continue;
        // a folder-like component made only of split words ("train", "val_test") says where the
        // metric comes from, not what it is
        bool val = false;
        if (pi + 1 < parts.size() && isStageOrSplit(p, val)) {
            if (val) mark(containsNoCase(p, "test") ? Split::Test : Split::Val);
            continue;
        }
        // "val_acc", "test_loss", "eval_loss", "acc_val", "train_loss": the split word as a
        // prefix or suffix token
        const size_t us = p.find_first_of("_ ");
        const size_t ls = p.find_last_of("_ ");
        if (us != std::string_view::npos && splitOf(p.substr(0, us)) != Split::None) {
            mark(splitOf(p.substr(0, us)));
            p = p.substr(us + 1);
        } else if (ls != std::string_view::npos && ls > 0 && splitOf(p.substr(ls + 1)) != Split::None) {
            mark(splitOf(p.substr(ls + 1)));
            p = p.substr(0, ls);
        }
        // Lightning logs a metric per step and per epoch: "train_loss_step" is the curve
        if (p.size() > 5 && p.ends_with("_step")) p.remove_suffix(5);
        if (!rest.empty()) rest += '/';
        rest += p;
    }
    if (rest.empty()) rest = std::string(key);
    if (equalsNoCase(rest, "learning_rate") || equalsNoCase(rest, "event_lr")) rest = "lr";  // HF, skorch
    switch (split) {
        case Split::Val:
            return "val/" + rest;
        case Split::Test:
            return "test/" + rest;
        default:
            return rest;
    }
}

std::string stagedSeriesName(std::string_view key, bool validation, std::optional<RunRole> stage,
                             std::string_view deployStep, bool* keyStage)
{
    KeyStage k = splitKeyStage(key);
    const bool fromKey = k.role.has_value() || !k.deployStep.empty();
    if (keyStage) *keyStage = fromKey;
    if (fromKey) {
        stage = k.role;
        deployStep = k.deployStep;
        validation = validation || stageOnlyEvaluates(stage, deployStep);
    }
    std::string name = seriesName(fromKey ? std::string_view(k.rest) : key, validation);
    if (!deployStep.empty()) name = std::string(deployStep) + "/" + name;
    if (stage && *stage != RunRole::Unknown) name = std::string(roleName(*stage)) + "/" + name;
    return name;
}

}  // namespace qatdoctor::core::logs
