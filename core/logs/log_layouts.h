// The layout families of the wild: which framework wrote a log file, recognised from its name
// and first bytes. A format row (log_formats.cpp) says how bytes are split into records; a
// layout says whose records they are. The parsers' vocabulary (metric_names.h) already reads
// every family below the same way; the layout is what `logs --explain`, `files[].layout` in the
// JSON and the run details show, so a user who sees a wrong curve can tell what read it.
// A new family is a new row; tests/data/logs/wild holds a case per row.
#pragma once

#include <string_view>
#include <vector>

namespace qatdoctor::core::logs {

struct LogLayout {
    const char* id;         // "mmdet2_text": stable, in JSON and the test manifests
    const char* format;     // the format row that reads it ("text", "csv", "jsonl", ...)
    const char* framework;  // for people: "mmdetection 2.x text log"
    const char* fileName;   // exact file name it must have, or nullptr
    // every one of these must occur in the first bytes
    std::vector<const char*> needles;
    // console output whose metrics are its printed tables only (YOLO, skorch): the key: value
    // text around them ("CUDA:0", "0 corrupt: 100%") is prose, never a point
    bool tablesOnly = false;
};

// The row with that id (the first, for ids with several rows), or nullptr.
const LogLayout* findLayout(std::string_view id);

const std::vector<LogLayout>& logLayouts();

// The first row of `format` whose name and needles match; the format's generic row otherwise.
const LogLayout& detectLayout(std::string_view format, std::string_view name, std::string_view head);

}  // namespace qatdoctor::core::logs
