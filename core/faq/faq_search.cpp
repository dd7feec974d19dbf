#include "core/faq/faq_search.h"

#include <algorithm>

namespace qatdoctor::core::faq {
namespace {

struct Field {
    const char* name;
    int weight;
    const Text* text;          // either text ...
    const std::string* plain;  // ... or a plain string (keywords)
};

std::vector<Field> fieldsOf(const Topic& t)
{
    std::vector<Field> f;
    f.push_back({"title", 100, &t.title, nullptr});
    f.push_back({"symptom", 60, &t.symptom, nullptr});
    for (const std::string& k : t.keywords) f.push_back({"keyword", 40, nullptr, &k});
    for (const Node& n : t.nodes) {
        if (!n.isResult()) {
            f.push_back({"question", 15, &n.text, nullptr});
            continue;
        }
        f.push_back({"result", 12, &n.title, nullptr});
        for (const Text& x : n.causes) f.push_back({"cause", 10, &x, nullptr});
        for (const Text& x : n.checks) f.push_back({"check", 10, &x, nullptr});
        for (const Text& x : n.advice) f.push_back({"advice", 10, &x, nullptr});
    }
    return f;
}

bool contains(std::string_view haystack, std::string_view foldedNeedle)
{
    return foldAscii(haystack).find(foldedNeedle) != std::string::npos;
}

std::vector<std::string> splitTerms(std::string_view query)
{
    // Spaces split terms; the ideographic space U+3000 (E3 80 80) too, as Chinese IMEs type it.
    std::string q(query);
    for (size_t p; (p = q.find("\xE3\x80\x80")) != std::string::npos;) q.replace(p, 3, " ");
    std::vector<std::string> terms;
    size_t i = 0;
    while (i < q.size()) {
        while (i < q.size() && (q[i] == ' ' || q[i] == '\t' || q[i] == '\n')) ++i;
        size_t j = i;
        while (j < q.size() && q[j] != ' ' && q[j] != '\t' && q[j] != '\n') ++j;
        if (j > i) terms.push_back(foldAscii(q.substr(i, j - i)));
        i = j;
    }
    return terms;
}

}  // namespace

std::string foldAscii(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string utf8Prefix(std::string_view text, size_t maxChars)
{
    size_t chars = 0, i = 0;
    while (i < text.size() && chars < maxChars) {
        const auto c = static_cast<unsigned char>(text[i]);
        const size_t len = c < 0x80 ? 1 : c >> 5 == 0x6 ? 2 : c >> 4 == 0xE ? 3 : c >> 3 == 0x1E ? 4 : 1;
        i = std::min(text.size(), i + len);
        ++chars;
    }
    return i >= text.size() ? std::string(text) : std::string(text.substr(0, i)) + "\xE2\x80\xA6";
}

std::vector<SearchHit> searchFaq(const FaqBase& base, std::string_view query, Lang lang, size_t limit)
{
    const std::vector<std::string> terms = splitTerms(query);
    std::vector<SearchHit> hits;
    if (terms.empty()) return hits;
    for (const Topic& t : base.topics()) {
        const std::vector<Field> fields = fieldsOf(t);
        SearchHit hit;
        hit.topic = &t;
        int bestWeight = -1;
        bool all = true;
        for (const std::string& term : terms) {
            const Field* best = nullptr;
            for (const Field& f : fields) {
                const bool match = f.text ? (contains(f.text->zh, term) || contains(f.text->en, term))
                                          : contains(*f.plain, term);
                if (match && (!best || f.weight > best->weight)) best = &f;
            }
            if (!best) {
                all = false;
                break;
            }
            hit.score += best->weight;
            hit.titleHit = hit.titleHit || best->weight == 100;
            if (best->weight > bestWeight) {
                bestWeight = best->weight;
                hit.field = best->name;
                hit.snippet = utf8Prefix(best->text ? best->text->in(lang) : *best->plain, 80);
            }
        }
        if (all) hits.push_back(std::move(hit));
    }
    std::stable_sort(hits.begin(), hits.end(), [](const SearchHit& a, const SearchHit& b) {
        if (a.titleHit != b.titleHit) return a.titleHit;
        if (a.score != b.score) return a.score > b.score;
        return a.topic->popularity > b.topic->popularity;
    });
    if (hits.size() > limit) hits.resize(limit);
    return hits;
}

}  // namespace qatdoctor::core::faq
