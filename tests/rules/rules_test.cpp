// Each rule on Runs built in code: the healthy pipeline is clear, one change shows one symptom
// with its evidence. (The same symptoms on real logs: manifest_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/common/finding_catalogue.h"
#include "core/rules/rule.h"
#include "tests/rules/healthy_fixture.h"

namespace qatdoctor::core {
namespace {

using logs::RunRole;
using testing::healthyPipeline;
using testing::Pipeline;
using testing::RunBuilder;

std::vector<Finding> run(Analysis a)
{
    rules::runTrainingRules(a.logs, rules::defaultThresholds(), a);
    return a.findings;
}

std::vector<std::string> problemIds(const std::vector<Finding>& findings)
{
    std::vector<std::string> ids;
    for (const Finding& f : findings)
        if (f.severity != Severity::Info) ids.push_back(f.id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

const Finding* find(const std::vector<Finding>& findings, const std::string& id)
{
    for (const Finding& f : findings)
        if (f.id == id) return &f;
    return nullptr;
}

TEST(Rules, HealthyPipelineIsClearAndEveryRuleWithDataRan)
{
    Analysis a = healthyPipeline().analysis();
    rules::runTrainingRules(a.logs, rules::defaultThresholds(), a);
    EXPECT_EQ(problemIds(a.findings), std::vector<std::string>{});
    for (const char* id :
         {"loss.nonfinite", "loss.divergence", "run.crashed", "env.no_gpu", "float.not_converged",
          "float.overfit", "calib.low_accuracy", "calib.multi_gpu", "qat.start_loss_high",
          "qat.trend_mismatch", "qat.not_learning", "qat.worse_than_calibration", "qat.quantized_gap",
          "qat.no_quantized_eval", "train.aggressive_lr_schedule", "config.march"})
        EXPECT_TRUE(a.checksRun.count(id)) << id;
    // One QAT run only: nothing to compare batch sizes with.
    EXPECT_FALSE(a.checksRun.count("train.batch_scaled_lr_unchanged"));
}

TEST(Rules, EveryRuleHasBilingualTextsAndAFaqTopic)
{
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_train/loss"].value.set(5, NAN);
    p.calibRun.metadata["world_size"] = "2";
    for (const Finding& f : run(p.analysis())) {
        EXPECT_TRUE(f.title.complete()) << f.id;
        EXPECT_TRUE(f.message.complete()) << f.id;
        EXPECT_FALSE(f.evidence.empty()) << f.id;
    }
}

TEST(Rules, NonfiniteLossNamesFirstStepAndLine)
{
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_train/loss"].value.set(4, NAN);
    p.qatRun.series["qat_train/loss"].value.set(6, INFINITY);
    const auto findings = run(p.analysis());
    const Finding* f = find(findings, "loss.nonfinite");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->stage, Stage::Qat);
    EXPECT_EQ(f->faq, "qat.nan_loss");
    ASSERT_FALSE(f->evidence.empty());
    const Evidence& e = f->evidence.front();
    EXPECT_EQ(e.run, "qat");
    EXPECT_EQ(e.metric, "qat_train/loss");
    EXPECT_EQ(e.step, 7 + 4 * 8);
    EXPECT_EQ(e.line, 10 + 4);
    EXPECT_EQ(e.file, "qat/train.log");
    EXPECT_TRUE(std::isnan(*e.value));
}

TEST(Rules, NonfiniteSeverityFollowsWhereItIs)
{
    // an evaluation loss NaN once, finite at the next evaluation: a glitch in that evaluation's
    // data that training never saw, a note (listed, no warning)
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_val/loss"] = p.qatRun.series["qat_val/acc"];
    p.qatRun.series["qat_val/loss"].value.set(1, NAN);
    const std::vector<Finding> recovered = run(p.analysis());
    const Finding* f = find(recovered, "loss.nonfinite");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_TRUE(f->recovered);
    EXPECT_NE(f->title.en.find("training itself stays finite"), std::string::npos) << f->title.en;
    // ... that stays NaN to the end: the run is broken
    p.qatRun.series["qat_val/loss"].value.set(2, NAN);
    const std::vector<Finding> broken = run(p.analysis());
    f = find(broken, "loss.nonfinite");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Error);
    // an evaluation score NaN (COCO's APs with no small object): a note
    Pipeline q = healthyPipeline();
    q.qatRun.series["qat_val/APs"] = q.qatRun.series["qat_val/acc"];
    q.qatRun.series["qat_val/APs"].value.set(2, NAN);
    const std::vector<Finding> score = run(q.analysis());
    f = find(score, "loss.nonfinite");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Info);
}

TEST(Rules, TheSameCauseInSeveralRunsIsOneFinding)
{
    // a sweep: two QAT runs, both with the same aggressive OneCycle schedule
    Pipeline p = healthyPipeline();
    p.qatRun.metadata["lr_scheduler"] = "OneCycleLR";
    Analysis a = p.analysis();
    logs::Run second = p.qatRun;
    second.name = "qat_lr2";
    a.logs.runs.push_back(second);
    size_t count = 0;
    const auto findings = run(a);
    const Finding* f = nullptr;
    for (const Finding& g : findings)
        if (g.id == "train.aggressive_lr_schedule") {
            ++count;
            f = &g;
        }
    ASSERT_EQ(count, 1u);
    std::set<std::string> runs;
    for (const Evidence& e : f->evidence) runs.insert(e.run);
    EXPECT_EQ(runs, (std::set<std::string>{"qat", "qat_lr2"}));
    EXPECT_NE(f->title.en.find("(and 1 more run)"), std::string::npos) << f->title.en;
}

TEST(Rules, ExplodingLossIsAnError)
{
    Pipeline p = healthyPipeline();
    auto& v = p.qatRun.series["qat_train/loss"].value;
    v.set(10, 15.0f);  // > 100x the early median ~0.09
    v.set(11, 40.0f);
    const auto fFindings = run(p.analysis());
    const Finding* f = find(fFindings, "loss.divergence");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->evidence.front().step, 7 + 10 * 8);
}

