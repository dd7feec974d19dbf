// The one-sentence verdict of a diagnosis (its check results and the runs they looked at): the stage where
// trouble most likely starts, following the FAQ's "first decide whether the problem is in training, export or
// deployment". The Overview page, the CLI (text and JSON) and the report all show this same sentence.
#pragma once

#include <string>

#include "core/common/check_results.h"
#include "core/logs/run.h"

namespace qatdoctor::core::rules {

struct Verdict {
    bool clear = true;          // no warning or error among the findings (recovered ones aside)
    Stage stage = Stage::Qat;   // meaningful when !clear
    std::string findingId;      // the finding the sentence names ("" when clear)
    bool stageUnknown = false;  // a training finding seen only in runs of no known stage
    Text text;
};

// Looks at warnings and errors only. The most severe finding leads (an error, such as a quantized
// model at chance, before any warning), except that a float or calibration problem leads the QAT
// trouble it explains; among equals the earliest pipeline stage wins (float -> calibration -> QAT
// -> export -> deployment; upstream trouble explains downstream symptoms), environment findings
// only when nothing else is wrong; then one observed in the training runs (evidence naming a run)
// before a model or toolchain lint, then the one furthest past its threshold (Finding::strength),
// then the first in sorted order. A training finding seen only
// in runs of no known stage is said to start in "training (stage unknown)". A finding the data
// recovered from by itself (Finding::recovered) is never the verdict; the clear sentence then
// says it is listed.
// The stage ladder's first bad step (leadingFindingId: the finding it raised) leads when that
// finding is among the problems: the accuracy first goes wrong there. A problem at that stage or
// an earlier one, of at least its severity, leads instead: it explains the drop.
Verdict computeVerdict(const CheckResults& results, const logs::LogSet& logs,
                       const std::string& leadingFindingId = {});

}  // namespace qatdoctor::core::rules
