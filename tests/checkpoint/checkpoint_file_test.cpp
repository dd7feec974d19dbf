// Real torch.save files (python3-torch 1.13, tests/gen/make_checkpoints.py) read without Python:
// names, dtypes and shapes of every tensor, values compared with what torch saved.
#include "core/checkpoint/checkpoint_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

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

TEST(Checkpoint, TheLegacyContainerGivesTheSameTensors)
{
    const CheckpointFile zip = read("float_state_dict.pt");
    const CheckpointFile legacy = read("legacy_state_dict.pt");
    EXPECT_EQ(legacy.container, "legacy");
    ASSERT_EQ(legacy.tensors.size(), zip.tensors.size());
    for (const TensorInfo& t : zip.tensors) {
        const TensorInfo* l = legacy.find(t.name);
        ASSERT_NE(l, nullptr) << t.name;
        EXPECT_EQ(l->shape, t.shape) << t.name;
        const auto a = readTensor(zip, t);
        const auto b = readTensor(legacy, *l);
        ASSERT_TRUE(a.ok() && b.ok()) << t.name;
        EXPECT_EQ(*a, *b) << t.name;
    }
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
