// Which stage a log's points are, read from its content (stage_words.h, stage_header.h): the
// fixtures of tests/data/logs/stages (tests/gen/make_stage_fixtures.py) in the layouts real QAT
// scripts print, the vocabulary and the header grammar on lines that must and must not count.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/logs/explain.h"
#include "core/logs/log_reader.h"
#include "core/logs/role_guess.h"
#include "core/logs/stage_header.h"
#include "core/logs/stage_words.h"
#include "core/rules/metrics.h"
#include "core/rules/rule.h"
#include "core/rules/stage_views.h"
#include "core/rules/thresholds.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

const logs::Run& onlyRun(const LogSet& set)
{
    EXPECT_EQ(set.runs.size(), 1u);
    static const logs::Run kNone;
    return set.runs.empty() ? kNone : set.runs.front();
}

double lastValue(const logs::Run& run, const std::string& name)
{
    const Series& s = seriesOf(run, name);
    return s.empty() ? -1 : s.value[s.size() - 1];
}

TEST(StageWords, OneVocabularyForEveryPlace)
{
    EXPECT_EQ(stageOfWord("Quantized model (int8, converted)", kInText), RunRole::Quantized);
    EXPECT_EQ(stageOfWord("Calibration accuracy (fake-quant)", kInText), RunRole::Calibration);
    EXPECT_EQ(stageOfWord("quantization-aware training", kInText), RunRole::Qat);
    EXPECT_EQ(stageOfWord("post-training quantized model", kInText), RunRole::Quantized);
    EXPECT_EQ(stageOfWord("int_infer_val", kInKey), RunRole::Quantized);
    EXPECT_EQ(stageOfWord("浮点模型精度", kInText), RunRole::Float);
    EXPECT_EQ(stageOfWord("量化训练阶段", kInText), RunRole::Qat);
    EXPECT_EQ(deployStepOfWord("pre_export_val", kInKey), "pre_export");
    EXPECT_EQ(deployStepOfWord("hbm_acc", kInKey), "board");
    // "quant" is HAT's folder word, not a stage inside a metric key
    EXPECT_EQ(stageOfWord("quant_loss", kInKey), std::nullopt);
    EXPECT_EQ(stageOfWord("quant", kInPath), RunRole::Quantized);
    // words are whole: "qatar" is no QAT, "floating_ops" no float
    EXPECT_EQ(stageOfWord("qatar_loss", kInKey), std::nullopt);
}

TEST(StageWords, APrecisionNextToAModelPartIsNoStageInPaths)
{
    EXPECT_EQ(stageOfWord("B_fc_weight_only_fp32_output", kInPath), std::nullopt);
    EXPECT_EQ(stageOfWord("exp_float_fc", kInPath), std::nullopt);
    EXPECT_EQ(stageOfWord("qat_int8_head", kInPath), RunRole::Qat);
    EXPECT_EQ(stageOfWord("float", kInPath), RunRole::Float);
    EXPECT_EQ(stageOfWord("resnet_fp32", kInPath), RunRole::Float);
    // a folder word never outranks the content, and a qualifier alone names nothing
    EXPECT_EQ(guessRole({"runs", "B_fc_weight_only_fp32_output"}, {"train.log"}, {}).role, RunRole::Unknown);
    EXPECT_EQ(guessRole({"float"}, {"train.log"}, {{RunRole::Qat, "stage marker 'Start QAT' (line 1)"}}).role,
              RunRole::Qat);
}

TEST(StageWords, KeysSplitIntoStageAndMetric)
{
    const KeyStage k = splitKeyStage("val_int8_acc");
    EXPECT_EQ(k.role, RunRole::Quantized);
    EXPECT_EQ(k.rest, "val_acc");
    EXPECT_EQ(splitKeyStage("acc_calib").rest, "acc");
    EXPECT_FALSE(splitKeyStage("loss").role.has_value());
}

struct HeaderCase {
    const char* line;
    std::optional<StageHeader::Kind> kind;
    RunRole role;
};

