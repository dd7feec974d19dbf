// Findings over per-layer tables read from a printed module or a model_check_result.txt.
#include <algorithm>
#include <cstdio>
#include <set>

#include "core/artifacts/artifact_checks.h"
#include "core/artifacts/finding_builder.h"
#include "core/artifacts/text_lines.h"

namespace qatdoctor::core::artifacts {
namespace {

using model::DType;
using model::Layer;

bool isStub(const std::string& op)
{
    return op.find("QuantStub") != std::string::npos || op == "Quantize" || op == "DeQuantize";
}

bool isCompute(const Layer& l)
{
    if (isStub(l.op) || hasFlag(l, "standalone_quantizer")) return false;
    return l.weightQuant.has_value() || l.weightDtype != DType::Unknown ||
           l.op.find("Conv") != std::string::npos || l.op.find("Linear") != std::string::npos ||
           l.op.find("MatMul") != std::string::npos;
}

std::string quantSummary(const model::QuantParams& q)
{
    std::string s = std::string("dtype=") + model::dtypeName(q.dtype);
    if (q.scales.size() == 1)
        s += " scale=" + fullNumber(q.scales.front());
    else if (!q.scales.empty())
        s += " scales=" + std::to_string(q.scales.size());
    if (q.minVal && q.maxVal) s += " min_val=" + fullNumber(*q.minVal) + " max_val=" + fullNumber(*q.maxVal);
    return s;
}

void outputLowPrecision(const model::LayerTable& t, std::vector<Finding>& out,
                        std::vector<std::string>& evaluated)
{
    const Layer* last = nullptr;
    for (const Layer& l : t.layers)
        if (isCompute(l)) last = &l;
    if (!last) return;
    evaluated.push_back("model.output_low_precision");
    if (!last->outputQuant || !model::isInteger(last->outputQuant->dtype)) return;
    if (last->outputQuant->fakeQuantEnabled == false) return;
    Finding f = makeFinding(
        "model.output_low_precision", Severity::Warning, Stage::Qat,
        {"模型最后一个计算层仍是低精度输出", "The last compute layer still has a low-precision output"},
        {"打印的模型中最后一个计算层 " + last->name + " 仍带有 (activation_post_process): FakeQuantize（" +
             model::dtypeName(last->outputQuant->dtype) +
             "），说明输出未配置为高精度（int32/float）。高精度输出的层不含 activation_post_process 或为 "
             "None。"
             "请检查输出层的 qconfig "
             "与高精度输出模板设置。（按打印顺序判断最后一层；多输出模型请逐个检查输出层。）",
         "In the printed model the last compute layer " + last->name +
             " still has an (activation_post_process): FakeQuantize (" +
             model::dtypeName(last->outputQuant->dtype) +
             "), so its output is not high precision (int32/float). A high-precision layer has no "
             "activation_post_process, or it is None. Check the output layer's qconfig and the "
             "high-precision "
             "output template. (\"Last\" is the print order; check every output layer of a multi-output "
             "model.)"},
        "settings.output_high_precision");
    addLayerEvidence(
        f, *last,
        "activation_post_process " + last->outputQuant->observer + " " + quantSummary(*last->outputQuant));
    out.push_back(std::move(f));
}

void uncalibrated(const model::LayerTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    size_t quantized = 0;
    std::vector<const Layer*> bad;
    for (const Layer& l : t.layers) {
        if (l.weightQuant || l.outputQuant) ++quantized;
        if (hasFlag(l, "uncalibrated")) bad.push_back(&l);
    }
    if (quantized == 0) return;
    evaluated.push_back("model.uncalibrated_scale");
    if (bad.empty()) return;
    const std::string n = std::to_string(bad.size()) + "/" + std::to_string(quantized);
    Finding f = makeFinding(
        "model.uncalibrated_scale", Severity::Warning, Stage::Calibration,
        {"有量化参数仍是未校准的默认值", "Quantization parameters still have their uncalibrated defaults"},
        {n + " 个量化层的 scale 为 1.0 或 observer 的 min_val 为 inf / 空，说明这些量化参数没有经过 "
             "Calibration 或 QAT "
             "统计。若打印的是刚 prepare 的模型，这是正常的；若是校准或 QAT "
             "之后的模型，请确认这些算子参与了校准、"
             "并正确加载了校准参数。",
         n + " quantized layers have scale 1.0 or an observer with min_val=inf / empty, so these parameters "
             "were "
             "never gathered by calibration or QAT. That is normal for a model printed right after prepare; "
             "after "
             "calibration or QAT, make sure these ops took part in calibration and the calibration "
             "parameters were "
             "loaded."},
        "op.uncalibrated_ops");
    for (const Layer* l : bad) {
        const model::QuantParams* q = l->outputQuant   ? &*l->outputQuant
                                      : l->weightQuant ? &*l->weightQuant
                                                       : nullptr;
        addLayerEvidence(f, *l, q ? quantSummary(*q) : "scale 1.0");
    }
    out.push_back(std::move(f));
}

void enabledFlags(const model::LayerTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    struct Off {
        const Layer* layer;
        const char* which;
    };
    std::vector<Off> fqOff, obsOff;
    bool fqSeen = false, obsSeen = false;
    size_t fqOn = 0, obsOn = 0;
    for (const Layer& l : t.layers) {
        for (auto [q, which] : {std::pair{&l.weightQuant, "weight_fake_quant"},
                                std::pair{&l.outputQuant, "activation_post_process"}}) {
            if (!*q) continue;
            if ((*q)->fakeQuantEnabled) {
                fqSeen = true;
                if (!*(*q)->fakeQuantEnabled)
                    fqOff.push_back({&l, which});
                else
                    ++fqOn;
            }
            if ((*q)->observerEnabled) {
                obsSeen = true;
                if (!*(*q)->observerEnabled)
                    obsOff.push_back({&l, which});
                else
                    ++obsOn;
            }
        }
    }
    if (fqSeen) evaluated.push_back("qat.fake_quant_disabled");
    if (obsSeen) evaluated.push_back("qat.observer_disabled");
    if (!fqOff.empty()) {
        const std::string n = std::to_string(fqOff.size());
        const bool all = fqOn == 0;
        Finding f = makeFinding(
            "qat.fake_quant_disabled", all ? Severity::Info : Severity::Warning, Stage::Qat,
            {"有量化节点的 fake_quant_enabled 为 0", "Some quantizers have fake_quant_enabled = 0"},
            {n + " 个量化节点关闭了伪量化" + std::string(all ? "（全部关闭，像是 Calibration 状态）" : "") +
                 "。QAT 训练时 fake_quant_enabled 应为 1，否则该处不模拟量化误差。若这是 Calibration "
                 "阶段打印的模型则属正常；"
                 "请检查 set_fake_quantize / disable_fake_quant 的调用顺序。",
             n + " quantizers have fake quant switched off" +
                 std::string(all ? " (all of them: this looks like calibration state)" : "") +
                 ". QAT training needs fake_quant_enabled = 1, otherwise no quantization error is simulated "
                 "there. "
                 "Expected for a model printed during calibration; otherwise check where set_fake_quantize / "
                 "disable_fake_quant is called."},
            "qat.weights_not_updating");
        for (const Off& o : fqOff)
            addLayerEvidence(f, *o.layer, std::string(o.which) + ": fake_quant_enabled=0");
        out.push_back(std::move(f));
    }
    // Observers off everywhere is the normal state for evaluation and export; only a model where
    // some observers run and others don't points at a mistake.
    if (!obsOff.empty() && obsOn > 0) {
        const std::string n = std::to_string(obsOff.size());
        Finding f = makeFinding(
            "qat.observer_disabled", Severity::Warning, Stage::Qat,
            {"有量化节点的 observer_enabled 为 0", "Some quantizers have observer_enabled = 0"},
            {n + " 个量化节点关闭了 observer，scale 在训练中不会再更新。QAT 训练通常需要 observer_enabled 为 "
                 "1"
                 "（除非有意冻结 scale，或这是评测 / 导出前打印的模型）。请检查 observer 的开关状态。",
             n + " quantizers have their observer switched off, so their scales no longer follow training. "
                 "QAT "
                 "usually needs observer_enabled = 1 (unless scales are frozen on purpose, or the model was "
                 "printed "
                 "for evaluation / export). Check how observers are switched."},
            "qat.weights_not_updating");
        for (const Off& o : obsOff)
            addLayerEvidence(f, *o.layer, std::string(o.which) + ": observer_enabled=0");
        out.push_back(std::move(f));
    }
}

// "block.add" -> "/block/add/" (torch.onnx scope names).
std::string onnxScope(const std::string& modulePath)
{
    std::string s = "/";
    for (char c : modulePath) s += c == '.' ? '/' : c;
    return s + "/";
}

void sharedHint(const model::LayerTable& t, const std::vector<model::LayerTable>& others,
                std::vector<Finding>& out)
{
    for (const Layer& l : t.layers) {
        if (l.op.find("FloatFunctional") == std::string::npos && l.op != "QFunctional") continue;
        const std::string scope = onnxScope(l.name);
        for (const model::LayerTable& g : others) {
            if (g.format == t.format) continue;
            size_t uses = 0;
            // Graph layers carry the module path as name ("add", "add (/Add_1)" for a second use)
            // or at least as the scope of their node name ("/block/add/Add").
            for (const Layer& n : g.layers) {
                const bool named = n.name == l.name || n.name.rfind(l.name + " (", 0) == 0;
                if (named || n.source.node.rfind(scope, 0) == 0) ++uses;
            }
            if (uses < 2) continue;
            Finding f =
                makeFinding("model.shared_quant_params", Severity::Warning, Stage::Qat,
                            {"一个 FloatFunctional 可能被调用了多次（提示）",
                             "One FloatFunctional may be called several times (hint)"},
                            {"打印的模型里只有一个 FloatFunctional 实例 " + l.name + "，而 " + g.sourcePath +
                                 " 的计算图中有 " + std::to_string(uses) +
                                 " 个算子属于它。多次调用同一个 FloatFunctional 会共享一组量化参数。"
                                 "这只是提示，不是证明：请在 forward 中确认，并为每次调用定义独立的成员。",
                             "The printed model has one FloatFunctional instance " + l.name +
                                 ", while the graph in " + g.sourcePath + " has " + std::to_string(uses) +
                                 " ops under it. Calling one FloatFunctional several times shares "
                                 "one set of quantization parameters. This is a hint, not proof: check "
                                 "forward, and define one "
                                 "member per call."},
                            "op.shared_floatfunctional");
            addLayerEvidence(f, l, std::to_string(uses) + " graph ops under " + scope);
            out.push_back(std::move(f));
            break;
        }
    }
}

}  // namespace

void checkPrintedModel(const model::LayerTable& table, const std::vector<model::LayerTable>& others,
                       std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    outputLowPrecision(table, out, evaluated);
    uncalibrated(table, out, evaluated);
    enabledFlags(table, out, evaluated);
    sharedHint(table, others, out);
}

}  // namespace qatdoctor::core::artifacts
