// Expected output dtypes per module, the `--expect FILE` JSON (also the GUI session's expect
// path): an object of module name -> dtype, checked by the model.int16_not_applied lint.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "core/common/result.h"

namespace qatdoctor::core::model {

using ExpectedDtypes = std::map<std::string, std::string>;  // module -> dtype as written

// A real file lists the handful of modules a user set to int16; the lint compares every entry
// with every layer, so a hostile file of millions of entries would be a hang, not a check.
inline constexpr size_t kMaxExpectedDtypes = 10000;
inline constexpr uint64_t kMaxExpectedDtypesBytes = 16u << 20;

// Errors ("expect.parse") name the file and, for malformed JSON, the line and byte offset;
// a value that is not a dtype parseDType knows is an error too (it would otherwise flag every
// layer as "not applied").
Result<ExpectedDtypes> parseExpectedDtypes(std::string_view json, const std::string& pathForMessages);
Result<ExpectedDtypes> readExpectedDtypes(const std::string& path);

}  // namespace qatdoctor::core::model