TEST(Rules, SteadilyRisingLossIsAWarning)
{
    Pipeline p = healthyPipeline();
    auto& v = p.qatRun.series["qat_train/loss"].value;
    for (size_t i = 0; i < v.size(); ++i) v.set(i, static_cast<float>(0.1 * (1.0 + 0.4 * i)));
    const auto findings = run(p.analysis());
    const Finding* f = find(findings, "loss.divergence");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_TRUE(find(findings, "qat.trend_mismatch"));
}

TEST(Rules, CrashBeforePlannedEnd)
{
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_val/acc"] = testing::makeSeries({0.9084}, 63, 64, 1);
    p.qatRun.events.push_back(
        {logs::RunEvent::Kind::Error, "Training failed with an exception, exiting", 0, 120, 84.0});
    p.qatRun.events.push_back({logs::RunEvent::Kind::Traceback,
                               "Traceback (most recent call last):\n  File \"train.py\", line "
                               "3\nRuntimeError: stack expects each tensor to be equal size",
                               0, 121, 84.0});
    const auto fFindings = run(p.analysis());
    const Finding* f = find(fFindings, "run.crashed");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(f->evidence.front().line, 121);
    EXPECT_EQ(f->evidence.front().detail, "RuntimeError: stack expects each tensor to be equal size");
    EXPECT_NE(f->title.en.find("1/3"), std::string::npos) << f->title.en;
}

TEST(Rules, ErrorLineAfterAFinishedRunIsNotACrash)
{
    Pipeline p = healthyPipeline();
    p.qatRun.events.push_back({logs::RunEvent::Kind::Error, "failed to upload metrics", 0, 300, 191.0});
    EXPECT_FALSE(find(run(p.analysis()), "run.crashed"));
}

TEST(Rules, QatStartingFarAboveFloat)
{
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_train/loss"].value.set(0, 1.2f);
    const auto fFindings = run(p.analysis());
    const Finding* f = find(fFindings, "qat.start_loss_high");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->evidence.at(0).run, "qat");
    EXPECT_EQ(f->evidence.at(0).step, 7);
    EXPECT_EQ(f->evidence.at(1).run, "float");
    EXPECT_EQ(f->faq, "qat.nan_loss");
}

