#include "core/faq/faq_parser.h"

#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/common/json_depth.h"

namespace qatdoctor::core::faq {
namespace {

using nlohmann::json;

bool matchesTopicId(const std::string& s)
{
    static const std::regex re("^[a-z0-9_.]+$");
    return std::regex_match(s, re);
}
bool matchesNodeId(const std::string& s)
{
    static const std::regex re("^[a-z0-9_]+$");
    return std::regex_match(s, re);
}

// Walks one file; every problem becomes an Error naming the file and the JSON pointer.
class Reader {
public:
    Reader(const std::string& path, std::vector<Error>& errors) : m_path(path), m_errors(errors) {}

    void error(const char* code, const std::string& pointer, const std::string& what)
    {
        m_errors.push_back(makeError(code, (pointer.empty() ? "/" : pointer) + ": " + what, m_path));
    }

    // Unexpected keys are typos in hand-written data: report them rather than ignore them.
    void onlyKeys(const json& obj, const std::string& ptr, std::initializer_list<const char*> keys)
    {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            bool known = false;
            for (const char* k : keys) known = known || it.key() == k;
            if (!known) error("faq.schema", ptr, "unexpected key '" + it.key() + "'");
        }
    }

    const json* field(const json& obj, const std::string& ptr, const char* key, json::value_t type,
                      bool required)
    {
        auto it = obj.find(key);
        const std::string p = ptr + "/" + key;
        if (it == obj.end()) {
            if (required) error("faq.schema", ptr, std::string("missing '") + key + "'");
            return nullptr;
        }
        const bool typeOk =
            it->type() == type || (type == json::value_t::number_integer && it->is_number_unsigned());
        if (!typeOk) {
            error("faq.schema", p, std::string("expected ") + typeName(type) + ", got " + it->type_name());
            return nullptr;
        }
        if (it->is_array() && it->size() > kMaxListItems && std::string(key) != "topics" &&
            std::string(key) != "nodes") {
            error("faq.limit", p, "more than " + std::to_string(kMaxListItems) + " items");
            return nullptr;
        }
        return &*it;
    }

    std::string string(const json& obj, const std::string& ptr, const char* key, bool required = true)
    {
        const json* v = field(obj, ptr, key, json::value_t::string, required);
        if (!v) return {};
        std::string s = v->get<std::string>();
        if (s.size() > kMaxStringBytes) {
            error("faq.limit", ptr + "/" + key,
                  "string longer than " + std::to_string(kMaxStringBytes) + " bytes");
            s.clear();
        }
        return s;
    }

    std::string id(const json& obj, const std::string& ptr, bool topicId)
    {
        std::string s = string(obj, ptr, "id");
        if (!s.empty() && !(topicId ? matchesTopicId(s) : matchesNodeId(s)))
            error("faq.schema", ptr + "/id",
                  "id '" + s + "' must match " + (topicId ? "[a-z0-9_.]+" : "[a-z0-9_]+"));
        return s;
    }

    Text text(const json& obj, const std::string& ptr, const char* key, bool required = true)
    {
        const json* v = field(obj, ptr, key, json::value_t::object, required);
        if (!v) return {};
        return textValue(*v, ptr + "/" + key);
    }

    Text textValue(const json& v, const std::string& p)
    {
        if (!v.is_object()) {
            error("faq.schema", p, std::string("expected a Text {zh, en}, got ") + v.type_name());
            return {};
        }
        onlyKeys(v, p, {"zh", "en"});
        Text t;
        for (const char* lang : {"zh", "en"}) {
            auto it = v.find(lang);
            std::string s = it != v.end() && it->is_string() ? it->get<std::string>() : std::string();
            if (s.find_first_not_of(" \t\r\n") == std::string::npos)
                error("faq.missing_text", p + "/" + lang,
                      std::string("missing or empty '") + lang + "' text");
            else if (s.size() > kMaxStringBytes)
                error("faq.limit", p + "/" + lang, "text too long");
            else
                (std::string(lang) == "zh" ? t.zh : t.en) = std::move(s);
        }
        return t;
    }

    std::vector<Text> texts(const json& obj, const std::string& ptr, const char* key)
    {
        std::vector<Text> out;
        if (const json* v = field(obj, ptr, key, json::value_t::array, false)) {
            for (size_t i = 0; i < v->size(); ++i)
                out.push_back(textValue((*v)[i], ptr + "/" + key + "/" + std::to_string(i)));
        }
        return out;
    }

