#include "core/rules/known_warnings.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

struct KnownWarning {
    std::string_view needle;                   // text of the warning line
    std::array<std::string_view, 3> explains;  // finding ids it is a cause of, best first
    Text meaning;                              // put before the line in the evidence: what it means
    // The finding of its own when none of `explains` was found.
    const char* id;
    Severity severity;
    Stage stage;
    Text title;
    Text message;
    const char* faq;
};

const std::array<KnownWarning, 1> kKnownWarnings{{
    {"must run observer before calling calculate_qparams",
     {"qat.quantized_gap", "calib.low_accuracy", "qat.worse_than_calibration"},
     {"observer 从未见过数据，该层用的是默认的 scale / zero point",
      "an observer never saw data: that layer got the default scale / zero point"},
     "log.observer_never_ran",
     Severity::Warning,
     Stage::Calibration,
     {"有 observer 从未运行：量化参数取了默认值（torch 警告）",
      "An observer never ran: its quantization parameters are the defaults (torch warning)"},
     {"torch 在计算量化参数时发现 observer 没有统计过任何数据，于是返回默认的 scale 和 zero point。"
      "对应的算子在 calibration / QAT 中没有被执行或其 observer 被关闭，转换后的定点模型在该处用的是"
      "任意的量化范围，精度通常会明显下降。检查该算子在 calibration 和 QAT 的前向中是否被调用、"
      "fake quant / observer 是否被关闭。",
      "torch computed quantization parameters for an observer that had seen no data, and returned the "
      "default scale and zero point. The operator was not run during calibration / QAT, or its observer was "
      "switched off, so the converted fixed-point model quantizes it with an arbitrary range, which usually "
      "costs accuracy. Check that the operator is called in the calibration and QAT forward passes and that "
      "its fake quant / observer are enabled."},
     "op.uncalibrated_ops"},
}};

Evidence warningEvidence(const logs::Run& run, const logs::RunEvent& event, const KnownWarning& known)
{
    Evidence e = eventEvidence(run, event);
    e.detailZh = known.meaning.zh + "：" + e.detail;
    e.detail = known.meaning.en + ": " + e.detail;
    return e;
}

}  // namespace

void explainWithKnownWarnings(const logs::LogSet& logs, CheckResults& results)
{
    for (const KnownWarning& known : kKnownWarnings) {
        std::vector<Evidence> seen;
        for (const logs::Run& run : logs.runs)
            for (const logs::RunEvent& event : run.events)
                if (event.text.find(known.needle) != std::string::npos)
                    seen.push_back(warningEvidence(run, event, known));
        if (seen.empty()) continue;
        Finding* explained = nullptr;
        for (std::string_view id : known.explains) {
            if (id.empty() || explained) continue;
            const auto it = std::find_if(results.findings.begin(), results.findings.end(),
                                         [&](const Finding& f) { return f.id == id; });
            if (it != results.findings.end()) explained = &*it;
        }
        if (explained) {
            for (Evidence& e : seen) explained->evidence.push_back(std::move(e));
            continue;
        }
        Finding f = makeFinding(known.id, known.severity, known.stage, known.title, known.message, known.faq);
        f.evidence = std::move(seen);
        results.findings.push_back(std::move(f));
    }
}

}  // namespace qatdoctor::core::rules
