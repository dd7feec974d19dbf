// Live tailing: appended lines parsed incrementally, a partial line waits, a truncated file is
// re-read, new files and runs appear; watching resumed from a loaded LogSet parses only what was
// appended after the load.
#include <filesystem>
#include <fstream>

#include "core/logs/log_reader.h"
#include "core/logs/log_tailer.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

namespace fs = std::filesystem;

class TailerTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() /
                ("qatdoctor_tail_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "qat");
    }
    void TearDown() override { fs::remove_all(m_dir); }

    void append(const fs::path& p, const std::string& text)
    {
        std::ofstream f(p, std::ios::app | std::ios::binary);
        f << text;
    }
    static const Series* loss(const LogTailer& t, const std::string& run = "qat")
    {
        for (const logs::Run& r : t.logSet().runs)
            if (r.name == run) return r.find("loss");
        return nullptr;
    }

    // The text read in one go as a file at p (which is then removed again).
    Result<LogSet> readWhole(const fs::path& p, const std::string& text)
    {
        append(p, text);
        auto whole = readLogFile(p.string());
        fs::remove(p);
        return whole;
    }
    // The text appended to p `chunk` bytes at a time (lines cut anywhere), a poll after each.
    void writeInPieces(LogTailer& tailer, const fs::path& p, const std::string& text, size_t chunk)
    {
        for (size_t at = 0; at < text.size(); at += chunk) {
            append(p, text.substr(at, chunk));
            ASSERT_TRUE(tailer.poll().ok());
        }
    }

    fs::path m_dir;
};

TEST_F(TailerTest, AppendPartialTruncateAndNewRun)
{
    const fs::path log = m_dir / "qat" / "train.log";
    append(log,
           "Epoch[0] Step[0] GlobalStep[0] t: loss[1.0] \nEpoch[0] Step[1] GlobalStep[1] t: loss[0.9] \n");
    LogTailer tailer(m_dir.string());
    auto r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(*r);
    ASSERT_NE(loss(tailer), nullptr);
    EXPECT_EQ(loss(tailer)->size(), 2u);
    EXPECT_EQ(tailer.logSet().runs.at(0).role, RunRole::Qat);

    // nothing new
    r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(*r);

    // a line written in two steps: the partial half waits
    append(log, "Epoch[0] Step[2] GlobalStep[2] t: loss[0.");
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_EQ(loss(tailer)->size(), 2u);
    append(log, "8] \n");
    ASSERT_TRUE(tailer.poll().ok());
    ASSERT_EQ(loss(tailer)->size(), 3u);
    EXPECT_FLOAT_EQ(loss(tailer)->value[2], 0.8f);
    EXPECT_EQ(loss(tailer)->sourceAt(2).lineOrRecord, 3u);

    // truncated and rewritten (a restarted run): read again from the start
    {
        std::ofstream f(log, std::ios::trunc);
        f << "Epoch[0] Step[0] GlobalStep[0] t: loss[2.0] \n";
    }
    r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(*r);
    ASSERT_EQ(loss(tailer)->size(), 1u);
    EXPECT_FLOAT_EQ(loss(tailer)->value[0], 2.0f);

    // a new run folder appears
    fs::create_directories(m_dir / "float");
    append(m_dir / "float" / "metrics.csv", "step,loss\n0,3.0\n1,2.5\n");
    r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(*r);
    ASSERT_EQ(tailer.logSet().runs.size(), 2u);
    ASSERT_NE(loss(tailer, "float"), nullptr);
    EXPECT_EQ(loss(tailer, "float")->size(), 2u);
    EXPECT_EQ(tailer.logSet().runs.at(0).role, RunRole::Float);

    // appended CSV rows keep the header
    append(m_dir / "float" / "metrics.csv", "2,2.0\n");
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_EQ(loss(tailer, "float")->size(), 3u);
    EXPECT_EQ(loss(tailer, "float")->step.back(), 2);
}

