// The check functions of the rule table, one small file (or tight group) each.
#pragma once

#include "core/rules/rule.h"

namespace qatdoctor::core::rules {

RuleOutcome checkLossNonfinite(const Analysis& a, const Thresholds& t);        // nonfinite_rule.cpp
RuleOutcome checkLossDivergence(const Analysis& a, const Thresholds& t);       // divergence_rule.cpp
RuleOutcome checkRunCrashed(const Analysis& a, const Thresholds& t);           // crash_rule.cpp
RuleOutcome checkQatStartLossHigh(const Analysis& a, const Thresholds& t);     // qat_vs_float_rules.cpp
RuleOutcome checkQatTrendMismatch(const Analysis& a, const Thresholds& t);     // qat_vs_float_rules.cpp
RuleOutcome checkQatWorseThanCalibration(const Analysis& a, const Thresholds& t);  // accuracy_rules.cpp
RuleOutcome checkQatQuantizedGap(const Analysis& a, const Thresholds& t);      // accuracy_rules.cpp
RuleOutcome checkQatNoQuantizedEval(const Analysis& a, const Thresholds& t);   // accuracy_rules.cpp
RuleOutcome checkCalibLowAccuracy(const Analysis& a, const Thresholds& t);     // accuracy_rules.cpp
RuleOutcome checkQatNotLearning(const Analysis& a, const Thresholds& t);       // not_learning_rule.cpp
RuleOutcome checkFloatNotConverged(const Analysis& a, const Thresholds& t);    // float_rules.cpp
RuleOutcome checkFloatOverfit(const Analysis& a, const Thresholds& t);         // float_rules.cpp
RuleOutcome checkBatchScaledLrUnchanged(const Analysis& a, const Thresholds& t);  // lr_rules.cpp
RuleOutcome checkAggressiveLrSchedule(const Analysis& a, const Thresholds& t); // lr_rules.cpp
RuleOutcome checkCalibMultiGpu(const Analysis& a, const Thresholds& t);        // setup_rules.cpp
RuleOutcome checkEnvNoGpu(const Analysis& a, const Thresholds& t);             // setup_rules.cpp
RuleOutcome checkConfigMarch(const Analysis& a, const Thresholds& t);          // setup_rules.cpp

}  // namespace qatdoctor::core::rules
