// Inputs that claim or contain huge sizes: each is refused (or streamed) with a message naming
// the file, before memory of the claimed size is allocated. The ONNX / .pb / .npy files are the
// tiny committed fixtures of tests/gen/make_hostile.py (each claims a 100 GB tensor).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "core/checkpoint/checkpoint_file.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/logs/line_parser.h"
#include "core/logs/log_reader.h"
#include "core/model/layer_weights.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;

TEST(HugeInput, OnnxRawTensorClaiming100GBIsRefusedBeforeAllocating)
{
    const std::string path = dataPath("hostile/huge_raw.onnx");
    auto model = model::readOnnxFile(path);
    ASSERT_TRUE(model) << model.error().toString();
    const auto& w = model->proto->graph().initializer(0);
    EXPECT_EQ(model::tensorElementCount(w), 25'000'000'000LL);
    auto values = model::tensorAsFloats(*model, w);
    ASSERT_FALSE(values);
    EXPECT_EQ(values.error().code, "onnx.tensor_size");
    EXPECT_NE(values.error().message.find("huge_raw.onnx"), std::string::npos) << values.error().message;

    // The whole model pipeline: layer table, then the weights of the Conv on demand.
    auto table = model::loadOnnxLayerTable(path);
    ASSERT_TRUE(table) << table.error().toString();
    ASSERT_FALSE(table->layers.empty());
    for (const model::Layer& layer : table->layers) {
        auto weights = model::readLayerWeights(*table, layer);
        EXPECT_FALSE(weights) << layer.name;
    }
}

TEST(HugeInput, OnnxExternalTensorClaiming100GBIsRefused)
{
    const std::string path = dataPath("hostile/huge_external.onnx");
    auto table = model::loadOnnxLayerTable(path);
    ASSERT_FALSE(table);  // checked up front, nothing read
    EXPECT_EQ(table.error().code, "onnx.tensor_size");
    EXPECT_NE(table.error().message.find("huge_external"), std::string::npos) << table.error().message;
}

TEST(HugeInput, OnnxConstantNodeClaiming100GBIsRefused)
{
    auto model = model::readOnnxFile(dataPath("hostile/huge_constant.onnx"));
    ASSERT_TRUE(model) << model.error().toString();
    auto graph = model::ModelGraph::build(*model);
    ASSERT_TRUE(graph);
    const int w = (*graph)->tensorId("w");
    ASSERT_GE(w, 0);
    EXPECT_FALSE((*graph)->constValue(w).has_value());
    auto floats = (*graph)->constFloats(w);
    ASSERT_FALSE(floats);
    EXPECT_EQ(floats.error().code, "onnx.tensor_size");
}

TEST(HugeInput, SimulatorRefusesModelWith100GBWeight)
{
    auto model = model::readOnnxFile(dataPath("hostile/huge_raw.onnx"));
    ASSERT_TRUE(model);
    auto interp = fixedpoint::Interpreter::build(*model);
    EXPECT_FALSE(interp);
}

TEST(HugeInput, SimulatorInputsClaiming100GBAreRefused)
{
    for (const char* name : {"hostile/huge_tensor.pb", "hostile/huge_shape.npy"}) {
        auto t = fixedpoint::readTensorFile(dataPath(name));
        ASSERT_FALSE(t) << name;
        EXPECT_NE(t.error().toString().find(name), std::string::npos) << t.error().toString();
    }
}

// A single 65 MiB line (the stand-in for a 1 GB line: the line loop only measures it in the
// mapped file, whatever its size) is skipped with a warning naming the file and the line; the
// lines after it are still read.
TEST(HugeInput, LineLongerThanAReadBlockIsSkippedWithFileAndLine)
{
    TempDir dir("long_line");
    const std::string path = dir / "train.log";
    {
        std::ofstream out(path, std::ios::binary);
        out << "Epoch[0] Step[1] GlobalStep[1] loss[0.5]\n";
        out << "Epoch[0] Step[2] GlobalStep[2] loss[0.4]\n";
        const std::string chunk(1 << 20, 'x');
        for (int i = 0; i < 65; ++i) out << chunk;  // 65 MiB
        out << "\n";
        out << "Epoch[0] Step[3] GlobalStep[3] loss[0.3]\n";
    }
    auto set = logs::readLogFile(path);
    ASSERT_TRUE(set) << set.error().toString();
    const Warning* longLine = nullptr;
    for (const Warning& w : set->warnings)
        if (w.code == "logs.long_line") longLine = &w;
    ASSERT_NE(longLine, nullptr);
    EXPECT_EQ(longLine->line, 3);
    EXPECT_NE(longLine->toString().find("train.log"), std::string::npos) << longLine->toString();
    ASSERT_EQ(set->runs.size(), 1u);
    const auto& loss = set->runs[0].series.at("loss");
    EXPECT_EQ(loss.value.size(), 3u);
    EXPECT_EQ(loss.step.back(), 3);
}

// The stand-in for a 10 GB log (a unit test cannot write one): 72 MiB (both halves of a split
// parse over 32 MiB), mostly lines that carry no data, as the console output between metric
// lines does. The file is mapped, not read into memory, and the reader keeps only the points it
// extracts, so the process's own memory must grow by far less than the file (measured: under
// 1 MiB, also for 200 MiB); a reader that copied the file would grow by all of it. Memory is
// sampled while the reader runs. Not under ASan, whose allocator keeps freed memory in quarantine.
TEST(HugeInput, BigLogStreamsWithBoundedMemory)
{
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "ASan's quarantine keeps freed memory: the bound is checked in the normal build";
#endif
    TempDir dir("stream");
    const std::string path = dir / "train.log";
    constexpr int64_t kFileBytes = 72ll << 20;
    int64_t dataLines = 0;
    {
        std::string chunk;
        const std::string filler =
            "2026-11-30 10:00:00 INFO dataloader: prefetch queue 8 of 8 batches ready, worker 3 idle\n";
        std::ofstream out(path, std::ios::binary);
        int64_t written = 0;
        for (int64_t i = 0; written < kFileBytes; ++i) {
            if (i % 1000 == 0) {
                chunk += "Epoch[0] Step[" + std::to_string(dataLines + 1) + "] GlobalStep[" +
                         std::to_string(dataLines + 1) + "] loss[0.5]\n";
                ++dataLines;
            } else {
                chunk += filler;
            }
            if (chunk.size() > (1u << 20)) {
                out << chunk;
                written += static_cast<int64_t>(chunk.size());
                chunk.clear();
            }
        }
        out << chunk;
    }
    PeakMemoryGrowth sampler;
    auto set = logs::readLogFile(path);
    const int64_t growth = sampler.stop();
    ASSERT_TRUE(set) << set.error().toString();
    ASSERT_EQ(set->runs.size(), 1u);
    EXPECT_EQ(static_cast<int64_t>(set->runs[0].series.at("loss").value.size()), dataLines);
    EXPECT_LT(growth, kFileBytes / 4)
        << "RssAnon grew by " << (growth >> 20) << " MiB reading a " << (kFileBytes >> 20) << " MiB log";
    std::printf("reading a %lld MiB log: RssAnon peak +%lld MiB\n", static_cast<long long>(kFileBytes >> 20),
                static_cast<long long>(growth >> 20));
}

void putLe(std::string& out, uint64_t v, int bytes)
{
    for (int k = 0; k < bytes; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

uint32_t crc32Of(std::string_view data)
{
    uint32_t c = 0xffffffffu;
    for (char ch : data) {
        c ^= static_cast<uint8_t>(ch);
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

// A torch.save zip whose directory claims data.pkl inflates to about a gigabyte; its deflate
// stream holds 7 bytes. Written byte by byte (one stored deflate block), the sizes patched in.
std::string zipClaimingAGigabyte()
{
    const std::string name = "archive/data.pkl";
    const std::string pickle = std::string("\x80\x02}q\x00.", 6);
    std::string deflated = "\x01";  // the final block, stored
    putLe(deflated, pickle.size(), 2);
    putLe(deflated, ~pickle.size() & 0xffff, 2);
    deflated += pickle;
    constexpr uint64_t kClaimed = (uint64_t{1} << 30) - (uint64_t{1} << 20);
    const uint32_t crc = crc32Of(pickle);
    auto fields = [&](std::string& out) {
        putLe(out, 20, 2);  // version needed
        putLe(out, 0, 2);   // flags
        putLe(out, 8, 2);   // deflated
        putLe(out, 0, 4);   // time, date
        putLe(out, crc, 4);
        putLe(out, deflated.size(), 4);
        putLe(out, kClaimed, 4);
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);  // extra
    };
    std::string zip;
    putLe(zip, 0x04034b50, 4);
    fields(zip);
    zip += name + deflated;
    const size_t directory = zip.size();
    putLe(zip, 0x02014b50, 4);
    putLe(zip, 20, 2);  // made by
    fields(zip);
    putLe(zip, 0, 2);  // comment
    putLe(zip, 0, 2);  // disk
    putLe(zip, 0, 2);  // internal attributes
    putLe(zip, 0, 4);  // external attributes
    putLe(zip, 0, 4);  // local header at 0
    zip += name;
    const size_t directorySize = zip.size() - directory;
    putLe(zip, 0x06054b50, 4);
    putLe(zip, 0, 4);
    putLe(zip, 1, 2);
    putLe(zip, 1, 2);
    putLe(zip, directorySize, 4);
    putLe(zip, directory, 4);
    putLe(zip, 0, 2);
    return zip;
}

// #48 item 4: a size the archive claims is never zero-filled before the bytes arrive.
TEST(HugeInput, ACheckpointZipClaimingAGigabyteIsNotAllocatedFirst)
{
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "ASan's quarantine keeps freed memory: the bound is checked in the normal build";
#endif
    TempDir dir("claimed_zip");
    const std::string path = dir / "model.pt";
    {
        std::ofstream out(path, std::ios::binary);
        out << zipClaimingAGigabyte();
    }
    PeakMemoryGrowth sampler;
    auto read = checkpoint::readCheckpoint(path);
    const int64_t growth = sampler.stop();
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().message.find("claims"), std::string::npos) << read.error().message;
    EXPECT_LT(growth, int64_t{128} << 20) << "RssAnon grew by " << (growth >> 20) << " MiB";
}

// A log of nothing but damaged lines: the warnings are capped per kind (one entry plus a count),
// so memory does not grow with the number of bad lines.
TEST(HugeInput, DamagedLinesDoNotGrowWarningsWithoutBound)
{
    TempDir dir("many_bad");
    const std::string path = dir / "train.log";
    {
        std::ofstream out(path, std::ios::binary);
        out << "Epoch[0] Step[1] GlobalStep[1] loss[0.5]\n";
        for (int i = 0; i < 200000; ++i) out << "\x01\x02\x03\x04\x05\x06\x07\x08 junk\n";
        const std::string longLine(logs::kMaxLineBytes + 10, 'y');
        for (int i = 0; i < 20; ++i) out << longLine << "\n";
    }
    auto set = logs::readLogFile(path);
    ASSERT_TRUE(set) << set.error().toString();
    EXPECT_LT(set->warnings.size(), 64u);
}

}  // namespace
}  // namespace qatdoctor::test
