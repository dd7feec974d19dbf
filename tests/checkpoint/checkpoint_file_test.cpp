// Real torch.save files (python3-torch 1.13, tests/gen/make_checkpoints.py) read without Python:
// names, dtypes and shapes of every tensor, values compared with what torch saved.
#include "core/checkpoint/checkpoint_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace qatdoctor::core::checkpoint {
namespace {

std::string fixture(const std::string& name)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/" + name;
}

CheckpointFile read(const std::string& name)
{
    Result<CheckpointFile> f = readCheckpoint(fixture(name));
    EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().toString());
    return f.ok() ? std::move(f).value() : CheckpointFile{};
}

TEST(Checkpoint, AStateDictInTheZipContainer)
{
    const CheckpointFile f = read("float_state_dict.pt");
    EXPECT_EQ(f.container, "zip");
    EXPECT_EQ(f.archiveRoot, "float_state_dict");
    EXPECT_EQ(f.modelKey, "");
    ASSERT_EQ(f.tensors.size(), 9u);  // conv1.weight/bias, bn1 x5, fc.weight/bias
    const TensorInfo* w = f.find("conv1.weight");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->dtype, "float32");
    EXPECT_EQ(w->shape, (std::vector<int64_t>{4, 3, 3, 3}));
    const TensorInfo* n = f.find("bn1.num_batches_tracked");
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->dtype, "int64");
    EXPECT_TRUE(n->shape.empty());
    const Result<std::vector<double>> var = readTensor(f, *f.find("bn1.running_var"));
    ASSERT_TRUE(var.ok()) << var.error().toString();
    EXPECT_EQ(*var, (std::vector<double>{1, 1, 1, 1}));  // a fresh BatchNorm
    const Result<std::vector<double>> weights = readTensor(f, *w);
    ASSERT_TRUE(weights.ok());
    ASSERT_EQ(weights->size(), 108u);
    for (double v : *weights) EXPECT_LE(std::fabs(v), 1.0 / std::sqrt(27.0) + 1e-6);  // kaiming-uniform bound
    EXPECT_TRUE(f.dangerous.empty());
}

TEST(Checkpoint, TheLegacyContainersGiveTheSameTensors)
{
    const CheckpointFile zip = read("float_state_dict.pt");
    // the tar form's bn1.bias sits at an offset in bn1.weight's storage, its running_var in a view
    for (const auto& [name, container] :
         {std::pair{"legacy_state_dict.pt", "legacy"}, {"legacy_tar.pt", "tar"}}) {
        const CheckpointFile legacy = read(name);
        EXPECT_EQ(legacy.container, container);
        ASSERT_EQ(legacy.tensors.size(), zip.tensors.size()) << name;
        for (size_t k = 0; k < zip.tensors.size(); ++k) {
            const TensorInfo& t = zip.tensors[k];
            EXPECT_EQ(legacy.tensors[k].name, t.name) << name << ": the keys keep their order";
            const TensorInfo* l = legacy.find(t.name);
            ASSERT_NE(l, nullptr) << name << ": " << t.name;
            EXPECT_EQ(l->shape, t.shape) << name << ": " << t.name;
            EXPECT_EQ(l->dtype, t.dtype) << name << ": " << t.name;
            const auto a = readTensor(zip, t);
            const auto b = readTensor(legacy, *l);
            ASSERT_TRUE(a.ok() && b.ok()) << name << ": " << t.name;
            EXPECT_EQ(*a, *b) << name << ": " << t.name;
        }
    }
}