TEST(Rules, AccuracyComparisons)
{
    Pipeline p = healthyPipeline();
    p.calibRun.series["calib_val/acc"].value.set(0, 0.70f);  // 23% below float
    p.qatRun.series["qat_val/acc"].value.set(2, 0.60f);      // below calibration
    p.quantizedRun.series["val/acc"].value.set(0, 0.50f);    // below QAT
    const auto findings = run(p.analysis());
    EXPECT_EQ(problemIds(findings), (std::vector<std::string>{"calib.low_accuracy", "qat.quantized_gap",
                                                              "qat.worse_than_calibration"}));
    EXPECT_EQ(find(findings, "qat.quantized_gap")->stage, Stage::Export);
    EXPECT_EQ(find(findings, "qat.quantized_gap")->evidence.at(0).run, "quantized");
    // each carries how far past its threshold it is: 0.5 vs QAT's 0.6 is a relative drop of 1/6,
    // an error past the 0.1 of quantized_gap.error_drop
    const Finding* gap = find(findings, "qat.quantized_gap");
    EXPECT_EQ(gap->severity, Severity::Error);
    ASSERT_TRUE(gap->strength);
    EXPECT_NEAR(gap->strength->value, 1.0 / 6.0, 1e-6);
    EXPECT_DOUBLE_EQ(gap->strength->threshold, 0.1);
    EXPECT_NEAR(gap->strength->margin(), 1.0 / 6.0 - 0.1, 1e-6);
    EXPECT_EQ(strengthText(*gap->strength, Lang::En),
              "accuracy drop relative to QAT 16.7% (threshold 10.0%, 6.7% above it)");
    EXPECT_TRUE(find(findings, "calib.low_accuracy")->strength);
}

TEST(Rules, PercentAccuraciesAreComparedAsFractions)
{
    Pipeline p = healthyPipeline();
    p.quantizedRun.series["val/acc"].value.set(0, 91.0f);  // percent, same as QAT's 0.9126
    EXPECT_FALSE(find(run(p.analysis()), "qat.quantized_gap"));
}

TEST(Rules, NoQuantizedEvaluation)
{
    Pipeline p = healthyPipeline();
    const auto findings = run(testing::analysisOf({p.floatRun, p.calibRun, p.qatRun}));
    const Finding* f = find(findings, "qat.no_quantized_eval");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->faq, "method.qat_only_eval");
    // A quantized evaluation logged inside the QAT run counts.
    Pipeline q = healthyPipeline();
    q.qatRun.series["quantized/val/acc"] = q.quantizedRun.series["val/acc"];
    EXPECT_FALSE(find(run(testing::analysisOf({q.floatRun, q.calibRun, q.qatRun})), "qat.no_quantized_eval"));
}

TEST(Rules, FrozenQatIsNotLearning)
{
    Pipeline p = healthyPipeline();
    auto& v = p.qatRun.series["qat_train/loss"].value;
    for (size_t i = 0; i < v.size(); ++i) v.set(i, static_cast<float>(0.12 + (i % 2 ? 0.01 : -0.01)));
    auto& acc = p.qatRun.series["qat_val/acc"].value;
    acc = {0.9111f, 0.9111f, 0.9111f};
    const auto fFindings = run(p.analysis());
    const Finding* f = find(fFindings, "qat.not_learning");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->faq, "qat.weights_not_updating");
}

// The evidence standard: an evaluation accuracy that stays the same is one suggestive signal (a
// converged model on a small validation set does it too): alone it is a note, never a warning.
TEST(Rules, FlatAccuracyAloneIsOnlyANote)
{
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_val/acc"].value = {0.9111f, 0.9111f, 0.9111f};
    auto& v = p.qatRun.series["qat_train/loss"].value;  // a training loss still falling
    for (size_t i = 0; i < v.size(); ++i) v.set(i, static_cast<float>(0.30 - 0.01 * static_cast<double>(i)));
    const auto findings = run(p.analysis());
    const Finding* f = find(findings, "qat.not_learning");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Info);
    EXPECT_EQ(f->evidenceLevel, EvidenceLevel::Suggestive);
    EXPECT_NE(standardText(*f, Lang::En).find("one signal alone"), std::string::npos);
}

