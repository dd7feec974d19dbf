#include "core/faq/faq_validator.h"

#include <functional>
#include <map>
#include <set>

#include "core/faq/check_ids.h"

namespace qatdoctor::core::faq {
namespace {

class Validator {
public:
    explicit Validator(const FaqBase& base) : m_base(base) {}

    std::vector<Error> run()
    {
        checkCategories();
        std::map<std::string, const Topic*> seen;
        for (const Topic& t : m_base.topics()) {
            if (t.id.empty()) continue;  // the parser already reported it
            auto [it, fresh] = seen.emplace(t.id, &t);
            if (!fresh)
                error("faq.duplicate_id", t, t.pointer + "/id",
                      "topic id '" + t.id + "' already used in " + it->second->file + " " +
                          it->second->pointer);
            checkTopic(t);
        }
        return std::move(m_errors);
    }

private:
    void error(const char* code, const Topic& t, const std::string& pointer, const std::string& what)
    {
        m_errors.push_back(makeError(code, pointer + ": " + what, t.file));
    }

    void checkCategories()
    {
        std::map<std::string, std::string> ids;
        std::map<int, std::string> orders;
        for (const Category& c : m_base.categories()) {
            if (!c.id.empty() && !ids.emplace(c.id, c.file).second)
                m_errors.push_back(makeError(
                    "faq.duplicate_id",
                    "/category/id: category id '" + c.id + "' already used in " + ids[c.id], c.file));
            if (!orders.emplace(c.order, c.file).second)
                m_errors.push_back(makeError("faq.duplicate_id",
                                             "/category/order: order " + std::to_string(c.order) +
                                                 " already used in " + orders[c.order],
                                             c.file));
        }
    }

    bool topicExists(const std::string& id) const { return m_base.topic(id) != nullptr; }

    void checkTopic(const Topic& t)
    {
        std::map<std::string, const Node*> nodes;
        for (const Node& n : t.nodes) {
            if (n.id.empty()) continue;
            if (!nodes.emplace(n.id, &n).second)
                error("faq.duplicate_id", t, n.pointer + "/id",
                      "node id '" + n.id + "' used twice in topic '" + t.id + "'");
        }
        for (const Node& n : t.nodes) {
            if (n.isResult())
                checkResult(t, n);
            else
                checkQuestion(t, n, nodes);
        }
        auto start = nodes.find(t.start);
        if (start == nodes.end()) {
            if (!t.start.empty())
                error("faq.dangling", t, t.pointer + "/start", "unknown node '" + t.start + "'");
            return;
        }
        checkGraph(t, *start->second, nodes);
    }

    void checkQuestion(const Topic& t, const Node& n, const std::map<std::string, const Node*>& nodes)
    {
        std::set<std::string> answerIds;
        int found = 0, clear = 0;
        for (size_t i = 0; i < n.answers.size(); ++i) {
            const Answer& a = n.answers[i];
            const std::string ap = n.pointer + "/answers/" + std::to_string(i);
            if (!a.id.empty() && !answerIds.insert(a.id).second)
                error("faq.duplicate_id", t, ap + "/id",
                      "answer id '" + a.id + "' used twice in question '" + n.id + "'");
            found += a.autoMark == AutoMark::Found;
            clear += a.autoMark == AutoMark::Clear;
            if (a.next.empty()) continue;
            if (a.jumpsToTopic()) {
                if (!topicExists(a.targetTopic()))
                    error("faq.dangling", t, ap + "/next", "unknown topic '" + a.targetTopic() + "'");
            } else if (!nodes.count(a.next)) {
                error("faq.dangling", t, ap + "/next", "unknown node '" + a.next + "'");
            }
        }
        if (!n.autoCheck.empty()) {
            if (!isKnownCheckId(n.autoCheck))
                error("faq.unknown_check", t, n.pointer + "/auto", "unknown check id '" + n.autoCheck + "'");
            if (found != 1 || clear != 1)
                error("faq.auto_answers", t, n.pointer + "/answers",
                      "an auto question needs exactly one 'found' and one 'clear' answer (has " +
                          std::to_string(found) + " found, " + std::to_string(clear) + " clear)");
        } else if (found + clear > 0) {
            error("faq.auto_answers", t, n.pointer + "/answers",
                  "answers carry auto marks but the question has no 'auto' check");
        }
    }

    void checkResult(const Topic& t, const Node& n)
    {
        if (n.advice.empty()) error("faq.no_advice", t, n.pointer, "result '" + n.id + "' has no advice");
        for (size_t i = 0; i < n.related.size(); ++i)
            if (!topicExists(n.related[i]))
                error("faq.dangling", t, n.pointer + "/related/" + std::to_string(i),
                      "unknown topic '" + n.related[i] + "'");
        for (size_t i = 0; i < n.references.size(); ++i) {
            const std::string& topic = n.references[i].topic;
            if (!topic.empty() && !topicExists(topic))
                error("faq.dangling", t, n.pointer + "/references/" + std::to_string(i) + "/topic",
                      "unknown topic '" + topic + "'");
        }
    }

    // Depth-first from start: marks reachable nodes and reports the first edge closing a cycle.
    void checkGraph(const Topic& t, const Node& start, const std::map<std::string, const Node*>& nodes)
    {
        std::map<std::string, int> state;  // 1 = on the current path, 2 = done
        std::function<void(const Node&)> visit = [&](const Node& n) {
            state[n.id] = 1;
            for (size_t i = 0; i < n.answers.size(); ++i) {
                const Answer& a = n.answers[i];
                auto next = nodes.find(a.next);
                if (a.jumpsToTopic() || next == nodes.end()) continue;
                const int s = state[a.next];
                if (s == 1)
                    error("faq.cycle", t, n.pointer + "/answers/" + std::to_string(i) + "/next",
                          "answer leads back to '" + a.next + "' (trees must be acyclic)");
                else if (s == 0)
                    visit(*next->second);
            }
            state[n.id] = 2;
        };
        visit(start);  // depth is bounded by kMaxNodesPerTopic
        for (const Node& n : t.nodes)
            if (!n.id.empty() && state[n.id] == 0)
                error("faq.unreachable", t, n.pointer,
                      "node '" + n.id + "' is not reachable from start '" + t.start + "'");
    }

    const FaqBase& m_base;
    std::vector<Error> m_errors;
};

}  // namespace

std::vector<Error> validateFaq(const FaqBase& base)
{
    return Validator(base).run();
}

}  // namespace qatdoctor::core::faq
