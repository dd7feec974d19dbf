// Final evaluation accuracies compared across stages: calib.low_accuracy (calibration far below
// float), qat.worse_than_calibration, qat.quantized_gap (quantized far below QAT) and
// qat.no_quantized_eval (nothing evaluates the quantized model).
#include <algorithm>
#include <cmath>

#include "core/common/finding_catalogue.h"
#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

struct Scored {
    const logs::Run* run = nullptr;
    FinalValue acc;
};

std::optional<Scored> firstScored(const logs::LogSet& a, logs::RunRole role)
{
    for (const logs::Run* r : runsWithRole(a, role))
        if (auto acc = finalEvalAccuracy(*r)) return Scored{r, *acc};
    return std::nullopt;
}

// How much the two evaluations compared wobble by themselves, as a fraction: the larger of the
// two series' evaluation noise (metrics.h), NaN when neither has enough evaluations to tell.
double noiseOf(const Scored& a, const Scored& b)
{
    double n = NAN;
    for (const Scored* s : {&a, &b}) {
        const double here = evaluationNoise(*s->acc.metric.series) * accuracyScale(*s->acc.metric.series);
        if (std::isfinite(here)) n = std::isfinite(n) ? std::max(n, here) : here;
    }
    return n;
}

// A drop past its threshold is shown by the evaluations only when it is also beyond their own
// wobble (twice the noise) and at least a point; otherwise it is one suggestive signal (a note).
void judgeDrop(Finding& f, double dropAbsolute, double noise, const Thresholds& t)
{
    if (f.strength) f.strength->noise = noise;
    if ((std::isfinite(noise) && dropAbsolute < 2 * noise) || dropAbsolute < t.accuracyDropMinPoints)
        meetStandard(f, EvidenceLevel::Suggestive);
}

Evidence accEvidence(const Scored& s, const Text& label)
{
    return pointEvidence(*s.run, s.acc.metric, s.acc.index,
                         Text{label.zh + " 最终精度 " + percentText(s.acc.value),
                              label.en + " final accuracy " + percentText(s.acc.value)});
}

}  // namespace

RuleOutcome checkCalibLowAccuracy(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    const auto fl = firstScored(a, logs::RunRole::Float);
    if (!fl || !(fl->acc.value > 0)) return out;
    for (const logs::Run* r : runsWithRole(a, logs::RunRole::Calibration)) {
        auto acc = finalEvalAccuracy(*r);
        if (!acc) continue;
        out.ran = true;
        const double drop = (fl->acc.value - acc->value) / fl->acc.value;
        if (drop <= t.calibLowMaxDrop) continue;
        const std::string what = percentText(acc->value) + " vs float " + percentText(fl->acc.value);
        Finding f = makeFinding(
            "calib.low_accuracy", Severity::Warning, Stage::Calibration,
            {"Calibration 精度明显低于 float（" + what + "）",
             "Calibration accuracy far below float (" + what + ")"},
            {"对同一模型，Calibration 精度与 QAT 精度通常正相关。Calibration "
             "精度已经明显偏低时，建议优先回到 "
             "Calibration "
             "阶段排查（校准数据、预处理、量化不友好的结构如高风险算子、共享模块、多输入分布差异），"
             "不宜直接寄希望于 QAT 完全修复问题。",
             "For the same model, calibration and QAT accuracy are usually correlated. With calibration "
             "already clearly low, go back to calibration first (calibration data, preprocessing, "
             "quantization-unfriendly structures such as high-risk operators, shared modules or inputs "
             "with very different distributions) rather than hoping QAT will fix it."},
            "qat.calibration_low");
        f.strength = measuredAbove({"相对浮点的精度下降", "accuracy drop relative to float"}, drop,
                                   t.calibLowMaxDrop, true);
        f.evidence.push_back(accEvidence({r, *acc}, {"calibration", "calibration"}));
        f.evidence.push_back(accEvidence(*fl, {"float", "float"}));
        judgeDrop(f, fl->acc.value - acc->value, noiseOf(*fl, {r, *acc}), t);
        out.findings.push_back(std::move(f));
    }
    return out;
}

