// Summary: the verdict sentence (core/rules, the same one the Overview page and CLI show) and
// the findings by severity, each with its evidence and the FAQ's advice.
#include <algorithm>

#include "core/common/finding_catalogue.h"
#include "core/faq/faq_base.h"
#include "core/report/report_sections.h"
#include "core/rules/verdict.h"

namespace qatdoctor::core::report::detail {
namespace {

constexpr size_t kMaxEvidencePerFinding = 8;
constexpr size_t kMaxAdvice = 4;

// The advice of the topic's result nodes, in tree order, without repeats: a finding points at a
// topic, not at one result, so the reader gets what the topic advises overall.
void addFaqAdvice(const BuildContext& c, const Finding& f, FindingItem& item)
{
    if (f.faq.empty() || !c.options.faq) return;
    const faq::Topic* topic = c.options.faq->topic(f.faq);
    if (!topic) return;
    item.faqTitle = topic->title.in(c.lang);
    for (const faq::Node& n : topic->nodes) {
        if (!n.isResult()) continue;
        for (const Text& a : n.advice) {
            const std::string& text = a.in(c.lang);
            if (text.empty() || std::find(item.advice.begin(), item.advice.end(), text) != item.advice.end())
                continue;
            item.advice.push_back(text);
            if (item.advice.size() >= kMaxAdvice) return;
        }
    }
}

}  // namespace

FindingItem findingItem(BuildContext& c, const Finding& f)
{
    FindingItem item;
    item.id = f.id;
    item.severity = severityName(f.severity);
    item.severityLabel = severityLabel(f.severity, c.lang);
    item.stage = stageLabel(f.stage, c.lang);
    item.title = f.title.in(c.lang);
    item.message = f.message.in(c.lang);
    if (f.strength) item.strength = strengthText(*f.strength, c.lang);
    item.standard = standardText(f, c.lang);
    if (f.recovered)
        item.recoveredNote = tr(c, "The data recovered by itself: listed, but not counted in the verdict.",
                                "数据已自行恢复：列出供参考，不计入结论。");
    for (size_t i = 0; i < f.evidence.size() && i < kMaxEvidencePerFinding; ++i)
        item.evidence.push_back(evidenceLine(f.evidence[i], c.lang));
    if (f.evidence.size() > kMaxEvidencePerFinding)
        item.evidence.push_back(tr(c, "... and ", "……以及另外 ") +
                                std::to_string(f.evidence.size() - kMaxEvidencePerFinding) +
                                tr(c, " more", " 条"));
    item.faqTopic = f.faq;
    if (!f.faq.empty()) c.faqTopics.insert(f.faq);
    addFaqAdvice(c, f, item);
    return item;
}

Section summarySection(BuildContext& c)
{
    Section s;
    const rules::Verdict verdict = verdictOf(c.analysis);
    s.blocks.push_back(heading(tr(c, "Verdict", "结论")));
    s.blocks.push_back(paragraph(verdict.text.in(c.lang)));
    if (!verdict.clear)
        s.blocks.push_back(keyValues(
            {{tr(c, "Stage where trouble starts", "问题起始阶段"), stageLabel(verdict.stage, c.lang)},
             {tr(c, "Named finding", "对应发现"), verdict.findingId}}));
    // the ladder is on the title page; without one, it opens the summary
    const bool titlePage = c.options.sections.empty() || c.options.sections.count("title");
    if (!c.analysis.ladder.empty() && !titlePage) s.blocks.push_back(ladderTable(c));

    size_t counts[3] = {0, 0, 0};
    for (const Finding& f : c.analysis.findings) ++counts[static_cast<int>(f.severity)];
    s.blocks.push_back(heading(tr(c, "Findings by severity", "按严重程度列出的发现")));
    s.blocks.push_back(keyValues(
        {{severityLabel(Severity::Error, c.lang), std::to_string(counts[2])},
         {severityLabel(Severity::Warning, c.lang), std::to_string(counts[1])},
         {severityLabel(Severity::Info, c.lang), std::to_string(counts[0])},
         {tr(c, "Checks that had data", "有数据可检查的项"), std::to_string(c.analysis.checksRun.size())},
         {tr(c, "Checks that could not run (Appendix)", "无法运行的检查（见附录）"),
          std::to_string(c.analysis.checksSkipped.size())}}));
    if (c.analysis.findings.empty()) {
        s.blocks.push_back(note(tr(c, "No findings: every check that had data passed.",
                                   "没有发现问题：所有有数据的检查均通过。")));
        return s;
    }
    for (Severity sev : {Severity::Error, Severity::Warning, Severity::Info}) {
        Block b;
        b.kind = BlockKind::Findings;
        for (const Finding& f : c.analysis.findings) {
            if (f.severity != sev) continue;
            FindingItem item = findingItem(c, f);
            b.findings.push_back(std::move(item));
        }
        if (b.findings.empty()) continue;
        s.blocks.push_back(
            heading(severityLabel(sev, c.lang) + " (" + std::to_string(b.findings.size()) + ")", 3));
        s.blocks.push_back(std::move(b));
    }
    return s;
}

}  // namespace qatdoctor::core::report::detail
