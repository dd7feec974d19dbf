#include "core/logs/metric_names.h"

#include <array>
#include <vector>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

bool isAlnum(char c) { return isAlpha(c) || isDigit(c); }

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
    for (std::string_view w : {"val", "valid", "validation", "eval", "evaluation", "test"})
        if (equalsNoCase(t, w)) return true;
    return false;
}

// true when every '_' token of p is a stage or split word; sets val for a validation token.
bool isStageOrSplit(std::string_view p, bool& val)
{
    bool sawVal = false;
    size_t b = 0;
    for (size_t i = 0; i <= p.size(); ++i) {
        if (i < p.size() && p[i] != '_' && p[i] != '-') continue;
        const std::string_view t = p.substr(b, i - b);
        b = i + 1;
        if (t.empty()) continue;
        if (isValToken(t)) { sawVal = true; continue; }
        bool known = false;
        for (std::string_view w : {"train", "training", "float", "fp32", "calib", "calibration", "qat", "quantized",
                                   "int8", "int", "infer", "quant"})
            known |= equalsNoCase(t, w);
        if (!known) return false;
    }
    val |= sawVal;
    return true;
}

}  // namespace

KeyKind classifyKey(std::string_view key)
{
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
        if (equalsNoCase(key, "wall_time") || equalsNoCase(key, "walltime") || equalsNoCase(key, "wall time"))
            return KeyKind::WallTime;
        break;
    default: break;
    }
    return KeyKind::Metric;
}

bool isHyperParameter(std::string_view key)
{
    static constexpr std::array<std::string_view, 30> kKeys = {
        "batch_size", "lr", "base_lr", "learning_rate", "world_size", "num_gpus", "gpus", "ngpus",
        "march", "epochs", "num_epochs", "max_epoch", "max_epochs", "optimizer", "lr_scheduler",
        "scheduler", "weight_decay", "momentum", "seed", "steps_per_epoch", "total_steps",
        "max_steps", "num_workers", "arch", "model", "dataset", "training_step", "warmup_epochs",
        "total_batch_size", "device"};
    for (std::string_view k : kKeys)
        if (equalsNoCase(key, k)) return true;
    return false;
}

bool isValidationWord(std::string_view word)
{
    for (std::string_view t : tokens(word))
        if (isValToken(t)) return true;
    return false;
}

std::optional<RunRole> stageOfWord(std::string_view word)
{
    const auto toks = tokens(word);
    for (size_t i = 0; i < toks.size(); ++i) {
        const std::string_view t = toks[i];
        if (equalsNoCase(t, "float") || equalsNoCase(t, "fp32")) return RunRole::Float;
        if (equalsNoCase(t, "calib") || equalsNoCase(t, "calibration") || equalsNoCase(t, "calibrate"))
            return RunRole::Calibration;
        if (equalsNoCase(t, "qat")) return RunRole::Qat;
        if (equalsNoCase(t, "quantized") || equalsNoCase(t, "int8") || equalsNoCase(t, "quant") ||
            equalsNoCase(t, "quantize") || (equalsNoCase(t, "int") && i + 1 < toks.size() && equalsNoCase(toks[i + 1], "infer")))
            return RunRole::Quantized;
    }
    return std::nullopt;
}

std::string seriesName(std::string_view key, bool validation)
{
    // Fast path: a plain key ("loss", "acc", "lr") is its own name.
    bool plain = true;
    for (char c : key)
        if (c == '/' || c == '.' || c == '_') { plain = false; break; }
    if (plain && !isValToken(key)) return validation ? "val/" + std::string(key) : std::string(key);

    std::vector<std::string_view> parts;
    size_t b = 0;
    for (size_t i = 0; i <= key.size(); ++i) {
        if (i == key.size() || key[i] == '/' || key[i] == '.') {
            if (i > b) parts.push_back(key.substr(b, i - b));
            b = i + 1;
        }
    }
    bool val = validation;
    std::string rest;
    for (size_t pi = 0; pi < parts.size(); ++pi) {
        std::string_view p = parts[pi];
        if (equalsNoCase(p, "train") || equalsNoCase(p, "training")) continue;
        if (isValToken(p)) { val = true; continue; }
        // a folder-like component made only of stage / split words ("qat_train", "float_val",
        // "calibration") says where the metric comes from, not what it is
        if (pi + 1 < parts.size() && isStageOrSplit(p, val)) continue;
        // "val_acc", "test_loss", "acc_val": the validation word as a prefix or suffix token
        const size_t us = p.find('_');
        if (us != std::string_view::npos && isValToken(p.substr(0, us))) {
            val = true;
            p = p.substr(us + 1);
        } else if (const size_t ls = p.rfind('_'); ls != std::string_view::npos && ls > 0 && isValToken(p.substr(ls + 1))) {
            val = true;
            p = p.substr(0, ls);
        } else if (startsWithNoCase(p, "train_")) {
            p = p.substr(6);
        }
        if (!rest.empty()) rest += '/';
        rest += p;
    }
    if (rest.empty()) rest = std::string(key);
    return val ? "val/" + rest : rest;
}

}  // namespace qatdoctor::core::logs