TEST(StageHeaderGrammar, MarkersAndEvaluationHeadersButNotProse)
{
    using K = StageHeader::Kind;
    const HeaderCase cases[] = {
        {"=====BEGIN QAT STAGE=====", K::Pipeline, RunRole::Qat},
        {"BEGIN INT_INFER PREDICT", K::Pipeline, RunRole::Quantized},
        {"python3 tools/train.py --stage calibration --config cfg.py", K::Pipeline, RunRole::Calibration},
        {"training_step: qat", K::Pipeline, RunRole::Qat},
        {"Stage float: training the float model", K::Pipeline, RunRole::Float},
        {"Starting QAT training", K::Pipeline, RunRole::Qat},
        {"Calibrating", K::Pipeline, RunRole::Calibration},
        {"===== Calibration =====", K::Pipeline, RunRole::Calibration},
        {"开始 QAT 训练", K::Pipeline, RunRole::Qat},
        {"Evaluate Quantized model", K::Evaluation, RunRole::Quantized},
        {"Evaluate QAT model", K::Evaluation, RunRole::Qat},
        {"Evaluating post-training quantized model", K::Evaluation, RunRole::Quantized},
        {"Evaluate the calibrated model before QAT", K::Evaluation, RunRole::Calibration},
        // a conversion: what the model now is, whatever it was
        {"convert(): QAT model converted to int8 (quantized engine qnnpack)", K::Pipeline,
         RunRole::Quantized},
        {"Convert qat model to quantized model", K::Pipeline, RunRole::Quantized},
        {"Converting the float model into a fake-quant QAT model", K::Pipeline, RunRole::Qat},
        {"QAT 模型转换为定点模型", K::Pipeline, RunRole::Quantized},
        {"Exported to ./out/qat_model.onnx", std::nullopt, RunRole::Unknown},
        // prose that mentions a stage is neither
        {"Load float checkpoint from ./float-checkpoint-last.pth.tar", std::nullopt, RunRole::Unknown},
        {"Calibration finished", std::nullopt, RunRole::Unknown},
        {"Float model", std::nullopt, RunRole::Unknown},
        {"Epoch 0 | Training checkpoint saved at ./calibration-checkpoint-last.pth.tar", std::nullopt,
         RunRole::Unknown},
        {"Start loading float weights for the student", std::nullopt, RunRole::Unknown},
    };
    for (const HeaderCase& c : cases) {
        const auto h = readStageHeader(c.line);
        ASSERT_EQ(h.has_value(), c.kind.has_value()) << c.line;
        if (!h) continue;
        EXPECT_EQ(h->kind, *c.kind) << c.line;
        EXPECT_EQ(h->stage.role, c.role) << c.line;
    }
}

TEST(StageAttribution, TorchvisionQatEvaluatesTheQuantizedModelUnderItsHeader)
{
    for (const char* layout : {"tv_new", "tv_old"}) {
        auto set = readLogFolder(fixture(std::string("logs/stages/torchvision_qat/") + layout));
        ASSERT_TRUE(set.ok()) << set.error().toString();
        const logs::Run& run = onlyRun(*set);
        // the run trains the model it evaluates as "QAT" every epoch
        EXPECT_EQ(run.role, RunRole::Qat) << layout << " " << run.roleReason;
        EXPECT_NEAR(lastValue(run, "val/acc1"), 89.90, 1e-4) << layout;
        EXPECT_NEAR(lastValue(run, "quantized/val/acc1"), 89.45, 1e-4) << layout;
        // the closing Acc@1 line continues its evaluation, in either torchvision version
        EXPECT_NEAR(lastValue(run, "val/Acc@1"), 89.90, 1e-3) << layout;
        EXPECT_NEAR(lastValue(run, "quantized/val/Acc@1"), 89.45, 1e-3) << layout;
        EXPECT_EQ(seriesOf(run, "quantized/val/Acc@1").size(), 3u) << layout;
        // no series from the "Test: QAT  [0/8]" counter
        EXPECT_EQ(run.find("val/QAT"), nullptr) << layout;
        // the quantized model's rung is found where the rules look for it
        EXPECT_TRUE(rules::finalQuantizedAccuracy(run).has_value()) << layout;
    }
}

