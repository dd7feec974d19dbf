// Findings from model_check_result.txt, following Horizon's reading rules (horizon-formats.md 1.1).
#include <algorithm>

#include "core/artifacts/artifact_checks.h"
#include "core/artifacts/finding_builder.h"
#include "core/artifacts/text_lines.h"

namespace qatdoctor::core::artifacts {
namespace {

using model::DType;
using model::Layer;

const DataTable* section(const std::vector<const DataTable*>& sections, const char* kind)
{
    for (const DataTable* t : sections)
        if (t->kind == kind) return t;
    return nullptr;
}

bool hasSentence(const std::vector<const DataTable*>& sections, std::string_view part)
{
    const DataTable* s = section(sections, "model_check.summary");
    if (!s) return false;
    for (const auto& row : s->rows)
        if (row.size() > 1 && containsNoCase(row[1], part)) return true;
    return false;
}

std::string dtypes(const std::vector<DType>& ts)
{
    std::string s = "[";
    for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + std::string(model::dtypeName(ts[i]));
    return s + "]";
}

void dequantFedLow(const model::LayerTable& lt, std::vector<Finding>& out,
                   std::vector<std::string>& evaluated)
{
    Finding f = makeFinding(
        "model.output_low_precision", Severity::Warning, Stage::Qat,
        {"DeQuantStub 的输入是 qint8/qint16：输出不是高精度",
         "A DeQuantStub is fed by qint8/qint16: the output is not high precision"},
        {"model_check_result.txt 中 DeQuantStub 的 Input dtype 为 "
         "qint8/qint16，说明其前面的输出层（Conv/Linear/Matmul）"
         "没有配置高精度输出。高精度输出时 DeQuantStub 的输入应为 torch.float32（或 "
         "float16）。请检查输出层的 qconfig 与模板设置。",
         "In model_check_result.txt a DeQuantStub has input dtype qint8/qint16, so the output layer before "
         "it "
         "(Conv/Linear/Matmul) is not configured for high-precision output. With high-precision output the "
         "DeQuantStub input is torch.float32 (or float16). Check the output layer's qconfig and template."},
        "settings.output_high_precision");
    bool any = false;
    for (const Layer& l : lt.layers) {
        if (l.op.find("DeQuantStub") == std::string::npos) continue;
        any = true;
        const bool low = std::any_of(l.inputDtypes.begin(), l.inputDtypes.end(), [](DType t) {
            return t == DType::Int8 || t == DType::Int16 || t == DType::UInt8;
        });
        if (low) addLayerEvidence(f, l, "Input dtype " + dtypes(l.inputDtypes));
    }
    if (any) evaluated.push_back("model.output_low_precision");
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

void floatFallback(const model::LayerTable& lt, std::vector<Finding>& out,
                   std::vector<std::string>& evaluated)
{
    Finding f = makeFinding(
        "model.float_fallback", Severity::Warning, Stage::Qat,
        {"有量化算子的输入是 float32", "Quantized ops receive float32 input"},
        {"这些非 Stub 算子的 Input dtype 含 torch.float32：通常是缺少 "
         "QuantStub（例如未量化的常量、pos_embed、anchor），"
         "该算子可能回退到 CPU 或精度异常。新模板下 Conv/Linear 后接 ReLU 时中间为 float32 属正常，已排除。",
         "These non-stub ops have torch.float32 among their input dtypes: usually a missing QuantStub (e.g. "
         "an "
         "unquantized constant, pos_embed or anchors); such an op may fall back to CPU or lose accuracy. A "
         "ReLU "
         "right after a Conv/Linear that outputs float32 (new template) is normal and left out."},
        "op.uncalibrated_ops");
    bool any = false;
    const Layer* prev = nullptr;
    for (const Layer& l : lt.layers) {
        const bool stub = l.op.find("QuantStub") != std::string::npos;
        if (!l.inputDtypes.empty()) any = true;
        const bool floatIn = std::any_of(l.inputDtypes.begin(), l.inputDtypes.end(),
                                         [](DType t) { return t == DType::Float32; });
        const bool gemmBefore =
            prev && prev->outputDtype == DType::Float32 &&
            (prev->op.find("Conv") != std::string::npos || prev->op.find("Linear") != std::string::npos);
        if (!stub && floatIn && !gemmBefore && !l.op.empty())
            addLayerEvidence(f, l, l.op + " input " + dtypes(l.inputDtypes));
        prev = &l;
    }
    if (any) evaluated.push_back("model.float_fallback");
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

void unfused(const std::vector<const DataTable*>& sections, std::vector<Finding>& out,
             std::vector<std::string>& evaluated)
{
    const DataTable* t = section(sections, "model_check.unfused");
    if (t || hasSentence(sections, "all fusable modules are fused")) evaluated.push_back("model.unfused");
    if (!t || t->rows.empty()) return;
    const int group = t->column("group");
    const int name = t->column("name");
    const int type = t->column("type");
    std::string groups = group >= 0 ? t->rows.back()[static_cast<size_t>(group)] : "?";
    Finding f = makeFinding(
        "model.unfused", Severity::Warning, Stage::Qat,
        {"有可以融合的模块没有融合", "Fusable modules are not fused"},
        {"model_check_result.txt 列出了 " + groups +
             " 组可融合但未融合的模块（如 Conv+BN+ReLU、Conv+Add）。未融合会多出量化节点、"
             "降低精度和速度。请检查这些模块的写法（共享模块、中间结果被其他分支使用等）并重新 fuse。",
         "model_check_result.txt lists " + groups +
             " groups of modules that could be fused but are not (e.g. "
             "Conv+BN+ReLU, Conv+Add). Unfused modules add quantizers and cost accuracy and speed. Check how "
             "these "
             "modules are written (shared modules, an intermediate result used by another branch) and fuse "
             "them."},
        "");
    for (size_t r = 0; r < t->rows.size(); ++r)
        addEvidence(f, t->sourcePath, t->rowLines[r], name >= 0 ? t->rows[r][static_cast<size_t>(name)] : "",
                    "group " + (group >= 0 ? t->rows[r][static_cast<size_t>(group)] : "?") + ": " +
                        (type >= 0 ? t->rows[r][static_cast<size_t>(type)] : ""));
    out.push_back(std::move(f));
}

void shared(const model::LayerTable* lt, const std::vector<const DataTable*>& sections,
            std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const DataTable* t = section(sections, "model_check.called_times");
    if (t || hasSentence(sections, "run exactly once")) evaluated.push_back("model.shared_quant_params");
    if (!t) return;
    const int name = t->column("name");
    const int times = t->column("called times");
    if (name < 0 || times < 0) return;
    Finding f =
        makeFinding("model.shared_quant_params", Severity::Warning, Stage::Qat,
                    {"有模块被调用了多次，共享同一组量化参数",
                     "Modules are called several times and share one set of quantization parameters"},
                    {"model_check_result.txt 显示这些模块在 forward "
                     "中被调用了多次。被多次调用的模块（FloatFunctional、QuantStub、Conv 等）"
                     "共享同一组量化参数，输入分布不同时会引入额外误差。请为每次调用定义独立的模块。",
                     "model_check_result.txt shows these modules are called several times in forward. "
                     "A module called several "
                     "times (FloatFunctional, QuantStub, Conv...) shares one set of quantization "
                     "parameters, which adds error "
                     "when its inputs differ. Define one module per call."},
                    "op.shared_floatfunctional");
    for (size_t r = 0; r < t->rows.size(); ++r) {
        const std::string& n = t->rows[r][static_cast<size_t>(name)];
        auto v = parseNumber(t->rows[r][static_cast<size_t>(times)]);
        if (!v || *v <= 1) continue;
        // A DeQuantStub holds no quantization parameters; reusing it is harmless.
        const Layer* l = lt ? lt->find(n) : nullptr;
        if ((l && l->op.find("DeQuantStub") != std::string::npos) || containsNoCase(n, "dequant")) continue;
        addEvidence(f, t->sourcePath, t->rowLines[r], n, "called " + fullNumber(*v) + " times", *v,
                    "called times");
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

}  // namespace

void checkModelCheckResult(const model::LayerTable* layers, const std::vector<const DataTable*>& sections,
                           std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    if (layers) {
        dequantFedLow(*layers, out, evaluated);
        floatFallback(*layers, out, evaluated);
    }
    unfused(sections, out, evaluated);
    shared(layers, sections, out, evaluated);
    if (const DataTable* messages = section(sections, "model_check.messages"))
        checkQconfigMessages(*messages, out, evaluated);
}

}  // namespace qatdoctor::core::artifacts
