// Model: per model, its facts, the high-precision-output verdict and the per-layer dtype table
// (rows named by a finding highlighted); then the toolchain's debug tables.
#include <algorithm>

#include "core/report/report_sections.h"

namespace qatdoctor::core::report::detail {
namespace {

constexpr size_t kMaxDataTableRows = 300;

std::string dtypes(const std::vector<model::DType>& ds)
{
    std::string s;
    for (model::DType d : ds) s += (s.empty() ? "" : ", ") + std::string(model::dtypeName(d));
    return s.empty() ? "-" : s;
}

bool isGraphOutput(const model::LayerTable& m, const model::Layer& l)
{
    if (std::find(l.flags.begin(), l.flags.end(), "graph_output") != l.flags.end()) return true;
    for (const std::string& o : l.outputs)
        if (std::find(m.graphOutputs.begin(), m.graphOutputs.end(), o) != m.graphOutputs.end()) return true;
    return false;
}

// The toolchain compiles a final conv/linear with high-precision (int32/float) output only when
// asked; the reader wants to know which outputs have it.
std::string highPrecisionVerdict(const BuildContext& c, const model::LayerTable& m)
{
    std::vector<std::string> high, low;
    for (const model::Layer& l : m.layers) {
        if (!isGraphOutput(m, l)) continue;
        (model::isHighPrecision(l.outputDtype) ? high : low)
            .push_back(l.name + " (" + model::dtypeName(l.outputDtype) + ")");
    }
    if (high.empty() && low.empty())
        return tr(c, "No layer feeds a graph output directly; the output precision could not be judged.",
                  "没有层直接连到模型输出，无法判断输出精度。");
    std::string s;
    if (!high.empty()) s += tr(c, "High-precision output: ", "高精度输出：") + joined(high) + ". ";
    if (!low.empty())
        s += tr(c, "Quantized (low-precision) output: ", "量化（低精度）输出：") + joined(low) + ".";
    return s;
}

void addLayerTable(BuildContext& c, Section& s, const model::LayerTable& m)
{
    TableBlock t;
    t.caption =
        tr(c, "Layers (rows named by a finding are highlighted)", "逐层数据类型（被发现引用的层已高亮）");
    t.columns = {"#",
                 tr(c, "Layer", "层"),
                 "Op",
                 tr(c, "Input", "输入"),
                 tr(c, "Weight", "权重"),
                 tr(c, "Granularity", "粒度"),
                 tr(c, "Output", "输出"),
                 tr(c, "Flags", "标记")};
    int i = 0;
    for (const model::Layer& l : m.layers) {
        const bool hasWeight = l.weightDtype != model::DType::Unknown;
        t.rows.push_back({std::to_string(++i), l.name, l.op, dtypes(l.inputDtypes),
                          model::dtypeCellText(l.weightDtype, l.weightQuant),
                          hasWeight ? model::granularityName(l) : "-",
                          model::dtypeCellText(l.outputDtype, l.outputQuant), joined(l.flags)});
        t.highlighted.push_back(c.flaggedLayers.count(l.name) > 0);
    }
    s.blocks.push_back(table(std::move(t)));
}

void addDataTable(BuildContext& c, Section& s, const DataTable& d)
{
    s.blocks.push_back(heading(d.title.empty() ? d.kind : d.title, 3));
    s.blocks.push_back(keyValues({{tr(c, "File", "文件"), d.sourcePath}, {tr(c, "Kind", "类型"), d.kind}}));
    TableBlock t;
    t.caption = d.title;
    t.columns = d.columns;
    const int nameCol = std::max(d.column("name"), std::max(d.column("layer"), d.column("op_name")));
    for (size_t r = 0; r < d.rows.size() && r < kMaxDataTableRows; ++r) {
        t.rows.push_back(d.rows[r]);
        t.rows.back().resize(t.columns.size());
        t.highlighted.push_back(nameCol >= 0 && c.flaggedLayers.count(d.rows[r][size_t(nameCol)]) > 0);
    }
    if (!t.columns.empty()) s.blocks.push_back(table(std::move(t)));
    if (d.rows.size() > kMaxDataTableRows)
        s.blocks.push_back(note(tr(c, "Only the first 300 rows of ", "仅列出前 300 行，共 ") +
                                std::to_string(d.rows.size()) + tr(c, " are shown.", " 行。")));
}

}  // namespace

Section modelSection(BuildContext& c)
{
    Section s;
    if (c.analysis.models.empty() && c.analysis.tables.empty()) {
        s.blocks.push_back(
            note(tr(c, "No model or toolchain file was loaded.", "没有加载模型或工具链文件。")));
        return s;
    }
    for (const model::LayerTable& m : c.analysis.models) {
        s.blocks.push_back(heading(m.sourcePath));
        std::vector<std::pair<std::string, std::string>> kv = {
            {tr(c, "Format", "格式"), m.format},
            {tr(c, "Layers", "层数"), std::to_string(m.layers.size())},
            {tr(c, "Graph inputs", "模型输入"), joined(m.graphInputs)},
            {tr(c, "Graph outputs", "模型输出"), joined(m.graphOutputs)}};
        if (m.opset > 0) kv.emplace_back("opset", std::to_string(m.opset));
        if (!m.producer.empty()) kv.emplace_back(tr(c, "Producer", "生成工具"), m.producer);
        s.blocks.push_back(keyValues(std::move(kv)));
        s.blocks.push_back(heading(tr(c, "High-precision output", "高精度输出"), 3));
        s.blocks.push_back(paragraph(highPrecisionVerdict(c, m)));
        addLayerTable(c, s, m);
    }
    if (!c.analysis.tables.empty()) {
        s.blocks.push_back(heading(tr(c, "Toolchain debug tables", "工具链调试表")));
        for (const DataTable& d : c.analysis.tables) addDataTable(c, s, d);
    }
    return s;
}

}  // namespace qatdoctor::core::report::detail
