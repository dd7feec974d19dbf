#include "core/model/model_lints.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/common/number_text.h"
#include "core/model/fake_quantizers.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_graph_facts.h"
#include "core/model/onnx_quant.h"

namespace qatdoctor::core::model {
namespace {

// Scales outside these bounds are no quantization step a calibrated model has: float32's
// smallest normal number is 1.2e-38, PyTorch's observers never go below its epsilon 1.2e-7,
// and a step of 1e10 spans more than any activation or weight.
constexpr float kSmallestUsableScale = 1e-30f;
constexpr float kLargestUsableScale = 1e10f;

bool hasFlag(const Layer& l, const char* flag)
{
    return std::find(l.flags.begin(), l.flags.end(), flag) != l.flags.end();
}

Evidence layerEvidence(const LayerTable& t, const std::string& layer, const Text& detail)
{
    Evidence e;
    e.file = t.sourcePath;
    e.layer = layer;
    e.detail = detail.en;
    e.detailZh = detail.zh;
    return e;
}

std::string scaleText(const QuantParams& q)
{
    if (q.scales.empty()) return "?";
    return q.scales.size() == 1 ? fullNumber(q.scales.front()) : std::to_string(q.scales.size()) + " scales";
}

}  // namespace

// Graph facts, computed once per runModelLints (linear in the graph).
struct GraphLintData {
    const ModelGraph* graph = nullptr;
    std::vector<std::string> layerOfNode;
    GraphQuantFacts facts;

