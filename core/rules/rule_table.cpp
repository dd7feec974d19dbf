// The one table of training rules. Adding a rule = one check function + one row here.
#include <algorithm>

#include "core/rules/known_warnings.h"
#include "core/rules/rule.h"
#include "core/rules/rule_checks.h"
#include "core/rules/stage_views.h"

namespace qatdoctor::core::rules {

const std::vector<Rule>& trainingRules()
{
    static const std::vector<Rule> kRules = {
        {"loss.nonfinite", Stage::Qat, checkLossNonfinite, {"一条 loss 曲线", "a loss series"}},
        {"loss.divergence",
         Stage::Qat,
         checkLossDivergence,
         {"一条足够长的训练 loss 曲线", "a training loss series long enough to judge its trend"}},
        {"run.crashed", Stage::Qat, checkRunCrashed, {"一个训练日志", "a training log"}},
        {"env.no_gpu", Stage::Environment, checkEnvNoGpu, {"一个训练日志", "a training log"}},
        {"float.not_converged",
         Stage::Float,
         checkFloatNotConverged,
         {"浮点运行的 loss 或评测精度", "the float run's loss or evaluation accuracy"}},
        {"float.overfit",
         Stage::Float,
         checkFloatOverfit,
         {"浮点运行的训练精度和评测精度", "the float run's training and evaluation accuracy"}},
        {"calib.low_accuracy",
         Stage::Calibration,
         checkCalibLowAccuracy,
         {"浮点和 calibration 的评测精度", "the float and the calibration evaluation accuracy"}},
        {"calib.multi_gpu",
         Stage::Calibration,
         checkCalibMultiGpu,
         {"calibration 运行记录的卡数（world_size）", "the calibration run's logged world size"}},
        {"qat.start_loss_high",
         Stage::Qat,
         checkQatStartLossHigh,
         {"浮点和 QAT 的训练 loss", "the float and the QAT training loss"}},
        {"qat.trend_mismatch",
         Stage::Qat,
         checkQatTrendMismatch,
         {"浮点和 QAT 的训练 loss", "the float and the QAT training loss"}},
        {"qat.not_learning",
         Stage::Qat,
         checkQatNotLearning,
         {"QAT 运行前后的权重指纹、多次评测或足够长的 loss",
          "weight fingerprints before and after QAT, several QAT evaluations or a long enough QAT loss"}},
        {"qat.worse_than_calibration",
         Stage::Qat,
         checkQatWorseThanCalibration,
         {"calibration 和 QAT 的评测精度", "the calibration and the QAT evaluation accuracy"}},
        {"qat.quantized_gap",
         Stage::Export,
         checkQatQuantizedGap,
         {"QAT 和 quantized 模型的评测精度", "the QAT and the quantized model's evaluation accuracy"}},
        {"qat.no_quantized_eval", Stage::Qat, checkQatNoQuantizedEval, {"一个 QAT 运行", "a QAT run"}},
        {"train.batch_scaled_lr_unchanged",
         Stage::Qat,
         checkBatchScaledLrUnchanged,
         {"两个运行记录的 batch size 和学习率", "the batch size and lr logged by two runs"}},
        {"train.aggressive_lr_schedule",
         Stage::Qat,
         checkAggressiveLrSchedule,
         {"浮点和 QAT 的学习率", "the float and the QAT learning rate"}},
        {"config.march",
         Stage::Qat,
         checkConfigMarch,
         {"QAT 运行日志中记录的 march", "the march logged in the QAT run's settings"}},
    };
    return kRules;
}

namespace {

// One finding per cause: the same finding raised for several runs (three QAT runs of a sweep,
// each with the same aggressive schedule) is one, with the evidence of every run. Same cause =
// same id, severity and explanation; the title keeps the first run's figures and counts the rest.
std::vector<Finding> groupRepeats(std::vector<Finding> findings)
{
    std::vector<Finding> out;
    std::vector<size_t> repeats;
    for (Finding& f : findings) {
        auto same = std::find_if(out.begin(), out.end(), [&](const Finding& g) {
            return g.id == f.id && g.severity == f.severity && g.stage == f.stage &&
                   g.message.en == f.message.en;
        });
        if (same == out.end()) {
            out.push_back(std::move(f));
            repeats.push_back(0);
            continue;
        }
        for (Evidence& e : f.evidence) same->evidence.push_back(std::move(e));
        ++repeats[static_cast<size_t>(same - out.begin())];
    }
    for (size_t i = 0; i < out.size(); ++i) {
        if (repeats[i] == 0) continue;
        const std::string n = std::to_string(repeats[i]);
        out[i].title.zh += "（另有 " + n + " 个运行）";
        out[i].title.en += " (and " + n + " more run" + (repeats[i] > 1 ? "s" : "") + ")";
    }
    return out;
}

}  // namespace

void runTrainingRules(const logs::LogSet& logs, const Thresholds& thresholds, CheckResults& results)
{
    // the rules read the stage views of the runs (a file holding several stages is one run)
    logs::LogSet view;
    view.root = logs.root;
    view.warnings = logs.warnings;
    view.runs = stageViews(logs.runs);
    for (const Rule& rule : trainingRules()) {
        RuleOutcome outcome = rule.check(view, thresholds);
        // a check that could not run may still leave a hint (config.march_not_logged)
        if (!outcome.ran && outcome.notCheckedBecause)
            results.checksSkipped.push_back(
                {rule.id, *outcome.notCheckedBecause, outcome.notCheckedEvidence});
        else if (!outcome.ran)
            results.checksSkipped.push_back(
                {rule.id, {"未检查：需要" + rule.needs.zh, "not checked: needs " + rule.needs.en}, {}});
        else
            results.checksRun.insert(rule.id);
        for (Finding& f : groupRepeats(std::move(outcome.findings))) results.findings.push_back(std::move(f));
    }
    explainWithKnownWarnings(view, results);
}

}  // namespace qatdoctor::core::rules
