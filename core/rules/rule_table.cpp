// The one table of training rules. Adding a rule = one check function + one row here.
#include "core/rules/rule.h"

#include "core/rules/rule_checks.h"

namespace qatdoctor::core::rules {

const std::vector<Rule>& trainingRules()
{
    static const std::vector<Rule> kRules = {
        {"loss.nonfinite", Stage::Qat, checkLossNonfinite},
        {"loss.divergence", Stage::Qat, checkLossDivergence},
        {"run.crashed", Stage::Qat, checkRunCrashed},
        {"env.no_gpu", Stage::Environment, checkEnvNoGpu},
        {"float.not_converged", Stage::Float, checkFloatNotConverged},
        {"float.overfit", Stage::Float, checkFloatOverfit},
        {"calib.low_accuracy", Stage::Calibration, checkCalibLowAccuracy},
        {"calib.multi_gpu", Stage::Calibration, checkCalibMultiGpu},
        {"qat.start_loss_high", Stage::Qat, checkQatStartLossHigh},
        {"qat.trend_mismatch", Stage::Qat, checkQatTrendMismatch},
        {"qat.not_learning", Stage::Qat, checkQatNotLearning},
        {"qat.worse_than_calibration", Stage::Qat, checkQatWorseThanCalibration},
        {"qat.quantized_gap", Stage::Export, checkQatQuantizedGap},
        {"qat.no_quantized_eval", Stage::Qat, checkQatNoQuantizedEval},
        {"train.batch_scaled_lr_unchanged", Stage::Qat, checkBatchScaledLrUnchanged},
        {"train.aggressive_lr_schedule", Stage::Qat, checkAggressiveLrSchedule},
        {"config.march", Stage::Qat, checkConfigMarch},
    };
    return kRules;
}

void runTrainingRules(Analysis& analysis, const Thresholds& thresholds)
{
    for (const Rule& rule : trainingRules()) {
        RuleOutcome outcome = rule.check(analysis, thresholds);
        if (!outcome.ran) continue;
        analysis.checksRun.insert(rule.id);
        for (Finding& f : outcome.findings) analysis.findings.push_back(std::move(f));
    }
}

void runTrainingRulesCheck(Analysis& analysis)
{
    Result<Thresholds> t = loadThresholds(analysis.thresholdsPath);
    if (!t) {
        Warning w = t.error();
        w.message += " (using the built-in thresholds)";
        analysis.warnings.push_back(std::move(w));
        runTrainingRules(analysis, defaultThresholds());
        return;
    }
    runTrainingRules(analysis, *t);
}

}  // namespace qatdoctor::core::rules