// A one-file pipeline tailed while it is written: float first, then calibration and QAT after
// their stage banners. The run's own stage (the one with the most points) may only settle late;
// the series each stage wrote keep their points however the reads fall (the tailer once stripped
// the own stage's prefix from what it accumulated, and the next stage's points then fell into
// float's series).
TEST_F(TailerTest, OneFilePipelineReadInPiecesEqualsOneRead)
{
    std::string text = "+ python3 tools/train.py --stage float\n";
    for (int i = 0; i < 12; ++i)
        text += "Epoch[0] Step[" + std::to_string(i) + "] GlobalStep[" + std::to_string(i) +
                "] float_train: loss[" + std::to_string(2.0 - 0.1 * i) + "] \n";
    text += "==========BEGIN CALIBRATION STAGE==========\n";
    for (int i = 0; i < 3; ++i)
        text += "Epoch[0] Step[" + std::to_string(i) + "] GlobalStep[" + std::to_string(i) +
                "] calib_train: loss[" + std::to_string(0.9 - 0.1 * i) + "] \n";
    text += "==========BEGIN QAT STAGE==========\n";
    for (int i = 0; i < 5; ++i)
        text += "Epoch[0] Step[" + std::to_string(i) + "] GlobalStep[" + std::to_string(i) +
                "] qat_train: loss[" + std::to_string(0.7 - 0.1 * i) + "] \n";
    const fs::path log = m_dir / "qat" / "pipeline.log";
    auto whole = readWhole(log, text);
    ASSERT_TRUE(whole.ok());
    LogTailer tailer(log.string());
    ASSERT_NO_FATAL_FAILURE(writeInPieces(tailer, log, text, 61));
    ASSERT_EQ(tailer.logSet().runs.size(), 1u);
    ASSERT_EQ(whole->runs.size(), 1u);
    const logs::Run& live = tailer.logSet().runs[0];
    const logs::Run& once = whole->runs[0];
    EXPECT_EQ(live.role, once.role);
    ASSERT_EQ(live.series.size(), once.series.size());
    for (const auto& [name, s] : once.series) {
        SCOPED_TRACE(name);
        const Series* t = live.find(name);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->size(), s.size());
        for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(t->value[i], s.value[i]);
    }
    EXPECT_EQ(live.find("loss")->size(), 12u);  // float's, the stage with the most points
    EXPECT_EQ(live.find("qat/loss")->size(), 5u);
    EXPECT_TRUE(tailer.restartedFiles().empty());
    // the job starts again: the file is cut and rewritten
    {
        std::ofstream f(log, std::ios::trunc);
        f << "Epoch[0] Step[0] GlobalStep[0] qat_train: loss[3.0] \n";
    }
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_EQ(tailer.restartedFiles(), std::vector<std::string>{log.string()});
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_TRUE(tailer.restartedFiles().empty());
}

// Lines before any stage marker, then QAT's after its banner, QAT's points the more: the own stage
// flips to QAT midway, and its "qat/loss" then merges with the unprefixed "loss" (a rebuild keeps
// the fuller copy). Read in pieces (appended in place between the rebuilds) it equals one read.
TEST_F(TailerTest, StageThatTakesOverMidwayReadInPiecesEqualsOneRead)
{
    std::string text;
    for (int i = 0; i < 4; ++i)
        text += "Epoch[0] Step[" + std::to_string(i) + "] GlobalStep[" + std::to_string(i) + "] t: loss[" +
                std::to_string(2.0 - 0.1 * i) + "] \n";
    text += "==========BEGIN QAT STAGE==========\n";
    for (int i = 0; i < 9; ++i)
        text += "Epoch[0] Step[" + std::to_string(i) + "] GlobalStep[" + std::to_string(i) +
                "] qat_train: loss[" + std::to_string(0.9 - 0.05 * i) + "] \n";
    const fs::path log = m_dir / "qat" / "mixed.log";
    auto whole = readWhole(log, text);
    ASSERT_TRUE(whole.ok());
    LogTailer tailer(log.string());
    ASSERT_NO_FATAL_FAILURE(writeInPieces(tailer, log, text, 47));
    const logs::Run& live = tailer.logSet().runs.at(0);
    const logs::Run& once = whole->runs.at(0);
    EXPECT_EQ(live.role, once.role);
    ASSERT_EQ(live.series.size(), once.series.size());
    for (const auto& [name, s] : once.series) {
        SCOPED_TRACE(name);
        const Series* t = live.find(name);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->size(), s.size());
        for (size_t i = 0; i < s.size(); ++i) {
            EXPECT_EQ(t->value[i], s.value[i]);
            EXPECT_EQ(t->step[i], s.step[i]);
        }
    }
}

