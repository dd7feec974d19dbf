// Live tailing: appended lines parsed incrementally, a partial line waits, a truncated file is
// re-read, new files and runs appear.
#include <filesystem>
#include <fstream>

#include "core/logs/log_tailer.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

namespace fs = std::filesystem;

class TailerTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() / ("qatdoctor_tail_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
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

    fs::path m_dir;
};

TEST_F(TailerTest, AppendPartialTruncateAndNewRun)
{
    const fs::path log = m_dir / "qat" / "train.log";
    append(log, "Epoch[0] Step[0] GlobalStep[0] t: loss[1.0] \nEpoch[0] Step[1] GlobalStep[1] t: loss[0.9] \n");
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
    { std::ofstream f(log, std::ios::trunc); f << "Epoch[0] Step[0] GlobalStep[0] t: loss[2.0] \n"; }
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

}  // namespace
}  // namespace qatdoctor::core::logs::test
