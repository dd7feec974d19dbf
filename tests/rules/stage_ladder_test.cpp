// The stage ladder on runs made with Debian's torch (tests/data/diagnosis: a healthy pipeline,
// one where calibration is fine and QAT falls below it, one where QAT is fine and the converted
// model drops; each in a folder per stage and all stages in one file), on a log that names the
// pre_export and board evaluations, and with a dataset evaluation's result in the project: the
// rungs, the first bad step, its FAQ topic, and the verdict that follows it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/common/file_io.h"
#include "core/fixedpoint/dataset_eval_json.h"

using namespace qatdoctor::core;
namespace fs = std::filesystem;

namespace {

const std::string kCorpus = std::string(QATDOCTOR_TEST_DATA) + "/diagnosis/";

Analysis analyzed(const std::vector<std::string>& paths)
{
    AnalyzeOptions o;
    o.paths = paths;
    auto a = analyze(o);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().toString());
    return a.ok() ? std::move(*a) : Analysis{};
}

std::vector<std::string> stageIds(const StageLadder& l)
{
    std::vector<std::string> out;
    for (const LadderRung& r : l.rungs) out.push_back(ladderStageId(r.stage));
    return out;
}

struct Expected {
    const char* caseName;
    const char* firstBadFrom;  // "" = none
    const char* firstBadTo;
    const char* finding;
    const char* faq;
};

class CorpusLadder : public ::testing::TestWithParam<Expected> {};

