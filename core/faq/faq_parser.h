// Reads one FAQ tree file (faq/[0-9][0-9]_*.json) from bytes into a Category and its Topics.
// Checks what one file can tell on its own: JSON syntax, shape and types, id patterns, both
// languages in every Text, sizes. Cross-references (targets, reachability, unique topic ids
// across files) are the validator's job (faq_validator.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/faq/faq_types.h"

namespace qatdoctor::core::faq {

// Bounds against hostile input: a tree file is a few hundred KiB at most.
inline constexpr size_t kMaxFileBytes = 4u << 20;
inline constexpr int kMaxJsonDepth = 32;
inline constexpr size_t kMaxTopicsPerFile = 500;
inline constexpr size_t kMaxNodesPerTopic = 500;
inline constexpr size_t kMaxListItems = 200;  // answers, causes, advice, keywords, code ...
inline constexpr size_t kMaxStringBytes = 256u << 10;

struct ParsedFile {
    Category category;
    std::vector<Topic> topics;
};

// Parses bytes of the file at path (used only in messages). Every problem is appended to errors
// as Error{code, "<JSON pointer>: <what>", path} (codes "faq.parse", "faq.too_large",
// "faq.too_deep", "faq.schema", "faq.missing_text", "faq.limit", "faq.bad_order"). Whatever could
// be read is returned even when errors were added; a file that does not parse gives nothing.
ParsedFile parseFaqFile(std::string_view bytes, const std::string& path, std::vector<Error>& errors);

}  // namespace qatdoctor::core::faq
