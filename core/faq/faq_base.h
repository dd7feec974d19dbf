// The loaded FAQ knowledge base: categories and their topics, looked up by id, in picker order.
// Loading collects every problem (parser + validator) as values; a base with errors is still
// usable for what loaded, but callers that must trust the data (CLI validate, tests) check them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "core/faq/faq_types.h"

namespace qatdoctor::core::faq {

inline constexpr size_t kMaxTreeFiles = 100;

struct FaqSource {
    std::string path;  // for messages, e.g. "faq/20_qat_training.json"
    std::string bytes;
};

struct FaqLoad;

class FaqBase {
public:
    // Parses and validates the given files (tests pass inline bytes).
    static FaqLoad fromSources(const std::vector<FaqSource>& sources);
    // Reads dir/[0-9][0-9]_*.json (sorted by name). Errors: "faq.no_dir", "faq.empty",
    // "io.*" per file, plus everything parseFaqFile and validateFaq report.
    static FaqLoad loadDirectory(const std::string& dir);

    bool empty() const { return m_topics.empty(); }
    const std::vector<Category>& categories() const { return m_categories; }  // by order
    const std::vector<Topic>& topics() const { return m_topics; }             // file order
    const Topic* topic(std::string_view id) const;
    const Category* category(std::string_view id) const;
    const Node* node(std::string_view topicId, std::string_view nodeId) const;

    // Picker order: the category's topics, most popular first (ties keep file order).
    std::vector<const Topic*> topicsOf(const Category& category) const;
    // All topics, most popular first: "the most common symptoms".
    std::vector<const Topic*> topicsByPopularity() const;

private:
    std::vector<Category> m_categories;
    std::vector<Topic> m_topics;
    std::map<std::string, size_t, std::less<>> m_topicIndex;  // first occurrence of each id
};

struct FaqLoad {
    FaqBase base;
    std::vector<Error> errors;  // empty = valid
    size_t fileCount = 0;
};

}  // namespace qatdoctor::core::faq
