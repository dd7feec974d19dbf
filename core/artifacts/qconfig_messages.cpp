// The "Please check if these OPs qconfigs are expected.." table of model_check_result.txt and
// qconfig_info.txt (Module Name | Module Type | Msg): each message kind the toolchain writes
// becomes its own finding, naming the modules. The kinds, as check_qat_model and the older
// check_qconfig print them, are in the table below; a message of no known kind is still listed.
#include <string_view>

#include "core/artifacts/artifact_checks.h"
#include "core/artifacts/finding_builder.h"
#include "core/artifacts/text_lines.h"

namespace qatdoctor::core::artifacts {
namespace {

struct MessageKind {
    const char* id;
    std::string_view match;  // lower-case substring of the message
    Severity severity;
    Text title;
    Text message;
    const char* faq;
};

// First match wins: "fixed input scale" before "fixed scale".
const MessageKind kKinds[] = {
    {"qconfig.output_not_quantized",
     "activation is none",
     Severity::Info,
     {"有模块的输出没有量化（activation 为 None）",
      "Modules whose output is not quantized (activation is None)"},
     {"这些模块的 activation qconfig 为 None：输出不经过量化。若它是模型的输出层，这正是高精度输出；"
      "若不是，它后面的算子会收到浮点输入，部署时可能回退到 CPU。",
      "These modules have no activation qconfig, so their output is not quantized. For the model's output "
      "layer that is high-precision output, as intended; anywhere else the next op receives float input and "
      "may fall back to the CPU at deployment."},
     "settings.output_high_precision"},
    {"qconfig.fixed_input_scale",
     "fixed input scale",
     Severity::Info,
     {"QuantStub 使用了固定的输入 scale", "A QuantStub uses a fixed input scale"},
     {"这些 QuantStub 设置了 scale 参数，输入按固定 scale 量化，不由 calibration 统计。"
      "请确认该 scale 与输入的真实范围（例如图像归一化后的范围）一致。",
      "These QuantStubs were given a scale: the input is quantized with it, not with what calibration "
      "observes. Check that it fits the input's real range (e.g. the range after image normalization)."},
     ""},
    {"qconfig.fixed_scale",
     "fixed scale",
     Severity::Info,
     {"有模块的输出 scale 是固定的", "Modules with a fixed output scale"},
     {"这些模块使用 FixedScaleObserver（或 observer 被关闭），输出 scale 不会随 calibration / QAT 更新。"
      "对 sigmoid、tanh 等值域固定的算子这是正常的；否则请检查 observer 是否被意外关闭。",
      "These modules use a FixedScaleObserver (or a disabled observer): their output scale does not follow "
      "calibration or QAT. Normal for ops with a fixed range (sigmoid, tanh); otherwise check whether the "
      "observer was turned off by mistake."},
     "qat.qconfig_intervention"},
    {"qconfig.out_dtype_mismatch",
     "actual out dtype != configured out dtype",
     Severity::Warning,
     {"实际输出 dtype 与配置不一致", "The actual output dtype differs from the configured one"},
     {"这些模块的 fake quant dtype 与真正输出的 dtype 不同：配置没有按预期生效（常见于 int16 配置后被回退）。"
      "请检查 qconfig 模板与算子融合。",
      "These modules output another dtype than their fake quant is configured for: the qconfig did not take "
      "effect as intended (often an int16 setting that fell back). Check the qconfig templates and fusion."},
     "qat.int16_not_applied"},
    {"qconfig.weight_not_int8",
     "weight!",
     Severity::Warning,
     {"有权重不是 qint8", "Weights that are not qint8"},
     {"这些模块的权重 dtype 不是 qint8（例如 qint16）。请确认是有意为之，且目标 BPU 支持该权重精度。",
      "These modules have a weight dtype other than qint8 (e.g. qint16). Check that this is intended and "
      "that the target BPU supports that weight precision."},
     ""},
    {"qconfig.mixed_dtypes",
     "dtype",
     Severity::Warning,
     {"有模块的输入与输出 dtype 混用", "Modules that mix input and output dtypes"},
     {"这些模块的输入 dtype 与输出 dtype 不一致（例如 qint8 输入、qint16 输出，或量化与浮点混用）。"
      "混用往往意味着缺少 QuantStub、int16 配置只生效了一部分，或有浮点常量参与计算。",
      "These modules' input dtypes differ from their output dtype (qint8 in and qint16 out, or quantized "
      "and float mixed). That usually means a missing QuantStub, an int16 setting applied only in part, or a "
      "float constant in the computation."},
     "qat.int16_not_applied"},
};

const MessageKind kOther = {"qconfig.other",
                            "",
                            Severity::Info,
                            {"qconfig 检查的其他提示", "Other notes of the qconfig check"},
                            {"model_check_result.txt 的 qconfig 检查表中还有这些提示。",
                             "The qconfig check table has these notes too."},
                            ""};

const MessageKind& kindOf(const std::string& message)
{
    const std::string low = toLower(message);
    for (const MessageKind& k : kKinds)
        if (low.find(k.match) != std::string::npos) return k;
    return kOther;
}

}  // namespace

void checkQconfigMessages(const DataTable& table, std::vector<Finding>& out,
                          std::vector<std::string>& evaluated)
{
    const int name = table.column("module name");
    const int msg = table.column("msg");
    if (name < 0 || msg < 0) return;
    for (const MessageKind& k : kKinds) evaluated.push_back(k.id);
    std::vector<Finding> byKind;
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const std::string& text = table.rows[r][static_cast<size_t>(msg)];
        if (trim(text).empty()) continue;
        const MessageKind& k = kindOf(text);
        Finding* f = nullptr;
        for (Finding& have : byKind)
            if (have.id == k.id) f = &have;
        if (!f)
            f = &byKind.emplace_back(makeFinding(k.id, k.severity, Stage::Qat, k.title, k.message, k.faq));
        addEvidence(*f, table.sourcePath, table.rowLines[r], table.rows[r][static_cast<size_t>(name)],
                    std::string(trim(text)));
    }
    for (Finding& f : byKind) out.push_back(std::move(f));
}

}  // namespace qatdoctor::core::artifacts
