#include "core/compare/change_answers.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string_view>

#include "core/artifacts/finding_builder.h"
#include "core/common/number_text.h"
#include "core/model/dtype.h"

namespace qatdoctor::core::compare {
namespace {

// An accuracy that moved less than half a point is run-to-run noise for a diff of two attempts.
constexpr double kAccuracyMove = 0.005;
// Output SQNR moves this much (dB) before a simulation calls it a change.
constexpr double kSqnrMove = 1.0;

// The answers' texts, one row per id: what each says and which FAQ topic it points to.
struct AnswerText {
    const char* id;
    Severity severity;
    Stage stage;
    Text title;
    Text message;
    const char* faq;
};

const std::vector<AnswerText>& answerTexts()
{
    static const std::vector<AnswerText> kTexts = {
        {"compare.int16_took_effect",
         Severity::Info,
         Stage::Qat,
         {"int16 已生效", "int16 took effect"},
         {"这些层在 B 中是 int16（A 中为更低精度）：提高精度的修改已生效。请在 B "
          "的逐层对比或敏感度表中确认误差是否随之下降。",
          "These layers are int16 in B (lower precision in A): the change to higher precision took effect. "
          "Check in B's per-layer comparison or sensitivity table that their error fell with it."},
         "qat.qconfig_intervention"},
        {"compare.precision_lowered",
         Severity::Warning,
         Stage::Qat,
         {"有层的精度降低了", "Some layers lost precision"},
         {"这些层在 A 中是 16 位，在 B 中只有 8 位。如果这不是你的本意，检查 qconfig 模板的顺序、"
          "module_name 是否写对，以及 qconfig_changelogs.txt 中工具是否自动回退。",
          "These layers were 16-bit in A and are 8-bit in B. If you did not mean that, check the "
          "order of your "
          "qconfig templates, the module_name spellings, and qconfig_changelogs.txt for an "
          "automatic fallback."},
         "qat.qconfig_intervention"},
        {"compare.int16_fell_back",
         Severity::Warning,
         Stage::Qat,
         {"配置的 int16 没有生效（回退为 int8）", "int16 was configured but did not take effect (fell back)"},
         {"这些层在 B 中配置为 int16，导出的模型里仍是 8 位。常见原因：module_name 写错或被后面的模板覆盖；"
          "工具因硬件约束自动回退（如 Conv 与 Add 融合后 int16 回退为 int8，qconfig_changelogs.txt "
          "会写明原因）。可以把 int16 设在整个融合组上，或改用固定 scale、把该算子放到 CPU 上计算。",
          "These layers are configured as int16 in B but are still 8-bit in the exported model. Usual "
          "causes: "
          "a "
          "wrong module_name or a later template overriding it; an automatic fallback where the hardware "
          "cannot "
          "take int16 (e.g. a Conv fused with an Add falls back to int8; qconfig_changelogs.txt says why). "
          "Set "
          "int16 on the whole fused group, or use a fixed scale, or run the op on the CPU."},
         "qat.qconfig_intervention"},
        {"compare.output_high_precision",
         Severity::Info,
         Stage::Export,
         {"模型输出已改为高精度", "The model's output is high precision now"},
         {"这些输出层在 A 中输出低精度（8/16 位），在 B 中输出 float 或 int32：高精度输出的设置已生效。",
          "These output layers gave low precision (8 / 16-bit) in A and float or int32 in B: the "
          "high-precision "
          "output setting took effect."},
         "settings.output_high_precision"},
        {"compare.output_low_precision",
         Severity::Warning,
         Stage::Export,
         {"模型输出变为低精度", "The model's output became low precision"},
         {"这些输出层在 A 中输出高精度，在 B 中只输出 8/16 位。模型最后一层应保持高精度输出（设置 "
          "high precision output 或去掉输出的 fake quant）。",
          "These output layers gave high precision in A and only 8 / 16-bit in B. The model's last layer "
          "should "
          "keep a high-precision output (the high-precision output setting, or no output fake quant)."},
         "settings.output_high_precision"},
        {"compare.shared_split",
         Severity::Info,
         Stage::Qat,
         {"共享的量化参数已拆开", "The shared quantizer is split"},
         {"A 中这些算子共用一个 observer（同一个 FloatFunctional 被调用多次），B "
          "中它们各有自己的 scale：拆分已生效。",
          "In A these ops shared one observer (one FloatFunctional called several "
          "times); in B each has its own "
          "scale: the split took effect."},
         "op.shared_floatfunctional"},
        {"compare.shared_new",
         Severity::Warning,
         Stage::Qat,
         {"出现了新的共享量化参数", "Ops now share a quantizer"},
         {"这些算子在 A 中有各自的 scale，在 B 中共用一个 observer。一个 scale 要覆盖几种分布，容易引入误差："
          "每次调用用一个独立的 FloatFunctional。",
          "These ops had their own scales in A and share one observer in B. One scale then covers several "
          "distributions, which adds error: use a separate FloatFunctional for each call."},
         "op.shared_floatfunctional"},
        {"compare.similarity_improved",
         Severity::Info,
         Stage::Qat,
         {"逐层相似度提高了", "Per-layer similarity improved"},
         {"这些层在 B 的逐层对比中比 A 更接近浮点模型，最大的改善在前。",
          "These layers agree better with the float model in B's per-layer "
          "comparison than in A's; the largest "
          "improvement first."},
         "qat.quantized_mismatch"},
        {"compare.similarity_dropped",
         Severity::Warning,
         Stage::Qat,
         {"逐层相似度下降了", "Per-layer similarity dropped"},
         {"这些层在 B 的逐层对比中比 A 更偏离浮点模型：这次修改可能引入了新的误差。先看下降最多的一层。",
          "These layers agree worse with the float model in B's per-layer comparison than in A's: the change "
          "may "
          "have added error. Look at the largest drop first."},
         "qat.quantized_mismatch"},
        {"compare.sensitivity_dropped",
         Severity::Info,
         Stage::Qat,
         {"修改过的算子敏感度降低了", "The changed ops are less sensitive now"},
         {"修改针对的算子（配置有变化的算子；没有已知修改时为 A 中最敏感的几个）在 B "
          "的敏感度表中排名下降、敏感度降低：每一处修改都应该让对应算子的敏感度下降，这里做到了。",
          "The ops the change aimed at (those whose configuration changed; with no known change, A's most "
          "sensitive ones) rank lower and are less sensitive in B's sensitivity table: every fix should "
          "lower its op's sensitivity, and these did."},
         "qat.qconfig_intervention"},
        {"compare.sensitivity_rose",
         Severity::Warning,
         Stage::Qat,
         {"修改过的算子敏感度没有降低", "The changed ops did not become less sensitive"},
         {"修改针对的这些算子（配置有变化的算子；没有已知修改时为 A 中最敏感的几个）在 B "
          "的敏感度表中敏感度没有下降（或排名更靠前）。修改没有达到目的：检查配置是否生效，"
          "或换一种方法（int16、固定 scale、放到 CPU）。",
          "The ops the change aimed at (those whose configuration changed; with no known change, A's most "
          "sensitive ones) are not less sensitive in B's sensitivity table (or rank higher). The change did "
          "not do what it was for: check it took effect, or try another remedy (int16, a fixed scale, the "
          "CPU)."},
         "qat.qconfig_intervention"},
        {"compare.accuracy_improved",
         Severity::Info,
         Stage::Qat,
         {"精度提高了", "Accuracy improved"},
         {"B 的这些阶段最终评估精度高于 A。",
          "B's final evaluation accuracy is higher than A's at these stages."},
         "qat.accuracy_drops"},
        {"compare.accuracy_dropped",
         Severity::Warning,
         Stage::Qat,
         {"精度下降了", "Accuracy dropped"},
         {"B 的这些阶段最终评估精度低于 A：这次修改让结果变差了。",
          "B's final evaluation accuracy is lower than A's at these stages: the "
          "change made the result worse."},
         "qat.accuracy_drops"},
        {"compare.sqnr_improved",
         Severity::Info,
         Stage::Deployment,
         {"定点仿真的输出误差变小了", "The simulated integer output is closer to float"},
         {"整数推理相对浮点输出的 SQNR 从 A 到 B 提高了。",
          "The integer output's SQNR against float rose from A to B."},
         "qat.board_drop"},
        {"compare.sqnr_dropped",
         Severity::Warning,
         Stage::Deployment,
         {"定点仿真的输出误差变大了", "The simulated integer output drifted further from float"},
         {"整数推理相对浮点输出的 SQNR 从 A 到 B 下降了：部署后的误差会更大。",
          "The integer output's SQNR against float fell from A to B: deployment will differ more."},
         "qat.board_drop"},
    };
    return kTexts;
}

Finding answerFinding(std::string_view id)
{
    for (const AnswerText& t : answerTexts())
        if (id == t.id) return makeFinding(t.id, t.severity, t.stage, t.title, t.message, t.faq);
    return makeFinding(std::string(id), Severity::Info, Stage::Qat, {},
                       {});  // unreachable: ids are this file's
}

struct AnswerInput {
    const Comparison& c;
    const Analysis& a;
    const Analysis& b;
};

// The artifact checks' evidence (at most artifacts::kMaxEvidence per finding), with the detail in
// Chinese too.
void addEvidence(Finding& f, const std::string& file, int64_t line, const std::string& layer,
                 std::string detail, std::string detailZh = {})
{
    const size_t before = f.evidence.size();
    artifacts::addEvidence(f, file, line, layer, std::move(detail));
    if (f.evidence.size() > before) f.evidence.back().detailZh = std::move(detailZh);
}

void keep(Finding f, std::vector<Finding>& out)
{
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

int bitsOf(const std::string& dtypeText)
{
    const auto t = model::parseDType(dtypeText);
    return t ? model::bitWidth(*t) : 0;
}

bool highPrecision(const std::string& dtypeText)
{
    const auto t = model::parseDType(dtypeText);
    return t && model::isHighPrecision(*t);
}

bool sixteenBit(model::DType t)
{
    return model::isInteger(t) && model::bitWidth(t) == 16;
}

// The primary model pair: what the user changed and exported again.
const LayerTableDiff* primaryDiff(const Comparison& c)
{
    return c.models.empty() ? nullptr : &c.models.front();
}

const model::Layer* layerOf(const model::LayerTable* t, int row)
{
    return t && row >= 0 && static_cast<size_t>(row) < t->layers.size() ? &t->layers[static_cast<size_t>(row)]
                                                                        : nullptr;
}

// The B-side table a model diff was made from.
const model::LayerTable* tableB(const Analysis& b, const LayerTableDiff& d)
{
    for (const model::LayerTable& t : b.models)
        if (t.sourcePath == d.pathB && t.format == d.format) return &t;
    return nullptr;
}

// ---- int16: took effect, fell back, lowered --------------------------------------------------------

void int16Answers(const AnswerInput& in, std::vector<Finding>& out)
{
    Finding took = answerFinding("compare.int16_took_effect");
    Finding lowered = answerFinding("compare.precision_lowered");
    std::set<std::string> tookModules;
    for (const LayerTableDiff& d : in.c.models) {
        for (const LayerChange& r : d.rows) {
            for (const char* field : {"output dtype", "weight dtype"}) {
                const FieldChange* f = r.field(field);
                if (!f) continue;
                const int before = bitsOf(f->before), after = bitsOf(f->after);
                const std::string detail = std::string(field) + " " + f->before + " → " + f->after;
                const std::string zh = std::string(field == std::string("output dtype") ? "输出" : "权重") +
                                       " dtype " + f->before + " → " + f->after;
                if (after == 16 && before > 0 && before < 16 &&
                    tookModules.insert(modulePath(r.name())).second)
                    addEvidence(took, d.pathB, 0, r.name(), detail, zh);
                if (before == 16 && after > 0 && after < 16)
                    addEvidence(lowered, d.pathB, 0, r.name(), detail, zh);
            }
        }
    }
    // the toolchain's own tables say the dtype too (quant_dtype qint8 -> qint16)
    for (const DataTableDiff& d : in.c.tables)
        for (const TableRowChange& r : d.rows)
            if (r.kind == RowChange::Changed && bitsOf(r.dtypeB) == 16 && bitsOf(r.dtypeA) == 8 &&
                tookModules.insert(modulePath(r.layer)).second)
                addEvidence(took, d.pathB, r.lineB, r.layer, "quant_dtype " + r.dtypeA + " → " + r.dtypeB);
    keep(std::move(took), out);
    keep(std::move(lowered), out);

    // configured at int16 in B (qconfig_dtypes.pt.py, the expectation file) but not int16 there
    const LayerTableDiff* d = primaryDiff(in.c);
    const model::LayerTable* tb = d ? tableB(in.b, *d) : nullptr;
    if (!tb) return;
    Finding fell = answerFinding("compare.int16_fell_back");
    // B's rows by module, once: the expectation file may name thousands of modules
    std::multimap<std::string, const LayerChange*> rowsOfModule;
    for (const LayerChange& r : d->rows)
        if (const model::Layer* lb = layerOf(tb, r.b)) rowsOfModule.emplace(modulePath(lb->name), &r);
    for (const auto& [module, wanted] : in.b.expectedDtypes) {
        const auto want = model::parseDType(wanted);
        if (!want || !sixteenBit(*want)) continue;
        const auto [from, to] = rowsOfModule.equal_range(module);
        for (auto it = from; it != to; ++it) {
            const LayerChange& r = *it->second;
            const model::Layer* lb = layerOf(tb, r.b);
            if (sixteenBit(lb->outputDtype) || sixteenBit(lb->weightDtype)) continue;
            const std::string now = model::dtypeName(lb->outputDtype);
            const FieldChange* f = r.field("output dtype");
            const std::string was = f ? f->before : now;
            const std::string asBefore = was == now ? " (as in A)" : " (A: " + was + ")";
            const std::string asBeforeZh = was == now ? "（与 A 相同）" : "（A：" + was + "）";
            std::string en = "configured " + wanted;
            en.append(", exported ").append(now).append(asBefore);
            std::string zh = "配置为 " + wanted;
            zh.append("，导出为 ").append(now).append(asBeforeZh);
            addEvidence(fell, d->pathB, 0, lb->name, std::move(en), std::move(zh));
        }
    }
    keep(std::move(fell), out);
}

// ---- the model's output: high precision or not ----------------------------------------------------

void outputAnswers(const AnswerInput& in, std::vector<Finding>& out)
{
    Finding high = answerFinding("compare.output_high_precision");
    Finding low = answerFinding("compare.output_low_precision");
    for (const LayerTableDiff& d : in.c.models) {
        const model::LayerTable* tb = tableB(in.b, d);
        for (const LayerChange& r : d.rows) {
            const model::Layer* lb = layerOf(tb, r.b);
            const FieldChange* f = r.field("output dtype");
            if (!lb || !f || std::find(lb->flags.begin(), lb->flags.end(), "graph_output") == lb->flags.end())
                continue;
            const std::string detail = "output dtype " + f->before + " → " + f->after;
            const std::string zh = "输出 dtype " + f->before + " → " + f->after;
            if (!highPrecision(f->before) && highPrecision(f->after))
                addEvidence(high, d.pathB, 0, r.name(), detail, zh);
            if (highPrecision(f->before) && !highPrecision(f->after))
                addEvidence(low, d.pathB, 0, r.name(), detail, zh);
        }
    }
    keep(std::move(high), out);
    keep(std::move(low), out);
}

// ---- shared quantizers -----------------------------------------------------------------------------

void sharingAnswers(const AnswerInput& in, std::vector<Finding>& out)
{
    Finding split = answerFinding("compare.shared_split");
    Finding joined = answerFinding("compare.shared_new");
    for (const LayerTableDiff& d : in.c.models) {
        for (const LayerChange& r : d.rows) {
            const FieldChange* sharing = r.field("output quantizer");
            const FieldChange* module = r.field("module");
            if (r.kind == RowChange::Split && module)
                addEvidence(
                    split, d.pathB, 0, r.nameB,
                    "a second call of " + module->before + " is now " + module->after + " with its own scale",
                    module->before + " 的第二次调用现在是 " + module->after + "，有自己的 scale");
            else if (sharing && sharing->before == "shared")
                addEvidence(split, d.pathB, 0, r.nameB, "quantizer shared → own", "量化参数 共享 → 独立");
            else if (sharing && sharing->after == "shared")
                addEvidence(joined, d.pathB, 0, r.nameB, "quantizer own → shared", "量化参数 独立 → 共享");
        }
    }
    keep(std::move(split), out);
    keep(std::move(joined), out);
}

// ---- the toolchain's per-layer similarity ----------------------------------------------------------

std::string metricDetail(const DataTableDiff& d, const TableRowChange& r)
{
    // a cell may hold no number ("-", "None"): only the rank moved then
    const auto value = [](const std::optional<double>& v) { return v ? fullNumber(*v) : std::string("-"); };
    std::string s =
        (r.part.empty() ? "" : r.part + " ") + d.metric + " " + value(r.before) + " → " + value(r.after);
    if (r.rankA > 0 && r.rankB > 0)
        s += ", rank " + std::to_string(r.rankA) + " → " + std::to_string(r.rankB);
    return s;
}

// Rows that moved one way, the largest move first.
std::vector<const TableRowChange*> moved(const DataTableDiff& d, Movement m)
{
    std::vector<const TableRowChange*> rows;
    for (const TableRowChange& r : d.rows)
        if (r.movement == m) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const auto* x, const auto* y) {
        return std::fabs(*x->after - *x->before) > std::fabs(*y->after - *y->before);
    });
    return rows;
}

void similarityAnswers(const AnswerInput& in, std::vector<Finding>& out)
{
    Finding better = answerFinding("compare.similarity_improved");
    Finding worse = answerFinding("compare.similarity_dropped");
    for (const DataTableDiff& d : in.c.tables) {
        if (d.ranked || d.metric.empty() || !d.higherIsBetter) continue;
        for (const TableRowChange* r : moved(d, Movement::Better))
            addEvidence(better, d.pathB, r->lineB, r->layer, metricDetail(d, *r));
        for (const TableRowChange* r : moved(d, Movement::Worse))
            addEvidence(worse, d.pathB, r->lineB, r->layer, metricDetail(d, *r));
    }
    keep(std::move(better), out);
    keep(std::move(worse), out);
}

// ---- sensitivity: every fix should lower the changed op's sensitivity ------------------------------

// The quantizers a configuration change touched, as "module\x1fpart" with the part a sensitivity
// table names ("activation" for the output side, "weight"): from the layer diffs' fields and the
// tables' own dtype columns.
std::string quantizerKey(const std::string& layer, const std::string& part)
{
    return modulePath(layer) + '\x1f' + part;
}

std::set<std::string> changedQuantizers(const Comparison& c)
{
    std::set<std::string> keys;
    for (const LayerTableDiff& d : c.models)
        for (const LayerChange& r : d.rows)
            for (const FieldChange& f : r.fields) {
                if (!f.configuration) continue;
                const bool weightSide = f.field == "weight dtype" || f.field == "granularity";
                keys.insert(quantizerKey(r.name(), weightSide ? "weight" : "activation"));
            }
    for (const DataTableDiff& d : c.tables)
        for (const TableRowChange& r : d.rows)
            if (r.kind == RowChange::Changed)
                keys.insert(quantizerKey(r.layer, r.part.empty() ? "activation" : r.part));
    return keys;
}

void sensitivityAnswers(const AnswerInput& in, std::vector<Finding>& out)
{
    Finding dropped = answerFinding("compare.sensitivity_dropped");
    Finding rose = answerFinding("compare.sensitivity_rose");
    const std::set<std::string> changed = changedQuantizers(in.c);
    for (const DataTableDiff& d : in.c.tables) {
        if (!d.ranked || d.metric.empty()) continue;
        const auto changedRow = [&](const TableRowChange& r) {
            return changed.count(quantizerKey(r.layer, r.part.empty() ? "activation" : r.part)) > 0;
        };
        // with no known change, the ops that were most sensitive in A are the ones a fix aimed at
        const bool anyChanged = std::any_of(d.rows.begin(), d.rows.end(), changedRow);
        for (const TableRowChange& r : d.rows) {
            if (r.rowA < 0 || r.rowB < 0) continue;
            const bool aimedAt = anyChanged ? changedRow(r) : r.rankA >= 1 && r.rankA <= 3;
            if (!aimedAt) continue;
            const bool rankDown = r.rankB > r.rankA, rankUp = r.rankB < r.rankA;
            if (r.movement == Movement::Better || (r.movement != Movement::Worse && rankDown))
                addEvidence(dropped, d.pathB, r.lineB, r.layer, metricDetail(d, r));
            else if (r.movement == Movement::Worse || (anyChanged && rankUp) ||
                     (anyChanged && r.movement == Movement::Unmoved))
                addEvidence(rose, d.pathB, r.lineB, r.layer, metricDetail(d, r));
        }
    }
    keep(std::move(dropped), out);
    keep(std::move(rose), out);
}

// ---- the runs' accuracy, the simulation's output -----------------------------------------------------

void accuracyAnswers(const AnswerInput& in, std::vector<Finding>& out)
{
    Finding better = answerFinding("compare.accuracy_improved");
    Finding worse = answerFinding("compare.accuracy_dropped");
    for (const RunChange& r : in.c.runs) {
        if (!r.accuracyA || !r.accuracyB) continue;
        const double d = *r.accuracyB - *r.accuracyA;
        if (std::fabs(d) < kAccuracyMove) continue;
        const std::string detail = r.accuracyMetric + " " + percentText(*r.accuracyA) + " → " +
                                   percentText(*r.accuracyB) + " (" + r.role + ")";
        Evidence e;
        e.run = r.runB;
        e.detail = detail;
        (d > 0 ? better : worse).evidence.push_back(std::move(e));
    }
    keep(std::move(better), out);
    keep(std::move(worse), out);
}

void simulationAnswers(const AnswerInput& in, std::vector<Finding>& out)
{
    if (!in.c.simulation || !in.c.simulation->outputSqnrA || !in.c.simulation->outputSqnrB) return;
    const double a = *in.c.simulation->outputSqnrA, b = *in.c.simulation->outputSqnrB;
    if (!std::isfinite(a) || !std::isfinite(b) || std::fabs(b - a) < kSqnrMove) return;
    const bool better = b > a;
    Finding f = answerFinding(better ? "compare.sqnr_improved" : "compare.sqnr_dropped");
    addEvidence(f, in.b.simulation ? in.b.simulation->modelPath : "", 0, in.c.simulation->firstBadB,
                "output SQNR " + fixedText(a, 1) + " dB → " + fixedText(b, 1) + " dB");
    out.push_back(std::move(f));
}

const std::vector<std::function<void(const AnswerInput&, std::vector<Finding>&)>>& answerRows()
{
    static const std::vector<std::function<void(const AnswerInput&, std::vector<Finding>&)>> kRows = {
        int16Answers,       outputAnswers,   sharingAnswers,    similarityAnswers,
        sensitivityAnswers, accuracyAnswers, simulationAnswers,
    };
    return kRows;
}

}  // namespace

std::vector<Finding> changeAnswers(const Comparison& c, const Analysis& a, const Analysis& b)
{
    const AnswerInput in{c, a, b};
    std::vector<Finding> out;
    for (const auto& row : answerRows()) row(in, out);
    sortFindings(out);
    return out;
}

}  // namespace qatdoctor::core::compare
