// A total memory budget for what a checkpoint claims (issue #48 item 4): many small pieces that
// each pass their own limit (quantizers sharing one storage, a memoized key used as many names,
// two big weights compared at once, a long pickle string) stay within --max-memory together, or
// stop with a message naming the piece and the budget. The checkpoints are written by the test.
#include <gtest/gtest.h>
#include <zip.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_file.h"
#include "core/checkpoint/checkpoint_layers.h"
#include "core/common/error_codes.h"
#include "core/common/memory_budget.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;
using namespace std::string_literals;

constexpr int64_t kMiB = int64_t{1} << 20;

std::string le32(uint32_t v)
{
    std::string s(4, '\0');
    for (int k = 0; k < 4; ++k) s[k] = static_cast<char>(v >> (8 * k));
    return s;
}
std::string unicode(const std::string& s)  // BINUNICODE
{
    return "X"s + le32(static_cast<uint32_t>(s.size())) + s;
}
std::string int32(int64_t v)  // BININT
{
    return "J"s + le32(static_cast<uint32_t>(v));
}
// torch._utils._rebuild_tensor_v2 of a 1-D float32 tensor of numel elements on storage key
std::string tensor(const std::string& key, int64_t numel)
{
    return "ctorch._utils\n_rebuild_tensor_v2\n("s + "("s + unicode("storage") + "ctorch\nFloatStorage\n"s +
           unicode(key) + unicode("cpu") + int32(numel) + "tQ"s + "K\x00"s + "("s + int32(numel) + "t"s +
           "("s + int32(1) + "t"s + "\x89"s + "ccollections\nOrderedDict\n)R"s + "tR"s;
}

// A torch.save zip: archive/data.pkl and its storages, deflated when asked (torch stores them;
// a deflated entry is how a few kilobytes claim gigabytes).
void writeCheckpoint(const std::string& path, const std::string& pickle,
                     const std::vector<std::pair<std::string, std::string>>& storages, bool deflate = false)
{
    int code = 0;
    zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    ASSERT_NE(z, nullptr);
    const auto add = [&](const std::string& name, const std::string& bytes) {
        zip_source_t* src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
        const zip_int64_t at = zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE);
        ASSERT_GE(at, 0);
        zip_set_file_compression(z, static_cast<zip_uint64_t>(at), deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 0);
    };
    add("archive/data.pkl", pickle);
    for (const auto& [key, bytes] : storages) add("archive/data/" + key, bytes);
    ASSERT_EQ(zip_close(z), 0);
}

std::string floats(int64_t count, float value)
{
    std::string s(static_cast<size_t>(count) * 4, '\0');
    for (int64_t k = 0; k < count; ++k) std::memcpy(s.data() + k * 4, &value, 4);
    return s;
}

TEST(MemoryBudget, TakesUpToItsLimitAndSaysWhatPassedIt)
{
    MemoryBudget budget(100);
    EXPECT_TRUE(budget.take(60));
    EXPECT_FALSE(budget.take(41));
    EXPECT_EQ(budget.used(), 60u);
    EXPECT_TRUE(budget.take(40));
    budget.give(50);
    EXPECT_EQ(budget.used(), 50u);
    EXPECT_FALSE(budget.take(UINT64_MAX));  // no wrap
    const std::string why = budget.refusal("tensor fc.weight", 80);
    EXPECT_NE(why.find("tensor fc.weight needs 80 B"), std::string::npos) << why;
    EXPECT_NE(why.find("--max-memory"), std::string::npos) << why;
    EXPECT_GE(MemoryBudget().limit(), uint64_t{256} << 20);  // the default: a quarter of memory
}

// 600 quantizers whose scale and zero point all view one 256 KiB storage: 300 MiB as the table's
// doubles. Within a 32 MiB budget the table reads what fits and names the first buffer past it.
TEST(CheckpointBudget, QuantizersSharingOneStorageStayWithinTheBudget)
{
    TempDir dir("budget_shared");
    const std::string path = dir / "shared.pt";
    constexpr int64_t kNumel = 65536;
    std::string p = "\x80\x02"s + "ccollections\nOrderedDict\n)R("s;
    for (int i = 0; i < 600; ++i) {
        const std::string q = "conv" + std::to_string(i) + ".weight_fake_quant.";
        p += unicode(q + "scale") + tensor("0", kNumel) + unicode(q + "zero_point") + tensor("0", kNumel);
    }
    p += "u."s;
    writeCheckpoint(path, p, {{"0", floats(kNumel, 0.01F)}});

    PeakMemoryGrowth sampler;
    Result<checkpoint::CheckpointRead> read = checkpoint::readCheckpointLayers(path, uint64_t{32} << 20);
    const int64_t growth = sampler.stop();
    ASSERT_TRUE(read) << read.error().toString();
    const Warning* over = nullptr;
    for (const Warning& w : read->table.warnings)
        if (w.code == codes::kCheckpointBudget) over = &w;
    ASSERT_NE(over, nullptr) << "no budget warning among " << read->table.warnings.size();
    EXPECT_NE(over->message.find("weight_fake_quant"), std::string::npos) << over->message;
    EXPECT_NE(over->message.find("32.0 MiB"), std::string::npos) << over->message;
    EXPECT_EQ(read->table.layers.size(), 600u);  // every row is there; the values stop at the budget
#if !defined(__SANITIZE_ADDRESS__)
    EXPECT_LT(growth, 96 * kMiB) << "RssAnon grew by " << (growth >> 20) << " MiB";
#endif
}