    std::vector<std::string> strings(const json& obj, const std::string& ptr, const char* key)
    {
        std::vector<std::string> out;
        if (const json* v = field(obj, ptr, key, json::value_t::array, false)) {
            for (size_t i = 0; i < v->size(); ++i) {
                if ((*v)[i].is_string())
                    out.push_back((*v)[i].get<std::string>());
                else
                    error("faq.schema", ptr + "/" + key + "/" + std::to_string(i), "expected string");
            }
        }
        return out;
    }

    SeedRef seed(const json& v, const std::string& p)
    {
        if (!v.is_object()) {
            error("faq.schema", p, "expected {file, heading}");
            return {};
        }
        onlyKeys(v, p, {"file", "heading"});
        return SeedRef{string(v, p, "file"), string(v, p, "heading")};
    }

    Node node(const json& v, const std::string& p);
    Topic topic(const json& v, const std::string& p);

private:
    static const char* typeName(json::value_t t)
    {
        switch (t) {
            case json::value_t::object:
                return "object";
            case json::value_t::array:
                return "array";
            case json::value_t::string:
                return "string";
            case json::value_t::number_integer:
                return "integer";
            default:
                return "value";
        }
    }

    const std::string& m_path;
    std::vector<Error>& m_errors;
};

Node Reader::node(const json& v, const std::string& p)
{
    Node n;
    n.pointer = p;
    if (!v.is_object()) {
        error("faq.schema", p, "expected a node object");
        return n;
    }
    n.id = id(v, p, false);
    const std::string type = string(v, p, "type");
    if (type == "question") {
        onlyKeys(v, p, {"id", "type", "text", "help", "auto", "answers"});
        n.type = NodeType::Question;
        n.text = text(v, p, "text");
        if (v.contains("help")) n.help = text(v, p, "help");
        n.autoCheck = string(v, p, "auto", false);
        const json* answers = field(v, p, "answers", json::value_t::array, true);
        if (answers && answers->size() < 2)
            error("faq.schema", p + "/answers", "a question needs at least two answers");
        for (size_t i = 0; answers && i < answers->size(); ++i) {
            const json& a = (*answers)[i];
            const std::string ap = p + "/answers/" + std::to_string(i);
            if (!a.is_object()) {
                error("faq.schema", ap, "expected an answer object");
                continue;
            }
            onlyKeys(a, ap, {"id", "label", "next", "auto"});
            Answer ans{id(a, ap, false), text(a, ap, "label"), string(a, ap, "next"), AutoMark::None};
            const std::string mark = string(a, ap, "auto", false);
            if (mark == "found")
                ans.autoMark = AutoMark::Found;
            else if (mark == "clear")
                ans.autoMark = AutoMark::Clear;
            else if (!mark.empty())
                error("faq.schema", ap + "/auto", "auto must be 'found' or 'clear', not '" + mark + "'");
            n.answers.push_back(std::move(ans));
        }
    } else if (type == "result") {
        onlyKeys(v, p,
                 {"id", "type", "title", "causes", "checks", "advice", "code", "related", "references"});
        n.type = NodeType::Result;
        n.title = text(v, p, "title");
        n.causes = texts(v, p, "causes");
        n.checks = texts(v, p, "checks");
        n.advice = texts(v, p, "advice");
        n.related = strings(v, p, "related");
        if (const json* code = field(v, p, "code", json::value_t::array, false)) {
            for (size_t i = 0; i < code->size(); ++i) {
                const std::string cp = p + "/code/" + std::to_string(i);
                if (!(*code)[i].is_object()) {
                    error("faq.schema", cp, "expected a code object");
                    continue;
                }
                onlyKeys((*code)[i], cp, {"language", "title", "text"});
                n.code.push_back({string((*code)[i], cp, "language"), text((*code)[i], cp, "title"),
                                  string((*code)[i], cp, "text")});
            }
        }
        if (const json* refs = field(v, p, "references", json::value_t::array, false)) {
            for (size_t i = 0; i < refs->size(); ++i) {
                const std::string rp = p + "/references/" + std::to_string(i);
                if (!(*refs)[i].is_object()) {
                    error("faq.schema", rp, "expected a reference object");
                    continue;
                }
                onlyKeys((*refs)[i], rp, {"name", "topic"});
                n.references.push_back(
                    {text((*refs)[i], rp, "name"), string((*refs)[i], rp, "topic", false)});
            }
        }
    } else if (!type.empty()) {
        error("faq.schema", p + "/type", "type must be 'question' or 'result', not '" + type + "'");
    }
    return n;
}

Topic Reader::topic(const json& v, const std::string& p)
{
    Topic t;
    t.pointer = p;
    if (!v.is_object()) {
        error("faq.schema", p, "expected a topic object");
        return t;
    }
    onlyKeys(v, p, {"id", "source", "also", "title", "symptom", "popularity", "keywords", "start", "nodes"});
    t.id = id(v, p, true);
    if (const json* s = field(v, p, "source", json::value_t::object, true))
        t.source = seed(*s, p + "/source");
    if (const json* a = field(v, p, "also", json::value_t::array, false)) {
        for (size_t i = 0; i < a->size(); ++i)
            t.also.push_back(seed((*a)[i], p + "/also/" + std::to_string(i)));
    }
    t.title = text(v, p, "title");
    t.symptom = text(v, p, "symptom");
    if (const json* pop = field(v, p, "popularity", json::value_t::number_integer, true)) {
        const int64_t value = pop->get<int64_t>();
        if (value < 1 || value > 10)
            error("faq.schema", p + "/popularity", "popularity must be 1..10");
        else
            t.popularity = static_cast<int>(value);
    }
    t.keywords = strings(v, p, "keywords");
    if (t.keywords.empty()) error("faq.schema", p + "/keywords", "at least one keyword is needed");
    t.start = string(v, p, "start");
    const json* nodes = field(v, p, "nodes", json::value_t::array, true);
    if (nodes && nodes->size() > kMaxNodesPerTopic) {
        error("faq.limit", p + "/nodes", "more than " + std::to_string(kMaxNodesPerTopic) + " nodes");
        return t;
    }
    for (size_t i = 0; nodes && i < nodes->size(); ++i)
        t.nodes.push_back(node((*nodes)[i], p + "/nodes/" + std::to_string(i)));
    return t;
}

}  // namespace