fs::path scratch(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("qatdoctor_ladder_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void write(const fs::path& path, const std::string& text)
{
    std::ofstream(path) << text;
}

}  // namespace

TEST_P(CorpusLadder, NamesTheFirstBadStep)
{
    const Expected x = GetParam();
    const Analysis a = analyzed({kCorpus + x.caseName});
    const StageLadder& l = a.ladder;
    EXPECT_EQ(stageIds(l), (std::vector<std::string>{"float", "calibration", "qat", "quantized"}))
        << x.caseName;
    ASSERT_EQ(l.steps.size(), 3u);
    const LadderStep* bad = l.firstBadStep();
    if (std::string(x.firstBadFrom).empty()) {
        EXPECT_EQ(bad, nullptr) << x.caseName;
        EXPECT_TRUE(verdictOf(a).clear) << verdictOf(a).text.en;
        return;
    }
    ASSERT_NE(bad, nullptr) << x.caseName;
    EXPECT_STREQ(ladderStageId(l.rungs[bad->from].stage), x.firstBadFrom);
    EXPECT_STREQ(ladderStageId(l.rungs[bad->to].stage), x.firstBadTo);
    EXPECT_EQ(bad->findingId, x.finding);
    EXPECT_EQ(bad->faq, x.faq);
    // the value and its source line are the ones the rules' finding names
    EXPECT_GT(l.rungs[bad->to].source.line, 0);
    EXPECT_EQ(verdictOf(a).findingId, x.finding) << verdictOf(a).text.en;
}

INSTANTIATE_TEST_SUITE_P(
    TorchRuns, CorpusLadder,
    ::testing::Values(
        Expected{"healthy_folders", "", "", "", ""}, Expected{"healthy_one_log", "", "", "", ""},
        Expected{"worse_than_calib_folders", "calibration", "qat", "qat.worse_than_calibration",
                 "qat.accuracy_drops"},
        Expected{"worse_than_calib_one_log", "calibration", "qat", "qat.worse_than_calibration",
                 "qat.accuracy_drops"},
        Expected{"quantized_gap_folders", "qat", "quantized", "qat.quantized_gap", "qat.quantized_mismatch"},
        Expected{"quantized_gap_one_log", "qat", "quantized", "qat.quantized_gap", "qat.quantized_mismatch"},
        Expected{"calib_low_folders", "float", "calibration", "calib.low_accuracy", "qat.calibration_low"}),
    [](const auto& info) { return std::string(info.param.caseName); });

TEST(StageLadder, OneFileAndFoldersGiveTheSameRungs)
{
    for (const char* problem : {"worse_than_calib", "quantized_gap"}) {
        const Analysis folders = analyzed({kCorpus + problem + "_folders"});
        const Analysis oneLog = analyzed({kCorpus + problem + "_one_log"});
        ASSERT_EQ(folders.ladder.rungs.size(), oneLog.ladder.rungs.size()) << problem;
        for (size_t i = 0; i < folders.ladder.rungs.size(); ++i)
            EXPECT_NEAR(folders.ladder.rungs[i].value, oneLog.ladder.rungs[i].value, 1e-6)
                << problem << " " << i;
    }
}

TEST(StageLadder, PreExportAndBoardEvaluationsAreRungsOfTheirOwn)
{
    // HAT's metric line with the stage in the prefix, as its scripts name the steps after QAT
    const fs::path dir = scratch("board");
    write(dir / "run.log",
          "2026-12-01 10:00:00,000 INFO [metric_updater.py:150] Epoch[5] float_val: acc[0.9120] \n"
          "2026-12-01 10:10:00,000 INFO [metric_updater.py:150] Epoch[0] calib_val: acc[0.9090] \n"
          "2026-12-01 10:20:00,000 INFO [metric_updater.py:150] Epoch[2] qat_val: acc[0.9110] \n"
          "2026-12-01 10:30:00,000 INFO [metric_updater.py:150] Epoch[0] pre_export_val: acc[0.9100] \n"
          "2026-12-01 10:40:00,000 INFO [metric_updater.py:150] Epoch[0] quantized_val: acc[0.9080] \n"
          "2026-12-01 10:50:00,000 INFO [metric_updater.py:150] Epoch[0] board_val: top: acc[0.7710] \n");
    const Analysis a = analyzed({dir.string()});
    EXPECT_EQ(stageIds(a.ladder),
              (std::vector<std::string>{"float", "calibration", "qat", "pre_export", "quantized", "board"}));
    const LadderStep* bad = a.ladder.firstBadStep();
    ASSERT_NE(bad, nullptr);
    EXPECT_EQ(bad->findingId, "ladder.board_drop");
    EXPECT_EQ(bad->faq, "qat.board_drop");
    EXPECT_EQ(bad->severity, Severity::Error);  // 15 % below the quantized model: past the error drop
    const rules::Verdict v = verdictOf(a);
    EXPECT_EQ(v.findingId, "ladder.board_drop");
    EXPECT_EQ(v.stage, Stage::Deployment);
    // the board's value is not taken for the run's own evaluation
    EXPECT_NEAR(a.ladder.rungs[0].value, 0.912, 1e-6);
    const auto f = std::find_if(a.findings.begin(), a.findings.end(),
                                [](const Finding& x) { return x.id == "ladder.board_drop"; });
    ASSERT_NE(f, a.findings.end());
    EXPECT_EQ(f->evidence.front().line, 6);
    fs::remove_all(dir);
}

TEST(StageLadder, ADatasetEvaluationInTheProjectAddsTheSimulatedRungs)
{
    const fs::path dir = scratch("simulated");
    fs::copy(kCorpus + "quantized_gap_folders", dir, fs::copy_options::recursive);
    // a result as `simulate --dataset --out` writes it: 400 samples, integer 30 below fake-quant
    fixedpoint::DatasetEvaluation e;
    e.modelPath = "model.onnx";
    e.sources = {"images.npy"};
    e.labelsPath = "labels.npy";
    e.datasetSize = e.samples = 400;
    e.modes = {{fixedpoint::SimMode::Fake, 400, 336, 0, {}}, {fixedpoint::SimMode::Int, 400, 306, 0, {}}};
    ASSERT_TRUE(writeFileAtomic((dir / "eval.json").string(), fixedpoint::evaluationToJson(e).dump()).ok());
    const Analysis a = analyzed({dir.string()});
    ASSERT_EQ(a.evaluations.size(), 1u);
    EXPECT_EQ(stageIds(a.ladder), (std::vector<std::string>{"float", "calibration", "qat", "quantized",
                                                            "simulated_fake", "simulated_int"}));
    const LadderRung& sim = a.ladder.rungs.back();
    ASSERT_TRUE(sim.interval);
    EXPECT_NEAR(sim.value, 306.0 / 400.0, 1e-12);
    EXPECT_EQ(sim.samples, 400u);
    EXPECT_EQ(sim.source.file, (dir / "eval.json").string());
    // no step joins the logged chain to the simulated one; the simulated drop is its own finding
    ASSERT_EQ(a.ladder.steps.size(), 4u);
    EXPECT_EQ(a.ladder.steps.back().findingId, "ladder.simulated_int_drop");
    EXPECT_TRUE(a.ladder.steps.back().bad);
    EXPECT_EQ(a.ladder.firstBadStep()->findingId, "qat.quantized_gap");  // the logged chain comes first
    EXPECT_TRUE(std::any_of(a.findings.begin(), a.findings.end(),
                            [](const Finding& f) { return f.id == "ladder.simulated_int_drop"; }));
    // analyze --json carries the ladder as the README documents it
    const nlohmann::json j = analysisToJson(a, Lang::En);
    EXPECT_EQ(j["ladder"]["first_bad"]["from"], "qat");
    EXPECT_EQ(j["ladder"]["first_bad"]["to"], "quantized");
    EXPECT_EQ(j["ladder"]["first_bad"]["faq"], "qat.quantized_mismatch");
    EXPECT_EQ(j["ladder"]["stages"][3]["source"]["line"], a.ladder.rungs[3].source.line);
    EXPECT_EQ(j["ladder"]["stages"].size(), 6u);
    fs::remove_all(dir);
}

TEST(StageLadder, NothingLoggedIsAnEmptyLadder)
{
    const Analysis a = analyzed({std::string(QATDOCTOR_TEST_DATA) + "/models/float_only.onnx"});
    EXPECT_TRUE(a.ladder.empty());
    EXPECT_TRUE(analysisToJson(a, Lang::En)["ladder"]["first_bad"].is_null());
}

TEST(StageLadder, HbVerifierTablesAreChecksOnTheirSteps)
{
    // the layouts of OE 3.x's hb_verifier (tests/data/ladder/verifier, written by hand in them)
    const std::string verifier = std::string(QATDOCTOR_TEST_DATA) + "/ladder/verifier";
    const Analysis a = analyzed({verifier, kCorpus + "healthy_folders"});
    ASSERT_EQ(a.ladder.checks.size(), 2u);
    const auto check = [&](const std::string& finding) {
        return std::find_if(a.ladder.checks.begin(), a.ladder.checks.end(),
                            [&](const LadderCheck& c) { return c.findingId == finding; });
    };
    const auto board = check("ladder.verifier_inconsistent");
    ASSERT_NE(board, a.ladder.checks.end());
    EXPECT_FALSE(board->passed);
    EXPECT_EQ(board->from, LadderStage::Quantized);
    EXPECT_EQ(board->to, LadderStage::Board);
    EXPECT_EQ(board->source.line, 12);  // bbox_deltas, the one output that differs
    EXPECT_NE(board->what.find("212/25600 (0.83%)"), std::string::npos) << board->what;
    const auto cosine = check("ladder.verifier_low_cosine");
    ASSERT_NE(cosine, a.ladder.checks.end());
    EXPECT_FALSE(cosine->passed);
    EXPECT_NE(cosine->what.find("0.962188 at bbox_deltas"), std::string::npos) << cosine->what;
    // the healthy runs' steps are all in range, so the findings of the checks make the verdict
    EXPECT_EQ(a.ladder.firstBadStep(), nullptr);
    EXPECT_EQ(verdictOf(a).findingId, "ladder.verifier_inconsistent");
    EXPECT_EQ(verdictOf(a).stage, Stage::Deployment);
    const nlohmann::json j = analysisToJson(a, Lang::En)["ladder"]["checks"];
    ASSERT_EQ(j.size(), 2u);
    EXPECT_EQ(j[0]["tool"], "hb_verifier");
}

TEST(StageLadder, ABoardAccuracyWithoutAnEvaluationWordIsStillTheBoards)
{
    // a CSV history whose columns name the board and the hbm without "val"
    const fs::path dir = scratch("csv");
    write(dir / "metrics.csv",
          "epoch,qat_val_acc,quantized_val_acc,hbm_acc\n0,0.90,0.89,0.88\n1,0.91,0.905,0.70\n");
    const Analysis a = analyzed({dir.string()});
    const std::vector<std::string> ids = stageIds(a.ladder);
    ASSERT_FALSE(ids.empty());
    EXPECT_EQ(ids.back(), "board");
    ASSERT_NE(a.ladder.firstBadStep(), nullptr);
    EXPECT_EQ(a.ladder.firstBadStep()->findingId, "ladder.board_drop");
    fs::remove_all(dir);
}

TEST(StageLadder, HbMappersOutputCosinesAreACheckOnCalibrationToQuantized)
{
    // the makertbin log of tests/data/toolchain (tests/gen/make_toolchain.py): its node table and,
    // after "The quantized model output:", the output's cosine
    const Analysis a = analyzed({std::string(QATDOCTOR_TEST_DATA) + "/toolchain/hb_mapper_makertbin.log"});
    ASSERT_EQ(a.ladder.checks.size(), 1u);
    const LadderCheck& c = a.ladder.checks.front();
    EXPECT_EQ(c.tool, "hb_mapper");
    EXPECT_EQ(c.from, LadderStage::Calibration);
    EXPECT_EQ(c.to, LadderStage::Quantized);
    EXPECT_TRUE(c.passed);
    EXPECT_EQ(c.what, "lowest cosine 0.991234 at output0");
    EXPECT_EQ(c.source.line, 16);
    EXPECT_TRUE(a.checksRun.count("ladder.mapper_low_cosine"));
}
