// qat.not_learning: QAT's weights stay frozen, the FAQ's "weights do not update after loading
// calibration" (prepare after the optimizer, fake-quant / observer states, training flag).
// Frozen weights give the same evaluation accuracy epoch after epoch, which is the strong sign;
// the training loss still wiggles with the batches, so it is only used when too few
// evaluations were logged. Stronger than both: the script's own fingerprints of the weights
// (a norm or checksum printed before and after), identical when nothing was learnt.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/logs/parameter_fingerprint.h"
#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

const Text kAdvice = {
    "QAT 的精度（或 loss）在训练中几乎不变，权重似乎没有更新。常见原因：prepare 放在 optimizer 定义之后"
    "（optimizer 绑定的不是 prepare 后的模型）、fake_quant_enabled 或 observe_enabled 状态不为 1、module 的 "
    "training 状态不正确。建议优先确认 QAT 模型结构和 optimizer 绑定的是同一份 prepare 后的模型，再检查训练"
    "状态切换是否正确。",
    "QAT's accuracy (or loss) barely changes during training: the weights do not seem to update. "
    "Usual causes: prepare was called after the optimizer was created (the optimizer holds a "
    "different model than the prepared one), fake_quant_enabled or observer_enabled is not 1, or "
    "the module's training flag is wrong. First make sure the optimizer was built on the same "
    "prepared QAT model, then check the training-state switches."};

Finding notLearning(const logs::Run& run, const std::string& what)
{
    return makeFinding("qat.not_learning", Severity::Warning, Stage::Qat,
                       {"QAT 训练似乎没有更新权重（" + what + "）",
                        "QAT does not seem to update its weights (" + what + ")"},
                       kAdvice, "qat.weights_not_updating");
}

// The first and the last weight fingerprint a run logged (parameter_fingerprint.h), when it
// logged two or more.
struct Fingerprints {
    const logs::RunEvent* first = nullptr;
    const logs::RunEvent* last = nullptr;
    std::string before, after;
};

std::optional<Fingerprints> fingerprintsOf(const logs::Run& run)
{
    Fingerprints f;
    for (const logs::RunEvent& e : run.events) {
        if (e.kind != logs::RunEvent::Kind::Parameters) continue;
        if (!f.first) f.first = &e;
        f.last = &e;
    }
    if (!f.first || f.first == f.last) return std::nullopt;
    f.before = logs::parameterFingerprint(f.first->text).value_or("");
    f.after = logs::parameterFingerprint(f.last->text).value_or("");
    return f;
}

}  // namespace

RuleOutcome checkQatNotLearning(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    for (const logs::Run* run : runsWithRole(a, logs::RunRole::Qat)) {
        // The script's own fingerprints of the weights settle it either way: weights that moved
        // are learning, however flat the evaluation looks.
        if (const auto prints = fingerprintsOf(*run)) {
            out.ran = true;
            if (prints->before != prints->after) continue;
            Finding f = notLearning(
                *run, run->name + ", the same weight fingerprint before and after: " + prints->before);
            f.evidence.push_back(eventEvidence(*run, *prints->first));
            f.evidence.push_back(eventEvidence(*run, *prints->last));
            out.findings.push_back(std::move(f));
            continue;
        }
        if (MetricRef acc = evalAccuracy(*run)) {
            const Points ap = finitePoints(*acc.series);
            if (ap.size() >= static_cast<size_t>(std::max(2.0, t.notLearningMinEvaluations))) {
                out.ran = true;
                const auto [lo, hi] = std::minmax_element(ap.value.begin(), ap.value.end());
                const double spread = (*hi - *lo) * accuracyScale(*acc.series);
                if (spread > t.notLearningMaxAccuracyChange) continue;
                Finding f = notLearning(*run, run->name + ", " + std::to_string(ap.size()) +
                                                  " evaluations at " + shortNumber(ap.value.front()));
                f.strength = measuredBelow({"评测精度的变化幅度", "spread of the evaluation accuracy"},
                                           spread, t.notLearningMaxAccuracyChange, true);
                f.evidence.push_back(
                    pointEvidence(*run, acc, ap.index.front(), Text{"第一次评测", "first evaluation"}));
                f.evidence.push_back(pointEvidence(*run, acc, ap.index.back(),
                                                   Text{"最后一次评测，变化幅度 " + shortNumber(spread),
                                                        "last evaluation, spread " + shortNumber(spread)}));
                out.findings.push_back(std::move(f));
                continue;
            }
        }
        MetricRef loss = trainLoss(*run);
        if (!loss) continue;
        const Points p = finitePoints(*loss.series);
        if (p.size() < static_cast<size_t>(t.notLearningMinPoints)) continue;
        out.ran = true;
        const size_t q = std::max<size_t>(1, p.size() / 4);
        const double first = medianOf(p.value, 0, q);
        const double last = medianOf(p.value, p.size() - q, p.size());
        if (!(first > 0) || std::fabs(last - first) / first >= t.notLearningMaxRelativeChange) continue;
        Finding f =
            notLearning(*run, run->name + ", loss " + shortNumber(first) + " -> " + shortNumber(last));
        f.strength = measuredBelow({"loss 的相对变化", "relative change of the loss"},
                                   std::fabs(last - first) / first, t.notLearningMaxRelativeChange, true);
        f.evidence.push_back(pointEvidence(
            *run, loss, p.index.front(),
            Text{"前四分之一的中位数 " + shortNumber(first), "first-quarter median " + shortNumber(first)}));
        f.evidence.push_back(pointEvidence(
            *run, loss, p.index.back(),
            Text{"最后四分之一的中位数 " + shortNumber(last), "last-quarter median " + shortNumber(last)}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
