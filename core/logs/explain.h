// How a reading came about, for a user who sees a wrong curve: per series, the layout family and
// file that produced it, its extent, and source lines of its first and last points (file:line
// and the text), so the misreading can be seen, and reported, without a debugger.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::core::logs {

struct SourceLine {
    std::string file;   // path as in Run::files
    uint32_t line = 0;  // 1-based line (record number for TensorBoard events)
    std::string text;   // the line as written (cut at 300 bytes); empty for binary records
};

struct SeriesExplanation {
    std::string series;
    std::string layout;     // log_layouts.h id of the file its first point came from
    std::string framework;  // that layout's description for people
    size_t points = 0;
    double firstStep = 0, lastStep = 0;
    std::vector<SourceLine> samples;  // the first and the last point's lines (one when they agree)
    // Which stage the points are and what decided it: the run's role (and its reason) for the
    // run's own series, the line, key or tag that named another stage for a "<stage>/" series.
    std::string stage;
    std::string stageReason;
};

// One explanation per series of the run, in the run's series order. Reads the sample lines from
// the files (bounded: a line is looked for in the first 256 MiB of its file).
std::vector<SeriesExplanation> explainRun(const Run& run);

// The run's explanation as text for people (the CLI's `logs --explain`, the Curves page's
// "Explain this reading" window): control bytes of the quoted lines escaped (\x1b), so a log
// line cannot move a terminal's cursor.
std::string explanationText(const Run& run);

}  // namespace qatdoctor::core::logs
