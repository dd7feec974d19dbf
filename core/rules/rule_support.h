// Small helpers the rule files share: evidence from a series point or an event, the stage a run
// role points at, and number formatting for titles.
#pragma once

#include <string>

#include "core/common/finding.h"
#include "core/common/number_text.h"  // shortNumber, percentText: the rules' texts
#include "core/logs/run.h"
#include "core/rules/metrics.h"

namespace qatdoctor::core::rules {

// float -> Float, calibration -> Calibration, qat / unknown -> Qat, quantized -> Export.
Stage stageForRole(logs::RunRole role);

// The point `index` of a series: run, file, line (binary formats: "record N" in detail), step,
// metric and value.
Evidence pointEvidence(const logs::Run& run, const MetricRef& metric, size_t index, std::string detail = {});
// The same with a detail in words, in both languages.
Evidence pointEvidence(const logs::Run& run, const MetricRef& metric, size_t index, const Text& detail);
// An event: run, file, line, step; detail = the event's first line.
Evidence eventEvidence(const logs::Run& run, const logs::RunEvent& event);
// The run as a whole (its first file).
Evidence runEvidence(const logs::Run& run, std::string detail = {});
Evidence runEvidence(const logs::Run& run, const Text& detail);

// The strength of a finding that holds when value is above threshold (measuredAbove) or below
// it (measuredBelow); percent: both are fractions shown as percent.
Strength measuredAbove(Text measure, double value, double threshold, bool percent = false);
Strength measuredBelow(Text measure, double value, double threshold, bool percent = false);

// Runs of a role, in load order.
std::vector<const logs::Run*> runsWithRole(const logs::LogSet& set, logs::RunRole role);

// The QAT run a quantized evaluation most likely evaluated: the QAT run that ended last before
// the quantized run started (by wall time), else the first QAT run named exactly like a
// plain "qat", else the first QAT run.
const logs::Run* qatRunFor(const logs::LogSet& set, const logs::Run* quantized);

}  // namespace qatdoctor::core::rules
