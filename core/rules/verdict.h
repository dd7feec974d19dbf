// The one-sentence verdict of an Analysis: the stage where trouble most likely starts, following
// the FAQ's "first decide whether the problem is in training, export or deployment". The Overview
// page, the CLI (text and JSON) and the report all show this same sentence.
#pragma once

#include <string>

#include "core/analysis.h"

namespace qatdoctor::core::rules {

struct Verdict {
    bool clear = true;        // no warning or error among the findings
    Stage stage = Stage::Qat; // meaningful when !clear
    std::string findingId;    // the finding the sentence names ("" when clear)
    Text text;
};

// Looks at warnings and errors only. The earliest pipeline stage with one wins (float ->
// calibration -> QAT -> export -> deployment; upstream trouble explains downstream symptoms),
// environment findings only when nothing else is wrong. Within the stage, the most severe
// finding is named; at equal severity one observed in the training runs (evidence naming a run)
// before a model or toolchain lint, then the first in sorted order.
Verdict computeVerdict(const Analysis& analysis);

}  // namespace qatdoctor::core::rules