std::string bytesOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string writeTemp(const std::string& name, const std::string& bytes)
{
    std::string path = (std::filesystem::temp_directory_path() / ("qatdoctor_ckpt_" + name)).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// Renames the tar member whose header starts at offset, with its checksum made right again.
void renameTarMember(std::string& tar, size_t offset, const std::string& name)
{
    std::fill_n(tar.begin() + static_cast<std::ptrdiff_t>(offset), 100, '\0');
    tar.replace(offset, name.size(), name);
    std::fill_n(tar.begin() + static_cast<std::ptrdiff_t>(offset) + 148, 8, ' ');
    unsigned sum = 0;
    for (size_t k = 0; k < 512; ++k) sum += static_cast<unsigned char>(tar[offset + k]);
    char octal[8];
    std::snprintf(octal, sizeof octal, "%06o", sum);
    tar.replace(offset + 148, 7, octal, 7);  // six digits and a NUL, then the space stays
}

TEST(Checkpoint, TheLegacyFormsAreRecognisedByContent)
{
    for (const char* name : {"legacy_state_dict.pt", "legacy_tar.pt", "float_state_dict.pt"})
        EXPECT_EQ(probeCheckpoint(bytesOf(fixture(name)).substr(0, size_t{64} << 10)), 90) << name;
    // the same tar with its first member renamed is some other archive, not a checkpoint
    std::string other = bytesOf(fixture("legacy_tar.pt"));
    const size_t sysInfo = other.find(std::string("sys_info\0", 9));
    ASSERT_EQ(sysInfo % 512, 0u) << "the member's own header, after the PAX one";
    renameTarMember(other, sysInfo, "README");
    EXPECT_EQ(probeCheckpoint(other), 0);
    renameTarMember(other, sysInfo, "sys_info");
    EXPECT_EQ(probeCheckpoint(other), 90) << "the checksum helper writes what tar does";
    EXPECT_EQ(probeCheckpoint(other.substr(0, 400)), 0) << "a head shorter than a tar header";
}

TEST(Checkpoint, ACutLegacyFileSaysWhereItEnds)
{
    for (const char* name : {"legacy_state_dict.pt", "legacy_tar.pt"}) {
        const std::string whole = bytesOf(fixture(name));
        for (size_t cut : {whole.size() / 4, whole.size() / 2, whole.size() * 3 / 4}) {
            const std::string path = writeTemp(std::to_string(cut) + name, whole.substr(0, cut));
            const Result<CheckpointFile> f = readCheckpoint(path);
            ASSERT_FALSE(f.ok()) << name << " cut at " << cut;
            EXPECT_EQ(f.error().code, "checkpoint.truncated") << f.error().toString();
            EXPECT_EQ(f.error().message.rfind(path, 0), 0u) << f.error().message;
            std::filesystem::remove(path);
        }
    }
}

TEST(Checkpoint, ADamagedTarHeaderIsNamed)
{
    std::string bytes = bytesOf(fixture("legacy_tar.pt"));
    const size_t pickleHeader = bytes.find(std::string("pickle\0", 7));
    ASSERT_NE(pickleHeader, std::string::npos);
    ASSERT_EQ(pickleHeader % 512, 0u) << "a member's name starts its header";
    bytes[pickleHeader + 100] ^= 0x01;  // its mode field: the checksum no longer matches
    const std::string path = writeTemp("damaged_tar.pt", bytes);
    const Result<CheckpointFile> f = readCheckpoint(path);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, "checkpoint.format");
    EXPECT_NE(f.error().message.find("checksum"), std::string::npos) << f.error().message;
    EXPECT_EQ(f.error().offset, static_cast<int64_t>(pickleHeader));
    std::filesystem::remove(path);
}

TEST(Checkpoint, ATrainingCheckpointKeepsItsNumbersAsMetadata)
{
    const CheckpointFile f = read("training_ckpt.pth");
    EXPECT_EQ(f.modelKey, "state_dict");
    EXPECT_NE(f.find("state_dict.fc.weight"), nullptr);
    EXPECT_NE(f.find("optimizer.state.0.momentum_buffer"), nullptr);
    auto meta = [&](const std::string& k) {
        for (const auto& [key, value] : f.metadata)
            if (key == k) return value;
        return std::string("(none)");
    };
    EXPECT_EQ(meta("epoch"), "3");
    EXPECT_EQ(meta("arch"), "TinyNet");
    EXPECT_EQ(meta("best_acc"), "0.875");
}

TEST(Checkpoint, QatBuffersShowWhetherObserversRan)
{
    const CheckpointFile before = read("qat_uncalibrated.pt");
    const CheckpointFile after = read("qat_calibrated.pt");
    const std::string scale = "conv1.activation_post_process.scale";
    ASSERT_NE(before.find(scale), nullptr);
    EXPECT_EQ(*readTensor(before, *before.find(scale)), std::vector<double>{1.0});
    const auto calibrated = readTensor(after, *after.find(scale));
    ASSERT_TRUE(calibrated.ok());
    EXPECT_NE(calibrated->front(), 1.0);
    const std::string minVal = "conv1.activation_post_process.activation_post_process.min_val";
    ASSERT_NE(before.find(minVal), nullptr);
    const auto never = readTensor(before, *before.find(minVal));
    ASSERT_TRUE(never.ok());
    ASSERT_EQ(never->size(), 1u);
    EXPECT_TRUE(std::isinf(never->front()) && never->front() > 0) << "an observer that never ran holds +inf";
}

TEST(Checkpoint, AWholePickledModuleShowsItsTensorsAndClasses)
{
    const CheckpointFile f = read("whole_module.pt");
    EXPECT_NE(f.find("conv1.weight"), nullptr);
    EXPECT_TRUE(f.find("conv1.weight")->parameter);
    EXPECT_NE(f.find("bn1.running_mean"), nullptr);
    EXPECT_NE(std::find(f.classes.begin(), f.classes.end(), "__main__.TinyNet"), f.classes.end());
    EXPECT_NE(std::find(f.classes.begin(), f.classes.end(), "torch.nn.modules.conv.Conv2d"), f.classes.end());
}

TEST(Checkpoint, AMaliciousPickleIsShownAndNeverRun)
{
    const std::string marker = "/tmp/qatdoctor_pwned_by_checkpoint";
    std::filesystem::remove(marker);
    const CheckpointFile f = read("malicious.pt");
    ASSERT_EQ(f.dangerous.size(), 1u);
    EXPECT_EQ(f.dangerous[0], "posix.system");
    EXPECT_NE(f.find("state_dict.conv1.weight"), nullptr) << "the weights are still shown";
    EXPECT_FALSE(std::filesystem::exists(marker)) << "the pickle's reduce ran";
}

TEST(Checkpoint, NotACheckpointSaysSo)
{
    const Result<CheckpointFile> f =
        readCheckpoint(std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.onnx");
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().code, "checkpoint.format");
    EXPECT_NE(f.error().message.find("qat_qdq.onnx"), std::string::npos);
}

}  // namespace
}  // namespace qatdoctor::core::checkpoint