RuleOutcome checkQatWorseThanCalibration(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    const auto calib = firstScored(a, logs::RunRole::Calibration);
    if (!calib || !(calib->acc.value > 0)) return out;
    for (const logs::Run* r : runsWithRole(a, logs::RunRole::Qat)) {
        auto acc = finalEvalAccuracy(*r);
        if (!acc) continue;
        out.ran = true;
        const double drop = (calib->acc.value - acc->value) / calib->acc.value;
        if (drop <= t.qatVsCalibMinDrop) continue;
        const std::string what = percentText(acc->value) + " vs calibration " + percentText(calib->acc.value);
        Finding f = makeFinding(
            "qat.worse_than_calibration", Severity::Warning, Stage::Qat,
            {"QAT 精度低于 Calibration（" + what + "）", "QAT ends below calibration (" + what + ")"},
            {"QAT 精度不升反降、低于 Calibration 时，建议优先检查 QAT pipeline 和训练策略（学习率、BN "
             "处理方式"
             "是否与浮点训练一致、scale 应固定还是继续更新），而不是继续盲目训练；同时检查 quantized model "
             "的精度是否也在下降。",
             "When QAT ends below calibration, check the QAT pipeline and the training strategy first "
             "(learning rate, whether BN is handled as in float training, whether scales should stay "
             "fixed or keep updating) instead of training longer; also check whether the quantized "
             "model's accuracy drops as well."},
            "qat.accuracy_drops");
        f.strength = measuredAbove({"相对 Calibration 的精度下降", "accuracy drop relative to calibration"},
                                   drop, t.qatVsCalibMinDrop, true);
        f.evidence.push_back(accEvidence({r, *acc}, {"QAT", "QAT"}));
        f.evidence.push_back(accEvidence(*calib, {"calibration", "calibration"}));
        judgeDrop(f, calib->acc.value - acc->value, noiseOf(*calib, {r, *acc}), t);
        out.findings.push_back(std::move(f));
    }
    return out;
}

RuleOutcome checkQatQuantizedGap(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    for (const logs::Run& q : a.runs) {
        auto qacc = finalQuantizedAccuracy(q);
        if (!qacc) continue;
        const logs::Run* qatRun = q.role == logs::RunRole::Qat ? &q : qatRunFor(a, &q);
        if (!qatRun) continue;
        auto acc = finalEvalAccuracy(*qatRun);
        if (!acc || !(acc->value > 0)) continue;
        out.ran = true;
        const double drop = (acc->value - qacc->value) / acc->value;
        if (drop <= t.quantizedGapMaxDrop) continue;
        const std::string what = percentText(qacc->value) + " vs QAT " + percentText(acc->value);
        // a small gap is a mismatch to look into; a collapse is a model that must not ship
        const Severity severity = drop > t.quantizedGapErrorDrop ? Severity::Error : Severity::Warning;
        Finding f = makeFinding(
            "qat.quantized_gap", severity, Stage::Export,
            {"quantized 模型精度明显低于 QAT（" + what + "）",
             "Quantized model clearly below QAT (" + what + ")"},
            {"QAT 阶段无法完全模拟定点计算，导出、convert 或查表转定点也会引入误差。QAT 精度正常而 quantized "
             "精度异常时，建议优先按导出一致性问题处理（pre_export "
             "判断是否查表转定点导致，查看逐层对比结果如 "
             "compare_per_layer_out.txt），而不是继续盲目训练。",
             "QAT cannot fully simulate fixed-point computation, and export, convert or the "
             "look-up-table conversion add error. When QAT is fine but the quantized model is not, "
             "treat it as an export-consistency problem (pre_export tells whether the look-up tables "
             "cause it; compare per layer, e.g. compare_per_layer_out.txt) rather than training longer."},
            "qat.quantized_mismatch");
        f.strength = measuredAbove(
            {"相对 QAT 的精度下降", "accuracy drop relative to QAT"}, drop,
            severity == Severity::Error ? t.quantizedGapErrorDrop : t.quantizedGapMaxDrop, true);
        f.evidence.push_back(accEvidence({&q, *qacc}, {"quantized", "quantized"}));
        f.evidence.push_back(accEvidence({qatRun, *acc}, {"QAT", "QAT"}));
        judgeDrop(f, acc->value - qacc->value, noiseOf({qatRun, *acc}, {&q, *qacc}), t);
        out.findings.push_back(std::move(f));
    }
    return out;
}