    explicit GraphLintData(const LayerTable& t) : graph(t.graph.get())
    {
        if (!graph) return;
        layerOfNode = layerNamesByNode(*graph, t.layers);
        facts = computeGraphQuantFacts(*graph, layerOfNode);
    }
    std::string label(const QuantizerRef& r) const
    {
        return r.layer.empty() ? graph->node(r.node).name : r.layer;
    }
};

namespace {

// The shared graph data of a run, or a private copy when a lint is called on its own.
class GraphView {
public:
    explicit GraphView(const LintInput& in)
    {
        if (!in.graphData) m_own = std::make_unique<GraphLintData>(in.table);
        m_data = in.graphData ? in.graphData : m_own.get();
    }
    const GraphLintData* operator->() const { return m_data; }

private:
    std::unique_ptr<GraphLintData> m_own;
    const GraphLintData* m_data = nullptr;
};

bool lintOutputLowPrecision(const LintInput& in, std::vector<Finding>& out)
{
    bool anyOutput = false;
    Finding f = makeFinding(
        "model.output_low_precision", Severity::Warning, Stage::Qat,
        {"模型输出层不是高精度输出", "The model's output layer is not high precision"},
        {"以下输出层经过 8/16 bit 量化后才输出：最后一层的输出会损失精度。请在 qconfig / "
         "模板中为输出层配置高精度输出"
         "（如 QconfigSetter 的输出模板，或 prepare_qat_fx 中输出层使用 "
         "default_qat_out_8bit_fake_quant_qconfig），"
         "使其以 int32 / float 输出。",
         "These output layers pass through an 8/16-bit quantizer before the model output, which costs "
         "accuracy "
         "at the very end. Configure high-precision output for the output layer in its qconfig / template "
         "(the QconfigSetter output template, or default_qat_out_8bit_fake_quant_qconfig for the output "
         "layer "
         "with prepare_qat_fx) so it leaves as int32 / float."},
        "settings.output_high_precision");
    for (const Layer& l : in.table.layers) {
        if (!hasFlag(l, "graph_output")) continue;
        anyOutput = true;
        if (l.outputDtype == DType::Unknown || isHighPrecision(l.outputDtype)) continue;
        Text detail{std::string("输出 ") + dtypeName(l.outputDtype),
                    std::string("output ") + dtypeName(l.outputDtype)};
        if (l.outputQuant) {
            detail.zh += "，scale " + scaleText(*l.outputQuant);
            detail.en += ", scale " + scaleText(*l.outputQuant);
        }
        f.evidence.push_back(layerEvidence(in.table, l.name, detail));
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return anyOutput || in.table.graph != nullptr;
}

bool lintSharedQuantParams(const LintInput& in, std::vector<Finding>& out)
{
    Finding f = makeFinding(
        "model.shared_quant_params", Severity::Warning, Stage::Qat,
        {"多个算子共享同一组量化参数", "Several ops share one set of quantization parameters"},
        {"这些算子的输出由同一个 observer 量化（同一个 FloatFunctional 成员被多次调用）。共享的 scale "
         "要同时覆盖几处不同的"
         "数据分布，容易引入额外误差。请把它拆分为多个独立的 FloatFunctional 成员，每处调用各用一个。",
         "These ops' outputs are quantized by one observer (one FloatFunctional member called several "
         "times). "
         "The shared scale has to cover several different distributions, which easily adds error. Split it "
         "into separate FloatFunctional members, one per call."},
        "op.shared_floatfunctional");
    GraphView view(in);
    if (view->graph) {
        for (const SharedScaleGroup& g : view->facts.sharedScales) {
            for (const QuantizerRef& r : g.quantizers)
                f.evidence.push_back(layerEvidence(in.table, view->label(r),
                                                   Text{"scale 来自 " + g.scaleSource + "（量化节点 " +
                                                            view->graph->node(r.node).name + "）",
                                                        "scale from " + g.scaleSource + " (quantizer " +
                                                            view->graph->node(r.node).name + ")"}));
        }
    } else {
        // Without a graph: layers whose output quantizer names the same scale source.
        std::map<std::string, std::vector<const Layer*>> bySource;
        bool any = false;
        for (const Layer& l : in.table.layers) {
            if (!l.outputQuant) continue;
            any = true;
            if (!l.outputQuant->scaleSource.empty()) bySource[l.outputQuant->scaleSource].push_back(&l);
        }
        for (const auto& [source, layers] : bySource)
            if (layers.size() > 1)
                for (const Layer* l : layers)
                    f.evidence.push_back(layerEvidence(in.table, l->name,
                                                       Text{"scale 来自 " + source, "scale from " + source}));
        if (!any) return false;
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return true;
}

bool lintUncalibratedScale(const LintInput& in, std::vector<Finding>& out)
{
    Finding f =
        makeFinding("model.uncalibrated_scale", Severity::Error, Stage::Calibration,
                    {"有激活量化参数仍是初始值（未校准）",
                     "Activation quantizers still have their initial scale (never calibrated)"},
                    {"这些量化节点的 scale 仍为 1.0、zero point 为 0：calibration / QAT "
                     "没有为它们统计过数据（observer 被关闭，"
                     "或算子是 calibration "
                     "之后才加入的）。这样的算子推理会出错或部署精度异常；请确认它们参与了 calibration，"
                     "不需要量化的算子则不要给 qconfig。",
                     "These quantizers still have scale 1.0 and zero point 0: calibration / QAT never "
                     "collected statistics "
                     "for them (observer disabled, or the op was added after calibration). Such ops give "
                     "wrong results at "
                     "inference or on the device; make sure they take part in calibration, or give no "
                     "qconfig to ops that "
                     "need no quantization."},
                    "op.uncalibrated_ops");
    GraphView view(in);
    if (view->graph) {
        for (const QuantizerRef& r : view->facts.defaultScale)
            f.evidence.push_back(
                layerEvidence(in.table, view->label(r),
                              Text{"scale 1.0，zero point 0（" + view->graph->node(r.node).name + "）",
                                   "scale 1.0, zero point 0 (" + view->graph->node(r.node).name + ")"}));
    } else {
        bool any = false;
        for (const Layer& l : in.table.layers) {
            if (!l.outputQuant || l.outputQuant->scales.empty()) continue;
            any = true;
            const QuantParams& q = *l.outputQuant;
            const bool unit =
                std::all_of(q.scales.begin(), q.scales.end(), [](float s) { return s == 1.0f; });
            const bool zero =
                std::all_of(q.zeroPoints.begin(), q.zeroPoints.end(), [](int64_t z) { return z == 0; });
            if (unit && zero)
                f.evidence.push_back(
                    layerEvidence(in.table, l.name,
                                  Text{"输出 scale 1.0，zero point 0", "output scale 1.0, zero point 0"}));
        }
        if (!any) return false;
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return true;
}

bool lintAuxBranch(const LintInput& in, std::vector<Finding>& out)
{
    Finding f =
        makeFinding("model.aux_branch", Severity::Warning, Stage::Qat,
                    {"不通往输出的辅助分支插入了伪量化节点", "Fake quant on a branch that reaches no output"},
                    {"这些量化节点的结果不会到达任何模型输出（辅助分支，如训练用的 aux "
                     "head）。部署时不使用的分支不应插入伪量化："
                     "其数据分布与主干不同时还会干扰 QAT。请为这些模块把 qconfig 设为 None，或在导出 / "
                     "部署前去掉该分支。",
                     "These quantizers' results reach no model output (an auxiliary branch such as a "
                     "training-only aux head). "
                     "Branches the deployment does not use should get no fake quant; when their distribution "
                     "differs from "
                     "the trunk they also disturb QAT. Set qconfig to None for those modules, or remove the "
                     "branch before "
                     "export / deployment."},
                    "qat.aux_branch");
    GraphView view(in);
    if (view->graph) {
        std::map<std::string, int> perLabel;  // one evidence row per layer, not per Q/DQ node
        std::vector<std::string> order;
        for (const QuantizerRef& r : view->facts.deadQuantizers) {
            std::string label = view->label(r);
            if (r.layer.empty()) {  // weight quantizers of a dead layer carry its module path
                const std::string mod = modulePathFromNodeName(view->graph->node(r.node).name);
                for (const Layer& l : in.table.layers)
                    if (!mod.empty() && mod.rfind(l.name + ".", 0) == 0) label = l.name;
            }
            if (perLabel[label]++ == 0) order.push_back(label);
        }
        for (const std::string& label : order)
            f.evidence.push_back(layerEvidence(
                in.table, label,
                Text{std::to_string(perLabel[label]) + " 个 quantize/dequantize 节点不通向任何输出",
                     std::to_string(perLabel[label]) + " quantize/dequantize node(s) reach no output"}));
    } else {
        bool any = false;
        for (const Layer& l : in.table.layers) {
            any = any || hasFlag(l, "graph_output");
            if (hasFlag(l, "dead") && (l.outputQuant || l.weightQuant))
                f.evidence.push_back(layerEvidence(
                    in.table, l.name, Text{"已量化，但不通向任何输出", "quantized, reaches no output"}));
        }
        if (!any && f.evidence.empty()) return false;
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return true;
}

bool lintFloatFallback(const LintInput& in, std::vector<Finding>& out)
{
    Finding f = makeFinding("model.float_fallback", Severity::Warning, Stage::Deployment,
                            {"量化算子之间有浮点孤岛", "Float island between quantized ops"},
                            {"这些算子的输入来自反量化，输出却没有量化节点：它们以浮点运行，部署时会回退到 "
                             "CPU，或在没有统计数据的情况下被量化。"
                             "请给它们配置 qconfig 并参与 calibration / "
                             "QAT（或换成支持量化的算子），否则推理可能失败或部署精度异常。",
                             "These ops take dequantized inputs but their outputs have no quantizer: they "
                             "run in float, so at deployment "
                             "they fall back to the CPU or get quantized without statistics. Give them a "
                             "qconfig and let them take part "
                             "in calibration / QAT (or use a quantizable op), otherwise inference may fail "
                             "or deployed accuracy drops."},
                            "op.uncalibrated_ops");
    GraphView view(in);
    if (view->graph) {
        for (int node : view->facts.floatIslands) {
            const GraphNode& n = view->graph->node(node);
            const std::string mod = modulePathFromNodeName(n.name);
            f.evidence.push_back(layerEvidence(in.table, mod.empty() ? n.name : mod,
                                               Text{n.op + " 以浮点运行", n.op + " runs in float"}));
        }
    } else {
        bool any = false;
        for (const Layer& l : in.table.layers) {
            const bool quantIn = std::any_of(l.inputDtypes.begin(), l.inputDtypes.end(),
                                             [](DType d) { return isInteger(d) && bitWidth(d) <= 16; });
            any = any || quantIn;
            if (quantIn && isFloat(l.outputDtype) && !hasFlag(l, "graph_output"))
                f.evidence.push_back(layerEvidence(
                    in.table, l.name,
                    Text{l.op + " 在量化算子之间输出浮点", l.op + " outputs float between quantized ops"}));
        }
        if (!any) return false;
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return true;
}

bool lintInt16NotApplied(const LintInput& in, std::vector<Finding>& out)
{
    if (in.expectedDtypes.empty()) return false;
    Finding f = makeFinding(
        "model.int16_not_applied", Severity::Warning, Stage::Qat,
        {"配置的 dtype 没有生效", "Configured dtypes did not take effect"},
        {"这些层的实际输出 dtype 与你期望的不同。常见原因：module_name 写错（应为 named_modules() "
         "中的名字）、"
         "被后面的模板覆盖、或工具自动回退（如 Conv+Add 融合时 int16 回退为 int8）。请查看 "
         "qconfig_dtypes.pt.py / "
         "qconfig_changelogs.txt / model_check_result.txt 中该层的最终 dtype。",
         "These layers' actual output dtype differs from what you expect. Usual causes: a wrong module_name "
         "(it "
         "must be a name from named_modules()), a later template overriding it, or an automatic fallback "
         "(e.g. "
         "int16 -> int8 when Conv+Add are fused). Check the layer's final dtype in qconfig_dtypes.pt.py / "
         "qconfig_changelogs.txt / model_check_result.txt."},
        "qat.int16_not_applied");
    for (const auto& [module, wanted] : in.expectedDtypes) {
        const auto want = parseDType(wanted);
        std::vector<const Layer*> matches;
        for (const Layer& l : in.table.layers)
            if (l.name == module || l.name.rfind(module + " (", 0) == 0) matches.push_back(&l);
        if (matches.empty())
            for (const Layer& l : in.table.layers)
                if (l.name.rfind(module + ".", 0) == 0) matches.push_back(&l);
        if (matches.empty()) {
            f.evidence.push_back(
                layerEvidence(in.table, module,
                              Text{"期望 " + wanted + "，模型中没有该层",
                                   "expected " + wanted + ", layer not found in the model"}));
            continue;
        }
        for (const Layer* l : matches) {
            if (want && l->outputDtype == *want) continue;
            Evidence e = layerEvidence(in.table, l->name,
                                       Text{"期望 " + wanted + "，实际 " + dtypeName(l->outputDtype),
                                            "expected " + wanted + ", actual " + dtypeName(l->outputDtype)});
            f.evidence.push_back(std::move(e));
        }
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return true;
}

bool lintCustomGridSample(const LintInput& in, std::vector<Finding>& out)
{
    Finding f = makeFinding(
        "model.custom_gridsample", Severity::Info, Stage::Export,
        {"模型使用了地平线自定义 GridSample 算子", "The model uses Horizon's custom GridSample op"},
        {"horizon_plugin_pytorch 的 gridsample 的 grid 是 int16 绝对坐标，与 torch.nn.functional.grid_sample "
         "的归一化坐标不同。"
         "若要改写为 torch 公版实现，需要把 grid 归一化到 [-1, 1]（float32）后再调用。",
         "horizon_plugin_pytorch's gridsample takes the grid as int16 absolute coordinates, unlike the "
         "normalized "
         "coordinates of torch.nn.functional.grid_sample. To rewrite it with the public torch op, normalize "
         "the "
         "grid to [-1, 1] (float32) first."},
        "qat.gridsample_rewrite");
    for (const Layer& l : in.table.layers)
        if (l.op == "horizon::GridSample")
            f.evidence.push_back(
                layerEvidence(in.table, l.name, Text{"horizon::GridSample", "horizon::GridSample"}));
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return in.table.graph != nullptr || !in.table.layers.empty();
}

// What is wrong with one scale, or "" when it is a usable quantization step: zero, negative
// and non-finite scales divide by zero or flip signs; a subnormal one rounds every value to the
// ends of the range; a huge one puts every value on the zero point.
std::string brokenScale(float s)
{
    if (!std::isfinite(s)) return nonFiniteText(s);
    if (s == 0) return "zero";
    if (s < 0) return "negative";
    if (s < kSmallestUsableScale) return "vanishingly small";
    if (s > kLargestUsableScale) return "huge";
    return {};
}

// "weight scale zero (0) in channel 3, 2 of 64 channels, from conv1.weight_scale"; none when every
// scale is usable.
std::optional<Text> brokenScaleDetail(const std::string& what, const std::vector<float>& scales,
                                      const std::string& source)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < scales.size(); ++i)
        if (!brokenScale(scales[i]).empty() && bad++ == 0) first = i;
    if (bad == 0) return std::nullopt;
    const std::string value = brokenScale(scales[first]) + " (" + fullNumber(scales[first]) + ")";
    Text detail{what + " scale " + value, what + " scale " + value};
    if (scales.size() > 1) {
        const std::string n = std::to_string(bad), all = std::to_string(scales.size());
        const std::string channel = std::to_string(first);
        detail.zh.append("，位于第 ").append(channel).append(" 个通道，共 ").append(all);
        detail.zh.append(" 个通道中有 ").append(n).append(" 个");
        detail.en.append(" in channel ").append(channel).append(", ").append(n);
        detail.en.append(" of ").append(all).append(" channels");
    }
    if (!source.empty()) {
        detail.zh += "，来自 " + source;
        detail.en += ", from " + source;
    }
    return detail;
}

bool lintBrokenScale(const LintInput& in, std::vector<Finding>& out)
{
    Finding f = makeFinding(
        "model.broken_scale", Severity::Error, Stage::Calibration,
        {"有量化参数的 scale 无效（为 0、负数、NaN、无穷大或数量级异常）",
         "Quantization scales that cannot work (zero, negative, NaN, infinite or absurdly small or large)"},
        {"这些 tensor 的 scale 无法完成量化：为 0 或 NaN "
         "时除法失效，为负数时符号翻转，极小或极大时所有值都落到量化范围的"
         "两端或零点上。通常来自 calibration 统计到全 0 或 NaN "
         "的数据、被剪枝的通道，或导出时参数损坏。请检查对应层的"
         "calibration 数据和 observer，修正后重新导出。",
         "The scale of these tensors cannot quantize anything: zero or NaN breaks the division, a negative "
         "one flips "
         "signs, and a vanishingly small or huge one sends every value to the ends of the range or onto the "
         "zero "
         "point. Usual causes: calibration saw all-zero or NaN data, a pruned channel, or parameters damaged "
         "on "
         "export. Check that layer's calibration data and observer, then export again."},
        "op.uncalibrated_ops");
    bool any = false;
    std::set<std::string> checked;  // scale sources read through a layer's weight or output
    for (const Layer& l : in.table.layers) {
        const std::pair<const char*, const std::optional<QuantParams>*> quantizers[] = {
            {"weight", &l.weightQuant}, {"output", &l.outputQuant}};
        for (const auto& [what, q] : quantizers) {
            if (!*q || (*q)->scales.empty()) continue;
            any = true;
            checked.insert((*q)->scaleSource);
            if (std::optional<Text> detail = brokenScaleDetail(what, (*q)->scales, (*q)->scaleSource))
                f.evidence.push_back(layerEvidence(in.table, l.name, *detail));
        }
    }
    // Quantizers no layer owns: the graph input's, and any activation quantizer whose scale no
    // layer reads. The input's is the first scale every sample meets.
    if (const ModelGraph* g = in.table.graph.get()) {
        for (int id = 0; id < static_cast<int>(g->nodes().size()); ++id) {
            const GraphNode& n = g->node(id);
            if (!isQuantizeOp(n) || !isActivationQuantizer(*g, id)) continue;
            const QuantizerInfo q = readQuantizer(*g, id);
            if (q.params.scales.empty() || !checked.insert(q.scaleRoot).second) continue;
            any = true;
            const bool input = !n.inputs.empty() && n.inputs[0] >= 0 && g->tensor(n.inputs[0]).graphInput;
            if (std::optional<Text> detail =
                    brokenScaleDetail(input ? "input" : "activation", q.params.scales, q.scaleRoot))
                f.evidence.push_back(
                    layerEvidence(in.table, input ? g->tensor(n.inputs[0]).name : n.name, *detail));
        }
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
    return any;
}

// Quantizer-like ops no reader knows: their counts per op, so that a model quantized by a tool
// we cannot read is never shown as a plain float model.
bool lintUnknownQuantizer(const LintInput& in, std::vector<Finding>& out)
{
    const ModelGraph* g = in.table.graph.get();
    if (!g) return false;
    std::map<std::string, int> counts;
    for (const GraphNode& n : g->nodes())
        if (isUnknownQuantizerOp(n)) ++counts[n.domain.empty() ? n.op : n.domain + "::" + n.op];
    if (counts.empty()) return true;
    Text ops;  // "com.acme::FakeQuant (3 nodes), Quantize8 (1 node)"
    for (const auto& [op, count] : counts) {
        const std::string n = std::to_string(count);
        ops.en.append(ops.en.empty() ? "" : ", ").append(op).append(" (").append(n);
        ops.en.append(count == 1 ? " node)" : " nodes)");
        ops.zh.append(ops.zh.empty() ? "" : "、").append(op).append("（").append(n).append(" 个节点）");
    }
    Finding f = makeFinding(
        "model.unknown_quantizer", Severity::Warning, Stage::Export,
        {"模型中有无法识别的量化算子", "The model holds quantizer ops no reader here knows"},
        {"这些节点看起来是量化器（算子名或 domain 含 quant）：" + ops.zh +
             "。它们不属于 ONNX QDQ、QOperator、ONNX Runtime 动态量化、地平线 HzQuantize 或 QONNX，位宽和 "
             "scale 未被读取，所以本页的 dtype 和精度结论不包括它们：不要把这个模型当作浮点模型。",
         "These nodes look like quantizers (their op or domain says quant): " + ops.en +
             ". They belong to none of ONNX QDQ, QOperator, ONNX Runtime's dynamic quantization, Horizon's "
             "HzQuantize or QONNX; their bit widths and scales are not read, so the dtypes and precision "
             "findings here leave them out: do not take this model for a float model."},
        "");
    for (const auto& [op, count] : counts) {
        const std::string n = std::to_string(count);
        f.evidence.push_back(
            layerEvidence(in.table, op, Text{n + " 个节点", n + (count == 1 ? " node" : " nodes")}));
    }
    out.push_back(std::move(f));
    return true;
}

// A graph without any real input computes constants: usually a failed export or the wrong file.
bool lintNoInput(const LintInput& in, std::vector<Finding>& out)
{
    const ModelGraph* g = in.table.graph.get();
    if (!g) return false;
    if (g->graphInputs().empty()) {
        Finding f = makeFinding(
            "model.no_input", Severity::Warning, Stage::Export, {"模型没有输入", "The model takes no input"},
            {"图中没有任何输入（initializer 除外），每个输出都是常量。通常是导出时输入被常量折叠掉了，"
             "或打开的不是推理模型。",
             "The graph has no input besides its initializers: every output is a constant. Usually the "
             "export "
             "folded the input away, or this is not the inference model."},
            "");
        f.evidence.push_back(layerEvidence(in.table, "", Text{"图输入：0 个", "graph inputs: 0"}));
        out.push_back(std::move(f));
    }
    return true;
}

// A graph whose nodes only move, reshape and cast has nothing to quantize.
bool lintNoCompute(const LintInput& in, std::vector<Finding>& out)
{
    const ModelGraph* g = in.table.graph.get();
    if (!g) return false;
    const bool computes =
        !in.table.layers.empty() || std::any_of(g->nodes().begin(), g->nodes().end(), [](const GraphNode& n) {
            return !isPassThroughOp(n) && n.op != "Constant" && !isQuantizeOp(n) && !isDequantizeOp(n);
        });
    if (!computes) {
        Finding f = makeFinding(
            "model.no_compute", Severity::Warning, Stage::Export,
            {"模型没有计算节点", "The model has no compute node"},
            {"图中的节点只搬运、改变形状或转换类型，没有任何计算，也就没有可量化的层。请确认打开的是导出的完"
             "整模型。",
             "The graph's nodes only move, reshape or cast data: nothing computes, so there is no layer to "
             "quantize. Check that this is the complete exported model."},
            "");
        f.evidence.push_back(layerEvidence(in.table, "",
                                           Text{std::to_string(g->nodes().size()) + " 个节点",
                                                std::to_string(g->nodes().size()) + " nodes"}));
        out.push_back(std::move(f));
    }
    return true;
}

}  // namespace

const std::vector<ModelLint>& modelLints()
{
    static const std::vector<ModelLint> kLints = {
        {"model.output_low_precision", lintOutputLowPrecision},
        {"model.shared_quant_params", lintSharedQuantParams},
        {"model.uncalibrated_scale", lintUncalibratedScale},
        {"model.aux_branch", lintAuxBranch},
        {"model.float_fallback", lintFloatFallback},
        {"model.int16_not_applied", lintInt16NotApplied},
        {"model.custom_gridsample", lintCustomGridSample},
        {"model.broken_scale", lintBrokenScale},
        {"model.unknown_quantizer", lintUnknownQuantizer},
        {"model.no_input", lintNoInput},
        {"model.no_compute", lintNoCompute},
    };
    return kLints;
}

void runModelLints(const LayerTable& table, const std::map<std::string, std::string>& expectedDtypes,
                   std::vector<Finding>& out, std::set<std::string>& evaluated)
{
    const GraphLintData data(table);
    const LintInput in{table, expectedDtypes, &data};
    for (const ModelLint& lint : modelLints())
        if (lint.run(in, out)) evaluated.insert(lint.id);
}

}  // namespace qatdoctor::core::model
