// Replays every input the fuzzers found crashing, hanging or exhausting memory
// (tests/data/fuzz_regressions/<parser>/<file>, see tests/fuzz/README.md) through the same calls
// as the fuzz target of that parser. Each must come back as a value: an error, or a result whose
// damage is reported as warnings. One test per file, named after it.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/artifacts/printed_layers.h"
#include "core/artifacts/printed_module.h"
#include "core/artifacts/tabulate_reader.h"
#include "core/artifacts/text_lines.h"
#include "core/artifacts/toolchain_files.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session_json.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/logs/log_reader.h"
#include "core/model/graph_layout.h"
#include "core/model/layer_weights.h"
#include "core/model/model_graph.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"
#include "core/rules/thresholds.h"
#include "tests/fuzz/simulator_harness.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;

// Returns true when the input was refused or flagged (error or warnings).
using Replay = std::function<bool(std::string_view bytes, const std::string& name)>;

bool replayLog(const char* formatId, std::string_view bytes, const std::string& name)
{
    const logs::LogFormat* format = logs::findLogFormat(formatId);
    if (bytes.empty() || format == nullptr) return true;
    const size_t cut = static_cast<uint8_t>(bytes[0]) * (bytes.size() - 1) / 255;
    bytes.remove_prefix(1);
    auto whole = logs::parseLogBytes(*format, bytes, name, {}, 1, true);
    logs::ParseState state;
    auto first = logs::parseBlocks(*format, bytes.substr(0, cut), name, state, {}, 1, false);
    if (first && state.offset <= bytes.size())
        (void)logs::parseBlocks(*format, bytes.substr(state.offset), name, state, {}, 2, true);
    return !whole || !whole->warnings.empty() || whole->skippedRecords > 0;
}

// ONNX findings so far were undefined behaviour while reading the values of well-formed
// protobuf, so the check is that every step runs clean under the sanitizers; an input that is
// not a model must be refused.
bool replayOnnx(std::string_view bytes, const std::string& name)
{
    auto m = model::parseOnnx(bytes, name, "");
    if (!m) return true;
    for (const auto& t : m->proto->graph().initializer()) {
        (void)model::tensorAsFloats(*m, t);
        (void)model::tensorAsInts(*m, t);
    }
    auto graph = model::ModelGraph::build(*m);
    if (!graph) return true;
    const model::LayerTable table = model::buildLayerTable(*graph);
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    model::runModelLints(table, {}, findings, evaluated);
    (void)model::layoutGraph(table, model::LayoutOptions{});
    for (const model::Layer& layer : table.layers) (void)model::readLayerWeights(table, layer);
    return true;
}

bool replayPrinted(std::string_view bytes, const std::string& name)
{
    auto parsed = artifacts::parsePrintedModule(bytes, name);
    if (!parsed) return true;
    const model::LayerTable table = artifacts::layersFromPrinted(*parsed, name);
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    model::runModelLints(table, {}, findings, evaluated);
    // The printed findings were undefined behaviour (nan / inf zero points cast to integers) in
    // text that parses: running clean under the sanitizers is the check.
    return true;
}

bool replayToolchain(std::string_view bytes, const std::string& name)
{
    if (bytes.empty()) return true;
    const auto kind = static_cast<artifacts::ToolchainKind>(static_cast<uint8_t>(bytes[0]) % 7);
    bytes.remove_prefix(1);
    auto r = artifacts::readToolchainText(kind, bytes, name);
    const artifacts::TableScan scan = artifacts::readTables(artifacts::splitLines(bytes), name);
    return !r || !r->warnings.empty() || !scan.warnings.empty();
}

bool replayFaq(std::string_view bytes, const std::string& name)
{
    const faq::FaqLoad load = faq::FaqBase::fromSources({{name, std::string(bytes)}});
    return !load.errors.empty();
}

bool replayJsonInputs(std::string_view bytes, const std::string& name)
{
    static const faq::FaqLoad base = faq::FaqBase::loadDirectory(std::string(QATDOCTOR_SOURCE_DIR) + "/faq");
    if (bytes.empty()) return true;
    const bool thresholds = static_cast<uint8_t>(bytes[0]) & 1;
    bytes.remove_prefix(1);
    if (thresholds) {
        auto r = rules::applyThresholds(bytes, name, rules::defaultThresholds());
        auto d = rules::describeThresholds(bytes);
        return !r || !d;
    }
    // A session is replayed as far as it fits the FAQ; the findings were exceptions and stack
    // overflows, so returning at all is the check.
    const nlohmann::json j = nlohmann::json::parse(bytes, nullptr, false);
    if (!j.is_discarded()) (void)faq::sessionFromJson(j, &base.base);
    return true;
}

const std::map<std::string, Replay>& replays()
{
    static const std::map<std::string, Replay> table{
        {"log_text", [](std::string_view b, const std::string& n) { return replayLog("text", b, n); }},
        {"log_csv", [](std::string_view b, const std::string& n) { return replayLog("csv", b, n); }},
        {"log_jsonl", [](std::string_view b, const std::string& n) { return replayLog("jsonl", b, n); }},
        {"log_tfevents",
         [](std::string_view b, const std::string& n) { return replayLog("tfevents", b, n); }},
        {"onnx", replayOnnx},
        {"printed", replayPrinted},
        {"toolchain", replayToolchain},
        {"faq", replayFaq},
        {"json_inputs", replayJsonInputs},
        {"npy", [](std::string_view b, const std::string& n) { return !fixedpoint::parseNpy(b, n); }},
        {"tensor_pb",
         [](std::string_view b, const std::string& n) { return !fixedpoint::parseTensorProto(b, n); }},
        // a crafted one-node model: refused or run, never a crash (the sanitizer run checks memory)
        {"simulator",
         [](std::string_view b, const std::string&) {
             (void)runSimulatorHarness(reinterpret_cast<const uint8_t*>(b.data()), b.size());
             return true;
         }},
    };
    return table;
}

struct Case {
    std::string parser;
    std::string path;
};

std::vector<Case> cases()
{
    std::vector<Case> out;
    const fs::path root = dataPath("fuzz_regressions");
    std::error_code ec;
    for (const auto& dir : fs::directory_iterator(root, ec)) {
        if (!dir.is_directory()) continue;
        for (const auto& f : fs::directory_iterator(dir.path()))
            if (f.is_regular_file() && f.path().extension() != ".md")
                out.push_back({dir.path().filename().string(), f.path().string()});
    }
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.path < b.path; });
    return out;
}

class FuzzRegression : public ::testing::TestWithParam<Case> {};

TEST_P(FuzzRegression, IsRefusedOrFlaggedWithoutCrashing)
{
    const Case& c = GetParam();
    auto it = replays().find(c.parser);
    ASSERT_NE(it, replays().end()) << "no replay for folder " << c.parser;
    const std::string bytes = readBytes(c.path);
    EXPECT_TRUE(it->second(bytes, fs::path(c.path).filename().string())) << c.path;
}

TEST(FuzzRegressionSet, EveryFolderHasAReplay)
{
    for (const Case& c : cases()) EXPECT_TRUE(replays().count(c.parser)) << c.parser;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info)
{
    std::string s = info.param.parser + "_" + fs::path(info.param.path).stem().string();
    for (char& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Inputs, FuzzRegression, ::testing::ValuesIn(cases()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzRegression);

}  // namespace
}  // namespace qatdoctor::test