ParsedFile parseFaqFile(std::string_view bytes, const std::string& path, std::vector<Error>& errors)
{
    ParsedFile out;
    out.category.file = path;
    if (bytes.size() > kMaxFileBytes) {
        errors.push_back(
            makeError("faq.too_large", "file larger than " + std::to_string(kMaxFileBytes) + " bytes", path));
        return out;
    }
    if (jsonNestingDepth(bytes) > kMaxJsonDepth) {
        errors.push_back(makeError(
            "faq.too_deep", "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", path));
        return out;
    }
    json doc;
    try {
        doc = json::parse(bytes);
    } catch (const json::parse_error& e) {
        errors.push_back(makeError("faq.parse", std::string("invalid JSON: ") + e.what(), path, 0,
                                   static_cast<int64_t>(e.byte)));
        return out;
    }
    Reader r(path, errors);
    if (!doc.is_object()) {
        r.error("faq.schema", "", "expected a JSON object");
        return out;
    }
    r.onlyKeys(doc, "", {"schema", "category", "topics"});
    if (const json* s = r.field(doc, "", "schema", json::value_t::number_integer, true); s && *s != 1)
        r.error("faq.schema", "/schema", "unsupported schema " + s->dump() + " (want 1)");
    if (const json* c = r.field(doc, "", "category", json::value_t::object, true)) {
        r.onlyKeys(*c, "/category", {"id", "order", "title"});
        out.category.id = r.id(*c, "/category", true);
        out.category.title = r.text(*c, "/category", "title");
        if (const json* o = r.field(*c, "/category", "order", json::value_t::number_integer, true)) {
            out.category.order = static_cast<int>(std::clamp<int64_t>(o->get<int64_t>(), -1, 1000));
            const std::string name = std::filesystem::path(path).filename().string();
            const std::string prefix = name.substr(0, 2);
            if (out.category.order < 0 || out.category.order > 99 ||
                prefix != (out.category.order < 10 ? "0" : "") + std::to_string(out.category.order))
                r.error("faq.bad_order", "/category/order",
                        "order " + o->dump() + " does not match the file prefix '" + prefix + "'");
        }
    }
    const json* topics = r.field(doc, "", "topics", json::value_t::array, true);
    if (topics && topics->empty()) r.error("faq.schema", "/topics", "no topics");
    if (topics && topics->size() > kMaxTopicsPerFile) {
        r.error("faq.limit", "/topics", "more than " + std::to_string(kMaxTopicsPerFile) + " topics");
        return out;
    }
    for (size_t i = 0; topics && i < topics->size(); ++i) {
        Topic t = r.topic((*topics)[i], "/topics/" + std::to_string(i));
        t.categoryId = out.category.id;
        t.file = path;
        out.category.topicIds.push_back(t.id);
        out.topics.push_back(std::move(t));
    }
    return out;
}

}  // namespace qatdoctor::core::faq