// A memoized 8 MiB string used as the key of twenty modules: names are identifiers, so what such
// a key holds is noted and not read, instead of twenty 8 MiB names and their copies.
TEST(CheckpointBudget, AHugeMemoizedKeyIsNotCopiedIntoNames)
{
    TempDir dir("budget_key");
    const std::string path = dir / "key.pt";
    const std::string key(static_cast<size_t>(8 * kMiB), 'k');
    std::string p = "\x80\x02}("s + unicode(key) + "q\x00}("s + unicode("weight") + tensor("0", 4) + "u"s;
    for (int i = 0; i < 19; ++i)
        p += unicode("m" + std::to_string(i)) + "}(h\x00}("s + unicode("weight") + tensor("0", 4) + "uu"s;
    p += unicode("fc") + "}("s + unicode("weight") + tensor("0", 4) + "uu."s;
    writeCheckpoint(path, p, {{"0", floats(4, 1.0F)}});

    PeakMemoryGrowth sampler;
    Result<checkpoint::CheckpointFile> file = checkpoint::readCheckpoint(path);
    const int64_t growth = sampler.stop();
    ASSERT_TRUE(file) << file.error().toString();
    ASSERT_FALSE(file->walkNotes.empty());
    EXPECT_NE(file->walkNotes[0].find("8388608 bytes"), std::string::npos) << file->walkNotes[0];
    EXPECT_NE(file->walkNotes[0].find("not a name"), std::string::npos) << file->walkNotes[0];
    ASSERT_EQ(file->tensors.size(), 1u);  // fc.weight, under an ordinary key
    EXPECT_EQ(file->tensors[0].name, "fc.weight");
#if !defined(__SANITIZE_ADDRESS__)
    EXPECT_LT(growth, 64 * kMiB) << "RssAnon grew by " << (growth >> 20) << " MiB";
#endif
}

// A 48 MiB string in the pickle read under a 16 MiB budget stops with the budget's message.
TEST(CheckpointBudget, APickleStringPastTheBudgetStopsNamingIt)
{
    TempDir dir("budget_string");
    const std::string path = dir / "note.pt";
    const std::string p = "\x80\x02}("s + unicode("note") + unicode(std::string(48 * kMiB, 's')) + "u."s;
    writeCheckpoint(path, p, {}, true);
    MemoryBudget budget(uint64_t{16} << 20);
    Result<checkpoint::CheckpointFile> file = checkpoint::readCheckpoint(path, &budget);
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error().code, codes::kCheckpointBudget);
    EXPECT_NE(file.error().message.find("16.0 MiB (--max-memory)"), std::string::npos)
        << file.error().message;
    EXPECT_NE(file.error().message.find("note.pt"), std::string::npos) << file.error().message;

    MemoryBudget roomy(uint64_t{256} << 20);  // the same file within a budget it fits
    EXPECT_TRUE(checkpoint::readCheckpoint(path, &roomy));
}

// Two checkpoints whose one weight is 24 MiB each (deflated: kilobytes on disk): compared within a
// 32 MiB budget the pair is not read at once and the change says why; within 128 MiB it is compared.
TEST(CheckpointBudget, TwoBigWeightsPastTheBudgetAreNotComparedAtOnce)
{
    TempDir dir("budget_diff");
    constexpr int64_t kNumel = 6 * kMiB;
    const std::string p =
        "\x80\x02"s + "ccollections\nOrderedDict\n)R("s + unicode("fc.weight") + tensor("0", kNumel) + "u."s;
    writeCheckpoint(dir / "a.pt", p, {{"0", floats(kNumel, 1.0F)}}, true);
    writeCheckpoint(dir / "b.pt", p, {{"0", floats(kNumel, 2.0F)}}, true);
    Result<checkpoint::CheckpointFile> a = checkpoint::readCheckpoint(dir / "a.pt");
    Result<checkpoint::CheckpointFile> b = checkpoint::readCheckpoint(dir / "b.pt");
    ASSERT_TRUE(a && b);

    Result<checkpoint::CheckpointDiff> tight = checkpoint::diffCheckpoints(*a, *b, {}, uint64_t{32} << 20);
    ASSERT_TRUE(tight);
    ASSERT_EQ(tight->tensors.size(), 1u);
    EXPECT_EQ(tight->tensors[0].kind, checkpoint::ChangeKind::Unread);
    EXPECT_NE(tight->tensors[0].problem.find("memory budget of 32.0 MiB"), std::string::npos)
        << tight->tensors[0].problem;

    Result<checkpoint::CheckpointDiff> roomy = checkpoint::diffCheckpoints(*a, *b, {}, uint64_t{128} << 20);
    ASSERT_TRUE(roomy);
    EXPECT_EQ(roomy->tensors[0].kind, checkpoint::ChangeKind::Changed);
}

}  // namespace
}  // namespace qatdoctor::test
