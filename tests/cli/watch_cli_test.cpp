// `qatdoctor-cli watch` on logs being written: a thread appends lines to a log in a temporary
// folder while the command follows it; the finding, its step and the exit code are asserted.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/cli/cli_run.h"

namespace qatdoctor::cli::test {
namespace {

namespace fs = std::filesystem;
using test_support::cli;
using test_support::CliRun;
using namespace std::chrono_literals;

// A HAT-style training line (the layout of tests/data/diagnosis), step and loss as given.
std::string trainLine(int step, const std::string& loss)
{
    return "2026-12-03 10:00:" + std::to_string(10 + step % 50) +
           ",120 INFO [metric_updater.py:120] Epoch[0] Step[" + std::to_string(step) + "] GlobalStep[" +
           std::to_string(step) + "] qat_train: loss[" + loss + "] acc[0.81] \n";
}

std::string header()
{
    return "2026-12-03 10:00:01,001 INFO [train.py:30] ==== config ====\ntraining_step: qat\nbatch_size: 64\n"
           "epochs: 3\n";
}

class WatchCli : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() /
                ("qatdoctor_watch_" +
                 std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "qat");
        m_log = m_dir / "qat" / "train.log";
    }
    void TearDown() override
    {
        if (m_writer.joinable()) m_writer.join();
        fs::remove_all(m_dir);
    }

    static void append(const fs::path& p, const std::string& text)
    {
        std::ofstream f(p, std::ios::app | std::ios::binary);
        f << text;
    }
    // Writes the parts one after another with a pause between them, on a thread; stops early once
    // m_stop is set (the watch ended).
    void write(std::vector<std::string> parts, std::chrono::milliseconds pause, fs::path to = {})
    {
        if (to.empty()) to = m_log;
        m_writer = std::thread([this, parts = std::move(parts), pause, to] {
            for (const std::string& p : parts) {
                if (m_stop) return;
                if (p == "<truncate>") {
                    std::ofstream(to, std::ios::trunc | std::ios::binary);
                } else {
                    append(to, p);
                }
                ++m_written;
                std::this_thread::sleep_for(pause);
            }
        });
    }
    CliRun watch(std::vector<std::string> args)
    {
        args.insert(args.begin(), "watch");
        CliRun r = cli(args);
        m_stop = true;
        return r;
    }
    static std::vector<nlohmann::json> events(const std::string& out, const std::string& kind)
    {
        std::vector<nlohmann::json> found;
        std::istringstream lines(out);
        for (std::string line; std::getline(lines, line);) {
            const auto j = nlohmann::json::parse(line);  // every line is one object
            if (j.at("event") == kind) found.push_back(j);
        }
        return found;
    }

    fs::path m_dir, m_log;
    std::thread m_writer;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_written{0};
};

