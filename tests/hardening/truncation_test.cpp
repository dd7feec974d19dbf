// Every reader terminates on truncated input: each binary fixture cut at many points (every byte
// of the first 256, then evenly spread cuts) is read, and the result is an error or a partial
// read, never a hang or a crash (the fuzzers explore this further; this is the fixed sweep).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "core/artifacts/printed_module.h"
#include "core/artifacts/toolchain_files.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/logs/log_reader.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;

std::vector<size_t> cuts(size_t size)
{
    std::vector<size_t> out;
    for (size_t i = 0; i < std::min<size_t>(size, 256); ++i) out.push_back(i);
    for (size_t k = 1; k < 200; ++k) out.push_back(size * k / 200);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string fixture(const std::string& rel)
{
    auto bytes = readFile(dataPath(rel));
    EXPECT_TRUE(bytes) << rel;
    return bytes ? *bytes : std::string();
}

TEST(Truncation, OnnxModelsAtEveryCut)
{
    for (const char* name : {"models/qat_qdq.onnx", "models/qlinear.onnx", "models/quantized_int8.onnx"}) {
        const std::string bytes = fixture(name);
        ASSERT_FALSE(bytes.empty()) << name;
        size_t errors = 0;
        for (size_t cut : cuts(bytes.size())) {
            auto m = model::parseOnnx(std::string_view(bytes).substr(0, cut), name, "");
            if (!m) {
                ++errors;
                EXPECT_NE(m.error().message.find(name), std::string::npos) << m.error().message;
                continue;
            }
            auto graph = model::ModelGraph::build(*m);
            if (graph) (void)model::buildLayerTable(*graph);
        }
        EXPECT_GT(errors, 0u) << name;
    }
}

TEST(Truncation, TensorFilesAtEveryCut)
{
    for (const char* name : {"models/float_only.output_0.npy", "models/qat_qdq_dataset/input_0.pb"}) {
        const std::string bytes = fixture(name);
        ASSERT_FALSE(bytes.empty()) << name;
        const bool npy = std::string(name).ends_with(".npy");
        for (size_t cut : cuts(bytes.size())) {
            const std::string_view part = std::string_view(bytes).substr(0, cut);
            auto t = npy ? fixedpoint::parseNpy(part, name) : fixedpoint::parseTensorProto(part, name);
            if (npy && cut < bytes.size()) EXPECT_FALSE(t) << name << " cut at " << cut;
        }
    }
}

TEST(Truncation, TensorBoardEventsAtEveryCut)
{
    const std::string name = "logs/mixed/qat_run/tb/events.out.tfevents.1793433600.host.1";
    const std::string bytes = fixture(name);
    const logs::LogFormat* format = logs::findLogFormat("tfevents");
    ASSERT_NE(format, nullptr);
    size_t lastPoints = 0;
    for (size_t cut : cuts(bytes.size())) {
        auto parsed = logs::parseLogBytes(*format, std::string_view(bytes).substr(0, cut), name, {}, 1, true);
        ASSERT_TRUE(parsed) << cut;
        EXPECT_GE(parsed->points(), lastPoints)
            << "a longer prefix never yields fewer points (cut " << cut << ")";
        lastPoints = parsed->points();
    }
}

// Line-based logs: a cut is a partial last line (an unfinished write of a running job). Each
// prefix parses (the whole file gives points: the fixtures are real).
TEST(Truncation, LineLogsAtEveryCut)
{
    for (const auto& [formatId, name] :
         {std::pair<const char*, std::string>{"text", "logs/hat/qat/train.log"},
          {"csv", "logs/mixed/qat_run/metrics.csv"},
          {"jsonl", "logs/mixed/qat_run/metrics.jsonl"}}) {
        const std::string bytes = fixture(name);
        ASSERT_FALSE(bytes.empty()) << name;
        const logs::LogFormat* format = logs::findLogFormat(formatId);
        ASSERT_NE(format, nullptr) << formatId;
        size_t lastPoints = 0;
        for (size_t cut : cuts(bytes.size())) {
            auto parsed =
                logs::parseLogBytes(*format, std::string_view(bytes).substr(0, cut), name, {}, 1, true);
            ASSERT_TRUE(parsed) << name << " cut at " << cut;
            lastPoints = parsed->points();
        }
        EXPECT_GT(lastPoints, 0u) << name;
    }
}

TEST(Truncation, TextArtifactsAtEveryCut)
{
    const std::string printed = fixture("printed/qat_calibrated.txt");
    for (size_t cut : cuts(printed.size()))
        (void)artifacts::parsePrintedModule(std::string_view(printed).substr(0, cut), "qat_calibrated.txt");
    const std::string check = fixture("toolchain/model_check_result.txt");
    for (size_t cut : cuts(check.size()))
        (void)artifacts::readToolchainText(artifacts::ToolchainKind::ModelCheckResult,
                                           std::string_view(check).substr(0, cut), "model_check_result.txt");
}

}  // namespace
}  // namespace qatdoctor::test
