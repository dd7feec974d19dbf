// Full-text search of the FAQ for the symptom picker and `faq search`: titles, symptoms,
// keywords, question texts, causes, checks and advice, in BOTH languages whatever the display
// language. Matching is substring-based on UTF-8 bytes (so Chinese needs no word splitting) and
// case-insensitive for ASCII letters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/faq/faq_base.h"

namespace qatdoctor::core::faq {

struct SearchHit {
    const Topic* topic = nullptr;
    bool titleHit = false;  // some query term is in the title (ranked before all others)
    int score = 0;          // higher = better; sums the best field weight of each term
    std::string field;      // best field: "title" | "symptom" | "keyword" | "question" | "result" | "cause" |
                            // "check" | "advice"
    std::string snippet;    // that field's text in the requested language, shortened
};

// Query terms are separated by spaces; a topic matches when every term occurs somewhere in it.
// Order: title hits first, then score, then popularity. An empty query matches nothing.
std::vector<SearchHit> searchFaq(const FaqBase& base, std::string_view query, Lang lang, size_t limit = 50);

// ASCII letters lower-cased, every other byte (including UTF-8 sequences) unchanged.
std::string foldAscii(std::string_view text);

// At most maxChars code points of text, cut on a code point boundary, "…" appended if cut.
std::string utf8Prefix(std::string_view text, size_t maxChars);

}  // namespace qatdoctor::core::faq
