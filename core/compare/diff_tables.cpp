#include "core/compare/diff_tables.h"

#include <algorithm>

#include "core/common/number_text.h"

namespace qatdoctor::core::compare {
namespace {

std::string orDash(const std::string& s)
{
    return s.empty() ? "-" : s;
}

std::string numberOrDash(const std::optional<double>& v)
{
    return v ? fullNumber(*v) : "-";
}

std::string arrow(const std::string& a, const std::string& b)
{
    return a == b ? orDash(b) : orDash(a) + " → " + orDash(b);
}

std::string severityText(Severity s, Lang lang)
{
    static const Text kTexts[] = {{"提示", "info"}, {"警告", "warning"}, {"错误", "error"}};
    return kTexts[static_cast<size_t>(s)].in(lang);
}

}  // namespace

size_t DiffTable::changedCount() const
{
    return static_cast<size_t>(std::count(changed.begin(), changed.end(), true));
}

DiffTable layerDiffTable(const LayerTableDiff& d, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    DiffTable t;
    t.title = (zh ? "层：" : "Layers: ") + d.pathA + " → " + d.pathB;
    t.caption =
        zh ? std::to_string(d.rows.size()) + " 行中 " + std::to_string(d.changedRows()) + " 行的配置有变化"
           : std::to_string(d.changedRows()) + " of " + std::to_string(d.rows.size()) +
                 " rows changed configuration";
    t.columns = {"A",
                 "B",
                 "op",
                 zh ? "A dtype（权重 / 输出）" : "A dtype (weight / output)",
                 zh ? "B dtype（权重 / 输出）" : "B dtype (weight / output)",
                 zh ? "变化" : "change",
                 zh ? "具体变化" : "what changed"};
    for (const LayerChange& r : d.rows) {
        t.rows.push_back({orDash(r.nameA), orDash(r.nameB), r.op, orDash(r.dtypesA), orDash(r.dtypesB),
                          rowChangeText(r.kind).in(lang), fieldsText(r, lang)});
        t.kinds.push_back(r.kind);
        t.changed.push_back(isConfigurationChange(r.kind));
        t.worse.push_back(r.kind == RowChange::Removed);
    }
    return t;
}

DiffTable dataTableDiffTable(const DataTableDiff& d, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    DiffTable t;
    t.title = d.kind + ": " + d.pathA + " → " + d.pathB;
    if (!d.metric.empty())
        t.caption = d.metric +
                    (d.higherIsBetter ? (zh ? "，越高越好" : ", higher is better")
                                      : (zh ? "，越低越好" : ", lower is better")) +
                    (d.ranked ? (zh ? "；排名 1 = 最敏感" : "; rank 1 = most sensitive") : "");
    const bool metric = !d.metric.empty();  // tables without one (statistics): their cells tell
    t.columns = {zh ? "层" : "layer"};
    if (metric) {
        t.columns.push_back("A " + d.metric);
        t.columns.push_back("B " + d.metric);
    }
    t.columns.push_back(zh ? "变化" : "moved");
    if (d.ranked) t.columns.push_back(zh ? "排名" : "rank");
    t.columns.push_back("dtype");
    t.columns.push_back(zh ? "其他不同的列" : "other cells that differ");
    for (const TableRowChange& r : d.rows) {
        const bool both = r.rowA >= 0 && r.rowB >= 0;
        std::vector<std::string> cells = {r.layer + (r.part.empty() ? "" : " " + r.part)};
        if (metric) {
            cells.push_back(numberOrDash(r.before));
            cells.push_back(numberOrDash(r.after));
        }
        cells.push_back(both && metric ? movementText(r.movement).in(lang) : rowChangeText(r.kind).in(lang));
        if (d.ranked)
            cells.push_back(
                arrow(r.rankA ? std::to_string(r.rankA) : "", r.rankB ? std::to_string(r.rankB) : ""));
        cells.push_back(arrow(r.dtypeA, r.dtypeB));
        std::string others;
        for (const FieldChange& f : r.cells)
            others += (others.empty() ? "" : "; ") + f.field + " " + f.before + " → " + f.after;
        cells.push_back(orDash(others));
        t.rows.push_back(std::move(cells));
        t.kinds.push_back(r.kind);
        const bool moved = r.movement == Movement::Better || r.movement == Movement::Worse;
        t.changed.push_back(!both || moved || r.kind == RowChange::Changed ||
                            (!metric && r.kind == RowChange::Retuned));
        t.worse.push_back(r.movement == Movement::Worse);
    }
    return t;
}

DiffTable findingsDiffTable(const Comparison& c, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    DiffTable t;
    t.title = zh ? "已解决与新出现的问题" : "Findings resolved and new";
    t.columns = {zh ? "变化" : "change", zh ? "严重程度" : "severity", "id", zh ? "标题" : "title"};
    for (FindingChangeKind kind :
         {FindingChangeKind::New, FindingChangeKind::Resolved, FindingChangeKind::Persisting})
        for (const FindingChange& f : c.findings) {
            if (f.kind != kind) continue;
            t.rows.push_back({findingChangeText(kind).in(lang), severityText(f.finding.severity, lang),
                              f.finding.id, f.finding.title.in(lang)});
            t.kinds.push_back(kind == FindingChangeKind::New        ? RowChange::Added
                              : kind == FindingChangeKind::Resolved ? RowChange::Removed
                                                                    : RowChange::Same);
            t.changed.push_back(kind != FindingChangeKind::Persisting);
            t.worse.push_back(kind == FindingChangeKind::New);
        }
    return t;
}

DiffTable runsDiffTable(const Comparison& c, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    DiffTable t;
    t.title = zh ? "训练运行：每个阶段 A 与 B 的最后一次运行" : "Runs: each stage's last run in A and in B";
    t.columns = {zh ? "阶段" : "stage", zh ? "运行" : "runs", zh ? "精度" : "accuracy", zh ? "损失" : "loss"};
    const auto pct = [](const std::optional<double>& v) { return v ? percentText(*v) : std::string("-"); };
    for (const RunChange& r : c.runs) {
        t.rows.push_back(
            {r.role, r.runA + " → " + r.runB,
             r.accuracyA || r.accuracyB ? r.accuracyMetric + " " + pct(r.accuracyA) + " → " + pct(r.accuracyB)
                                        : "-",
             r.lossA || r.lossB ? r.lossMetric + " " + numberOrDash(r.lossA) + " → " + numberOrDash(r.lossB)
                                : "-"});
        const bool fell = r.accuracyA && r.accuracyB && *r.accuracyB < *r.accuracyA;
        t.kinds.push_back(RowChange::Retuned);
        t.changed.push_back(true);
        t.worse.push_back(fell);
    }
    return t;
}

}  // namespace qatdoctor::core::compare
