// Folder reading: runs grouped by folder, side-by-side files merged without duplicates, roles
// guessed with reasons, the input-table rows.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/logs/role_guess.h"
#include "core/logs/role_reason_text.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

const logs::Run& runNamed(const LogSet& set, const std::string& name)
{
    for (const logs::Run& r : set.runs)
        if (r.name == name) return r;
    ADD_FAILURE() << "no run " << name;
    static const logs::Run kNone;
    return kNone;
}

TEST(LogFolder, HatStagesBecomeRunsWithRoles)
{
    auto set = readLogFolder(fixture("logs/hat"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    ASSERT_EQ(set->runs.size(), 4u);
    EXPECT_EQ(runNamed(*set, "float").role, RunRole::Float);
    // the log's own words come before the folder's name
    EXPECT_EQ(runNamed(*set, "float").roleReason, "train.log: setting 'HAT_TRAINING_STEP=float' (line 1)");
    // in Chinese the phrases are translated, the quoted line kept as written
    EXPECT_EQ(roleReasonText(runNamed(*set, "float").roleReason, Lang::Zh),
              "train.log: 设置项 'HAT_TRAINING_STEP=float'（第 1 行）");
    EXPECT_EQ(roleReasonText("folder name 'qat'", Lang::Zh), "文件夹名 'qat'");
    EXPECT_EQ(roleReasonText("folder name 'qat'", Lang::En), "folder name 'qat'");
    EXPECT_EQ(runNamed(*set, "calibration").role, RunRole::Calibration);
    EXPECT_EQ(runNamed(*set, "qat").role, RunRole::Qat);
    EXPECT_EQ(runNamed(*set, "quantized").role, RunRole::Quantized);
    // the checkpoint is not read as a log
    EXPECT_EQ(runNamed(*set, "float").files.size(), 1u);
    // calibration: its single evaluation number at the calibration step
    const Series& calib = seriesOf(runNamed(*set, "calibration"), "val/acc");
    ASSERT_EQ(calib.size(), 1u);
    EXPECT_EQ(calib.step[0], 49);
    EXPECT_FLOAT_EQ(calib.value[0], 0.64f);
    const Series& q = seriesOf(runNamed(*set, "quantized"), "val/acc");
    EXPECT_FLOAT_EQ(q.value.at(0), 0.65f);
    EXPECT_FLOAT_EQ(seriesOf(runNamed(*set, "quantized"), "val/loss").value.at(0), 1.1f);
    EXPECT_TRUE(set->warnings.empty());
}

TEST(LogFolder, TrailingSlashAndDotGiveTheSameRuns)
{
    // what tab completion and copy-paste hand over: "hat/", "./hat", "hat//qat/.."
    auto plain = readLogFolder(fixture("logs/hat"));
    ASSERT_TRUE(plain.ok());
    for (const std::string& form :
         {fixture("logs/hat") + "/", fixture("logs/hat") + "//", fixture("logs/hat/qat/..")}) {
        auto other = readLogFolder(form);
        ASSERT_TRUE(other.ok()) << form;
        ASSERT_EQ(other->runs.size(), plain->runs.size()) << form;
        for (size_t i = 0; i < plain->runs.size(); ++i) {
            EXPECT_EQ(other->runs[i].name, plain->runs[i].name) << form;
            EXPECT_EQ(other->runs[i].role, plain->runs[i].role) << form;
        }
    }
    // a run folder given with its slash keeps its name (and the role its name gives)
    auto run = readLogFolder(fixture("logs/hat/float") + "/");
    ASSERT_TRUE(run.ok());
    ASSERT_EQ(run->runs.size(), 1u);
    EXPECT_EQ(run->runs[0].name, "float");
    EXPECT_EQ(run->runs[0].role, RunRole::Float);
}

TEST(LogFolder, LogNamedFilesThatAreNoLogsAreListedAsSkipped)
{
    const auto dir =
        std::filesystem::temp_directory_path() / ("qatdoctor_skip_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "run");
    std::ofstream(dir / "run" / "train.log")
        << "epoch: 1 loss: 0.5\nepoch: 2 loss: 0.4\nepoch: 3 loss: 0.3\n";
    std::ofstream(dir / "run" / "notes.txt") << "remember to try a lower learning rate\nand a bigger batch\n";
    auto set = readLogFolder(dir.string());
    ASSERT_TRUE(set.ok());
    ASSERT_EQ(set->warnings.size(), 1u);
    EXPECT_EQ(set->warnings[0].code, "logs.skipped");
    EXPECT_EQ(set->warnings[0].file, (dir / "run" / "notes.txt").string());
    std::filesystem::remove_all(dir);
}

TEST(LogFolder, AStageNamedByItsLogPrefixKeepsItsOwnSeries)
{
    // a QAT script that evaluates the calibrated model first, with its own log prefix
    const auto dir =
        std::filesystem::temp_directory_path() / ("qatdoctor_stage_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "exp");
    std::ofstream(dir / "exp" / "train.log") << "Epoch[0] calib_val: acc[0.6400] \n"
                                                "Epoch[0] Step[0] GlobalStep[0] qat_train: loss[1.2000] \n"
                                                "Epoch[0] Step[1] GlobalStep[1] qat_train: loss[1.1000] \n"
                                                "Epoch[0] Step[2] GlobalStep[2] qat_train: loss[1.0500] \n"
                                                "Epoch[0] qat_val: acc[0.7000] \n";
    auto set = readLogFolder(dir.string());
    ASSERT_TRUE(set.ok());
    ASSERT_EQ(set->runs.size(), 1u);
    const logs::Run& run = set->runs[0];
    EXPECT_EQ(run.role, RunRole::Qat) << run.roleReason;  // from the content: the folder says nothing
    EXPECT_EQ(seriesOf(run, "loss").size(), 3u);
    ASSERT_EQ(seriesOf(run, "val/acc").size(), 1u);
    EXPECT_FLOAT_EQ(seriesOf(run, "val/acc").value[0], 0.70f);
    ASSERT_EQ(seriesOf(run, "calibration/val/acc").size(), 1u);
    EXPECT_FLOAT_EQ(seriesOf(run, "calibration/val/acc").value[0], 0.64f);
    std::filesystem::remove_all(dir);
}

TEST(LogFolder, SideBySideFilesMergeIntoOneRun)
{
    auto set = readLogFolder(fixture("logs/mixed"));
    ASSERT_TRUE(set.ok()) << set.error().toString();
    ASSERT_EQ(set->runs.size(), 2u);
    const logs::Run& r = runNamed(*set, "qat_run");
    EXPECT_EQ(r.role, RunRole::Qat);
    ASSERT_EQ(r.files.size(), 4u);  // train.log, metrics.csv, metrics.jsonl, tb/events...
    EXPECT_EQ(r.files[0].format, "text");
    // "loss" is in all four files: kept once (12 points), from the CSV (most digits)
    const Series& loss = seriesOf(r, "loss");
    ASSERT_EQ(loss.size(), 12u);
    EXPECT_EQ(r.files[loss.sourceAt(0).file].format, "csv");
    EXPECT_EQ(loss.sourceAt(0).lineOrRecord, 2u);
    EXPECT_EQ(seriesOf(r, "val/acc").size(), 12u);
    EXPECT_EQ(r.files[seriesOf(r, "val/acc").sourceAt(0).file].format, "jsonl");
    EXPECT_EQ(r.files[seriesOf(r, "val/top1").sourceAt(0).file].format, "tfevents");
    EXPECT_EQ(r.files[seriesOf(r, "top1").sourceAt(0).file].format, "text");
    EXPECT_EQ(r.metadata.at("batch_size"), "16");
    EXPECT_EQ(r.metadata.at("optimizer"), "AdamW");
    const logs::Run& f = runNamed(*set, "fp32");
    EXPECT_EQ(f.role, RunRole::Float);
    EXPECT_EQ(seriesOf(f, "loss").size(), 5u);  // TSV and text overlap: one copy
}

TEST(LogFolder, JsonShape)
{
    auto set = readLogFolder(fixture("logs/hat"));
    ASSERT_TRUE(set.ok());
    const nlohmann::json j = logSetToJson(*set);
    const nlohmann::json* qat = nullptr;
    for (const auto& r : j["runs"])
        if (r["name"] == "qat") qat = &r;
    ASSERT_NE(qat, nullptr);
    EXPECT_EQ((*qat)["role"], "qat");
    const auto& loss = (*qat)["series"]["loss"];
    EXPECT_EQ(loss["points"], 15);
    EXPECT_EQ(loss["first_nonfinite_step"], 13.0);
    EXPECT_EQ(loss["first_nonfinite_line"], 16);
    EXPECT_EQ(loss["last"], "nan");
    EXPECT_EQ((*qat)["metadata"]["batch_size"], "32");
    EXPECT_EQ((*qat)["events"].size(), 2u);
}

TEST(RoleGuess, WordsInNamesAndHints)
{
    EXPECT_EQ(guessRole({"runs", "resnet18_fp32"}, {}, {}).role, RunRole::Float);
    EXPECT_EQ(guessRole({"exp", "calib"}, {}, {}).role, RunRole::Calibration);
    EXPECT_EQ(guessRole({"exp", "int8_eval"}, {}, {}).role, RunRole::Quantized);
    EXPECT_EQ(guessRole({"exp", "int_infer"}, {}, {}).role, RunRole::Quantized);
    const RoleGuess ck = guessRole({"exp", "stage2"}, {"train.log", "qat-checkpoint-best.pth.tar"}, {});
    EXPECT_EQ(ck.role, RunRole::Qat);
    EXPECT_EQ(ck.reason, "checkpoint name 'qat-checkpoint-best.pth.tar'");
    const RoleGuess h =
        guessRole({"exp", "stage3"}, {"train.log"}, {{RunRole::Calibration, "training_step: calibration"}});
    EXPECT_EQ(h.role, RunRole::Calibration);
    EXPECT_EQ(guessRole({"exp", "stage4"}, {"train.log"}, {}).role, RunRole::Unknown);
    // "international" or "interval" are not int8
    EXPECT_EQ(guessRole({"interval_runs"}, {}, {}).role, RunRole::Unknown);
}

TEST(LogInputRows, FolderAndFileProbesAndLoad)
{
    AnalyzeOptions options;
    options.paths = {fixture("logs/hat"), fixture("logs/mixed/qat_run/metrics.csv")};
    auto a = analyze(options);
    ASSERT_TRUE(a.ok()) << a.error().toString();
    ASSERT_EQ(a->inputs.size(), 2u);
    EXPECT_EQ(a->inputs[0].format, "log_folder");
    EXPECT_EQ(a->inputs[1].format, "log_file");
    EXPECT_EQ(a->logs.runs.size(), 5u);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test