// Two independent signals (the accuracy and an evaluation loss the same to every digit) make a
// warning; the standard met says so.
TEST(Rules, FlatAccuracyAndIdenticalEvaluationLossAreAWarning)
{
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_val/acc"].value = {0.9111f, 0.9111f, 0.9111f};
    p.qatRun.series["qat_val/loss"] = testing::makeSeries({0.2437, 0.2437, 0.2437}, 63, 64, 1);
    auto& v = p.qatRun.series["qat_train/loss"].value;
    for (size_t i = 0; i < v.size(); ++i) v.set(i, static_cast<float>(0.30 - 0.01 * static_cast<double>(i)));
    const auto findings = run(p.analysis());  // kept: the finding points into it
    const Finding* f = find(findings, "qat.not_learning");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->evidenceLevel, EvidenceLevel::Corroborated);
}

TEST(Rules, WeightFingerprintsDecideWhetherQatLearnt)
{
    // the script printed a norm and a checksum before and after: identical is frozen, even with
    // one evaluation only (too few to judge the accuracy)
    Pipeline p = healthyPipeline();
    p.qatRun.series["qat_val/acc"] = testing::makeSeries({0.9131}, 47, 48, 1);
    p.qatRun.events.push_back({logs::RunEvent::Kind::Parameters,
                               "parameters before training: norm 15.48 sha1 c9881e5e08a0", 0, 22,
                               std::nullopt});
    p.qatRun.events.push_back({logs::RunEvent::Kind::Parameters,
                               "parameters after training: norm 15.48 sha1 c9881e5e08a0", 0, 41, 48.0});
    auto findings = run(p.analysis());
    const Finding* f = find(findings, "qat.not_learning");
    ASSERT_TRUE(f);
    ASSERT_EQ(f->evidence.size(), 2u);
    EXPECT_EQ(f->evidence[0].line, 22);
    EXPECT_EQ(f->evidence[1].line, 41);
    // weights that moved learnt, however flat the evaluations look
    Pipeline q = healthyPipeline();
    q.qatRun.series["qat_val/acc"].value = {0.9111f, 0.9111f, 0.9111f};
    q.qatRun.events.push_back({logs::RunEvent::Kind::Parameters,
                               "parameters before training: norm 15.48 sha1 c9881e5e08a0", 0, 22,
                               std::nullopt});
    q.qatRun.events.push_back({logs::RunEvent::Kind::Parameters,
                               "parameters after training: norm 15.51 sha1 77aa01b2c3d4", 0, 41, 48.0});
    EXPECT_FALSE(find(run(q.analysis()), "qat.not_learning"));
}

TEST(Rules, FloatStoppedWhileItsLossStillFell)
{
    // one evaluation, 16 loss points still falling steeply at the end
    Pipeline p = healthyPipeline();
    p.floatRun.series["float_val/acc"] = testing::makeSeries({0.71}, 31, 32, 1);
    std::vector<double> loss;
    for (int i = 0; i < 16; ++i) loss.push_back(1.45 - 0.055 * i);
    p.floatRun.series["float_train/loss"] = testing::makeSeries(loss, 1, 2);
    p.floatRun.metadata["epochs"] = "2";
    p.floatRun.metadata["steps_per_epoch"] = "32";
    auto findings = run(p.analysis());
    const Finding* f = find(findings, "float.not_converged");
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->strength);
    EXPECT_GT(f->strength->value, 0.1);
    // steps 1..31 of the 64 its settings plan: cut short, and the evidence says so
    ASSERT_EQ(f->evidence.size(), 3u);
    EXPECT_EQ(f->evidence[2].detail, "stopped at step 32 of the 64 its settings plan");
    // the same number of points, flat at the end: converged
    for (int i = 10; i < 16; ++i) loss[static_cast<size_t>(i)] = loss[9];
    p.floatRun.series["float_train/loss"] = testing::makeSeries(loss, 1, 2);
    EXPECT_FALSE(find(run(p.analysis()), "float.not_converged"));
}

TEST(Rules, FloatStillImproving)
{
    Pipeline p = healthyPipeline();
    p.floatRun.series["float_val/acc"] = testing::makeSeries({0.5, 0.6, 0.7}, 23, 24, 1);
    const auto fFindings = run(p.analysis());
    const Finding* f = find(fFindings, "float.not_converged");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->stage, Stage::Float);
}