// A growing HAT log (its "qat_train:" prefix names the stage on every line, a role hint each
// read) is built once, then appended to in place: a live tail's cost follows what is appended.
TEST_F(TailerTest, AGrowingLogIsAppendedInPlace)
{
    const fs::path log = m_dir / "qat" / "train.log";
    append(log, "2026-12-03 10:00:01,001 INFO [train.py:30] ==== config ====\ntraining_step: qat\n");
    LogTailer tailer(m_dir.string());
    ASSERT_TRUE(tailer.poll().ok());
    std::string all;
    for (int i = 1; i <= 200; ++i) {
        const std::string line = "2026-12-03 10:00:02,001 INFO [metric_updater.py:120] Epoch[0] Step[" +
                                 std::to_string(i) + "] GlobalStep[" + std::to_string(i) +
                                 "] qat_train: loss[" + std::to_string(1.0 / i) + "] acc[0.8] \n";
        append(log, line);
        if (i % 10 == 0) ASSERT_TRUE(tailer.poll().ok());
    }
    EXPECT_LE(tailer.rebuildCount(), 2u);
    ASSERT_NE(loss(tailer), nullptr);
    EXPECT_EQ(loss(tailer)->size(), 200u);
    auto once = readLogFolder(m_dir.string());
    ASSERT_TRUE(once.ok());
    const Series* l = once->runs.at(0).find("loss");
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l->step, loss(tailer)->step);
    EXPECT_EQ(l->value, loss(tailer)->value);
    EXPECT_EQ(l->line, loss(tailer)->line);
}

const Series* lossOf(const LogSet& set, const std::string& run)
{
    for (const logs::Run& r : set.runs)
        if (r.name == run) return r.find("loss");
    return nullptr;
}

// Overwrites bytes in place: same size, same inode (what a re-read would notice, a resume not).
void overwrite(const fs::path& p, size_t at, const std::string& text)
{
    std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(at));
    f << text;
}

TEST_F(TailerTest, ResumeFromALoadedSetParsesOnlyAppendedBytes)
{
    const fs::path qat = m_dir / "qat" / "train.log";
    append(qat,
           "Epoch[0] Step[0] GlobalStep[0] t: loss[1.0] \nEpoch[0] Step[1] GlobalStep[1] t: loss[0.9] \n"
           "Epoch[0] Step[2] GlobalStep[2] t: loss[0.8] \n");
    fs::create_directories(m_dir / "float");
    append(m_dir / "float" / "metrics.csv", "step,loss\n0,3.0\n1,2.5\n");
    fs::create_directories(m_dir / "calib");
    const fs::path calib = m_dir / "calib" / "train.log";
    append(
        calib,
        "Epoch[0] Step[0] GlobalStep[0] t: loss[5.0] \nEpoch[0] Step[1] GlobalStep[1] t: loss[4.");  // partial

    auto loaded = readLogFolder(m_dir.string());
    ASSERT_TRUE(loaded.ok());
    ASSERT_NE(loaded->checkpoint, nullptr);
    ASSERT_EQ(lossOf(*loaded, "calib")->size(), 1u);
    const auto partialWarnings = [](const LogSet& s) {
        return std::count_if(s.warnings.begin(), s.warnings.end(),
                             [](const Warning& w) { return w.code == "logs.partial_line"; });
    };
    EXPECT_EQ(partialWarnings(*loaded), 1);
    auto base = std::make_shared<const LogSet>(std::move(*loaded));

    // After the load: the loaded part of qat/train.log changes in place (a resumed tailer must
    // not see it), lines are appended, the partial line completes, a new run appears.
    overwrite(qat, std::string("Epoch[0] Step[0] GlobalStep[0] t: loss[").size(), "7");
    append(qat, "Epoch[0] Step[3] GlobalStep[3] t: loss[0.6] \n");
    append(m_dir / "float" / "metrics.csv", "2,2.0\n");
    append(calib, "5] \n");
    fs::create_directories(m_dir / "int8");
    append(m_dir / "int8" / "eval.log", "Epoch[0] Step[0] GlobalStep[0] t: loss[1.5] \n");

    LogTailer tailer = LogTailer::resume(base);
    EXPECT_EQ(tailer.logSet().runs.size(), 3u);  // the loaded runs, before any poll
    auto r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(*r);
    const LogSet& live = tailer.logSet();
    ASSERT_EQ(live.runs.size(), 4u);

    const Series* q = lossOf(live, "qat");
    ASSERT_NE(q, nullptr);
    ASSERT_EQ(q->size(), 4u);
    EXPECT_FLOAT_EQ(q->value[0], 1.0f);  // as loaded: the first three lines were not read again
    EXPECT_FLOAT_EQ(q->value[3], 0.6f);
    EXPECT_EQ(q->step[3], 3);
    EXPECT_EQ(q->sourceAt(3).lineOrRecord, 4u);

    const Series* f = lossOf(live, "float");
    ASSERT_EQ(f->size(), 3u);
    EXPECT_EQ(f->step[2], 2);
    EXPECT_FLOAT_EQ(f->value[2], 2.0f);
    EXPECT_EQ(f->sourceAt(2).lineOrRecord, 4u);  // the header is line 1

    const Series* c = lossOf(live, "calib");
    ASSERT_EQ(c->size(), 2u);  // the line that was partial at load time, read once complete
    EXPECT_FLOAT_EQ(c->value[1], 4.5f);
    EXPECT_EQ(c->sourceAt(1).lineOrRecord, 2u);
    EXPECT_EQ(partialWarnings(live), 0);

    ASSERT_NE(lossOf(live, "int8"), nullptr);
    EXPECT_EQ(lossOf(live, "int8")->size(), 1u);
    for (const logs::Run& run : live.runs)
        if (run.name == "int8") EXPECT_EQ(run.role, RunRole::Quantized);

    // Everything else equals a full read of the folder now.
    auto full = readLogFolder(m_dir.string());
    ASSERT_TRUE(full.ok());
    ASSERT_EQ(full->runs.size(), live.runs.size());
    for (const logs::Run& fr : full->runs) {
        const Series* a = lossOf(*full, fr.name);
        const Series* b = lossOf(live, fr.name);
        ASSERT_NE(a, nullptr);
        ASSERT_NE(b, nullptr);
        ASSERT_EQ(a->size(), b->size()) << fr.name;
        EXPECT_EQ(a->step, b->step) << fr.name;
        EXPECT_EQ(a->line, b->line) << fr.name;
        for (size_t i = 0; i < a->size(); ++i)
            if (!(fr.name == "qat" && i == 0)) EXPECT_EQ(a->value[i], b->value[i]) << fr.name << " " << i;
    }
    EXPECT_FLOAT_EQ(lossOf(*full, "qat")->value[0], 7.0f);  // the full read does see the change

    // nothing new: no change
    r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(*r);

    // a loaded file truncated and rewritten: the whole folder is read again
    {
        std::ofstream t(calib, std::ios::trunc);
        t << "Epoch[0] Step[0] GlobalStep[0] t: loss[9.0] \n";
    }
    r = tailer.poll();
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(*r);
    ASSERT_EQ(lossOf(tailer.logSet(), "calib")->size(), 1u);
    EXPECT_FLOAT_EQ(lossOf(tailer.logSet(), "calib")->value[0], 9.0f);
    EXPECT_FLOAT_EQ(lossOf(tailer.logSet(), "qat")->value[0], 7.0f);  // re-read: now it sees the change
    EXPECT_EQ(lossOf(tailer.logSet(), "qat")->size(), 4u);
}

