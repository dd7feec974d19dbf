// Python literals as data: dicts, lists, tuples, strings, numbers and bare names (qint8,
// torch.float32, None), the way a `.pt.py` dump writes a configuration. Parsed, never run:
// there are no calls, attribute access is read as a dotted name, and anything else is an error
// naming the line. An optional `name =` before the value is accepted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"

namespace qatdoctor::core::artifacts {

struct PyEntry;  // one key: value of a dict

struct PyValue {
    enum class Kind { Dict, List, String, Name, Number };
    Kind kind = Kind::Name;
    std::string text;            // String, Name, Number
    std::vector<PyValue> items;  // List and tuple elements
    // Dict, in file order. A struct, not std::pair<PyValue, PyValue>: clang cannot instantiate a
    // pair of the type being defined (the fuzz preset builds with clang).
    std::vector<PyEntry> entries;
    int64_t line = 0;  // 1-based, where the value starts
};

struct PyEntry {
    PyValue key, value;
};

inline constexpr int kMaxPyLiteralDepth = 64;

// Read as Python reads it: string escapes decoded ('\u4e2d', '\x2e', '\n'), a backslash-newline
// inside a string joins the lines, a UTF-8 BOM and CR or CRLF line ends accepted; a key repeated in
// a dict keeps its last value, as Python does, with a warning naming both lines.
// Errors: codes::kArtifactParse ("artifact.parse") with "path:line: what" (unbalanced brackets, a call, an
// operator, nesting deeper than kMaxPyLiteralDepth, text after the value).
Result<PyValue> parsePythonLiteral(std::string_view text, const std::string& path,
                                   std::vector<Warning>* warnings = nullptr);

}  // namespace qatdoctor::core::artifacts
