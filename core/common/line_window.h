// The lines around one line of a text file, for the source view behind every evidence
// "file:line": read in chunks up to the window's end (a 2 GB log is never loaded whole), over-long
// lines cut, and the file's end or a line past it said plainly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"

namespace qatdoctor::core {

struct LineWindow {
    int64_t firstLine = 1;           // 1-based number of lines.front()
    std::vector<std::string> lines;  // without their line ends
    bool reachedEnd = false;         // the window ends at the end of the file
};

// Characters kept of one line; the rest becomes " …(N more bytes)".
inline constexpr size_t kLineWindowMaxLineBytes = 4096;

// Lines [line - radius, line + radius] (clamped to the file). Errors: "io.open", "io.read",
// "source.past_end" (the file has fewer lines than `line`; message names the count), "cancelled".
Result<LineWindow> readLineWindow(const std::string& path, int64_t line, int64_t radius,
                                  const ProgressFn& progress = {});

}  // namespace qatdoctor::core