TEST_F(TailerTest, ResumeWithoutCheckpointReadsTheFolder)
{
    append(m_dir / "qat" / "train.log", "Epoch[0] Step[0] GlobalStep[0] t: loss[1.0] \n");
    auto set = std::make_shared<LogSet>();
    set->root = m_dir.string();  // e.g. made by hand: no checkpoint
    LogTailer tailer = LogTailer::resume(set);
    ASSERT_TRUE(tailer.poll().ok());
    ASSERT_NE(loss(tailer), nullptr);
    EXPECT_EQ(loss(tailer)->size(), 1u);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test

namespace qatdoctor::core::logs::test {
namespace {

// A file the tailer turned down is not read again on every poll, only once it changed: a notes
// file that later becomes a log is picked up, another reader's file is asked about once.
TEST_F(TailerTest, TurnedDownFilesAreAskedAgainOnlyWhenTheyChange)
{
    append(m_dir / "qat" / "train.log", "step=1 loss=0.5\nstep=2 loss=0.4\n");
    append(m_dir / "qat" / "notes.txt", "remember to check the lr\n");
    append(m_dir / "qat" / "model_summary.log", "printed model\n");
    int asked = 0;
    ReadOptions options;
    options.skipFile = [&](const std::string& path) {
        const bool other = path.ends_with("model_summary.log");
        asked += other;
        return other;
    };
    LogTailer tailer(m_dir.string(), options);
    ASSERT_TRUE(tailer.poll().ok());
    ASSERT_EQ(tailer.logSet().runs.size(), 1u);
    EXPECT_EQ(tailer.logSet().runs[0].files.size(), 1u);
    EXPECT_EQ(asked, 1);
    ASSERT_TRUE(tailer.poll().ok());
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_EQ(asked, 1);  // unchanged: not asked again
    append(m_dir / "qat" / "model_summary.log", "more\n");
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_EQ(asked, 2);  // changed: asked again (and still another reader's)
    for (int i = 3; i < 40; ++i)
        append(m_dir / "qat" / "notes.txt", "Epoch [1/2] Step [" + std::to_string(i) + "/90] loss: 0." +
                                                std::to_string(i) + " acc: 0.5\n");
    ASSERT_TRUE(tailer.poll().ok());
    EXPECT_EQ(tailer.logSet().runs[0].files.size(), 2u);  // the notes became a log
}

}  // namespace
}  // namespace qatdoctor::core::logs::test
