// Checkpoints: per checkpoint its facts (container, metadata, the security warning) and its
// quantizers' table (rows named by a finding highlighted); then what changed between each pair.
#include <algorithm>
#include <array>
#include <cmath>

#include "core/report/report_sections.h"

namespace qatdoctor::core::report::detail {
namespace {

constexpr size_t kMaxRows = 300;
constexpr size_t kMaxChangedRows = 20;
constexpr size_t kMaxMetadata = 16;

void addCheckpoint(BuildContext& c, Section& s, const checkpoint::CheckpointRead& read)
{
    const checkpoint::CheckpointFile& f = read.file;
    s.blocks.push_back(heading(f.path));
    std::vector<std::pair<std::string, std::string>> kv = {
        {tr(c, "Container", "容器"), f.container},
        {tr(c, "Tensors", "张量数"), std::to_string(f.tensors.size())},
        {tr(c, "Model part", "模型所在键"),
         f.modelKey.empty() ? tr(c, "(the whole file)", "（整个文件）") : f.modelKey}};
    for (size_t k = 0; k < f.metadata.size() && k < kMaxMetadata; ++k) kv.push_back(f.metadata[k]);
    s.blocks.push_back(keyValues(std::move(kv)));
    if (!f.dangerous.empty())
        s.blocks.push_back(note(tr(c, "Security: the pickle names ", "安全警告：pickle 引用了 ") +
                                joined(f.dangerous) +
                                tr(c, ". torch.load would run them; QAT Doctor did not.",
                                   "。torch.load 会执行它们；QAT Doctor 没有执行。")));
    if (!f.refusedGlobals.empty())
        s.blocks.push_back(
            note(tr(c, "A weights_only load refuses the classes ", "weights_only 加载会拒绝这些类：") +
                 joined(f.refusedGlobals) +
                 tr(c, "; a full torch.load imports their modules.",
                    "；完整的 torch.load 会导入它们所在的模块。")));
    if (!read.quantized()) {
        s.blocks.push_back(
            paragraph(tr(c, "A float checkpoint: no quantizer buffers.", "浮点 checkpoint：没有量化参数。")));
        return;
    }
    TableBlock t;
    t.caption =
        read.bitWidthsMissing()
            ? tr(c,
                 "Quantizers (bit widths are not saved in this checkpoint; rows named by a finding are "
                 "highlighted)",
                 "量化参数（此 checkpoint 未保存位宽；被发现引用的行已高亮）")
            : tr(c, "Quantizers (rows named by a finding are highlighted)",
                 "量化参数（被发现引用的行已高亮）");
    t.columns = {tr(c, "Module", "模块"),
                 "Op",
                 tr(c, "dtype (weight / output)", "dtype（权重 / 输出）"),
                 tr(c, "Weight scale", "权重 scale"),
                 tr(c, "Output scale", "输出 scale"),
                 "zp",
                 tr(c, "Observed range", "统计范围"),
                 tr(c, "Flags", "标记")};
    size_t rows = 0, quantized = 0;
    for (const model::Layer& l : read.table.layers) {
        if (!l.weightQuant && !l.outputQuant) continue;
        if (++quantized > kMaxRows) continue;
        ++rows;
        t.rows.push_back({l.name, l.op, model::quantDtypesText(l), model::scalesText(l.weightQuant),
                          model::scalesText(l.outputQuant), model::zeroPointText(l.outputQuant),
                          model::observedRangeText(l.outputQuant), joined(l.flags)});
        t.highlighted.push_back(c.flaggedLayers.count(l.name) > 0);
    }
    s.blocks.push_back(table(std::move(t)));
    if (quantized > rows)
        s.blocks.push_back(note(tr(c, "Only the first 300 of ", "仅列出前 300 行，共 ") +
                                std::to_string(quantized) + tr(c, " modules are shown.", " 个模块。")));
}

std::string changeText(const BuildContext& c, checkpoint::ChangeKind kind)
{
    const Text t = checkpoint::changeKindText(kind);
    return tr(c, t.en, t.zh);
}

void addDiff(BuildContext& c, Section& s, const checkpoint::CheckpointDiff& d)
{
    s.blocks.push_back(heading(tr(c, "What changed", "变化") + ": " + d.pathA + " → " + d.pathB, 3));
    s.blocks.push_back(paragraph(checkpoint::diffSummary(d).in(c.lang)));
    std::vector<const checkpoint::TensorChange*> shown;
    for (const checkpoint::TensorChange& t : d.tensors)
        if (t.kind != checkpoint::ChangeKind::Same) shown.push_back(&t);
    std::stable_sort(shown.begin(), shown.end(), [](const auto* x, const auto* y) {
        return checkpoint::changeOrder(*x) > checkpoint::changeOrder(*y);
    });
    if (shown.empty()) return;
    TableBlock t;
    t.caption =
        tr(c, "Tensors that differ, largest relative change first", "有变化的张量，按相对变化从大到小");
    t.columns = {tr(c, "Tensor", "张量"), tr(c, "Change", "变化"), tr(c, "Relative L2", "相对 L2"),
                 tr(c, "Max abs", "最大绝对差")};
    for (size_t k = 0; k < shown.size() && k < kMaxChangedRows; ++k) {
        const checkpoint::TensorChange& x = *shown[k];
        const bool measured = x.kind == checkpoint::ChangeKind::Changed;
        t.rows.push_back({x.name, changeText(c, x.kind),
                          measured ? checkpoint::relativeChangeText(x.relL2, c.lang) : "-",
                          measured ? shortNumber(x.maxAbs) : "-"});
        t.highlighted.push_back(!measured);
    }
    s.blocks.push_back(table(std::move(t)));
    if (shown.size() > kMaxChangedRows)
        s.blocks.push_back(note(tr(c, "The 20 largest of ", "仅列出最大的 20 个，共 ") +
                                std::to_string(shown.size()) + tr(c, " are shown.", " 个。")));
}

}  // namespace

Section checkpointSection(BuildContext& c)
{
    Section s;
    if (c.analysis.checkpoints.empty()) {
        s.blocks.push_back(note(tr(c, "No checkpoint was loaded.", "没有加载 checkpoint。")));
        return s;
    }
    for (const checkpoint::CheckpointRead& read : c.analysis.checkpoints) addCheckpoint(c, s, read);
    for (const checkpoint::CheckpointDiff& d : c.analysis.checkpointDiffs) addDiff(c, s, d);
    return s;
}

}  // namespace qatdoctor::core::report::detail
