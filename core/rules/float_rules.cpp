// The float run on its own: float.not_converged (still improving at its end) and float.overfit
// (training accuracy far above evaluation accuracy).
#include <algorithm>
#include <cmath>

#include "core/common/finding_catalogue.h"
#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

const Text kNotConvergedAdvice = {
    "浮点模型在训练结束时仍在明显提升，说明尚未收敛。浮点模型未收敛时，微小的量化误差也可能放大成明显波动，"
    "QAT 初始 loss 偏大甚至出现 NAN。建议先把浮点模型训练到收敛，再进行 Calibration 和 QAT。",
    "The float model was still clearly improving when training ended: it has not converged. With an "
    "unconverged float model, small quantization errors can turn into large swings, a high initial "
    "QAT loss or even NaN. Train the float model to convergence before calibration and QAT."};

// Below this share of its planned steps a run stopped early (logging every few steps leaves
// the last logged one a little short of the end).
constexpr double kStoppedEarlyShare = 0.9;

// A run whose training ended inside its first epoch, by its settings' steps per epoch or by its
// epoch marks, while its loss still fell (the fitted end, or its last third below its first):
// the finding with its evidence.
std::optional<Finding> stoppedInFirstEpoch(const logs::Run& run, const MetricRef& loss, const Points& p,
                                           const Thresholds& t)
{
    const logs::Series& s = *loss.series;
    const double lastStep = s.step[p.index.back()];
    const auto perEpoch =
        metadataNumber(run, {"steps_per_epoch", "iters_per_epoch", "num_batches", "num_training_batches"});
    bool firstEpoch = perEpoch && *perEpoch > 1 && lastStep + 1 < kStoppedEarlyShare * *perEpoch;
    if (!perEpoch && s.hasEpoch()) {
        float last = 0;
        for (const auto& m : s.epochs) last = std::max(last, m.value);
        const auto planned = plannedEpochs(run);
        firstEpoch = last == 0 && planned && *planned > 1;
    }
    if (!firstEpoch) return std::nullopt;
    const size_t third = std::max<size_t>(1, p.size() / 3);
    const double early = medianOf(p.value, 0, third), late = medianOf(p.value, p.size() - third, p.size());
    const LateTrend trend = lateTrend(p.value);
    const bool falling = trend.dropPerTenth > t.floatConvergedLossLateDrop ||
                         (early > 0 && (early - late) / early > 10 * t.floatConvergedMinLastGain);
    if (!falling) return std::nullopt;
    const std::string where = perEpoch ? "step " + shortNumber(lastStep) + " of the " +
                                             shortNumber(*perEpoch) + " steps of its first epoch"
                                       : "inside its first epoch";
    const std::string whereZh =
        perEpoch ? "第一个 epoch 的 " + shortNumber(*perEpoch) + " 步中的第 " + shortNumber(lastStep) + " 步"
                 : "第一个 epoch 之内";
    Finding f = makeFinding("float.not_converged", Severity::Warning, Stage::Float,
                            {"浮点模型尚未收敛（停在" + whereZh + "，loss 仍在下降：" + shortNumber(early) +
                                 " -> " + shortNumber(late) + "）",
                             "Float model had not converged (stopped at " + where + ", loss still falling " +
                                 shortNumber(early) + " -> " + shortNumber(late) + ")"},
                            kNotConvergedAdvice, "qat.nan_loss");
    f.evidence.push_back(
        pointEvidence(run, loss, p.index.front(), Text{"第一个 loss 点", "first loss point"}));
    f.evidence.push_back(pointEvidence(
        run, loss, p.index.back(), Text{"最后一个点：停在" + whereZh, "last point: stopped at " + where}));
    return f;
}

}  // namespace

