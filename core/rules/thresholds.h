// The numbers the training rules compare against. Their defaults, each with the reason for it,
// live in resources/thresholds.json, which the build embeds into the core (the CLI and GUI need
// no data file); a user file of the same shape can override any subset of them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/common/text.h"

namespace qatdoctor::core::rules {

struct Thresholds {
    double divergenceEarlyPoints = 0;
    double divergenceGrowthFactor = 0;
    double divergenceRisingRatio = 0;
    double qatStartLossRatio = 0;
    double qatStartMinLossDelta = 0;
    double trendMaxRise = 0;
    double trendLateFraction = 0;
    double qatVsCalibMinDrop = 0;
    double quantizedGapMaxDrop = 0;
    double quantizedGapErrorDrop = 0;
    double calibLowMaxDrop = 0;
    double qatVsFloatMaxDrop = 0;  // the stage ladder's steps the training rules do not cover
    double preExportMaxDrop = 0;
    double boardMaxDrop = 0;
    double accuracyDropMinPoints = 0;
    double notLearningMaxRelativeChange = 0;
    double notLearningMaxAccuracyChange = 0;
    double notLearningMinEvaluations = 0;
    double notLearningMinPoints = 0;
    double floatConvergedMinLastGain = 0;
    double floatConvergedLossLateDrop = 0;
    double floatConvergedMinLossPoints = 0;
    double overfitMaxGap = 0;
    double batchScaleMinFactor = 0;
    double batchScaleLrTolerance = 0;
    double aggressiveLrPeakRatio = 0;
};

// One documented threshold as read from a file (for the UI and docs).
struct ThresholdInfo {
    std::string key;  // "divergence.growth_factor"
    double value = 0;
    Text reason;  // "reason" and "reason_zh" (a user's file with only "reason": the same text in both)
};

// The embedded resources/thresholds.json (every key present).
std::string_view defaultThresholdsJson();

// The embedded defaults. Never fails: a test guarantees the embedded file is complete.
Thresholds defaultThresholds();

// Applies the entries of a thresholds JSON document (same shape as resources/thresholds.json,
// any subset of keys) on top of base. Errors ("thresholds.parse", "thresholds.unknown_key",
// "thresholds.value") name pathForMessages and the key.
Result<Thresholds> applyThresholds(std::string_view json, const std::string& pathForMessages,
                                   Thresholds base);

// Defaults overridden by the file at path ("" = defaults only). Errors as applyThresholds, or
// "io.open" when the file cannot be read.
Result<Thresholds> loadThresholds(const std::string& path);

// Every entry of a thresholds document with its reason, sorted by key ("" = the embedded one).
Result<std::vector<ThresholdInfo>> describeThresholds(std::string_view json = {});

}  // namespace qatdoctor::core::rules
