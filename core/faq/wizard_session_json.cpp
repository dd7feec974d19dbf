#include "core/faq/wizard_session_json.h"

#include <cmath>

#include "core/common/finding_json.h"

namespace qatdoctor::core::faq {

using nlohmann::json;

// Restores what the public API cannot replay: automatic steps with their evidence, overrides.
struct WizardSessionAccess {
    static void pushAutomatic(WizardSession& s, const PathStep& step, const std::string& next)
    {
        if (s.moveTo(next, step)) return;
    }
    static void setOverridden(WizardSession& s, std::set<std::string> keys)
    {
        s.m_overridden = std::move(keys);
    }
    static const std::set<std::string>& overridden(const WizardSession& s) { return s.m_overridden; }
};

namespace {

std::string str(const json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

json sessionToJson(const WizardSession& session, const FaqBase& base)
{
    json j{{"version", 1}, {"start", session.startTopicId()}};
    if (const Node* n = session.current()) {
        j["current"] = {{"topic", session.topic()->id},
                        {"node", n->id},
                        {"type", n->isResult() ? "result" : "question"},
                        {"title", textToJson(n->isResult() ? n->title : n->text)}};
    }
    j["overridden"] = WizardSessionAccess::overridden(session);
    json path = json::array();
    for (const PathStep& s : session.path()) {
        json js{{"topic", s.topic}, {"node", s.node}};
        const Node* n = base.node(s.topic, s.node);
        if (n) js["question"] = textToJson(n->isResult() ? n->title : n->text);
        if (!s.jumpTopic.empty()) {
            js["jump"] = s.jumpTopic;
            if (const Topic* t = base.topic(s.jumpTopic)) js["label"] = textToJson(t->title);
        } else {
            js["answer"] = s.answer;
            if (const Answer* a = n ? n->answer(s.answer) : nullptr) js["label"] = textToJson(a->label);
        }
        js["automatic"] = s.automatic;
        if (!s.check.empty()) js["check"] = s.check;
        js["outcome"] = autoOutcomeName(s.outcome);
        js["evidence"] = json::array();
        for (const Evidence& e : s.evidence) js["evidence"].push_back(evidenceToJson(e));
        if (!s.standards.empty()) {
            js["standards"] = json::array();
            for (const Text& t : s.standards) js["standards"].push_back(textToJson(t));
        }
        path.push_back(std::move(js));
    }
    j["path"] = std::move(path);
    return j;
}

Result<WizardSession> sessionFromJson(const json& j, const FaqBase* base)
{
    if (!j.is_object() || !j.contains("start") || !j["start"].is_string())
        return makeError("faq.session", "not a wizard session (no 'start' topic)");
    WizardSession s(base);
    if (Result<void> r = s.start(j["start"].get<std::string>()); !r) return r.error();
    // No json copies below (copying recurses per nesting level) and no json::value() with a
    // typed default (it throws on a value of another type): a session file is untrusted input.
    static const json kEmpty = json::array();
    const auto pathIt = j.find("path");
    const json& path = pathIt != j.end() && pathIt->is_array() ? *pathIt : kEmpty;
    for (const json& step : path) {
        if (!step.is_object()) break;
        const Node* here = s.current();
        // A step must start where the walk is; otherwise the FAQ changed under the session.
        if (!here || str(step, "topic") != s.topic()->id || str(step, "node") != here->id) break;
        if (!str(step, "jump").empty()) {
            if (!s.jumpTo(str(step, "jump"))) break;
            continue;
        }
        const Answer* a = here->isResult() ? nullptr : here->answer(str(step, "answer"));
        if (!a) break;
        const auto automatic = step.find("automatic");
        if (automatic != step.end() && automatic->is_boolean() && automatic->get<bool>()) {
            PathStep ps{s.topic()->id,
                        here->id,
                        a->id,
                        {},
                        true,
                        here->autoCheck,
                        parseAutoOutcome(str(step, "outcome")),
                        {},
                        {}};
            const auto evidence = step.find("evidence");
            if (evidence != step.end() && evidence->is_array())
                for (const json& e : *evidence) ps.evidence.push_back(evidenceFromJson(e));
            const auto standards = step.find("standards");
            if (standards != step.end() && standards->is_array())
                for (const json& t : *standards)
                    if (t.is_object()) ps.standards.push_back({str(t, "zh"), str(t, "en")});
            const size_t before = s.path().size();
            WizardSessionAccess::pushAutomatic(s, ps, a->next);
            if (s.path().size() == before) break;
        } else if (!s.answer(a->id)) {
            break;
        }
    }
    std::set<std::string> overridden;
    const auto over = j.find("overridden");
    for (const json& k : over != j.end() && over->is_array() ? *over : kEmpty)
        if (k.is_string()) overridden.insert(k.get<std::string>());
    WizardSessionAccess::setOverridden(s, std::move(overridden));
    return s;
}

}  // namespace qatdoctor::core::faq
