// What changed: the comparison of an earlier attempt (A) with this one (B), when the report was
// asked for with one (`diff A B --report`, the GUI's Compare with…): the summary sentence, whether
// each change took effect, the layers whose configuration changed, the debug tables' movement,
// the findings resolved and new, the runs' final figures.
#include <set>

#include "core/compare/diff_tables.h"
#include "core/report/report_sections.h"

namespace qatdoctor::core::report::detail {
namespace {

namespace cmp = compare;

constexpr size_t kMaxRows = 200;

// A diff's changed rows (configuration changes; rows whose metric moved), regressions highlighted.
void addDiffTable(BuildContext& c, Section& s, const cmp::DiffTable& diff, const std::string& nothingChanged)
{
    s.blocks.push_back(heading(diff.title, 3));
    TableBlock t;
    t.caption = diff.caption;
    t.columns = diff.columns;
    size_t total = 0;
    for (size_t r = 0; r < diff.rows.size(); ++r) {
        if (!diff.changed[r]) continue;
        if (++total > kMaxRows) continue;
        t.rows.push_back(diff.rows[r]);
        t.highlighted.push_back(diff.worse[r]);
    }
    if (t.rows.empty()) {
        s.blocks.push_back(paragraph(nothingChanged));
        return;
    }
    s.blocks.push_back(table(std::move(t)));
    if (total > kMaxRows)
        s.blocks.push_back(note(tr(c, "Only the first ", "仅列出前 ") + std::to_string(kMaxRows) +
                                tr(c, " of ", " 行，共 ") + std::to_string(total) +
                                tr(c, " rows are shown.", " 行。")));
}

}  // namespace

Section changesSection(BuildContext& c)
{
    Section s;
    const cmp::Comparison& cmpResult = *c.options.comparison;
    s.blocks.push_back(keyValues({{tr(c, "A (before)", "A（修改前）"), cmpResult.nameA},
                                  {tr(c, "B (after)", "B（修改后）"), cmpResult.nameB}}));
    s.blocks.push_back(paragraph(cmp::comparisonSummary(cmpResult, c.lang)));
    s.blocks.push_back(heading(tr(c, "Did the changes take effect", "修改是否生效")));
    if (cmpResult.answers.empty()) {
        s.blocks.push_back(
            paragraph(tr(c, "No configuration change the comparison can judge.", "没有可判断的配置修改。")));
    } else {
        Block b;
        b.kind = BlockKind::Findings;
        std::set<std::string> advised;  // a topic's advice once: several answers share one topic
        for (const Finding& f : cmpResult.answers) {
            FindingItem item = findingItem(c, f);
            if (!advised.insert(f.faq).second) item.advice.clear();
            b.findings.push_back(std::move(item));
        }
        s.blocks.push_back(std::move(b));
    }
    s.blocks.push_back(heading(tr(c, "What changed", "具体变化")));
    const std::string noLayer = tr(c, "No layer changed configuration.", "没有层的配置发生变化。");
    for (const cmp::LayerTableDiff& d : cmpResult.models)
        addDiffTable(c, s, cmp::layerDiffTable(d, c.lang), noLayer);
    for (const cmp::LayerTableDiff& d : cmpResult.checkpoints)
        addDiffTable(c, s, cmp::layerDiffTable(d, c.lang), noLayer);
    for (const cmp::DataTableDiff& d : cmpResult.tables)
        addDiffTable(c, s, cmp::dataTableDiffTable(d, c.lang), tr(c, "No row moved.", "没有行发生变化。"));
    addDiffTable(c, s, cmp::findingsDiffTable(cmpResult, c.lang),
                 tr(c, "No finding was resolved or is new.", "没有问题被解决，也没有新问题。"));
    if (!cmpResult.runs.empty()) addDiffTable(c, s, cmp::runsDiffTable(cmpResult, c.lang), "");
    return s;
}

}  // namespace qatdoctor::core::report::detail
