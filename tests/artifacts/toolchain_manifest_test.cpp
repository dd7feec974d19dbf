// Every toolchain debug-file fixture of tests/data/toolchain (tests/gen/make_toolchain.py) read
// through the input table: the format it is taken as, or the exact error naming the file; the
// tables, values, warnings and findings MANIFEST.json expects.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/artifacts/artifacts_api.h"
#include "core/artifacts/tabulate_reader.h"
#include "core/artifacts/toolchain_files.h"

namespace qatdoctor::core {
namespace {

using nlohmann::json;

const std::string kDir = std::string(QATDOCTOR_TEST_DATA) + "/toolchain/";

json manifest()
{
    std::ifstream in(kDir + "MANIFEST.json");
    return json::parse(in, nullptr, false);
}

std::vector<json> entries()
{
    std::vector<json> out;
    json m = manifest();
    if (m.is_object())
        for (const json& e : m["files"]) out.push_back(e);
    return out;
}

const DataTable* tableOf(const Analysis& a, const std::string& kind)
{
    for (const DataTable& t : a.tables)
        if (t.kind == kind) return &t;
    return nullptr;
}

class ToolchainFixture : public ::testing::TestWithParam<json> {};

TEST_P(ToolchainFixture, MatchesManifest)
{
    const json entry = GetParam();
    const std::string file = entry["file"];
    const std::string path = kDir + file;
    const json expect = entry["expect"];
    SCOPED_TRACE(file);
    AnalyzeOptions options;
    options.paths = {path};
    auto analysis = analyze(options);
    if (expect.contains("error")) {
        ASSERT_FALSE(analysis.ok()) << file << " should fail";
        const std::string want = expect["error"];
        EXPECT_NE(analysis.error().message.find(want), std::string::npos) << analysis.error().message;
        EXPECT_EQ(analysis.error().file, path);
        return;
    }
    ASSERT_TRUE(analysis.ok()) << analysis.error().toString();
    ASSERT_EQ(analysis->inputs.size(), 1u);
    EXPECT_EQ(analysis->inputs[0].format, expect["format"].get<std::string>());
    EXPECT_EQ(analysis->inputs[0].format, entry["kind"].get<std::string>());

    // items() of a temporary dangles: keep the objects alive.
    const json rowsOf = expect.value("rows", json::object());
    const json table_countOf = expect.value("table_count", json::object());
    const json columnsOf = expect.value("columns", json::object());
    const json findingsOf = expect.value("findings", json::object());
    for (auto& [kind, rows] : rowsOf.items()) {
        const DataTable* t = tableOf(*analysis, kind);
        std::string kinds;
        for (const DataTable& have : analysis->tables) kinds += have.kind + " ";
        ASSERT_NE(t, nullptr) << kind << " not among: " << kinds;
        EXPECT_EQ(t->rows.size(), rows.get<size_t>()) << kind;
        EXPECT_EQ(t->rowLines.size(), t->rows.size());
        for (const auto& row : t->rows) EXPECT_EQ(row.size(), t->columns.size());
    }
    for (const json& kind : expect.value("tables", json::array()))
        EXPECT_NE(tableOf(*analysis, kind), nullptr) << kind;
    for (auto& [kind, n] : table_countOf.items()) {
        size_t count = 0;
        for (const DataTable& t : analysis->tables) count += t.kind == kind;
        EXPECT_EQ(count, n.get<size_t>());
    }
    for (auto& [kind, cols] : columnsOf.items())
        for (const json& c : cols) EXPECT_GE(tableOf(*analysis, kind)->column(c), 0) << c;
    for (const json& v : expect.value("values", json::array())) {
        const DataTable* t = tableOf(*analysis, v["table"]);
        ASSERT_NE(t, nullptr);
        const int c = t->column(v["column"]);
        ASSERT_GE(c, 0) << v["column"];
        EXPECT_EQ(t->rows.at(v["row"].get<size_t>()).at(static_cast<size_t>(c)),
                  v["value"].get<std::string>())
            << v.dump();
    }
    for (const json& w : expect.value("warnings", json::array())) {
        bool found = false;
        for (const Warning& have : analysis->warnings)
            if (have.message.find(w.get<std::string>()) != std::string::npos && have.file == path &&
                have.message.rfind(path, 0) == 0)
                found = true;
        EXPECT_TRUE(found) << "warning '" << w << "'";
    }
    if (expect.contains("layers")) {
        ASSERT_EQ(analysis->models.size(), 1u);
        EXPECT_EQ(analysis->models[0].format, expect["format"].get<std::string>());
        EXPECT_EQ(analysis->models[0].layers.size(), expect["layers"].get<size_t>());
    }
    for (const json& lv : expect.value("layer_values", json::array())) {
        const model::Layer* l = analysis->models.at(0).find(lv["name"]);
        ASSERT_NE(l, nullptr) << lv["name"];
        if (lv.contains("op")) EXPECT_EQ(l->op, lv["op"]);
        if (lv.contains("output_dtype"))
            EXPECT_EQ(model::dtypeName(l->outputDtype), lv["output_dtype"].get<std::string>());
        if (lv.contains("weight_dtype"))
            EXPECT_EQ(model::dtypeName(l->weightDtype), lv["weight_dtype"].get<std::string>());
        if (lv.contains("input_dtypes")) {
            std::vector<std::string> in;
            for (auto t : l->inputDtypes) in.push_back(model::dtypeName(t));
            EXPECT_EQ(in, lv["input_dtypes"].get<std::vector<std::string>>());
        }
    }
    for (auto& [id, layers] : findingsOf.items()) {
        const Finding* f = nullptr;
        for (const Finding& have : analysis->findings)
            if (have.id == id) f = &have;
        ASSERT_NE(f, nullptr) << "missing finding " << id;
        EXPECT_TRUE(f->title.complete() && f->message.complete());
        std::vector<std::string> evidenceLayers;
        for (const Evidence& e : f->evidence) {
            evidenceLayers.push_back(e.layer);
            EXPECT_EQ(e.file, path);
            EXPECT_GT(e.line, 0);
        }
        for (const json& layer : layers)
            EXPECT_NE(std::find(evidenceLayers.begin(), evidenceLayers.end(), layer.get<std::string>()),
                      evidenceLayers.end())
                << id << " should name " << layer;
        if (id == "consistency.similarity_drop")
            EXPECT_EQ(f->evidence.front().layer, layers.front().get<std::string>());
    }
    const json excludes = expect.value("evidence_excludes", json::object());
    for (auto& [id, layers] : excludes.items())
        for (const Finding& have : analysis->findings)
            if (have.id == id)
                for (const Evidence& e : have.evidence)
                    for (const json& layer : layers)
                        EXPECT_NE(e.layer, layer.get<std::string>()) << id << " must not name " << layer;
    for (const json& id : expect.value("no_findings", json::array()))
        for (const Finding& have : analysis->findings) EXPECT_NE(have.id, id.get<std::string>());
    for (const json& id : expect.value("checks_run", json::array()))
        EXPECT_TRUE(analysis->checksRun.count(id)) << id;
    // The CLI's JSON carries the tables.
    const json j = analysisToJson(*analysis, Lang::En);
    EXPECT_EQ(j["tables"].size(), analysis->tables.size());
}

INSTANTIATE_TEST_SUITE_P(Manifest, ToolchainFixture, ::testing::ValuesIn(entries()), [](const auto& info) {
    std::string n = info.param["file"];
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
});

TEST(ToolchainFixtures, ManifestIsPresent)
{
    EXPECT_GE(entries().size(), 15u);
}

TEST(ToolchainFiles, ProbesNeedNameOrContent)
{
    using artifacts::ToolchainKind;
    const std::string header = "| | mod_name | analy_op_type | Cosine |";
    EXPECT_EQ(
        artifacts::probeToolchainFile(ToolchainKind::ComparePerLayer, "x/compare_per_layer_out.txt", header),
        90);
    EXPECT_EQ(artifacts::probeToolchainFile(ToolchainKind::ComparePerLayer, "x/mine.txt", header), 80);
    EXPECT_EQ(
        artifacts::probeToolchainFile(ToolchainKind::ComparePerLayer, "x/compare_per_layer_out.txt", "hi"),
        55);
    EXPECT_EQ(artifacts::probeToolchainFile(ToolchainKind::ComparePerLayer, "x/notes.txt", "hi"), 0);
    EXPECT_EQ(artifacts::probeToolchainFile(ToolchainKind::DeployDevice, "d/deploy_device.txt",
                                            "name  deploy device  type\n"),
              90);
    EXPECT_EQ(artifacts::probePrintedModel("a.txt", "(a): Conv2d(\n(weight_fake_quant): FakeQuantize(\n"),
              90);
    EXPECT_EQ(artifacts::probePrintedModel("a.txt", "(a): Conv2d(\n(b): ReLU()\n"), 40);
    EXPECT_EQ(artifacts::probePrintedModel("a.txt", "Epoch[0] Step[1] loss[0.1]\n"), 0);
}

TEST(ToolchainFiles, ExpectedDtypesAreCheckedWithTheModelLint)
{
    const std::string expect = ::testing::TempDir() + "/artifacts_expect.json";
    std::ofstream(expect) << R"({"head.reg": "qint16", "head.cls": "qint16"})";
    AnalyzeOptions options;
    options.paths = {kDir + "model_check_result.txt"};
    options.expectPath = expect;
    auto analysis = analyze(options);
    ASSERT_TRUE(analysis.ok()) << analysis.error().toString();
    EXPECT_TRUE(analysis->checksRun.count("model.int16_not_applied"));
    const Finding* f = nullptr;
    for (const Finding& have : analysis->findings)
        if (have.id == "model.int16_not_applied") f = &have;
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "head.cls");
}

TEST(ToolchainFiles, HugeLineIsReportedAndTheRestKept)
{
    std::string text =
        "name  deploy device  type\n----  -------------  ------\nnms   CPU            method\n\n";
    text += std::string(artifacts::kMaxTableLineBytes + 1, 'x') + "\n";
    auto read =
        artifacts::readToolchainText(artifacts::ToolchainKind::DeployDevice, text, "big/deploy_device.txt");
    ASSERT_TRUE(read.ok());
    ASSERT_EQ(read->tables.size(), 1u);
    EXPECT_EQ(read->tables[0].rows.size(), 1u);
    ASSERT_FALSE(read->warnings.empty());
    EXPECT_NE(read->warnings[0].message.find("big/deploy_device.txt:5: line is"), std::string::npos);
}

TEST(PastedText, AnalyzeAndSave)
{
    const std::string text =
        "(head): Conv2d(\n  4, 4, kernel_size=(1, 1)\n  (weight_fake_quant): FakeQuantize(\n"
        "    dtype=qint8, scale=tensor([0.01]), zero_point=tensor([0])\n  )\n"
        "  (activation_post_process): FakeQuantize(\n    fake_quant_enabled=tensor([1]), dtype=qint8,"
        " scale=tensor([0.05]), zero_point=tensor([0])\n  )\n)\n";
    auto a = core::analyzePrintedText(text, "pasted model");
    ASSERT_TRUE(a.ok());
    ASSERT_EQ(a->models.size(), 1u);
    EXPECT_EQ(a->models[0].layers.at(0).name, "head");
    bool lowPrecision = false;
    for (const Finding& f : a->findings) lowPrecision |= f.id == "model.output_low_precision";
    EXPECT_TRUE(lowPrecision);

    const std::string folder = ::testing::TempDir() + "/qatdoctor_paste";
    auto saved = artifacts::savePastedText(text, folder);
    ASSERT_TRUE(saved.ok());
    auto again = artifacts::savePastedText(text, folder);
    ASSERT_TRUE(again.ok());
    EXPECT_NE(*saved, *again);
    AnalyzeOptions options;
    options.paths = {*saved};
    auto viaFile = analyze(options);
    ASSERT_TRUE(viaFile.ok()) << viaFile.error().toString();
    EXPECT_EQ(viaFile->inputs.at(0).format, "printed_module");
    EXPECT_FALSE(artifacts::savePastedText("  ", folder).ok());
}

}  // namespace
}  // namespace qatdoctor::core
