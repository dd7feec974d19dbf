// The check functions of the rule table, one small file (or tight group) each.
#pragma once

#include "core/rules/rule.h"

namespace qatdoctor::core::rules {

RuleOutcome checkLossNonfinite(const logs::LogSet& a, const Thresholds& t);     // nonfinite_rule.cpp
RuleOutcome checkLossDivergence(const logs::LogSet& a, const Thresholds& t);    // divergence_rule.cpp
RuleOutcome checkRunCrashed(const logs::LogSet& a, const Thresholds& t);        // crash_rule.cpp
RuleOutcome checkQatStartLossHigh(const logs::LogSet& a, const Thresholds& t);  // qat_vs_float_rules.cpp
RuleOutcome checkQatTrendMismatch(const logs::LogSet& a, const Thresholds& t);  // qat_vs_float_rules.cpp
RuleOutcome checkQatWorseThanCalibration(const logs::LogSet& a, const Thresholds& t);  // accuracy_rules.cpp
RuleOutcome checkQatQuantizedGap(const logs::LogSet& a, const Thresholds& t);          // accuracy_rules.cpp
RuleOutcome checkQatNoQuantizedEval(const logs::LogSet& a, const Thresholds& t);       // accuracy_rules.cpp
RuleOutcome checkCalibLowAccuracy(const logs::LogSet& a, const Thresholds& t);         // accuracy_rules.cpp
RuleOutcome checkQatNotLearning(const logs::LogSet& a, const Thresholds& t);          // not_learning_rule.cpp
RuleOutcome checkFloatNotConverged(const logs::LogSet& a, const Thresholds& t);       // float_rules.cpp
RuleOutcome checkFloatOverfit(const logs::LogSet& a, const Thresholds& t);            // float_rules.cpp
RuleOutcome checkBatchScaledLrUnchanged(const logs::LogSet& a, const Thresholds& t);  // lr_rules.cpp
RuleOutcome checkAggressiveLrSchedule(const logs::LogSet& a, const Thresholds& t);    // lr_rules.cpp
RuleOutcome checkCalibMultiGpu(const logs::LogSet& a, const Thresholds& t);           // setup_rules.cpp
RuleOutcome checkEnvNoGpu(const logs::LogSet& a, const Thresholds& t);                // setup_rules.cpp
RuleOutcome checkConfigMarch(const logs::LogSet& a, const Thresholds& t);             // setup_rules.cpp

}  // namespace qatdoctor::core::rules
