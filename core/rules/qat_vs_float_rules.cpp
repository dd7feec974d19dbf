// QAT compared with float's end: qat.start_loss_high (QAT starts far above where float ended)
// and qat.trend_mismatch (QAT's loss rises where float's late phase was flat or falling).
#include <algorithm>
#include <cmath>

#include "core/common/finding_catalogue.h"
#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

struct LossPair {
    const logs::Run* floatRun = nullptr;
    MetricRef floatLoss;
    std::vector<std::pair<const logs::Run*, MetricRef>> qat;
};

LossPair lossPair(const logs::LogSet& a)
{
    LossPair p;
    for (const logs::Run* r : runsWithRole(a, logs::RunRole::Float)) {
        if (MetricRef m = trainLoss(*r)) {
            p.floatRun = r;
            p.floatLoss = m;
            break;
        }
    }
    for (const logs::Run* r : runsWithRole(a, logs::RunRole::Qat))
        if (MetricRef m = trainLoss(*r)) p.qat.emplace_back(r, m);
    return p;
}

// Relative change between the medians of the first and last quarter of values (at least one
// point each).
double relativeChange(const std::vector<double>& v)
{
    const size_t q = std::max<size_t>(1, v.size() / 4);
    const double first = medianOf(v, 0, q);
    const double last = medianOf(v, v.size() - q, v.size());
    return first > 0 ? (last - first) / first : NAN;
}

// "+12.5%", or "x3.5e+04" once the change is too large for a percentage to read well.
std::string change(double c)
{
    if (c > 9.0) return "x" + shortNumber(1.0 + c);
    return (c >= 0 ? "+" : "") + percentText(c);
}

}  // namespace

