// Fixed-point: when a simulation was run (Analysis::simulation), its overview, the per-layer
// agreement chart with the first bad layer marked, the per-layer table, the look-up table
// errors and the what-if / int16 sensitivity results; the simulator's findings in any case.
#include <cmath>
#include <cstdio>
#include <map>

#include "core/fixedpoint/mode_pair.h"
#include "core/report/report_sections.h"

namespace qatdoctor::core::report::detail {
namespace {

using fixedpoint::Agreement;
using fixedpoint::ModePair;
using fixedpoint::ModePairInfo;
using fixedpoint::modePairInfo;
using fixedpoint::modePairKey;
using fixedpoint::SimulationSummary;

// SQNR of identical tensors is infinite; the chart draws it at this ceiling (as the page does).
constexpr double kSqnrCeilingDb = 80.0;
// Past this many layers the chart's x axis is numbered (matching the table's #) instead of named.
constexpr size_t kMaxNamedTicks = 40;

void addFindingsTable(BuildContext& c, Section& s)
{
    TableBlock t;
    t.caption = tr(c, "Fixed-point findings", "定点仿真发现");
    t.columns = {"id", tr(c, "Severity", "严重程度"), tr(c, "Title", "标题"), tr(c, "Layer", "层")};
    for (const Finding& f : c.analysis.findings) {
        if (f.id.rfind("simulation.", 0) != 0 && f.id.rfind("fixedpoint.", 0) != 0) continue;
        std::string layers;
        for (const Evidence& e : f.evidence)
            if (!e.layer.empty()) layers += (layers.empty() ? "" : ", ") + e.layer;
        t.rows.push_back({f.id, severityLabel(f.severity, c.lang), f.title.in(c.lang), layers});
        t.highlighted.push_back(f.severity != Severity::Info);
    }
    if (!t.rows.empty()) s.blocks.push_back(table(std::move(t)));
}

void addOverview(BuildContext& c, Section& s, const SimulationSummary& sim)
{
    // "float 12.3 ms" / "浮点 12.3 ms": the simulation's mode names in the report's language
    static const std::map<std::string, std::pair<std::string, std::string>> kModeNames = {
        {"float", {"float", "浮点"}}, {"fake", {"fake-quant", "伪量化"}}, {"int", {"integer", "整数"}}};
    std::vector<std::string> timing;
    for (const auto& [mode, ms] : sim.timingMs) {
        const auto name = kModeNames.find(mode);
        const std::string label =
            name == kModeNames.end() ? mode : tr(c, name->second.first, name->second.second);
        timing.push_back(label + " " + fixedText(ms, 1) + " ms");
    }
    std::vector<std::pair<std::string, std::string>> kv = {
        {tr(c, "Model", "模型"), sim.modelPath},
        {tr(c, "Input", "输入"), joined(sim.inputs)},
        {tr(c, "Modes", "模式"), joined(sim.modes)},
        {tr(c, "Requantization", "重量化方式"),
         sim.requant == "fixed" ? tr(c, "integer multiplier + shift", "整数乘法 + 移位")
                                : tr(c, "float multiply (reference runtimes)", "浮点乘法（参考运行时）")},
        {tr(c, "Timing", "耗时"), joined(timing, tr(c, ", ", "，").c_str()) + tr(c, " (", "（") +
                                      std::to_string(sim.threads) + tr(c, " thread(s))", " 线程）")}};
    const std::string limits = tr(c, " (agreement breaks below cosine ", "（一致性阈值：余弦 ") +
                               fixedText(sim.thresholds.minCosine, 3) + tr(c, " or SQNR ", "，SQNR ") +
                               fixedText(sim.thresholds.minSqnrDb, 0) + tr(c, " dB)", " dB）");
    kv.emplace_back(tr(c, "First bad layer, fake-quant vs integer", "首个不一致层（伪量化 vs 整数）"),
                    (sim.firstBadLayer.empty() ? tr(c, "none: they agree on every layer", "无：逐层一致")
                                               : sim.firstBadLayer) +
                        limits);
    kv.emplace_back(tr(c, "First bad layer, float vs fake-quant", "首个不一致层（浮点 vs 伪量化）"),
                    sim.firstBadLayerFloat.empty() ? tr(c, "none", "无") : sim.firstBadLayerFloat);
    if (auto sq = sim.outputSqnrDb())  // the first graph output's, named when there are several
        kv.emplace_back(tr(c, "Output SQNR, integer vs float", "输出 SQNR（整数 vs 浮点）"),
                        fixedText(*sq, 2) + " dB" +
                            (sim.outputNames.size() > 1 ? " (" + sim.outputNames.front() + ")" : ""));
    if (sim.requantDiffLsb)
        kv.emplace_back(tr(c, "Float vs fixed-point requantization", "浮点与定点重量化之差"),
                        fixedText(*sim.requantDiffLsb, 2) + tr(c, " LSB at the output", " LSB（输出处）") +
                            (sim.requantDiffLayer.empty()
                                 ? ""
                                 : tr(c, "; first layer where they differ: ", "；两者首次不同的层：") +
                                       sim.requantDiffLayer));
    if (!sim.fallbacks.empty())
        kv.emplace_back(tr(c, "Computed in float in the integer mode", "整数模式中以浮点计算"),
                        joined(sim.fallbacks));
    s.blocks.push_back(keyValues(std::move(kv)));
}

// SQNR per layer for each pair of modes; the first bad layer marked.
void addChart(BuildContext& c, Section& s, const SimulationSummary& sim)
{
    PlotBlock p;
    p.title = tr(c, "Per-layer agreement (SQNR)", "逐层一致性（SQNR）");
    p.xLabel = sim.layers.size() <= kMaxNamedTicks
                   ? tr(c, "Layer (execution order)", "层（执行顺序）")
                   : tr(c, "Layer # (execution order, as in the table)", "层序号（执行顺序，同下表）");
    p.yLabel = "SQNR (dB)";
    p.nonFiniteLabel = tr(c, "NaN", "NaN");
    // Drawn in this order so that fake vs int (the deployment question) is on top, and float vs
    // fake stays visible where it equals float vs int (fake and int agree).
    bool capped = false;
    for (const ModePair pair : {ModePair::FloatInt, ModePair::FloatFake, ModePair::FakeInt}) {
        const ModePairInfo& info = modePairInfo(pair);
        PlotSeries series;
        series.name = info.label.in(c.lang);
        char colour[8];
        std::snprintf(colour, sizeof colour, "#%06x", static_cast<unsigned>(info.rgb));
        series.color = colour;
        for (size_t i = 0; i < sim.layers.size(); ++i) {
            const Agreement* a = sim.layers[i].pair(info.key);
            if (!a) continue;
            double y = a->sqnrDb;
            if (y > kSqnrCeilingDb) {  // also +inf
                y = kSqnrCeilingDb;
                capped = true;
            }
            series.x.push_back(double(i + 1));
            series.y.push_back(y);
        }
        if (series.x.empty()) continue;
        markNonFinite(series);
        p.series.push_back(std::move(series));
    }
    if (p.series.empty()) return;
    p.references.push_back({sim.thresholds.minSqnrDb,
                            tr(c, "threshold ", "阈值 ") + fixedText(sim.thresholds.minSqnrDb, 0) + " dB"});
    for (size_t i = 0; i < sim.layers.size(); ++i) {
        if (sim.layers.size() <= kMaxNamedTicks) p.xTicks.emplace_back(double(i + 1), sim.layers[i].layer);
        if (!sim.firstBadLayer.empty() && sim.layers[i].layer == sim.firstBadLayer)
            p.markers.push_back(
                {double(i + 1),
                 tr(c, "first bad (fake vs int): ", "首个不一致（伪量化 vs 整数）：") + sim.firstBadLayer,
                 ""});
        if (!sim.firstBadLayerFloat.empty() && sim.layers[i].layer == sim.firstBadLayerFloat)
            p.markers.push_back({double(i + 1),
                                 tr(c, "first bad (float vs fake): ", "首个不一致（浮点 vs 伪量化）：") +
                                     sim.firstBadLayerFloat,
                                 "#1f77b4"});
    }
    s.blocks.push_back(plot(std::move(p)));
    if (capped)
        s.blocks.push_back(note(
            tr(c, "Layers whose outputs agree exactly (infinite SQNR) or above 80 dB are drawn at 80 dB.",
               "输出完全一致（SQNR 为无穷大）或高于 80 dB 的层画在 80 dB 处。")));
}

void addLayerTable(BuildContext& c, Section& s, const SimulationSummary& sim)
{
    bool anyOverflow = false, anyInt16 = false;
    for (const auto& row : sim.layers) {
        anyOverflow = anyOverflow || row.overflows > 0;
        anyInt16 = anyInt16 || row.int16;
    }
    TableBlock t;
    t.caption =
        tr(c, "Per layer, fake-quant vs integer (rows where either comparison breaks are highlighted)",
           "逐层：伪量化 vs 整数（任一比较不达标的行已高亮）");
    t.columns = {"#",
                 tr(c, "Layer", "层"),
                 "Op",
                 tr(c, "cos float/fake", "余弦 浮点/伪量化"),
                 tr(c, "Cosine", "余弦"),
                 "MSE",
                 tr(c, "Max abs err", "最大绝对误差"),
                 "SQNR (dB)",
                 tr(c, "Max err (LSB)", "最大误差 (LSB)")};
    if (anyOverflow) t.columns.push_back(tr(c, "Overflows", "溢出"));
    if (anyInt16) t.columns.push_back("int16");
    for (size_t i = 0; i < sim.layers.size(); ++i) {
        const auto& row = sim.layers[i];
        const Agreement* ff = row.pair(modePairKey(ModePair::FloatFake));
        const Agreement* fi = row.pair(modePairKey(ModePair::FakeInt));
        std::vector<std::string> r = {std::to_string(i + 1), row.layer, row.op,
                                      ff ? fixedText(ff->cosine, 5) : "-"};
        if (fi) {
            for (std::string v : {fixedText(fi->cosine, 5), shortNumber(fi->mse), shortNumber(fi->maxAbs),
                                  fixedText(fi->sqnrDb, 1), fixedText(fi->maxErrLsb, 2)})
                r.push_back(std::move(v));
        } else {
            r.insert(r.end(), 5, "-");
        }
        if (anyOverflow) r.push_back(std::to_string(row.overflows));
        if (anyInt16) r.push_back(row.int16 ? "\u2713" : "");
        t.rows.push_back(std::move(r));
        t.highlighted.push_back(row.layer == sim.firstBadLayer || row.layer == sim.firstBadLayerFloat ||
                                (fi && fixedpoint::agreementBroken(*fi, sim.thresholds)) ||
                                (ff && fixedpoint::agreementBroken(*ff, sim.thresholds)));
    }
    if (!t.rows.empty()) s.blocks.push_back(table(std::move(t)));
}

void addLuts(BuildContext& c, Section& s, const SimulationSummary& sim)
{
    s.blocks.push_back(heading(tr(c, "Look-up tables", "查找表")));
    if (sim.luts.empty()) {
        s.blocks.push_back(note(tr(c, "No nonlinear op ran as a look-up table in the integer mode.",
                                   "整数模式中没有以查找表运行的非线性算子。")));
        return;
    }
    TableBlock t;
    t.caption = tr(
        c, "Look-up table error against the float function over the observed inputs (over 1 LSB highlighted)",
        "查找表相对浮点函数的误差（在实际输入范围内；超过 1 LSB 的行已高亮）");
    t.columns = {tr(c, "Layer", "层"),
                 "Op",
                 tr(c, "Input bits", "输入位宽"),
                 tr(c, "Entries", "表项"),
                 tr(c, "Input range", "输入范围"),
                 tr(c, "Max error", "最大误差"),
                 tr(c, "Mean error", "平均误差"),
                 tr(c, "Max error (LSB)", "最大误差 (LSB)")};
    for (const auto& l : sim.luts) {
        t.rows.push_back({l.layer, l.op, std::to_string(l.inputBits), std::to_string(l.entries),
                          "[" + shortNumber(l.inputMin) + ", " + shortNumber(l.inputMax) + "]",
                          shortNumber(l.maxError), shortNumber(l.meanError), fixedText(l.maxErrorLsb, 2)});
        t.highlighted.push_back(l.maxErrorLsb > 1.0);
    }
    s.blocks.push_back(table(std::move(t)));
}

void addWhatIf(BuildContext& c, Section& s, const SimulationSummary& sim)
{
    s.blocks.push_back(heading(tr(c, "What-if", "假设分析")));
    if (sim.whatIf()) {
        std::string text = tr(c, "This simulation ran with changed precision: ", "本次仿真改变了精度：");
        if (!sim.int16Layers.empty())
            text += tr(c, "int16 for ", "int16：") + joined(sim.int16Layers) + tr(c, ". ", "。");
        if (!sim.floatLayers.empty())
            text += tr(c, "float for ", "浮点：") + joined(sim.floatLayers) + tr(c, ". ", "。");
        const auto sq = sim.outputSqnrDb();
        if (sq)
            text += tr(c, "Output SQNR, integer vs float: ", "输出 SQNR（整数 vs 浮点）：") +
                    fixedText(*sq, 2) + " dB";
        if (sq && sim.baselineOutputSqnrDb && std::isfinite(*sim.baselineOutputSqnrDb))
            text += tr(c, " (unchanged model ", "（原模型 ") + fixedText(*sim.baselineOutputSqnrDb, 2) +
                    tr(c, " dB, gain ", " dB，提升 ") + fixedText(*sq - *sim.baselineOutputSqnrDb, 2) +
                    tr(c, " dB)", " dB）");
        s.blocks.push_back(paragraph(text + (sq ? tr(c, ".", "。") : "")));
    }
    if (!sim.sensitivity.empty()) {
        TableBlock t;
        t.caption = tr(c, "int16 sensitivity: the output SQNR when one layer is made int16 (best gain first)",
                       "int16 敏感度：单独将某层改为 int16 时的输出 SQNR（按提升排序）");
        t.columns = {"#", tr(c, "Layer", "层"),
                     tr(c, "Output SQNR at int16 (dB)", "改为 int16 后输出 SQNR (dB)"),
                     tr(c, "Gain (dB)", "提升 (dB)")};
        for (size_t i = 0; i < sim.sensitivity.size(); ++i) {
            const auto& e = sim.sensitivity[i];
            t.rows.push_back(
                {std::to_string(i + 1), e.layer, fixedText(e.outputSqnrDb, 2), fixedText(e.gainDb, 2)});
            t.highlighted.push_back(false);
        }
        s.blocks.push_back(table(std::move(t)));
    }
    if (!sim.whatIf() && sim.sensitivity.empty())
        s.blocks.push_back(
            note(tr(c,
                    "No what-if was run. Tick layers on the Fixed-point page to re-run them at int16, or "
                    "rank every layer with `qatdoctor-cli analyze --simulate --sensitivity`.",
                    "未进行假设分析。可在“定点仿真”页勾选层后以 int16 重新仿真，或用 "
                    "`qatdoctor-cli analyze --simulate --sensitivity` 对所有层排序。")));
}

}  // namespace

Section fixedPointSection(BuildContext& c)
{
    Section s;
    const auto& sim = c.analysis.simulation;
    if (!sim) {
        addFindingsTable(c, s);
        s.blocks.push_back(
            note(tr(c,
                    "The fixed-point simulation was not run for this analysis. Run it on the "
                    "Fixed-point page, or add --simulate to `qatdoctor-cli analyze`.",
                    "本次分析未运行定点仿真。可在“定点仿真”页运行，或在 `qatdoctor-cli analyze` "
                    "后加 --simulate。")));
        return s;
    }
    addOverview(c, s, *sim);
    s.blocks.push_back(heading(tr(c, "Per-layer agreement", "逐层一致性")));
    addChart(c, s, *sim);
    addLayerTable(c, s, *sim);
    addLuts(c, s, *sim);
    addWhatIf(c, s, *sim);
    if (!sim->findings.empty()) {
        s.blocks.push_back(heading(tr(c, "Findings", "发现")));
        addFindingsTable(c, s);
    }
    return s;
}

}  // namespace qatdoctor::core::report::detail
