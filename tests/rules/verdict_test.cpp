// The verdict names the earliest pipeline stage with a warning or error.
#include "core/rules/verdict.h"

#include <gtest/gtest.h>

#include "core/analysis.h"

namespace qatdoctor::core::rules {
namespace {

Finding finding(const char* id, Severity sev, Stage stage)
{
    Finding f;
    f.id = id;
    f.severity = sev;
    f.stage = stage;
    f.title = {std::string("标题 ") + id, std::string("title ") + id};
    return f;
}

TEST(Verdict, NothingLoaded)
{
    Analysis a;
    const Verdict v = computeVerdict(a, a.logs);
    EXPECT_TRUE(v.clear);
    EXPECT_NE(v.text.en.find("Nothing could be checked"), std::string::npos);
    EXPECT_TRUE(v.text.complete());
}

TEST(Verdict, ClearWhenOnlyInfo)
{
    Analysis a;
    a.checksRun = {"loss.nonfinite", "run.crashed"};
    a.findings.push_back(finding("x.info", Severity::Info, Stage::Float));
    const Verdict v = computeVerdict(a, a.logs);
    EXPECT_TRUE(v.clear);
    EXPECT_EQ(v.text.en, "No problem found: 2 checks ran on the loaded data.");
}

TEST(Verdict, AGlitchTheDataRecoveredFromIsListedButNotTheVerdict)
{
    Analysis a;
    a.checksRun = {"loss.nonfinite"};
    Finding nan = finding("loss.nonfinite", Severity::Warning, Stage::Float);
    nan.recovered = true;
    a.findings.push_back(nan);
    Verdict v = computeVerdict(a, a.logs);
    EXPECT_TRUE(v.clear);
    EXPECT_EQ(v.text.en,
              "No problem found: 1 checks ran on the loaded data. 1 passing glitch in the data "
              "recovered by itself (listed among the findings).");
    EXPECT_TRUE(v.text.complete());
    // a real problem elsewhere still leads, and the glitch does not count among its others
    a.findings.push_back(finding("qat.not_learning", Severity::Warning, Stage::Qat));
    v = computeVerdict(a, a.logs);
    EXPECT_FALSE(v.clear);
    EXPECT_EQ(v.findingId, "qat.not_learning");
    EXPECT_EQ(v.text.en.find("more finding"), std::string::npos) << v.text.en;
}

TEST(Verdict, AmongEqualsTheFindingFurthestPastItsThresholdLeads)
{
    Analysis a;
    Finding near = finding("qat.worse_than_calibration", Severity::Warning, Stage::Qat);
    near.strength = Strength{{"下降", "drop"}, 0.06, 0.05, true, true};
    near.evidence.push_back({.run = "qat"});
    Finding far = finding("qat.start_loss_high", Severity::Warning, Stage::Qat);
    far.strength = Strength{{"倍数", "ratio"}, 9.0, 3.0, true, false};
    far.evidence.push_back({.run = "qat"});
    a.findings = {near, far};
    EXPECT_EQ(computeVerdict(a, a.logs).findingId, "qat.start_loss_high");
    a.findings = {far, near};
    EXPECT_EQ(computeVerdict(a, a.logs).findingId, "qat.start_loss_high");
}

TEST(Verdict, EarliestStageWinsEnvironmentLast)
{
    Analysis a;
    a.findings.push_back(finding("env.no_gpu", Severity::Warning, Stage::Environment));
    a.findings.push_back(finding("qat.quantized_gap", Severity::Warning, Stage::Export));
    a.findings.push_back(finding("loss.nonfinite", Severity::Error, Stage::Qat));
    a.findings.push_back(finding("qat.start_loss_high", Severity::Warning, Stage::Qat));
    Verdict v = computeVerdict(a, a.logs);
    EXPECT_FALSE(v.clear);
    EXPECT_EQ(v.stage, Stage::Qat);
    EXPECT_EQ(v.findingId, "loss.nonfinite");  // the most severe within the stage
    EXPECT_EQ(v.text.en,
              "Trouble most likely starts in QAT training: title loss.nonfinite (3 more findings). "
              "This is a training-side problem: fix it before looking at export or deployment.");
    EXPECT_NE(v.text.zh.find("QAT 训练阶段"), std::string::npos);

    a.findings.push_back(finding("calib.low_accuracy", Severity::Warning, Stage::Calibration));
    EXPECT_EQ(computeVerdict(a, a.logs).stage, Stage::Calibration);

    Analysis onlyEnv;
    onlyEnv.findings.push_back(finding("env.no_gpu", Severity::Warning, Stage::Environment));
    EXPECT_EQ(computeVerdict(onlyEnv, onlyEnv.logs).stage, Stage::Environment);
}

TEST(Verdict, AnErrorLeadsAWarningOfAnEarlierStageUnlessItIsUpstream)
{
    Analysis a;
    a.findings.push_back(finding("train.batch_scaled_lr_unchanged", Severity::Warning, Stage::Qat));
    a.findings.push_back(finding("qat.quantized_gap", Severity::Error, Stage::Export));
    EXPECT_EQ(computeVerdict(a, a.logs).findingId,
              "qat.quantized_gap");  // a broken model is not hidden by a note
    a.findings.push_back(finding("calib.low_accuracy", Severity::Warning, Stage::Calibration));
    a.findings.push_back(finding("loss.nonfinite", Severity::Error, Stage::Qat));
    EXPECT_EQ(computeVerdict(a, a.logs).findingId,
              "calib.low_accuracy");  // ... but calibration explains QAT's NaN
}

TEST(Verdict, ATrainingProblemInARunOfNoKnownStageSaysSo)
{
    Analysis a;
    logs::Run run;
    run.name = "exp7";
    a.logs.runs.push_back(run);
    Finding f = finding("run.crashed", Severity::Error, Stage::Qat);
    f.evidence.push_back(Evidence{"exp7"});
    a.findings.push_back(f);
    Verdict v = computeVerdict(a, a.logs);
    EXPECT_TRUE(v.stageUnknown);
    EXPECT_NE(v.text.en.find("starts in training (stage unknown)"), std::string::npos) << v.text.en;
    EXPECT_EQ(v.text.en.find("QAT"), std::string::npos) << v.text.en;
    a.logs.runs[0].role = logs::RunRole::Qat;  // once the run is known to be QAT, the text says so
    v = computeVerdict(a, a.logs);
    EXPECT_FALSE(v.stageUnknown);
    EXPECT_NE(v.text.en.find("QAT training"), std::string::npos);
}

TEST(Verdict, ExportOnlyPointsAtExportConsistency)
{
    Analysis a;
    a.findings.push_back(finding("qat.quantized_gap", Severity::Warning, Stage::Export));
    const Verdict v = computeVerdict(a, a.logs);
    EXPECT_EQ(v.stage, Stage::Export);
    EXPECT_NE(v.text.en.find("export consistency"), std::string::npos);
}

TEST(Verdict, AtEqualSeverityWhatTheRunsShowBeatsAModelLint)
{
    Analysis a;
    a.findings.push_back(finding("model.output_low_precision", Severity::Warning, Stage::Qat));
    a.findings.back().evidence.push_back({.file = "m.onnx", .layer = "fc"});
    a.findings.push_back(finding("train.batch_scaled_lr_unchanged", Severity::Warning, Stage::Qat));
    a.findings.back().evidence.push_back({.run = "qat", .file = "qat/train.log", .detail = "batch 4x"});
    EXPECT_EQ(computeVerdict(a, a.logs).findingId, "train.batch_scaled_lr_unchanged");
    // Severity still comes first.
    a.findings[0].severity = Severity::Error;
    EXPECT_EQ(computeVerdict(a, a.logs).findingId, "model.output_low_precision");
}

}  // namespace
}  // namespace qatdoctor::core::rules