namespace {

// The files of the runs with metric-bearing lines the reader did not understand.
std::vector<std::pair<const logs::Run*, const logs::RunFile*>> unreadLines(const logs::LogSet& a)
{
    std::vector<std::pair<const logs::Run*, const logs::RunFile*>> out;
    for (const logs::Run& r : a.runs)
        for (const logs::RunFile& f : r.files)
            if (f.unreadLines > 0 &&
                std::none_of(out.begin(), out.end(), [&](const auto& p) { return p.second->path == f.path; }))
                out.emplace_back(&r, &f);
    return out;
}

}  // namespace

RuleOutcome checkQatNoQuantizedEval(const logs::LogSet& a, const Thresholds&)
{
    RuleOutcome out;
    const auto qats = runsWithRole(a, logs::RunRole::Qat);
    if (qats.empty()) return out;
    for (const logs::Run& r : a.runs) {
        if ((r.role == logs::RunRole::Quantized && !r.series.empty()) || finalQuantizedAccuracy(r)) {
            out.ran = true;
            return out;
        }
    }
    // A claim of absence needs coverage: every metric-bearing line of every run understood. A
    // line read as nothing may be the quantized model's evaluation in words the reader lacks.
    if (const auto gaps = unreadLines(a); !gaps.empty()) {
        uint64_t lines = 0;
        for (const auto& [run, file] : gaps) lines += file->unreadLines;
        const std::string n = std::to_string(lines);
        out.notCheckedBecause =
            Text{"未检查：有 " + n + " 行带指标的日志没有读懂，其中可能有 quantized 模型的评测",
                 "not checked: " + n + " line" + (lines > 1 ? "s" : "") +
                     " with metrics were not understood; they may hold the quantized "
                     "model's evaluation"};
        for (const auto& [run, file] : gaps)
            for (uint32_t line : file->unreadSample) {
                Evidence e;
                e.run = run->name;
                e.file = file->path;
                e.line = line;
                e.detail = "not understood";
                e.detailZh = "未读懂";
                out.notCheckedEvidence.push_back(std::move(e));
            }
        return out;
    }
    out.ran = true;
    const logs::Run* qat = qatRunFor(a, nullptr);
    Finding f = makeFinding(
        "qat.no_quantized_eval", Severity::Warning, Stage::Qat,
        {"只评测了 QAT 模型，没有 quantized 模型的精度",
         "Only the QAT model is evaluated, not the quantized model"},
        {"QAT 阶段无法完全模拟 HBIR 中的纯定点计算逻辑，仅观察 qat model 可能掩盖部署侧误差。建议在 QAT "
         "训练过程中同步验证 quantized model（convert_fx / hbdk4 convert 后的模型）的精度，而不是仅以 qat "
         "model 作为精测和监控依据。",
         "QAT cannot fully simulate the fixed-point computation of HBIR, so watching only the QAT "
         "model can hide deployment-side error. Evaluate the quantized model (after convert_fx / hbdk4 "
         "convert) during QAT as well, instead of using the QAT model alone for accuracy and monitoring."},
        "method.qat_only_eval");
    if (auto acc = finalEvalAccuracy(*qat))
        f.evidence.push_back(accEvidence({qat, *acc}, {"QAT（唯一一次评测）", "QAT (the only evaluation)"}));
    else
        f.evidence.push_back(runEvidence(*qat, Text{"已加载的运行中没有 quantized 评测",
                                                    "no quantized evaluation among the loaded runs"}));
    out.findings.push_back(std::move(f));
    return out;
}

}  // namespace qatdoctor::core::rules
