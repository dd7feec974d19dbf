// qat.not_learning: QAT's weights stay frozen, the FAQ's "weights do not update after loading
// calibration" (prepare after the optimizer, fake-quant / observer states, training flag).
// Its evidence standard (finding_catalogue.cpp): decisive are the script's own fingerprints of the
// weights (a norm or checksum printed before and after, identical when nothing was learnt) and,
// in the checkpoint reader, byte-identical weights in two QAT checkpoints. Only suggestive are an
// evaluation accuracy that stays the same (a converged model on a small validation set does that
// too) and a training loss that stays flat: both together are a warning, one alone a note, and a
// training loss that clearly falls clears the run.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/common/finding_catalogue.h"
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

// A loss as evidence: the training loss is flat when its first and last quarter (medians) are
// within the threshold; an evaluation loss, a continuous number, is flat only when it is the same
// to every logged digit over enough evaluations (frozen weights give exactly the same number, a
// converged model that still learns moves it in the last digits).
struct FlatLoss {
    MetricRef loss;
    Points points;
    double first = NAN, last = NAN;
};

std::optional<FlatLoss> flatTrainingLoss(const logs::Run& run, const Thresholds& t)
{
    FlatLoss l;
    l.loss = trainLoss(run);
    if (!l.loss) return std::nullopt;
    l.points = finitePoints(*l.loss.series);
    if (l.points.size() < static_cast<size_t>(t.notLearningMinPoints)) return std::nullopt;
    const size_t q = std::max<size_t>(1, l.points.size() / 4);
    l.first = medianOf(l.points.value, 0, q);
    l.last = medianOf(l.points.value, l.points.size() - q, l.points.size());
    if (!(l.first > 0) || std::fabs(l.last - l.first) / l.first >= t.notLearningMaxRelativeChange)
        return std::nullopt;
    return l;
}

std::optional<FlatLoss> identicalEvaluationLoss(const logs::Run& run, const Thresholds& t)
{
    FlatLoss l;
    l.loss = evalLoss(run);
    if (!l.loss) return std::nullopt;
    l.points = finitePoints(*l.loss.series);
    if (l.points.size() < static_cast<size_t>(std::max(2.0, t.notLearningMinEvaluations)))
        return std::nullopt;
    const auto [lo, hi] = std::minmax_element(l.points.value.begin(), l.points.value.end());
    if (*lo != *hi) return std::nullopt;
    l.first = l.last = *lo;
    return l;
}

}  // namespace

RuleOutcome checkQatNotLearning(const logs::LogSet& a, const Thresholds& t)
{
    RuleOutcome out;
    for (const logs::Run* run : runsWithRole(a, logs::RunRole::Qat)) {
        // Decisive: the script's own fingerprints of the weights settle it either way: weights
        // that moved are learning, however flat the evaluation looks.
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
        // Suggestive only, each alone: an evaluation accuracy that does not move (a converged
        // model on a small validation set gives the same number too), an evaluation loss the same
        // to every digit, a training loss that does not move. Two of them make a warning; one
        // alone a note.
        std::optional<Finding> f;
        int signals = 0;
        if (MetricRef acc = evalAccuracy(*run)) {
            const Points ap = finitePoints(*acc.series);
            if (ap.size() >= static_cast<size_t>(std::max(2.0, t.notLearningMinEvaluations))) {
                out.ran = true;
                const auto [lo, hi] = std::minmax_element(ap.value.begin(), ap.value.end());
                const double spread = (*hi - *lo) * accuracyScale(*acc.series);
                if (spread <= t.notLearningMaxAccuracyChange) {
                    ++signals;
                    f = notLearning(*run, run->name + ", " + std::to_string(ap.size()) + " evaluations at " +
                                              shortNumber(ap.value.front()));
                    f->strength = measuredBelow({"评测精度的变化幅度", "spread of the evaluation accuracy"},
                                                spread, t.notLearningMaxAccuracyChange, true);
                    f->evidence.push_back(
                        pointEvidence(*run, acc, ap.index.front(), Text{"第一次评测", "first evaluation"}));
                    f->evidence.push_back(
                        pointEvidence(*run, acc, ap.index.back(),
                                      Text{"最后一次评测，变化幅度 " + shortNumber(spread),
                                           "last evaluation, spread " + shortNumber(spread)}));
                }
            }
        }
        const std::optional<FlatLoss> evalFlat = identicalEvaluationLoss(*run, t);
        const std::optional<FlatLoss> trainFlat = flatTrainingLoss(*run, t);
        if (MetricRef loss = trainLoss(*run);
            loss && finitePoints(*loss.series).size() >= static_cast<size_t>(t.notLearningMinPoints))
            out.ran = true;
        for (const auto* flat : {&evalFlat, &trainFlat}) {
            if (!*flat) continue;
            const FlatLoss& l = **flat;
            ++signals;
            const bool eval = flat == &evalFlat;
            if (!f) {
                f = notLearning(*run,
                                run->name + ", loss " + shortNumber(l.first) + " -> " + shortNumber(l.last));
                f->strength = measuredBelow({"loss 的相对变化", "relative change of the loss"},
                                            std::fabs(l.last - l.first) / l.first,
                                            t.notLearningMaxRelativeChange, true);
            }
            const std::string what = eval ? "evaluation loss" : "training loss";
            const std::string whatZh = eval ? "评测 loss" : "训练 loss";
            f->evidence.push_back(
                pointEvidence(*run, l.loss, l.points.index.front(),
                              eval ? Text{whatZh + "第一次评测 " + shortNumber(l.first),
                                          what + ", first evaluation " + shortNumber(l.first)}
                                   : Text{whatZh + "前四分之一的中位数 " + shortNumber(l.first),
                                          what + ", first-quarter median " + shortNumber(l.first)}));
            f->evidence.push_back(pointEvidence(
                *run, l.loss, l.points.index.back(),
                eval ? Text{whatZh + "最后一次评测，完全相同 " + shortNumber(l.last),
                            what + ", last evaluation, the same to every digit " + shortNumber(l.last)}
                     : Text{whatZh + "最后四分之一的中位数 " + shortNumber(l.last),
                            what + ", last-quarter median " + shortNumber(l.last)}));
        }
        if (!f) continue;
        meetStandard(*f, signals >= 2 ? EvidenceLevel::Corroborated : EvidenceLevel::Suggestive);
        out.findings.push_back(std::move(*f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
