// Symptom wizard: the walks the user took (from the wizard page's state), every answer with how
// it was given (by hand, or by the data with its evidence), and the advice and code reached.
#include <nlohmann/json.hpp>

#include "core/common/finding_json.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session_json.h"
#include "core/report/report_sections.h"

namespace qatdoctor::core::report::detail {
namespace {

using nlohmann::json;

std::string textOf(const json& j, Lang lang)
{
    if (j.is_string()) return j.get<std::string>();
    if (!j.is_object()) return {};
    const char* want = lang == Lang::Zh ? "zh" : "en";
    const char* other = lang == Lang::Zh ? "en" : "zh";
    if (j.contains(want) && j[want].is_string() && !j[want].get<std::string>().empty()) return j[want];
    if (j.contains(other) && j[other].is_string()) return j[other];
    return {};
}

std::string str(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

void bullets(Section& s, const std::string& title, const json& texts, Lang lang)
{
    if (!texts.is_array() || texts.empty()) return;
    s.blocks.push_back(heading(title, 3));
    for (const json& t : texts) s.blocks.push_back(paragraph("\u2022 " + textOf(t, lang)));
}

void bullets(Section& s, const std::string& title, const std::vector<Text>& texts, Lang lang)
{
    json a = json::array();
    for (const Text& t : texts) a.push_back(json{{"zh", t.zh}, {"en", t.en}});
    bullets(s, title, a, lang);
}

// One walk: the path table, then the result it reached. item = a reportItems entry (may be null).
void addWalk(BuildContext& c, Section& s, const json& sessionIn, const json* item)
{
    const json session = sessionIn.is_object() ? sessionIn : json::object();
    const faq::FaqBase* base = c.options.faq;
    const std::string start = str(session, "start");
    const json current = session.value("current", json::object());
    const std::string topicId = item ? str(*item, "topic") : str(current, "topic");
    const faq::Topic* topic = base ? base->topic(topicId.empty() ? start : topicId) : nullptr;
    std::string title = item ? textOf(item->value("topicTitle", json()), c.lang) : std::string();
    if (title.empty() && topic) title = topic->title.in(c.lang);
    if (title.empty()) title = start;
    s.blocks.push_back(heading(title + " (" + (topicId.empty() ? start : topicId) + ")"));
    if (!start.empty()) c.faqTopics.insert(start);
    if (!topicId.empty()) c.faqTopics.insert(topicId);

    TableBlock t;
    t.caption = tr(c, "Path taken", "作答路径");
    t.columns = {"#", tr(c, "Question", "问题"), tr(c, "Answer", "回答"), tr(c, "How", "方式"),
                 tr(c, "Evidence", "证据")};
    const json path = session.value("path", json::array());
    int n = 0;
    for (const json& step : path) {
        if (!step.is_object()) continue;
        ++n;
        const bool jump = step.contains("jump");
        std::string answer = textOf(step.value("label", json()), c.lang);
        if (jump) {
            answer = tr(c, "opened topic ", "转到主题 ") + str(step, "jump") +
                     (answer.empty() ? "" : ": " + answer);
            c.faqTopics.insert(str(step, "jump"));
        }
        const bool automatic = step.value("automatic", false);
        std::string how = automatic ? tr(c, "automatic (", "自动（") + str(step, "outcome") + tr(c, ")", "）")
                                    : tr(c, "by hand", "手动");
        std::string evidence;
        for (const json& e : step.value("evidence", json::array())) {
            if (!evidence.empty()) evidence += "; ";
            evidence += evidenceLine(evidenceFromJson(e), c.lang);
        }
        t.rows.push_back(
            {std::to_string(n), textOf(step.value("question", json()), c.lang), answer, how, evidence});
        t.highlighted.push_back(automatic && str(step, "outcome") == "found");
    }
    if (!t.rows.empty()) s.blocks.push_back(table(std::move(t)));

    // The result: the report item's copy, else the FAQ node the walk ended on.
    const std::string nodeId = item ? str(*item, "node") : str(current, "node");
    const faq::Node* node = topic ? topic->node(nodeId) : nullptr;
    const bool atResult = item || str(current, "type") == "result";
    if (!atResult) {
        s.blocks.push_back(note(tr(c, "The walk stopped at a question: ", "向导停在问题：") +
                                textOf(current.value("title", json()), c.lang)));
        return;
    }
    std::string resultTitle =
        item ? textOf(item->value("title", json()), c.lang) : textOf(current.value("title", json()), c.lang);
    s.blocks.push_back(keyValues({{tr(c, "Result", "结论"), resultTitle}}));
    if (item) {
        bullets(s, tr(c, "Possible causes", "可能原因"), item->value("causes", json()), c.lang);
        bullets(s, tr(c, "Check first", "优先排查"), item->value("checks", json()), c.lang);
        bullets(s, tr(c, "Advice", "处理建议"), item->value("advice", json()), c.lang);
    } else if (node) {
        bullets(s, tr(c, "Possible causes", "可能原因"), node->causes, c.lang);
        bullets(s, tr(c, "Check first", "优先排查"), node->checks, c.lang);
        bullets(s, tr(c, "Advice", "处理建议"), node->advice, c.lang);
    }
    if (node)
        for (const faq::CodeBlock& cb : node->code) {
            if (!cb.title.in(c.lang).empty()) s.blocks.push_back(heading(cb.title.in(c.lang), 3));
            s.blocks.push_back(code(cb.text, cb.language));
        }
}

Section wizardSectionUnchecked(BuildContext& c)
{
    Section s;
    const json state =
        c.options.wizardJson.empty() ? json() : json::parse(c.options.wizardJson, nullptr, false);
    if (!state.is_object()) {
        s.blocks.push_back(
            note(c.options.wizardJson.empty()
                     ? tr(c, "The symptom wizard was not used for this report.", "本报告未使用症状向导。")
                     : tr(c, "The wizard state could not be read (not a JSON object).",
                          "无法读取向导状态（不是 JSON 对象）。")));
        return s;
    }
    size_t walks = 0;
    const json items = state.value("reportItems", json::array());
    for (const json& item : items) {
        if (!item.is_object()) continue;
        addWalk(c, s, item.value("session", json::object()), &item);
        ++walks;
    }
    // The wizard page's state: the report holds what the user added ("Add to report"), never a
    // walk that was only on screen (half done, or an old project's). A bare walk given on its own
    // (the CLI's --wizard with a walk file) is the user's choice and is reported.
    const bool pageState = state.contains("reportItems");
    json session = state.contains("session") ? state["session"] : (state.contains("path") ? state : json());
    if (session.is_object() && !session.value("path", json::array()).empty()) {
        const json cur = session.value("current", json::object());
        bool listed = false;
        for (const json& item : items)
            listed =
                listed || (str(item, "topic") == str(cur, "topic") && str(item, "node") == str(cur, "node"));
        if (!pageState) {
            addWalk(c, s, session, nullptr);
            ++walks;
        } else if (!listed && walks > 0) {
            s.blocks.push_back(note(tr(c, "The walk on screen when the report was made was not added to it.",
                                       "生成报告时屏幕上的向导路径未加入报告。")));
        }
    }
    if (walks == 0)
        s.blocks.push_back(
            note(tr(c, "The symptom wizard was not used for this report.", "本报告未使用症状向导。")));
    return s;
}

}  // namespace

Section wizardSection(BuildContext& c)
{
    // A hand-edited session file may hold wrong types; nlohmann reports them by exception, which
    // must not cross the core API.
    try {
        return wizardSectionUnchecked(c);
    } catch (const nlohmann::json::exception& e) {
        Section s;
        s.blocks.push_back(
            note(tr(c, "The wizard state could not be read: ", "无法读取向导状态：") + e.what()));
        return s;
    }
}

}  // namespace qatdoctor::core::report::detail
