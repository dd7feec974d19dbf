#include "core/rules/thresholds.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/common/file_io.h"
#include "core/common/json_depth.h"
#include "core/rules/thresholds_default.h"  // generated from resources/thresholds.json

namespace qatdoctor::core::rules {
namespace {

using nlohmann::json;

struct Field {
    const char* key;
    double Thresholds::*member;
};

// The one mapping between file keys and struct members.
constexpr Field kFields[] = {
    {"divergence.early_points", &Thresholds::divergenceEarlyPoints},
    {"divergence.growth_factor", &Thresholds::divergenceGrowthFactor},
    {"divergence.rising_ratio", &Thresholds::divergenceRisingRatio},
    {"qat_start.loss_ratio", &Thresholds::qatStartLossRatio},
    {"qat_start.min_loss_delta", &Thresholds::qatStartMinLossDelta},
    {"trend.max_rise", &Thresholds::trendMaxRise},
    {"trend.late_fraction", &Thresholds::trendLateFraction},
    {"qat_vs_calib.min_drop", &Thresholds::qatVsCalibMinDrop},
    {"accuracy_drop.min_points", &Thresholds::accuracyDropMinPoints},
    {"quantized_gap.max_drop", &Thresholds::quantizedGapMaxDrop},
    {"quantized_gap.error_drop", &Thresholds::quantizedGapErrorDrop},
    {"calib_low.max_drop", &Thresholds::calibLowMaxDrop},
    {"qat_vs_float.max_drop", &Thresholds::qatVsFloatMaxDrop},
    {"pre_export.max_drop", &Thresholds::preExportMaxDrop},
    {"board.max_drop", &Thresholds::boardMaxDrop},
    {"not_learning.max_relative_change", &Thresholds::notLearningMaxRelativeChange},
    {"not_learning.max_accuracy_change", &Thresholds::notLearningMaxAccuracyChange},
    {"not_learning.min_evaluations", &Thresholds::notLearningMinEvaluations},
    {"not_learning.min_points", &Thresholds::notLearningMinPoints},
    {"float_converged.min_last_gain", &Thresholds::floatConvergedMinLastGain},
    {"float_converged.loss_late_drop", &Thresholds::floatConvergedLossLateDrop},
    {"float_converged.min_loss_points", &Thresholds::floatConvergedMinLossPoints},
    {"overfit.max_gap", &Thresholds::overfitMaxGap},
    {"batch_scale.min_factor", &Thresholds::batchScaleMinFactor},
    {"batch_scale.lr_tolerance", &Thresholds::batchScaleLrTolerance},
    {"aggressive_lr.peak_ratio", &Thresholds::aggressiveLrPeakRatio},
};

const Field* findField(const std::string& key)
{
    for (const Field& f : kFields)
        if (key == f.key) return &f;
    return nullptr;
}

constexpr int kMaxDepth = 16;

Result<json> parseEntries(std::string_view text, const std::string& path)
{
    if (jsonNestingDepth(text) > kMaxDepth)
        return makeError("thresholds.parse",
                         path + ": nested deeper than " + std::to_string(kMaxDepth) + " levels", path);
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return makeError("thresholds.parse", path + ": not a JSON object", path);
    auto it = doc.find("thresholds");
    if (it == doc.end() || !it->is_object())
        return makeError("thresholds.parse", path + ": no \"thresholds\" object", path);
    return *it;
}

// An entry is {"value": n, "reason": "..."} or, in a user's override file, just n.
Result<double> entryValue(const json& entry, const std::string& key, const std::string& path)
{
    const json* v = &entry;
    if (entry.is_object()) {
        auto it = entry.find("value");
        if (it == entry.end())
            return makeError("thresholds.value", path + ": \"" + key + "\" has no \"value\"", path);
        v = &*it;
    }
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0)
        return makeError("thresholds.value", path + ": \"" + key + "\" must be a non-negative finite number",
                         path);
    return v->get<double>();
}

}  // namespace

std::string_view defaultThresholdsJson()
{
    return kDefaultThresholdsJson;
}

Thresholds defaultThresholds()
{
    Result<Thresholds> t = applyThresholds(defaultThresholdsJson(), "resources/thresholds.json", {});
    return t ? *t : Thresholds{};
}

Result<Thresholds> applyThresholds(std::string_view text, const std::string& path, Thresholds base)
{
    Result<json> entries = parseEntries(text, path);
    if (!entries) return entries.error();
    for (auto& [key, entry] : entries->items()) {
        const Field* field = findField(key);
        if (!field)
            return makeError("thresholds.unknown_key", path + ": unknown threshold \"" + key + "\"", path);
        Result<double> v = entryValue(entry, key, path);
        if (!v) return v.error();
        base.*(field->member) = *v;
    }
    return base;
}

Result<Thresholds> loadThresholds(const std::string& path)
{
    if (path.empty()) return defaultThresholds();
    Result<std::string> text = readFile(path, 1u << 20);
    if (!text) return text.error();
    return applyThresholds(*text, path, defaultThresholds());
}

Result<std::vector<ThresholdInfo>> describeThresholds(std::string_view text)
{
    if (text.empty()) text = defaultThresholdsJson();
    Result<json> entries = parseEntries(text, "thresholds");
    if (!entries) return entries.error();
    std::vector<ThresholdInfo> out;
    for (auto& [key, entry] : entries->items()) {
        Result<double> v = entryValue(entry, key, "thresholds");
        if (!v) return v.error();
        ThresholdInfo info{key, *v, {}};
        if (entry.is_object() && entry.contains("reason") && entry["reason"].is_string())
            info.reason.en = info.reason.zh = entry["reason"].get<std::string>();
        if (entry.is_object() && entry.contains("reason_zh") && entry["reason_zh"].is_string())
            info.reason.zh = entry["reason_zh"].get<std::string>();
        out.push_back(std::move(info));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
