// Nesting depth of JSON text, counted without parsing. Rejecting deep input before nlohmann
// builds the tree keeps a hostile file from costing stack or memory (its parser and the copies
// of a json value recurse once per level).
#pragma once

#include <string_view>

namespace qatdoctor::core {

// Deepest {/[ nesting outside strings; malformed text still gives a number, never an error.
int jsonNestingDepth(std::string_view text);

}  // namespace qatdoctor::core
