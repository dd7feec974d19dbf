// Learning-rate settings: train.batch_scaled_lr_unchanged (a same-stage rerun with a k x larger
// effective batch kept the lr) and train.aggressive_lr_schedule (QAT with OneCycle or at float's
// peak lr).
#include <algorithm>
#include <cctype>

#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

// Two learning rates this close are the same setting (a schedule's first logged value can sit a
// rounding step off the configured one).
constexpr double kSameLrTolerance = 1.05;

struct BatchLr {
    const logs::Run* run;
    double batch;
    double lr;
};

std::string squash(std::string s)
{
    std::string out;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string describe(const BatchLr& b)
{
    const double world = worldSize(*b.run).value_or(1);
    return "effective batch " + shortNumber(b.batch) + " (world_size " + shortNumber(world) + "), lr " +
           shortNumber(b.lr);
}

}  // namespace

RuleOutcome checkBatchScaledLrUnchanged(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    // (runs of no known stage too: two reruns of one script compare with each other)
    for (logs::RunRole role : {logs::RunRole::Float, logs::RunRole::Qat, logs::RunRole::Unknown}) {
        std::vector<BatchLr> runs;
        for (const logs::Run* r : runsWithRole(a, role)) {
            auto batch = effectiveBatch(*r);
            auto lr = baseLearningRate(*r);
            if (batch && lr && *lr > 0) runs.push_back({r, *batch, *lr});
        }
        if (runs.size() < 2) continue;
        out.ran = true;
        for (size_t i = 0; i < runs.size(); ++i) {
            for (size_t j = 0; j < runs.size(); ++j) {
                const BatchLr& small = runs[i];
                const BatchLr& big = runs[j];
                const double k = big.batch / small.batch;
                if (i == j || k < t.batchScaleMinFactor) continue;
                if (big.lr > small.lr * t.batchScaleLrTolerance) continue;
                const std::string what = big.run->name + " vs " + small.run->name + ": batch " +
                                         shortNumber(k) + "x, lr " + shortNumber(big.lr / small.lr) + "x";
                Finding f = makeFinding(
                    "train.batch_scaled_lr_unchanged", Severity::Warning, stageForRole(role),
                    {"总 batch size 增大但学习率未调整（" + what + "）",
                     "Batch size grew but the learning rate stayed (" + what + ")"},
                    {"开启多机 / 多卡训练后，总 batch size 成倍增大，但 LR、weight decay "
                     "等超参数仍沿用单机配置。"
                     "建议同步调整 LR 等超参数进行平衡（例如按 batch 的倍数线性或按平方根放大 "
                     "LR），而不是直接沿用原配置。",
                     "With multi-node / multi-GPU training the total batch size grew several times while "
                     "the lr, weight decay and other hyper-parameters kept the single-machine values. "
                     "Adjust the lr and related hyper-parameters together with the batch (e.g. scale "
                     "the lr linearly or by the square root of the batch factor) instead of reusing them."},
                    "qat.multi_node");
                f.strength = measuredBelow({"学习率倍数（batch 为 " + shortNumber(k) + " 倍）",
                                            "lr factor (batch " + shortNumber(k) + "x)"},
                                           big.lr / small.lr, t.batchScaleLrTolerance);
                f.evidence.push_back(runEvidence(*big.run, describe(big)));
                f.evidence.push_back(runEvidence(*small.run, describe(small)));
                out.findings.push_back(std::move(f));
            }
        }
    }
    return out;
}

RuleOutcome checkAggressiveLrSchedule(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    std::optional<double> floatPeak, floatFinal;
    for (const logs::Run* r : runsWithRole(a, logs::RunRole::Float))
        if ((floatPeak = peakLearningRate(*r))) {
            floatFinal = finalLearningRate(*r);
            break;
        }
    for (const logs::Run* run : runsWithRole(a, logs::RunRole::Qat)) {
        const auto scheduler = metadataText(*run, {"lr_scheduler", "scheduler", "lr_policy", "lr_schedule"});
        const auto peak = peakLearningRate(*run);
        if (!scheduler && !(peak && floatPeak)) continue;
        out.ran = true;
        const bool oneCycle = scheduler && squash(*scheduler).find("onecycle") != std::string::npos;
        // QAT going on at the lr float ended with is the usual practice, not aggressive: with a
        // constant float lr, float's peak is that same lr
        const bool atFloatEnd = peak && floatFinal && *peak <= *floatFinal * kSameLrTolerance;
        const bool atFloatPeak = peak && floatPeak && *floatPeak > 0 && !atFloatEnd &&
                                 *peak >= t.aggressiveLrPeakRatio * *floatPeak;
        if (!oneCycle && !atFloatPeak) continue;
        std::string what;
        if (oneCycle) what = *scheduler;
        if (atFloatPeak)
            what += (what.empty() ? "" : ", ") + std::string("peak lr ") + shortNumber(*peak) + " vs float " +
                    shortNumber(*floatPeak) + " = " + shortNumber(*peak / *floatPeak) + "x";
        Finding f = makeFinding(
            "train.aggressive_lr_schedule", Severity::Warning, Stage::Qat,
            {"QAT 学习率策略过于激进（" + what + "）",
             "Aggressive QAT learning-rate schedule (" + what + ")"},
            {"QAT "
             "是在已收敛的浮点模型上微调，学习率通常远小于浮点训练的峰值。学习率过大时建议优先调低学习率，"
             "必要时增加梯度裁剪；如果浮点训练使用了 OneCycle 等对学习率影响较大的策略，QAT "
             "阶段通常更适合先切换为"
             "较稳定的 SGD 策略再验证。",
             "QAT fine-tunes a converged float model; its learning rate is normally far below float's "
             "peak. If the lr is too large, lower it first and add gradient clipping if needed; if "
             "float training used a strong schedule such as OneCycle, QAT usually does better with a "
             "steadier SGD schedule first."},
            "qat.nan_loss");
        if (atFloatPeak)
            f.strength = measuredAbove({"QAT 峰值学习率与浮点峰值之比", "QAT peak lr over float's peak"},
                                       *peak / *floatPeak, t.aggressiveLrPeakRatio);
        MetricRef lr = learningRate(*run);
        if (lr) {
            const Points p = finitePoints(*lr.series);
            if (!p.empty()) {
                const auto top = std::max_element(p.value.begin(), p.value.end()) - p.value.begin();
                f.evidence.push_back(
                    pointEvidence(*run, lr, p.index[top], Text{"QAT 学习率峰值", "peak QAT lr"}));
            }
        }
        if (oneCycle) f.evidence.push_back(runEvidence(*run, "lr scheduler: " + *scheduler));
        if (atFloatPeak && f.evidence.empty())
            f.evidence.push_back(
                runEvidence(*run, Text{"学习率峰值 " + shortNumber(*peak), "peak lr " + shortNumber(*peak)}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