TEST(StageAttribution, TorchvisionPostTrainingQuantization)
{
    auto set = readLogFolder(fixture("logs/stages/torchvision_ptq"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    EXPECT_EQ(run.role, RunRole::Calibration) << run.roleReason;
    EXPECT_NEAR(lastValue(run, "val/Acc@1"), 92.75, 1e-3);
    EXPECT_NEAR(lastValue(run, "quantized/val/Acc@1"), 89.875, 1e-3);
}

TEST(StageAttribution, OneLogThatAnnouncesItsStagesGivesEveryStage)
{
    auto set = readLogFolder(fixture("logs/stages/announced"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    std::map<RunRole, double> finals;
    for (const logs::Run& v : rules::stageViews(set->runs))
        if (auto acc = rules::finalEvalAccuracy(v)) finals[v.role] = acc->value;
    EXPECT_NEAR(finals[RunRole::Float], 0.9612, 1e-4);
    EXPECT_NEAR(finals[RunRole::Calibration], 0.9544, 1e-4);
    EXPECT_NEAR(finals[RunRole::Qat], 0.9590, 1e-4);
    EXPECT_NEAR(finals[RunRole::Quantized], 0.2472, 1e-4);
}

TEST(StageAttribution, LabelsOnResultLinesNameTheirStage)
{
    auto set = readLogFolder(fixture("logs/stages/int8_lines"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    EXPECT_EQ(run.role, RunRole::Qat);
    EXPECT_NEAR(lastValue(run, "val/acc"), 0.920, 1e-4);
    EXPECT_NEAR(lastValue(run, "quantized/val/acc"), 0.917, 1e-4);  // "[int8] val_acc=" last
    // --explain names the line that decided
    bool explained = false;
    for (const SeriesExplanation& e : explainRun(run))
        if (e.series == "quantized/val/acc") {
            EXPECT_EQ(e.stage, "quantized");
            EXPECT_NE(e.stageReason.find("label 'INFO int8 (qnnpack) val_loss="), std::string::npos)
                << e.stageReason;
            explained = true;
        }
    EXPECT_TRUE(explained);
}

TEST(StageAttribution, RecordFieldsNameTheirRecordsStage)
{
    auto set = readLogFolder(fixture("logs/stages/jsonl_events"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    EXPECT_EQ(run.role, RunRole::Qat);
    EXPECT_NEAR(lastValue(run, "calibration/test/acc"), 0.9121, 1e-4);
    EXPECT_NEAR(lastValue(run, "quantized/test/acc"), 0.9262, 1e-4);
    // the QAT curve does not start at the calibration value
    EXPECT_NEAR(seriesOf(run, "test/acc").value[0], 0.918, 1e-4);
}

TEST(StageAttribution, AnExperimentFolderNameDoesNotOutrankTheLog)
{
    auto set = readLogFolder(fixture("logs/stages/qualifier"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    EXPECT_EQ(run.role, RunRole::Qat) << run.roleReason;
    EXPECT_NE(run.roleReason.find("stage marker 'Start QAT training"), std::string::npos) << run.roleReason;
}

TEST(StageAttribution, AOneFilePipelineReadsTheSameOnTwoThreads)
{
    // markers past the head and past the middle of a file the reader splits in two
    std::string text;
    for (const char* stage : {"float", "calibration", "qat"}) {
        text += std::string("Stage ") + stage + ": starting\n";
        for (int i = 0; i < 12000; ++i)
            text += "epoch " + std::to_string(i / 1000) + " step " + std::to_string(i) + " loss 0." +
                    std::to_string(1000 + i % 900) + " acc 0.9" + std::to_string(i % 10) + "\n";
    }
    text += "Quantized model test accuracy: 0.9012\n";
    const LogFormat& fmt = *findLogFormat("text");
    auto one = parseLogBytes(fmt, text, "pipe.log", {}, 1);
    auto two = parseLogBytes(fmt, text, "pipe.log", {}, 2);
    ASSERT_TRUE(one.ok() && two.ok());
    ASSERT_GT(text.size(), 1u << 20);  // past the size the reader splits
    std::vector<std::string> a = one->names, b = two->names;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
    for (const std::string& n : {"calibration/loss", "qat/loss"}) {
        const uint32_t ia = one->seriesIndex(n), ib = two->seriesIndex(n);
        EXPECT_EQ(one->series[ia].size(), 12000u) << n;
        EXPECT_EQ(two->series[ib].size(), 12000u) << n;
    }
}

// A claim of absence needs coverage: a line with a metric the reader did not understand may be
// the quantized model's evaluation, so "only the QAT model is evaluated" is not checked, and the
// line is the evidence of why.
TEST(Coverage, AnAbsenceIsNotClaimedOverLinesNotUnderstood)
{
    auto set = readLogFolder(fixture("logs/stages/prose_result"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    ASSERT_EQ(run.files.size(), 1u);
    EXPECT_EQ(run.files[0].unreadLines, 1u);
    ASSERT_EQ(run.files[0].unreadSample.size(), 1u);
    EXPECT_EQ(run.files[0].unreadSample[0], 10u);
    CheckResults results;
    rules::runTrainingRules(*set, rules::defaultThresholds(), results);
    for (const Finding& f : results.findings) EXPECT_NE(f.id, "qat.no_quantized_eval");
    bool skipped = false;
    for (const SkippedCheck& k : results.checksSkipped)
        if (k.id == "qat.no_quantized_eval") {
            skipped = true;
            ASSERT_EQ(k.evidence.size(), 1u);
            EXPECT_EQ(k.evidence[0].line, 10);
            EXPECT_NE(k.reason.en.find("not understood"), std::string::npos);
        }
    EXPECT_TRUE(skipped);
}

// What is not a log is not a run: a README, a JSON of expected numbers, a model's config.json and
// a benchmark table beside real logs make no run and no series, each is listed as skipped.
TEST(NotALog, FilesBesideTheLogsMakeNoRun)
{
    auto set = readLogFolder(fixture("logs/stages/beside_junk"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    std::vector<std::string> runs;
    for (const logs::Run& r : set->runs) runs.push_back(r.name);
    EXPECT_EQ(runs, (std::vector<std::string>{"float", "qat"}));
    std::set<std::string> skipped;
    for (const Warning& w : set->warnings)
        if (w.code == "logs.skipped") skipped.insert(w.file.substr(w.file.find_last_of('/') + 1));
    EXPECT_EQ(skipped, (std::set<std::string>{"README.txt", "bench.csv", "config.json", "expected.json"}));
    // no quantized model's rung from the JSON of expectations
    for (const logs::Run& v : rules::stageViews(set->runs)) EXPECT_NE(v.role, RunRole::Quantized) << v.name;
}

// Console prints without a logging prefix are read ("Epoch [1/3] Step [i/N] loss: x acc: y" was
// taken for a table's header and gave no series).
TEST(PlainConsole, CountersInBracketsAndValuesGiveSeries)
{
    auto set = readLogFolder(fixture("logs/stages/plain_console"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    const Series& loss = seriesOf(run, "loss");
    ASSERT_EQ(loss.size(), 15u);
    EXPECT_EQ(loss.step[0], 50);
    EXPECT_EQ(loss.step[4], 200 + 50);  // epoch 2 of 200 steps
    EXPECT_EQ(seriesOf(run, "acc").size(), 12u);
}

// Settings that decide a rule are read where frameworks put them: mmengine keeps the batch per
// GPU in its config dump over several lines, the GPU count in its environment block.
TEST(Settings, MmengineBatchAndGpuCountGiveTheTotalBatch)
{
    auto set = readLogFolder(fixture("logs/stages/mmengine_gpus"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    ASSERT_EQ(set->runs.size(), 2u);
    const logs::Run& four = set->runs[1];
    EXPECT_NE(four.metadata.at("train_dataloader").find("batch_size=32"), std::string::npos);
    EXPECT_EQ(four.metadata.at("GPU number"), "4");
    // without the work-dir naming, the settings alone give the total batch
    logs::Run renamed = four;
    renamed.name = "qat_b";
    renamed.files.clear();
    renamed.metadata.erase("work_dir");
    EXPECT_EQ(rules::batchPerDevice(renamed), 32);
    EXPECT_EQ(rules::worldSize(renamed), 4);
    EXPECT_EQ(rules::effectiveBatch(renamed), 128);
    // and the naming alone, without the settings
    logs::Run named;
    named.name = "rtmdet_tiny_8xb16-300e_coco";
    EXPECT_EQ(rules::worldSize(named), 8);
    EXPECT_EQ(rules::effectiveBatch(named), 128);
    CheckResults results;
    rules::runTrainingRules(*set, rules::defaultThresholds(), results);
    bool scaled = false;
    for (const Finding& f : results.findings) scaled = scaled || f.id == "train.batch_scaled_lr_unchanged";
    EXPECT_TRUE(scaled);
}

// A Keras fit log: "Epoch N/M" then the progress line with the epoch's metrics (a bar redrawn
// with backspaces is read as drawn); the steps count batches; model.evaluate() after training is
// an evaluation.
TEST(Settings, KerasFitLogsHaveAnEpochAxis)
{
    auto set = readLogFolder(fixture("logs/stages/keras_fit"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run& run = onlyRun(*set);
    const Series& val = seriesOf(run, "val/accuracy");
    ASSERT_EQ(val.size(), 5u);
    EXPECT_EQ(val.step[0], 16);
    EXPECT_EQ(val.step[4], 80);
    EXPECT_NEAR(lastValue(run, "val/loss"), 0.27, 1e-4);  // model.evaluate's, at the last step
    EXPECT_EQ(seriesOf(run, "loss").size(), 9u);  // the ETA lines (one redrawn away) and the epochs' ends
    EXPECT_EQ(run.files[0].unreadLines, 0u);
}

// A float run stopped inside its first epoch while its loss still falls: not converged, from its
// counters' steps per epoch, with four loss points.
TEST(Settings, AFloatRunStoppedInItsFirstEpochHasNotConverged)
{
    auto set = readLogFolder(fixture("logs/stages/first_epoch"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    CheckResults results;
    rules::runTrainingRules(*set, rules::defaultThresholds(), results);
    const Finding* f = nullptr;
    for (const Finding& x : results.findings)
        if (x.id == "float.not_converged") f = &x;
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_NE(f->title.en.find("step 60 of the 200 steps of its first epoch"), std::string::npos)
        << f->title.en;
}

logs::Run trainingRun(const std::string& name, RunRole role)
{
    logs::Run run;
    run.name = name;
    run.role = role;
    Series& loss = run.series["loss"];
    for (int i = 0; i < 5; ++i)
        loss.push(i, 1.0f - 0.1f * static_cast<float>(i), static_cast<uint32_t>(i + 1));
    return run;
}

// The pipeline starts from float: beside runs named calibration and QAT, the one training run that
// names no stage is float, and says why. Two such runs, an evaluation-only one, or no later stage
// leave the roles alone.
TEST(StageAttribution, TheOneUnnamedTrainingRunBesideQatIsFloat)
{
    std::vector<logs::Run> runs = {trainingRun("work_dirs/mbv2", RunRole::Unknown),
                                   trainingRun("work_dirs/qat_mbv2", RunRole::Qat)};
    settleFloatByElimination(runs);
    EXPECT_EQ(runs[0].role, RunRole::Float);
    EXPECT_NE(runs[0].roleReason.find("by elimination"), std::string::npos);

    std::vector<logs::Run> two = {trainingRun("a", RunRole::Unknown), trainingRun("b", RunRole::Unknown),
                                  trainingRun("c", RunRole::Qat)};
    settleFloatByElimination(two);
    EXPECT_EQ(two[0].role, RunRole::Unknown);
    EXPECT_EQ(two[1].role, RunRole::Unknown);

    std::vector<logs::Run> alone = {trainingRun("a", RunRole::Unknown), trainingRun("q", RunRole::Quantized)};
    settleFloatByElimination(alone);
    EXPECT_EQ(alone[0].role, RunRole::Unknown);

    logs::Run evalOnly;
    evalOnly.name = "eval";
    evalOnly.series["val/acc"].push(0, 0.9f, 1);
    std::vector<logs::Run> evaluation = {evalOnly, trainingRun("c", RunRole::Calibration)};
    settleFloatByElimination(evaluation);
    EXPECT_EQ(evaluation[0].role, RunRole::Unknown);
}

const logs::Run* runWithRole(const LogSet& set, RunRole role)
{
    for (const logs::Run& r : set.runs)
        if (r.role == role) return &r;
    return nullptr;
}

// A pipeline printed in Chinese, one .txt per stage: every stage found, from banners in two
// languages, a conversion line and file names; metric words and spaced counters in Chinese; the
// validation set's metrics apart from the training ones; the one-line evaluation file read.
TEST(StageAttribution, AChinesePipelineIsReadStageByStage)
{
    auto set = readLogFolder(fixture("logs/stages/chinese_print"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    ASSERT_EQ(set->runs.size(), 4u);
    const logs::Run* qat = runWithRole(*set, RunRole::Qat);
    ASSERT_NE(qat, nullptr);
    EXPECT_NE(qat->roleReason.find("量化训练"), std::string::npos) << qat->roleReason;
    EXPECT_EQ(seriesOf(*qat, "val/acc").size(), 2u);
    EXPECT_NEAR(lastValue(*qat, "val/acc"), 91.3, 1e-4);
    EXPECT_NEAR(lastValue(*qat, "val/loss"), 0.37, 1e-4);
    EXPECT_EQ(seriesOf(*qat, "acc").size(), 8u);  // the training accuracy, batch by batch
    EXPECT_NEAR(lastValue(*qat, "lr"), 0.002, 1e-9);
    const logs::Run* quantized = runWithRole(*set, RunRole::Quantized);
    ASSERT_NE(quantized, nullptr);
    EXPECT_NEAR(lastValue(*quantized, "val/acc"), 91.1, 1e-4);
    const logs::Run* calibration = runWithRole(*set, RunRole::Calibration);
    ASSERT_NE(calibration, nullptr);
    EXPECT_NEAR(lastValue(*calibration, "val/acc"), 88.9, 1e-4);
    ASSERT_NE(runWithRole(*set, RunRole::Float), nullptr);
}

// "val loss: 0.39 acc: 91.0%": the split word names the keys after it up to a '|'.
TEST(StageAttribution, ASplitWordNamesTheKeysAfterIt)
{
    auto set = readLogFolder(fixture("logs/stages/chinese_print"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    const logs::Run* fp = runWithRole(*set, RunRole::Float);
    ASSERT_NE(fp, nullptr);
    EXPECT_EQ(seriesOf(*fp, "val/loss").size(), 2u);
    EXPECT_EQ(seriesOf(*fp, "val/acc").size(), 2u);
    EXPECT_EQ(fp->find("val/lr"), nullptr);
}

// detectron2's two-line comma tables are evaluations at the last training step, named by their
// task; the int8 evaluation in a folder named for its stage is read though it is one table.
TEST(StageAttribution, CommaTablesAreEvaluationsAndAStageFolderNamesTheLog)
{
    auto set = readLogFolder(fixture("logs/stages/comma_table"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    ASSERT_EQ(set->runs.size(), 2u);
    const logs::Run* qat = runWithRole(*set, RunRole::Qat);
    ASSERT_NE(qat, nullptr);
    const Series& top1 = seriesOf(*qat, "val/classification/top1");
    ASSERT_EQ(top1.size(), 3u);
    EXPECT_EQ(top1.step[0], 79);  // after iteration 79, the first epoch's last
    EXPECT_NEAR(top1.value[2], 82.2, 1e-4);
    const logs::Run* quantized = runWithRole(*set, RunRole::Quantized);
    ASSERT_NE(quantized, nullptr);
    EXPECT_NEAR(lastValue(*quantized, "val/classification/top5"), 96.8, 1e-4);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test