RuleOutcome checkFloatNotConverged(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    for (const logs::Run* run : runsWithRole(a, logs::RunRole::Float)) {
        if (MetricRef acc = evalAccuracy(*run)) {
            const Points p = finitePoints(*acc.series);
            if (p.size() >= 2) {
                out.ran = true;
                // the last evaluation against the best before it: a run that wobbles around its
                // level has had a higher one already
                const size_t before = static_cast<size_t>(
                    std::max_element(p.value.begin(), p.value.end() - 1) - p.value.begin());
                const double prev = p.value[before], last = p.value.back();
                const double gain = prev > 0 ? (last - prev) / prev : 0.0;
                if (gain > t.floatConvergedMinLastGain) {
                    const std::string what =
                        "val " + shortNumber(prev) + " -> " + shortNumber(last) + ", +" + percentText(gain);
                    Finding f = makeFinding(
                        "float.not_converged", Severity::Warning, Stage::Float,
                        {"浮点模型尚未收敛（" + what + "）", "Float model had not converged (" + what + ")"},
                        kNotConvergedAdvice, "qat.nan_loss");
                    f.strength = measuredAbove(
                        {"最后一次评测的相对精度提升", "relative accuracy gain of the last evaluation"}, gain,
                        t.floatConvergedMinLastGain, true);
                    f.evidence.push_back(
                        pointEvidence(*run, acc, p.index.back(), Text{"最后一次评测", "last evaluation"}));
                    f.evidence.push_back(pointEvidence(
                        *run, acc, p.index[before], Text{"此前最好的一次评测", "best evaluation before it"}));
                    // a gain within the evaluations' own wobble is not shown by them
                    const double noise = evaluationNoise(*acc.series);
                    f.strength->noise = noise / std::max(prev, 1e-12);
                    if (std::isfinite(noise) && last - prev < 2 * noise)
                        meetStandard(f, EvidenceLevel::Suggestive);
                    out.findings.push_back(std::move(f));
                }
                continue;
            }
        }
        // One evaluation or none (a run stopped within its first epochs): the training loss says
        // whether it was still falling when it stopped.
        MetricRef loss = trainLoss(*run);
        if (!loss) continue;
        const Points p = finitePoints(*loss.series);
        // Stopped inside its first epoch (its settings' steps per epoch, or its epoch marks) with
        // a loss still falling: not converged, however few points it logged.
        if (p.size() >= 3) {
            if (auto f = stoppedInFirstEpoch(*run, loss, p, t)) {
                out.ran = true;
                out.findings.push_back(std::move(*f));
                continue;
            }
        }
        if (p.size() < static_cast<size_t>(t.floatConvergedMinLossPoints)) continue;
        out.ran = true;
        const LateTrend trend = lateTrend(p.value);
        if (!(trend.dropPerTenth > t.floatConvergedLossLateDrop)) continue;
        const std::string what = "loss still falling " + percentText(trend.dropPerTenth) +
                                 " per tenth of the run, " + shortNumber(p.value.front()) + " -> " +
                                 shortNumber(p.value.back());
        Finding f = makeFinding(
            "float.not_converged", Severity::Warning, Stage::Float,
            {"浮点模型尚未收敛（loss 在结束时每十分之一训练仍下降 " + percentText(trend.dropPerTenth) + "，" +
                 shortNumber(p.value.front()) + " -> " + shortNumber(p.value.back()) + "）",
             "Float model had not converged (" + what + ")"},
            kNotConvergedAdvice, "qat.nan_loss");
        f.strength =
            measuredAbove({"loss 末段每十分之一训练的下降", "loss fall per tenth of the run at its end"},
                          trend.dropPerTenth, t.floatConvergedLossLateDrop, true);
        f.evidence.push_back(
            pointEvidence(*run, loss, p.index[p.size() - trend.fitted],
                          Text{"拟合末段的起点，拟合线在 " + shortNumber(trend.fittedFrom),
                               "start of the fitted end, line at " + shortNumber(trend.fittedFrom)}));
        f.evidence.push_back(pointEvidence(*run, loss, p.index.back(),
                                           Text{"最后一个点，拟合线在 " + shortNumber(trend.fittedTo),
                                                "last point, line at " + shortNumber(trend.fittedTo)}));
        // a run stopped well before the steps its settings plan was cut short, not finished
        const double lastStep = loss.series->step[p.index.back()];
        if (const auto planned = plannedSteps(*run); planned && lastStep + 1 < kStoppedEarlyShare * *planned)
            f.evidence.push_back(runEvidence(
                *run,
                Text{"停在第 " + shortNumber(lastStep + 1) + " 步，配置计划 " + shortNumber(*planned) + " 步",
                     "stopped at step " + shortNumber(lastStep + 1) + " of the " + shortNumber(*planned) +
                         " its settings plan"}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

RuleOutcome checkFloatOverfit(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    for (const logs::Run* run : runsWithRole(a, logs::RunRole::Float)) {
        MetricRef train = trainAccuracy(*run);
        auto val = finalEvalAccuracy(*run);
        if (!train || !val) continue;
        const Points p = finitePoints(*train.series);
        if (p.empty()) continue;
        out.ran = true;
        const size_t tail = std::min<size_t>(3, p.size());
        const double trainAcc = medianOf(p.value, p.size() - tail, p.size()) * accuracyScale(*train.series);
        const double gap = trainAcc - val->value;
        if (gap <= t.overfitMaxGap) continue;
        const std::string what = "train " + percentText(trainAcc) + " vs val " + percentText(val->value);
        Finding f = makeFinding(
            "float.overfit", Severity::Warning, Stage::Float,
            {"浮点模型可能过拟合（" + what + "）", "Float model may overfit (" + what + ")"},
            {"浮点模型过拟合时，输入稍有扰动就会引起明显输出变化，量化误差更容易被放大。建议检查输入稍作变化"
             "后"
             "输出是否变化很大、模型参数和 activation 是否较大，并优先解决浮点模型过拟合问题，再继续进行 "
             "QAT。",
             "An overfitting float model reacts strongly to small input changes, so quantization error "
             "is amplified. Check whether outputs change a lot for slightly changed inputs and whether "
             "weights or activations are very large; fix the overfitting before continuing with QAT."},
            "model.float_overfit");
        f.strength = measuredAbove({"训练精度高出评测精度", "training accuracy above evaluation accuracy"},
                                   gap, t.overfitMaxGap, true);
        f.evidence.push_back(pointEvidence(*run, train, p.index.back(),
                                           Text{"最终训练精度 " + percentText(trainAcc),
                                                "final training accuracy " + percentText(trainAcc)}));
        f.evidence.push_back(pointEvidence(*run, val->metric, val->index,
                                           Text{"最终评测精度 " + percentText(val->value),
                                                "final evaluation accuracy " + percentText(val->value)}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