RuleOutcome checkQatStartLossHigh(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    const LossPair p = lossPair(a);
    if (!p.floatRun) return out;
    const Points fp = finitePoints(*p.floatLoss.series);
    if (fp.empty()) return out;
    const size_t tail = std::min<size_t>(3, fp.size());
    const double floatEnd = medianOf(fp.value, fp.size() - tail, fp.size());
    for (const auto& [run, loss] : p.qat) {
        const Points qp = finitePoints(*loss.series);
        if (qp.empty()) continue;
        out.ran = true;
        const double start = qp.value.front();
        if (!(start > t.qatStartLossRatio * floatEnd && start - floatEnd > t.qatStartMinLossDelta)) continue;
        const std::string what = shortNumber(start) + " vs float " + shortNumber(floatEnd) + ", " +
                                 shortNumber(start / floatEnd) + "x";
        Finding f = makeFinding(
            "qat.start_loss_high", Severity::Warning, Stage::Qat,
            {"QAT 初始 loss 远高于 float 结束时（" + what + "）",
             "QAT starts far above where float ended (" + what + ")"},
            {"QAT 应从浮点模型结束时的状态继续，初始 loss 通常与 float 末期接近。初始 loss 很大常见原因："
             "未正确执行 Calibration 或未加载 Calibration 模型参数、prepare "
             "后模型又被修改、浮点模型尚未收敛。"
             "建议先确认已完成 Calibration 并正确加载其参数，以获得更稳定的初始系数。",
             "QAT should continue from where the float model ended, so its first loss is normally "
             "close to float's final loss. A much larger start usually means calibration was not run "
             "or its parameters were not loaded, the model was changed after prepare, or the float "
             "model had not converged. Run calibration and load its parameters first, for stable "
             "initial scales."},
            "qat.nan_loss");
        f.strength = measuredAbove({"QAT 初始 loss 与 float 末期之比", "QAT's first loss over float's final"},
                                   start / floatEnd, t.qatStartLossRatio);
        f.evidence.push_back(
            pointEvidence(*run, loss, qp.index.front(), Text{"QAT 的第一个 loss", "first QAT loss"}));
        f.evidence.push_back(
            pointEvidence(*p.floatRun, p.floatLoss, fp.index.back(),
                          Text{"float 最终 loss 水平（最后 " + std::to_string(tail) + " 个点的中位数）" +
                                   shortNumber(floatEnd),
                               "float's final loss level (median of last " + std::to_string(tail) +
                                   " points) " + shortNumber(floatEnd)}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

RuleOutcome checkQatTrendMismatch(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    const LossPair p = lossPair(a);
    if (!p.floatRun) return out;
    const Points fp = finitePoints(*p.floatLoss.series);
    const size_t lateCount =
        std::max<size_t>(4, static_cast<size_t>(std::ceil(fp.size() * t.trendLateFraction)));
    if (fp.size() < lateCount) return out;
    const std::vector<double> late(fp.value.end() - static_cast<std::ptrdiff_t>(lateCount), fp.value.end());
    const double floatChange = relativeChange(late);
    if (!std::isfinite(floatChange)) return out;
    for (const auto& [run, loss] : p.qat) {
        const Points qp = finitePoints(*loss.series);
        if (qp.size() < 4) continue;
        out.ran = true;
        const double qatChange = relativeChange(qp.value);
        if (!std::isfinite(qatChange) || qatChange - floatChange <= t.trendMaxRise) continue;
        const std::string what =
            "QAT loss " + change(qatChange) + ", float late phase " + change(floatChange);
        const std::string whatZh = "QAT loss " + change(qatChange) + "，float 末期 " + change(floatChange);
        Finding f = makeFinding(
            "qat.trend_mismatch", Severity::Warning, Stage::Qat,
            {"QAT 的 loss 趋势与 float 末期不一致（" + whatZh + "）",
             "QAT's loss trend differs from float's late phase (" + what + ")"},
            {"一般情况下 QAT 的 loss、精度等整体趋势应与浮点训练基本一致；差异较大通常说明 QAT pipeline、"
             "训练状态控制或量化配置存在问题。建议优先检查 train() / eval() 与 set_fake_quantize() "
             "的状态切换、"
             "是否正确加载了 Calibration 参数、prepare 后的模型是否又被修改，而不是直接调整大量训练超参数。",
             "QAT's loss and accuracy should broadly follow float training; a clearly different trend "
             "usually means a problem in the QAT pipeline, the training-state control or the quantization "
             "configuration. Check the train() / eval() and set_fake_quantize() switches, that the "
             "calibration parameters were loaded and that the model was not changed after prepare, "
             "before tuning many hyper-parameters."},
            "qat.behaviour_vs_float");
        f.strength =
            measuredAbove({"QAT loss 变化减去 float 末期变化", "QAT's loss change minus float's late change"},
                          qatChange - floatChange, t.trendMaxRise, true);
        const size_t q = std::max<size_t>(1, qp.size() / 4);
        f.evidence.push_back(
            pointEvidence(*run, loss, qp.index.front(),
                          Text{"QAT 前四分之一的中位数 " + shortNumber(medianOf(qp.value, 0, q)),
                               "QAT first-quarter median " + shortNumber(medianOf(qp.value, 0, q))}));
        f.evidence.push_back(pointEvidence(
            *run, loss, qp.index.back(),
            Text{"QAT 最后四分之一的中位数 " + shortNumber(medianOf(qp.value, qp.size() - q, qp.size())),
                 "QAT last-quarter median " + shortNumber(medianOf(qp.value, qp.size() - q, qp.size()))}));
        f.evidence.push_back(pointEvidence(*p.floatRun, p.floatLoss, fp.index[fp.size() - lateCount],
                                           Text{"float 末期的开始", "start of float's late phase"}));
        // The rise is shown by the loss only beyond the wobble of its quarter medians (a median of
        // q noisy batches moves by ~1.25 sigma / sqrt(q)); and a QAT evaluation that does not get
        // worse does not follow the loss: either way one suggestive signal, a note.
        const double first = medianOf(qp.value, 0, q), last = medianOf(qp.value, qp.size() - q, qp.size());
        const double se = 1.2533 * pointNoise(qp.value) * std::sqrt(2.0 / static_cast<double>(q));
        f.strength->noise = first > 0 ? se / first : NAN;
        // (the evaluation holds when QAT ends as high as the stage it started from: calibration,
        // else float, within a point)
        bool evaluationHolds = false;
        if (const auto qatAcc = finalEvalAccuracy(*run)) {
            std::optional<FinalValue> before;
            for (const logs::RunRole role : {logs::RunRole::Calibration, logs::RunRole::Float})
                for (const logs::Run* r : runsWithRole(a, role))
                    if (!before) before = finalEvalAccuracy(*r);
            evaluationHolds = before && qatAcc->value >= before->value - 0.01;
        }
        if ((std::isfinite(se) && last - first < 2 * se) || evaluationHolds)
            meetStandard(f, EvidenceLevel::Suggestive);
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