TEST_F(WatchCli, NanLossStopsTheWatchAtItsStep)
{
    append(m_log, header());
    std::vector<std::string> parts;
    for (int step = 1; step <= 20; ++step)
        parts.push_back(trainLine(step * 10, std::to_string(2.0 - 0.05 * step)));
    parts.push_back(trainLine(210, "nan"));
    for (int step = 22; step <= 120; ++step) parts.push_back(trainLine(step * 10, "nan"));
    write(parts, 30ms);
    const CliRun r = watch({m_dir.string(), "--json", "--interval", "0.2", "--timeout", "20"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    const auto findings = events(r.out, "finding");
    ASSERT_EQ(findings.size(), 1u) << r.out;
    EXPECT_EQ(findings[0].at("finding").at("id"), "loss.nonfinite");
    EXPECT_EQ(findings[0].at("finding").at("severity"), "error");
    EXPECT_EQ(findings[0].at("step"), 210);
    EXPECT_EQ(findings[0].at("run"), "qat");
    const auto& evidence = findings[0].at("finding").at("evidence").at(0);
    EXPECT_EQ(evidence.at("file"), m_log.string());
    EXPECT_EQ(evidence.at("line"), 25);  // 4 header lines, 20 finite ones
    const auto end = events(r.out, "end");
    ASSERT_EQ(end.size(), 1u);
    EXPECT_EQ(end[0].at("reason"), "failed");
    EXPECT_EQ(end[0].at("exit"), 1);
    // it stopped at the NaN, not when the writer ran out of lines (3 s later)
    EXPECT_LT(m_written.load(), 100);
}

TEST_F(WatchCli, PollingWithoutInotifyStillCatchesIt)
{
    // --poll: what a network file system gets (inotify never hears remote writes)
    append(m_log, header() + trainLine(10, "1.0"));
    write({trainLine(20, "0.9"), trainLine(30, "inf")}, 100ms);
    const CliRun r = watch({m_dir.string(), "--json", "--poll", "--interval", "0.2", "--timeout", "20"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    ASSERT_EQ(events(r.out, "start").size(), 1u);
    EXPECT_EQ(events(r.out, "start")[0].at("inotify"), false);
    ASSERT_EQ(events(r.out, "finding").size(), 1u);
    EXPECT_EQ(events(r.out, "finding")[0].at("step"), 30);
}

TEST_F(WatchCli, CrashExitsOneNamingTheException)
{
    append(m_log, header());
    std::vector<std::string> parts;
    for (int step = 1; step <= 8; ++step)
        parts.push_back(trainLine(step * 10, std::to_string(1.5 - 0.1 * step)));
    parts.push_back(
        "2026-12-03 10:01:00,002 ERROR [train.py:288] Training failed with an exception, exiting\n");
    parts.push_back("Traceback (most recent call last):\n");
    parts.push_back("  File \"tools/train.py\", line 301, in <module>\n    main()\n");
    parts.push_back("  File \"tools/train.py\", line 120, in main\n    images = next(loader)\n");
    parts.push_back("RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error.\n");
    write(parts, 40ms);
    const CliRun r = watch({m_dir.string(), "--interval", "0.2", "--timeout", "20"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("run.crashed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("at " + m_log.string() + ":14"), std::string::npos) << r.out;  // the traceback
    EXPECT_NE(r.out.find("RuntimeError: DataLoader worker (pid 4242) is killed"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("watch: failed"), std::string::npos) << r.err;
}

TEST_F(WatchCli, HealthyRunEndsCleanlyAtItsFinalLine)
{
    append(m_log, header());
    std::vector<std::string> parts;
    for (int step = 1; step <= 30; ++step)
        parts.push_back(trainLine(step * 10, std::to_string(1.2 - 0.02 * step)));
    parts.push_back("Training time 0:00:03\n");  // torchvision's last line
    write(parts, 10ms);
    const CliRun r =
        watch({m_dir.string(), "--json", "--interval", "0.2", "--settle", "0.3", "--timeout", "20"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    // nothing about the training; at its end the watch says what the analysis of the folder says
    // (a QAT run alone: its quantized model is not evaluated, its march is not logged)
    for (const auto& f : events(r.out, "finding")) {
        const std::string id = f.at("finding").at("id");
        EXPECT_TRUE(id == "qat.no_quantized_eval" || id == "config.march_not_logged") << id;
    }
    const auto end = events(r.out, "end");
    ASSERT_EQ(end.size(), 1u);
    EXPECT_EQ(end[0].at("reason"), "finished");
    ASSERT_EQ(end[0].at("runs").size(), 1u);
    EXPECT_EQ(end[0].at("runs")[0].at("ended"), true);
    EXPECT_EQ(end[0].at("runs")[0].at("why"), "final line: Training time 0:00:03");
    EXPECT_EQ(m_written.load(), 31);
}

TEST_F(WatchCli, YoloRunEndsAtItsEpochsCompletedLine)
{
    // YOLOv5 6.0's console (the layout of a real 64-epoch run, our numbers): after "N epochs
    // completed" it validates best.pt and sums up the fused model, whose "Model Summary: 213
    // layers" reads as a point; none of that is training, the run has ended
    const std::string head = "\n     Epoch   gpu_mem       box       obj       cls    labels  img_size\n";
    const std::string table =
        "               Class     Images     Labels          P          R     mAP@.5 mAP@.5:.95: "
        "100%|##########| 9/9 [00:05<00:00,  1.62it/s]\n";
    std::vector<std::string> parts = {
        "YOLOv5 4ce6737 torch 1.10.1 CUDA:0 (GeForce GTX 1080, 8119MiB)\n\n"
        "Model Summary: 270 layers, 1872157 parameters, 1872157 gradients, 4.6 GFLOPs\n\n"
        "Starting training for 12 epochs...\n"};
    for (int e = 0; e < 3; ++e) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "%10s     2.10G   0.0%d512    0.0%d21         0        14       640: 100%%|##########| "
                      "50/50 [00:31<00:00,  1.60it/s]\n",
                      (std::to_string(e) + "/11").c_str(), 6 - e, 4 - e);
        char all[128];
        std::snprintf(
            all, sizeof all,
            "                 all        310       1022      0.%d41      0.%d32      0.%d05      0.%d18\n",
            5 + e, 4 + e, 4 + e, 2 + e);
        parts.push_back(head + line + table + all);
    }
    parts.push_back(
        "\n3 epochs completed in 0.031 hours.\nOptimizer stripped from runs/train/exp/weights/last.pt, "
        "3.9MB\n"
        "\nValidating runs/train/exp/weights/best.pt...\nFusing layers... \n"
        "Model Summary: 213 layers, 1867405 parameters, 0 gradients, 4.5 GFLOPs\n" +
        table +
        "                 all        310       1022      0.741      0.652      0.705      0.438\n"
        "Results saved to runs/train/exp\n");
    write(parts, 60ms);
    const CliRun r =
        watch({m_dir.string(), "--json", "--interval", "0.1", "--settle", "0.3", "--timeout", "3"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    const auto end = events(r.out, "end");
    ASSERT_EQ(end.size(), 1u);
    EXPECT_EQ(end[0].at("reason"), "finished") << r.out;
    EXPECT_EQ(end[0].at("runs")[0].at("why"), "final line: 3 epochs completed in 0.031 hours.") << r.out;
}

TEST_F(WatchCli, ErrorsTheRunSurvivesAreNoCrash)
{
    // an ERROR line (a tracker retrying) and a worker's traceback, each followed by training
    // lines: the run went on, and ends at its final line
    append(m_log, header());
    std::vector<std::string> parts;
    for (int step = 1; step <= 5; ++step) parts.push_back(trainLine(step * 10, "1.0"));
    parts.push_back("wandb: ERROR Error while calling W&B API: timed out (retrying)\n");
    parts.push_back(trainLine(60, "0.9"));
    parts.push_back(
        "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__>\n"
        "Traceback (most recent call last):\n  File \"dataloader.py\", line 1478, in __del__\n"
        "AssertionError: can only test a child process\n");
    parts.push_back(trainLine(70, "0.8"));
    parts.push_back("`Trainer.fit` stopped: `max_epochs=3` reached.\n");
    write(parts, 120ms);
    const CliRun r = watch({m_dir.string(), "--interval", "0.1", "--settle", "0.3", "--timeout", "20"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("run.crashed"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("watch: finished"), std::string::npos) << r.err;
}

TEST_F(WatchCli, FileCutAndRestartedIsANewAttempt)
{
    // attempt 1 goes NaN at step 50; the job is restarted into the same file, goes NaN at 20
    append(m_log, header());
    std::vector<std::string> parts;
    for (int step = 1; step <= 4; ++step) parts.push_back(trainLine(step * 10, "1.0"));
    parts.push_back(trainLine(50, "nan"));
    parts.push_back("<truncate>");
    parts.push_back(header() + trainLine(10, "1.1"));
    parts.push_back(trainLine(20, "inf"));
    write(parts, 500ms);  // each part read on its own (reads are at least 0.2 s apart)
    const CliRun r =
        watch({m_dir.string(), "--json", "--fail-on", "none", "--interval", "0.1", "--timeout", "1.5"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    std::vector<nlohmann::json> findings;
    for (const auto& f : events(r.out, "finding"))
        if (f.at("finding").at("id") == "loss.nonfinite") findings.push_back(f);
    ASSERT_EQ(findings.size(), 2u) << r.out;
    EXPECT_EQ(findings[0].at("step"), 50);
    EXPECT_EQ(findings[1].at("step"), 20);
    EXPECT_EQ(findings[1].at("finding").at("evidence").at(0).at("value"), "inf");
    EXPECT_EQ(events(r.out, "end").at(0).at("reason"), "timeout");
}

TEST_F(WatchCli, ExecGetsTheFindingInItsEnvironmentNeverInTheCommand)
{
    // a run folder whose name is shell code: it reaches the hook as a value, never as code
    const fs::path hostile = m_dir / "$(touch pwned)";
    fs::create_directories(hostile);
    const fs::path log = hostile / "train.log";
    append(log, header());
    write({trainLine(10, "0.9"), trainLine(20, "nan")}, 50ms, log);
    const fs::path out = m_dir / "hook.txt";
    const std::string hook = "cd '" + m_dir.string() +
                             "' && printf '%s|%s|%s|%s' \"$QATDOCTOR_FINDING_ID\" \"$QATDOCTOR_SEVERITY\" "
                             "\"$QATDOCTOR_STEP\" \"$QATDOCTOR_RUN\" > hook.txt";
    const CliRun r = watch({m_dir.string(), "--exec", hook, "--interval", "0.1", "--timeout", "20"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    std::ifstream f(out);
    const std::string got{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    EXPECT_EQ(got, "loss.nonfinite|error|20|$(touch pwned)");
    EXPECT_FALSE(fs::exists(m_dir / "pwned"));
    EXPECT_FALSE(fs::exists("pwned"));
}

// #48 item 7: a watched log replaced by a folder is no growth: --timeout still ends the watch.
TEST_F(WatchCli, ALogReplacedByAFolderStillTimesOut)
{
    append(m_log, header() + trainLine(10, "1.0"));
    m_writer = std::thread([&] {
        std::this_thread::sleep_for(300ms);
        fs::remove(m_log);
        fs::create_directories(m_log);
    });
    const CliRun r = watch({m_log.string(), "--interval", "0.1", "--timeout", "1"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("timeout"), std::string::npos) << r.err;
}

TEST_F(WatchCli, InactivityTimeoutEndsWithZero)
{
    append(m_log, header() + trainLine(10, "1.0") + trainLine(20, "0.9"));
    const CliRun r = watch({m_dir.string(), "--interval", "0.1", "--timeout", "0.4"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    // (the findings the analysis of the folder gives are said at the end: no quantized evaluation,
    // no march)
    EXPECT_NE(r.err.find("watch: timeout: 1 run(s), 2 finding(s)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("loss."), std::string::npos) << r.err;
}

TEST_F(WatchCli, WaitsForAFolderThatDoesNotExistYet)
{
    const fs::path later = m_dir / "later";
    m_writer = std::thread([&] {
        std::this_thread::sleep_for(200ms);
        fs::create_directories(later / "qat");
        append(later / "qat" / "train.log", header() + trainLine(10, "1.0"));
        std::this_thread::sleep_for(200ms);
        append(later / "qat" / "train.log", trainLine(20, "nan"));
    });
    const CliRun r = watch({later.string(), "--json", "--interval", "0.1", "--timeout", "20"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    ASSERT_EQ(events(r.out, "notice").size(), 1u) << r.out;
    EXPECT_EQ(events(r.out, "notice")[0].at("warning").at("code"), "watch.waiting");
    ASSERT_EQ(events(r.out, "finding").size(), 1u);
    EXPECT_EQ(events(r.out, "finding")[0].at("step"), 20);
}

TEST_F(WatchCli, SeveralPathsEndWhenEveryOneHasEnded)
{
    // float finished already; QAT's folder appears later (calibration ran in between): the watch
    // waits for it instead of ending with float
    const fs::path floatLog = m_dir / "float" / "train.log";
    fs::create_directories(floatLog.parent_path());
    append(floatLog, header() + trainLine(10, "2.0") + trainLine(20, "1.5") + "Training time 0:00:02\n");
    const fs::path qat = m_dir / "later_qat";
    m_writer = std::thread([&] {
        std::this_thread::sleep_for(900ms);
        fs::create_directories(qat);
        append(qat / "train.log", header() + trainLine(10, "1.4"));
        std::this_thread::sleep_for(300ms);
        append(qat / "train.log", trainLine(20, "1.3") + "`Trainer.fit` stopped: `max_epochs=3` reached.\n");
    });
    const CliRun r = watch({(m_dir / "float").string(), qat.string(), "--json", "--interval", "0.1",
                            "--settle", "0.3", "--timeout", "20"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    const auto end = events(r.out, "end");
    ASSERT_EQ(end.size(), 1u);
    EXPECT_EQ(end[0].at("reason"), "finished");
    ASSERT_EQ(end[0].at("runs").size(), 2u) << r.out;
    for (const auto& run : end[0].at("runs")) EXPECT_EQ(run.at("ended"), true) << run.dump();
}

TEST_F(WatchCli, UsageErrors)
{
    EXPECT_EQ(cli({"watch"}).code, 2);
    EXPECT_EQ(cli({"watch", m_dir.string(), "--fail-on", "fatal"}).code, 2);
    EXPECT_EQ(cli({"watch", m_dir.string(), "--timeout", "soon"}).code, 2);
    EXPECT_EQ(cli({"watch", m_dir.string(), "--interval", "-1"}).code, 2);
}

}  // namespace
}  // namespace qatdoctor::cli::test