TEST(Rules, FloatOverfit)
{
    Pipeline p = healthyPipeline();
    p.floatRun.series["float_val/acc"].value = {0.6f, 0.65f, 0.66f, 0.662f, 0.663f, 0.663f};
    p.calibRun.series["calib_val/acc"].value = {0.66f};
    const auto fFindings = run(p.analysis());
    const Finding* f = find(fFindings, "float.overfit");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->faq, "model.float_overfit");
}

TEST(Rules, BatchGrewLrStayed)
{
    Pipeline p = healthyPipeline();
    logs::Run wide = p.qatRun;
    wide.name = "qat_4gpu";
    wide.metadata["world_size"] = "4";
    Analysis a = testing::analysisOf({p.floatRun, p.calibRun, p.qatRun, wide, p.quantizedRun});
    rules::runTrainingRules(a.logs, rules::defaultThresholds(), a);
    EXPECT_TRUE(a.checksRun.count("train.batch_scaled_lr_unchanged"));
    const Finding* f = find(a.findings, "train.batch_scaled_lr_unchanged");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->evidence.at(0).run, "qat_4gpu");
    EXPECT_EQ(f->evidence.at(1).run, "qat");
    // With the lr scaled by sqrt(4) the rerun is fine.
    a.logs.runs[3].metadata["lr"] = "0.002";
    a.findings.clear();
    rules::runTrainingRules(a.logs, rules::defaultThresholds(), a);
    EXPECT_FALSE(find(a.findings, "train.batch_scaled_lr_unchanged"));
}

TEST(Rules, OneCycleOrFloatPeakLrInQat)
{
    Pipeline p = healthyPipeline();
    p.qatRun.metadata["lr_scheduler"] = "OneCycleLR";
    EXPECT_TRUE(find(run(p.analysis()), "train.aggressive_lr_schedule"));
    Pipeline q = healthyPipeline();
    q.qatRun.series["lr"].value = {0.08f, 0.08f, 0.08f, 0.008f};
    const auto findings = run(q.analysis());
    const Finding* f = find(findings, "train.aggressive_lr_schedule");
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->strength);
    EXPECT_NEAR(f->strength->value, 0.8, 1e-6);
    // QAT going on at the lr float ended with is the usual practice: with a constant float lr
    // that is float's peak too, and equal is not aggressive
    Pipeline r = healthyPipeline();
    r.floatRun.series["lr"].value = {0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f};
    r.qatRun.series["lr"].value = {0.01f, 0.01f, 0.01f, 0.01f};
    EXPECT_FALSE(find(run(r.analysis()), "train.aggressive_lr_schedule"));
}

TEST(Rules, SetupFacts)
{
    Pipeline p = healthyPipeline();
    p.calibRun.metadata["world_size"] = "2";
    p.floatRun.events.push_back(
        {logs::RunEvent::Kind::Warning, "CUDA is not available, falling back to CPU", 0, 3, std::nullopt});
    p.qatRun.metadata.erase("march");
    p.quantizedRun.metadata["march"] = "bayes";
    const auto findings = run(p.analysis());
    const Finding* gpu = find(findings, "calib.multi_gpu");
    ASSERT_TRUE(gpu);
    EXPECT_EQ(gpu->severity, Severity::Error);
    const Finding* env = find(findings, "env.no_gpu");
    ASSERT_TRUE(env);
    EXPECT_EQ(env->evidence.front().line, 3);
    EXPECT_EQ(env->stage, Stage::Environment);
    const Finding* mismatch = find(findings, "config.march");  // nash-e vs bayes elsewhere
    ASSERT_TRUE(mismatch);
    EXPECT_EQ(mismatch->severity, Severity::Warning);
    const Finding* notLogged = find(findings, "config.march_not_logged");  // missing in qat
    ASSERT_TRUE(notLogged);
    EXPECT_EQ(notLogged->severity, Severity::Info);
}

TEST(Rules, NoRunsNothingRan)
{
    Analysis a;
    rules::runTrainingRules(a.logs, rules::defaultThresholds(), a);
    EXPECT_TRUE(a.findings.empty());
    EXPECT_TRUE(a.checksRun.empty());
}

}  // namespace
}  // namespace qatdoctor::core
