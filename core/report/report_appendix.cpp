// Appendix: the FAQ topics the report refers to, the thresholds the training rules used, the
// checks that had data, and every warning met while reading the inputs.
#include "core/common/file_io.h"
#include "core/faq/faq_base.h"
#include "core/report/report_sections.h"
#include "core/rules/thresholds.h"

namespace qatdoctor::core::report::detail {
namespace {

std::vector<Warning> allWarnings(const Analysis& a)
{
    std::vector<Warning> w = a.logs.warnings;
    w.insert(w.end(), a.warnings.begin(), a.warnings.end());
    for (const model::LayerTable& m : a.models) w.insert(w.end(), m.warnings.begin(), m.warnings.end());
    return w;
}

void addTopics(BuildContext& c, Section& s)
{
    s.blocks.push_back(heading(tr(c, "FAQ topics referenced", "引用的 FAQ 主题")));
    if (c.faqTopics.empty()) {
        s.blocks.push_back(note(tr(c, "None.", "无。")));
        return;
    }
    TableBlock t;
    t.columns = {tr(c, "Topic", "主题"), tr(c, "Title", "标题"), tr(c, "Symptom", "症状")};
    for (const std::string& id : c.faqTopics) {
        const faq::Topic* topic = c.options.faq ? c.options.faq->topic(id) : nullptr;
        t.rows.push_back({id, topic ? topic->title.in(c.lang) : "", topic ? topic->symptom.in(c.lang) : ""});
    }
    s.blocks.push_back(table(std::move(t)));
}

void addThresholds(BuildContext& c, Section& s)
{
    s.blocks.push_back(heading(tr(c, "Thresholds used", "使用的阈值")));
    std::string json(rules::defaultThresholdsJson());
    std::string source =
        tr(c, "built-in defaults (resources/thresholds.json)", "内置默认值（resources/thresholds.json）");
    if (!c.analysis.thresholdsPath.empty()) {
        // The override file replaces a subset; show the effective values key by key.
        Result<std::string> bytes = readFile(c.analysis.thresholdsPath, 1 << 20);
        if (bytes)
            source = c.analysis.thresholdsPath + tr(c, " over the built-in defaults", "（覆盖内置默认值）");
        else
            c.notes.push_back(bytes.error().toString());
        Result<std::vector<rules::ThresholdInfo>> over =
            bytes ? rules::describeThresholds(*bytes) : bytes.error();
        Result<std::vector<rules::ThresholdInfo>> base = rules::describeThresholds();
        if (over && base) {
            TableBlock t;
            t.columns = {tr(c, "Key", "键"), tr(c, "Value", "值"), tr(c, "Reason", "理由")};
            for (const rules::ThresholdInfo& b : base.value()) {
                const rules::ThresholdInfo* o = nullptr;
                for (const rules::ThresholdInfo& x : over.value())
                    if (x.key == b.key) o = &x;
                t.rows.push_back({b.key, fullNumber(o ? o->value : b.value),
                                  (o && !o->reason.en.empty() ? o->reason : b.reason).in(c.lang)});
                t.highlighted.push_back(o != nullptr);
            }
            s.blocks.push_back(keyValues({{tr(c, "Source", "来源"), source}}));
            s.blocks.push_back(table(std::move(t)));
            return;
        }
    }
    Result<std::vector<rules::ThresholdInfo>> info = rules::describeThresholds();
    s.blocks.push_back(keyValues({{tr(c, "Source", "来源"), source}}));
    if (!info) {
        s.blocks.push_back(note(info.error().toString()));
        return;
    }
    TableBlock t;
    t.columns = {tr(c, "Key", "键"), tr(c, "Value", "值"), tr(c, "Reason", "理由")};
    for (const rules::ThresholdInfo& i : info.value())
        t.rows.push_back({i.key, fullNumber(i.value), i.reason.in(c.lang)});
    s.blocks.push_back(table(std::move(t)));
}

}  // namespace

Section appendixSection(BuildContext& c)
{
    Section s;
    addTopics(c, s);
    addThresholds(c, s);

    s.blocks.push_back(heading(tr(c, "Checks that had data", "有数据可检查的项")));
    std::string checks;
    for (const std::string& id : c.analysis.checksRun) checks += (checks.empty() ? "" : ", ") + id;
    s.blocks.push_back(paragraph(checks.empty() ? tr(c, "None.", "无。") : checks));

    // unknown, not clear: a reader of the report must not take a missing check for a passed one
    if (!c.analysis.checksSkipped.empty()) {
        s.blocks.push_back(heading(tr(c, "Checks that could not run", "无法运行的检查")));
        TableBlock t;
        t.columns = {tr(c, "Check", "检查"), tr(c, "What it needed", "所需数据")};
        for (const Analysis::SkippedCheck& k : c.analysis.checksSkipped) {
            std::string why = k.reason.in(c.lang);
            for (const Evidence& e : k.evidence) why += "\n" + evidenceLine(e, c.lang);
            t.rows.push_back({k.id, why});
        }
        s.blocks.push_back(table(std::move(t)));
    }

    s.blocks.push_back(heading(tr(c, "Warnings met while reading files", "读取文件时遇到的警告")));
    const std::vector<Warning> warnings = allWarnings(c.analysis);
    if (warnings.empty() && c.notes.empty()) {
        s.blocks.push_back(note(tr(c, "None.", "无。")));
        return s;
    }
    TableBlock t;
    t.columns = {tr(c, "Code", "代码"), tr(c, "Place and message", "位置与说明")};
    for (const Warning& w : warnings) t.rows.push_back({w.code, w.toString()});
    for (const std::string& n : c.notes) t.rows.push_back({"report", n});
    s.blocks.push_back(table(std::move(t)));
    return s;
}

}  // namespace qatdoctor::core::report::detail
