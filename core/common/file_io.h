// Reading and writing whole files with the project's rules: bounded reads (a hostile file can't
// exhaust memory) and atomic writes (temp file in the same folder + rename, so a crash never
// leaves a half-written report or session).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/result.h"

namespace qatdoctor::core {

inline constexpr uint64_t kDefaultReadLimit = 2ull << 30;  // 2 GiB

// Reads the file into memory. Errors: "io.open" (missing / unreadable, message names the path),
// "io.too_large" (bigger than limit), "io.read".
Result<std::string> readFile(const std::string& path, uint64_t limit = kDefaultReadLimit);

// Reads at most maxBytes from the start (for format probes).
Result<std::string> readFileHead(const std::string& path, size_t maxBytes);

// Reads exactly bytes bytes at offset of a regular file (a dataset's one sample out of a large
// .npy). Errors: "io.open", "io.not_regular", "io.read" naming the path and the offset ("io.read"
// also when the file ends first).
Result<std::string> readFileRange(const std::string& path, uint64_t offset, size_t bytes);

// Writes data to path through "<path>.tmp-XXXXXX" + fsync + rename. With overwrite=false an
// existing file is an error ("io.exists"). Errors name the path.
Result<void> writeFileAtomic(const std::string& path, std::string_view data, bool overwrite = true);

}  // namespace qatdoctor::core
