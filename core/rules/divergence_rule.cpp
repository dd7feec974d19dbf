// loss.divergence: a training loss that explodes (>> its early level) or keeps rising.
#include <algorithm>

#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

const Text kAdvice = {
    "损失持续上升或爆炸，通常是学习率过大或训练策略不合适，也可能是浮点模型尚未收敛或未正确加载 "
    "Calibration 参数。建议优先调低学习率，必要时增加梯度裁剪；如果浮点训练使用了 OneCycle 等对学习率"
    "影响较大的策略，QAT 阶段先切换为较稳定的 SGD 策略再验证。",
    "The loss keeps rising or explodes: usually a too large learning rate or an unsuitable "
    "training strategy, possibly a float model that has not converged or calibration parameters "
    "that were not loaded. Lower the learning rate first and add gradient clipping if needed; if "
    "float training used a strong schedule such as OneCycle, switch QAT to a steadier SGD schedule "
    "and verify again."};

}  // namespace

RuleOutcome checkLossDivergence(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    const size_t earlyMax = std::max<size_t>(1, static_cast<size_t>(t.divergenceEarlyPoints));
    for (const logs::Run& run : a.runs) {
        MetricRef loss = trainLoss(run);
        if (!loss) loss = evalLoss(run);
        if (!loss) continue;
        const Points p = finitePoints(*loss.series);
        // the early window is at most a quarter of the points: a 5-epoch per-epoch log has one
        const size_t early = std::min(earlyMax, std::max<size_t>(1, p.size() / 4));
        if (p.size() < early + 1 || p.size() < 3) continue;
        out.ran = true;
        const double level = medianOf(p.value, 0, early);
        if (!(level > 0)) continue;
        // Explosion: the first point far above the early level.
        size_t boom = p.size();
        for (size_t i = early; i < p.size(); ++i)
            if (p.value[i] > t.divergenceGrowthFactor * level) {
                boom = i;
                break;
            }
        if (boom < p.size()) {
            const double peak = *std::max_element(p.value.begin(), p.value.end());
            const std::string what =
                run.name + " " + loss.name + ": " + shortNumber(level) + " -> " + shortNumber(peak);
            Finding f = makeFinding("loss.divergence", Severity::Error, stageForRole(run.role),
                                    {"损失爆炸（" + what + "）", "Loss explodes (" + what + ")"}, kAdvice,
                                    "qat.nan_loss");
            f.strength = measuredAbove({"相对早期水平的倍数", "times the early level"}, p.value[boom] / level,
                                       t.divergenceGrowthFactor);
            f.evidence.push_back(
                pointEvidence(run, loss, p.index[boom],
                              Text{"第一个超过早期水平 " + shortNumber(level) + " 的 " +
                                       shortNumber(t.divergenceGrowthFactor) + " 倍的点",
                                   "first point above " + shortNumber(t.divergenceGrowthFactor) +
                                       "x the early level " + shortNumber(level)}));
            const auto peakAt = std::max_element(p.value.begin(), p.value.end()) - p.value.begin();
            if (static_cast<size_t>(peakAt) != boom)
                f.evidence.push_back(
                    pointEvidence(run, loss, p.index[peakAt], Text{"最大值", "largest value"}));
            out.findings.push_back(std::move(f));
            continue;
        }
        // Keeps rising: the last quarter above the early level by the ratio and above every
        // earlier quarter.
        if (p.size() < 8) continue;
        const size_t q = p.size() / 4;
        const double last = medianOf(p.value, p.size() - q, p.size());
        bool highest = true;
        for (size_t k = 0; k + 1 < 4; ++k)
            if (medianOf(p.value, k * q, (k + 1) * q) >= last) highest = false;
        if (!highest || last < t.divergenceRisingRatio * level) continue;
        const std::string what =
            run.name + " " + loss.name + ": " + shortNumber(level) + " -> " + shortNumber(last);
        Finding f = makeFinding("loss.divergence", Severity::Warning, stageForRole(run.role),
                                {"损失持续上升（" + what + "）", "Loss keeps rising (" + what + ")"}, kAdvice,
                                "qat.nan_loss");
        f.strength = measuredAbove(
            {"最后四分之一中位数相对早期水平的倍数", "last-quarter median over the early level"},
            last / level, t.divergenceRisingRatio);
        f.evidence.push_back(
            pointEvidence(run, loss, p.index[0],
                          Text{"早期水平 " + shortNumber(level), "early level " + shortNumber(level)}));
        f.evidence.push_back(pointEvidence(run, loss, p.index.back(),
                                           Text{"最后四分之一的中位数 " + shortNumber(last),
                                                "median of the last quarter " + shortNumber(last)}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
