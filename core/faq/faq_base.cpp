#include "core/faq/faq_base.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <system_error>

#include "core/common/file_io.h"
#include "core/faq/faq_parser.h"
#include "core/faq/faq_validator.h"

namespace qatdoctor::core::faq {

const Answer* Node::answer(const std::string& answerId) const
{
    for (const Answer& a : answers)
        if (a.id == answerId) return &a;
    return nullptr;
}

const Node* Topic::node(const std::string& nodeId) const
{
    for (const Node& n : nodes)
        if (n.id == nodeId) return &n;
    return nullptr;
}

FaqLoad FaqBase::fromSources(const std::vector<FaqSource>& sources)
{
    FaqLoad load;
    load.fileCount = sources.size();
    FaqBase& base = load.base;
    for (const FaqSource& src : sources) {
        ParsedFile parsed = parseFaqFile(src.bytes, src.path, load.errors);
        if (parsed.topics.empty() && parsed.category.id.empty()) continue;
        base.m_categories.push_back(std::move(parsed.category));
        for (Topic& t : parsed.topics) base.m_topics.push_back(std::move(t));
    }
    std::stable_sort(base.m_categories.begin(), base.m_categories.end(),
                     [](const Category& a, const Category& b) { return a.order < b.order; });
    for (size_t i = 0; i < base.m_topics.size(); ++i) base.m_topicIndex.emplace(base.m_topics[i].id, i);
    std::vector<Error> problems = validateFaq(base);
    load.errors.insert(load.errors.end(), problems.begin(), problems.end());
    return load;
}

FaqLoad FaqBase::loadDirectory(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        FaqLoad load;
        load.errors.push_back(makeError("faq.no_dir", "not a folder of FAQ trees", dir));
        return load;
    }
    static const std::regex treeFile("^[0-9][0-9]_.*\\.json$");
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (std::regex_match(name, treeFile) && it->is_regular_file(ec)) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    std::vector<Error> readErrors;
    if (names.empty()) readErrors.push_back(makeError("faq.empty", "no tree files (NN_*.json)", dir));
    if (names.size() > kMaxTreeFiles) {
        readErrors.push_back(
            makeError("faq.limit", "more than " + std::to_string(kMaxTreeFiles) + " tree files", dir));
        names.resize(kMaxTreeFiles);
    }
    std::vector<FaqSource> sources;
    for (const std::string& name : names) {
        const std::string path = (fs::path(dir) / name).string();
        Result<std::string> bytes = readFile(path, kMaxFileBytes);
        if (!bytes) {
            readErrors.push_back(bytes.error());
            continue;
        }
        sources.push_back({path, std::move(bytes).value()});
    }
    FaqLoad load = fromSources(sources);
    load.fileCount = names.size();
    load.errors.insert(load.errors.begin(), readErrors.begin(), readErrors.end());
    return load;
}

const Topic* FaqBase::topic(std::string_view id) const
{
    auto it = m_topicIndex.find(id);
    return it == m_topicIndex.end() ? nullptr : &m_topics[it->second];
}

const Category* FaqBase::category(std::string_view id) const
{
    for (const Category& c : m_categories)
        if (c.id == id) return &c;
    return nullptr;
}

const Node* FaqBase::node(std::string_view topicId, std::string_view nodeId) const
{
    const Topic* t = topic(topicId);
    return t ? t->node(std::string(nodeId)) : nullptr;
}

namespace {
void sortByPopularity(std::vector<const Topic*>& topics)
{
    std::stable_sort(topics.begin(), topics.end(),
                     [](const Topic* a, const Topic* b) { return a->popularity > b->popularity; });
}
}  // namespace

std::vector<const Topic*> FaqBase::topicsOf(const Category& category) const
{
    std::vector<const Topic*> out;
    for (const std::string& id : category.topicIds)
        if (const Topic* t = topic(id); t && t->categoryId == category.id) out.push_back(t);
    sortByPopularity(out);
    return out;
}

std::vector<const Topic*> FaqBase::topicsByPopularity() const
{
    std::vector<const Topic*> out;
    for (const Category& c : m_categories)
        for (const std::string& id : c.topicIds)
            if (const Topic* t = topic(id)) out.push_back(t);
    sortByPopularity(out);
    return out;
}

}  // namespace qatdoctor::core::faq
