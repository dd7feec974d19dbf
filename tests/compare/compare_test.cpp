// The comparison engine on real before / after pairs: tests/data/compare (made by
// tests/gen/make_compare_pairs.py with Debian's torch: each pair one fix the FAQ suggests), the
// toolchain fixtures, the diagnosis corpus's runs and the checkpoint fixtures.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/analysis.h"
#include "core/artifacts/toolchain_files.h"
#include "core/common/file_io.h"
#include "core/compare/comparison.h"
#include "core/report/report_builder.h"
#include "core/report/report_writer.h"
#include "tests/cli/cli_run.h"

namespace qatdoctor::core::compare {
namespace {

using cli::test_support::cli;

const std::string kData = QATDOCTOR_TEST_DATA;
const std::string kPairs = kData + "/compare/";

Analysis load(const std::string& path)
{
    AnalyzeOptions options;
    options.paths = {path};
    Result<Analysis> a = analyze(options);
    EXPECT_TRUE(a) << path << ": " << (a ? "" : a.error().toString());
    return a ? std::move(*a) : Analysis{};
}

Comparison comparePaths(const std::string& a, const std::string& b)
{
    return compareAnalyses(load(a), load(b));
}

Comparison comparePair(const std::string& pair)
{
    return comparePaths(kPairs + pair + "/before", kPairs + pair + "/after");
}

const Finding* answer(const Comparison& c, const std::string& id)
{
    const auto it =
        std::find_if(c.answers.begin(), c.answers.end(), [&](const Finding& f) { return f.id == id; });
    return it == c.answers.end() ? nullptr : &*it;
}

std::vector<std::string> layersOf(const Finding* f)
{
    std::vector<std::string> out;
    if (f)
        for (const Evidence& e : f->evidence) out.push_back(e.layer);
    return out;
}

std::vector<std::string> answerIds(const Comparison& c)
{
    std::vector<std::string> ids;
    for (const Finding& f : c.answers) ids.push_back(f.id);
    return ids;
}

std::vector<std::string> findingIds(const Comparison& c, FindingChangeKind kind)
{
    std::vector<std::string> ids;
    for (const FindingChange& f : c.findings)
        if (f.kind == kind) ids.push_back(f.finding.id);
    return ids;
}

const LayerChange* row(const LayerTableDiff& d, const std::string& nameB)
{
    for (const LayerChange& r : d.rows)
        if (r.nameB == nameB) return &r;
    return nullptr;
}

const TableRowChange* tableRow(const DataTableDiff& d, const std::string& layer, const std::string& part = "")
{
    for (const TableRowChange& r : d.rows)
        if (r.layer == layer && r.part == part) return &r;
    return nullptr;
}

const DataTableDiff* tableOf(const Comparison& c, const std::string& kind)
{
    for (const DataTableDiff& d : c.tables)
        if (d.kind == kind) return &d;
    return nullptr;
}

TEST(ModulePath, ReducesNodePathsWrappersAndRepeatedCalls)
{
    EXPECT_EQ(modulePath("/backbone/conv1/Conv"), "backbone.conv1");
    EXPECT_EQ(modulePath("/Add"), "Add");
    EXPECT_EQ(modulePath("module.model.neck.fuse"), "neck.fuse");
    EXPECT_EQ(modulePath("add (/Add_1)"), "add");
    EXPECT_EQ(modulePath("head.cls"), "head.cls");
    EXPECT_EQ(modulePath("neck.lateral.0(1)"), "neck.lateral.0");
    EXPECT_EQ(modulePath("merge_add[add]"), "merge_add");
    EXPECT_EQ(modulePath("(1)"), "(1)");
}

TEST(ComparePairs, HighPrecisionOutputTookEffect)
{
    const Comparison c = comparePair("output");
    ASSERT_FALSE(c.models.empty());
    EXPECT_EQ(c.models.front().changedRows(), 1u);
    const LayerChange* fc = row(c.models.front(), "fc");
    ASSERT_NE(fc, nullptr);
    EXPECT_EQ(fc->kind, RowChange::Changed);
    ASSERT_NE(fc->field("output dtype"), nullptr);
    EXPECT_EQ(fc->field("output dtype")->before, "uint8");
    EXPECT_EQ(fc->field("output dtype")->after, "float32");
    // conv1 and conv2 were trained again: their scales moved, their configuration did not
    const LayerChange* conv1 = row(c.models.front(), "conv1");
    ASSERT_NE(conv1, nullptr);
    EXPECT_FALSE(isConfigurationChange(conv1->kind));
    EXPECT_EQ(layersOf(answer(c, "compare.output_high_precision")), std::vector<std::string>{"fc"});
    EXPECT_EQ(findingIds(c, FindingChangeKind::Resolved),
              std::vector<std::string>{"model.output_low_precision"});
    EXPECT_TRUE(findingIds(c, FindingChangeKind::New).empty());
    EXPECT_TRUE(c.regressions(Severity::Warning).empty());
    EXPECT_TRUE(c.regressions(Severity::Info).empty()) << "a change that took effect is no regression";
}

TEST(ComparePairs, SharedFloatFunctionalSplitIsOneRowBecomingTwo)
{
    const Comparison c = comparePair("shared");
    ASSERT_FALSE(c.models.empty());
    const LayerTableDiff& d = c.models.front();
    const LayerChange* add2 = row(d, "add2");
    ASSERT_NE(add2, nullptr);
    EXPECT_EQ(add2->nameA, "add (/Add_1)");
    EXPECT_EQ(add2->kind, RowChange::Split);
    EXPECT_EQ(add2->matchedBy, MatchBy::Position);
    ASSERT_NE(add2->field("module"), nullptr);
    EXPECT_EQ(add2->field("module")->before, "add");
    const LayerChange* add = row(d, "add");
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(add->nameA, "add");
    ASSERT_NE(add->field("output quantizer"), nullptr);
    EXPECT_EQ(add->field("output quantizer")->before, "shared");
    EXPECT_EQ(add->field("output quantizer")->after, "own");
    EXPECT_EQ(d.count(RowChange::Added), 0u);
    EXPECT_EQ(d.count(RowChange::Removed), 0u);
    EXPECT_EQ(layersOf(answer(c, "compare.shared_split")), (std::vector<std::string>{"add", "add2"}));
    EXPECT_EQ(findingIds(c, FindingChangeKind::Resolved),
              std::vector<std::string>{"model.shared_quant_params"});
}

TEST(ComparePairs, Int16TookEffectOnTwoLayersAndFellBackOnOne)
{
    const Comparison c = comparePair("int16");
    EXPECT_EQ(layersOf(answer(c, "compare.int16_took_effect")), (std::vector<std::string>{"conv1", "add"}));
    const Finding* fell = answer(c, "compare.int16_fell_back");
    ASSERT_NE(fell, nullptr);
    EXPECT_EQ(layersOf(fell), std::vector<std::string>{"conv2"});
    EXPECT_EQ(fell->severity, Severity::Warning);
    EXPECT_NE(fell->evidence.front().detail.find("configured int16, exported int8"), std::string::npos);
    // the change is a regression for CI at warning, not at error
    ASSERT_FALSE(c.regressions(Severity::Warning).empty());
    EXPECT_EQ(c.regressions(Severity::Warning).front()->id, "compare.int16_fell_back");
    EXPECT_TRUE(c.regressions(Severity::Error).empty());
    // conv1 and add changed; conv2 and fc only follow (their input dtype, their scales)
    ASSERT_FALSE(c.models.empty());
    EXPECT_EQ(c.models.front().changedRows(), 2u);
    EXPECT_EQ(row(c.models.front(), "conv2")->kind, RowChange::Retuned);
}

TEST(ComparePairs, Int16FixImprovedTheBadLayerAndLoweredItsSensitivity)
{
    const Comparison c = comparePair("int16");
    const DataTableDiff* perLayer = tableOf(c, "compare_per_layer");
    ASSERT_NE(perLayer, nullptr);
    EXPECT_EQ(perLayer->metric, "Cosine");
    const TableRowChange* conv1 = tableRow(*perLayer, "conv1");
    ASSERT_NE(conv1, nullptr);
    EXPECT_EQ(conv1->movement, Movement::Better);
    EXPECT_NEAR(*conv1->before, 0.825786, 1e-6);
    EXPECT_NEAR(*conv1->after, 0.999967, 1e-6);
    EXPECT_EQ(conv1->dtypeA, "qint8");
    EXPECT_EQ(conv1->dtypeB, "qint16");
    EXPECT_EQ(conv1->kind, RowChange::Changed);
    // the planted bad layer leads the improvements
    const Finding* improved = answer(c, "compare.similarity_improved");
    ASSERT_NE(improved, nullptr);
    EXPECT_EQ(improved->evidence.front().layer, "conv1");

    const DataTableDiff* sensitivity = tableOf(c, "sensitivity");
    ASSERT_NE(sensitivity, nullptr);
    EXPECT_TRUE(sensitivity->ranked);
    EXPECT_FALSE(sensitivity->higherIsBetter);
    EXPECT_EQ(sensitivity->metric, "L1");
    const TableRowChange* act = tableRow(*sensitivity, "conv1", "activation");
    ASSERT_NE(act, nullptr);
    EXPECT_EQ(act->rankA, 1);
    EXPECT_EQ(act->rankB, 6);
    EXPECT_EQ(act->movement, Movement::Better);
    const Finding* dropped = answer(c, "compare.sensitivity_dropped");
    ASSERT_NE(dropped, nullptr);
    EXPECT_EQ(layersOf(dropped), (std::vector<std::string>{"add", "conv1"}));
    // conv1's weight quantizer was not changed: its sensitivity is not an answer
    EXPECT_EQ(answer(c, "compare.sensitivity_rose"), nullptr);
    EXPECT_EQ(findingIds(c, FindingChangeKind::Resolved),
              std::vector<std::string>{"consistency.similarity_drop"});
    EXPECT_EQ(findingIds(c, FindingChangeKind::New), std::vector<std::string>{"model.int16_not_applied"});
}

TEST(ComparePairs, TheFixUndoneIsARegressionEverywhere)
{
    const Comparison c = comparePaths(kPairs + "int16/after", kPairs + "int16/before");
    EXPECT_EQ(layersOf(answer(c, "compare.precision_lowered")), (std::vector<std::string>{"conv1", "add"}));
    EXPECT_EQ(answer(c, "compare.similarity_dropped")->evidence.front().layer, "conv1");
    EXPECT_EQ(layersOf(answer(c, "compare.sensitivity_rose")), (std::vector<std::string>{"conv1", "add"}));
    EXPECT_EQ(answer(c, "compare.int16_took_effect"), nullptr);
    EXPECT_EQ(answer(c, "compare.int16_fell_back"), nullptr);  // B configures nothing
    EXPECT_EQ(findingIds(c, FindingChangeKind::New), std::vector<std::string>{"consistency.similarity_drop"});
}

TEST(CompareLayers, AModuleCalledTwiceThatLeftIsNoSplit)
{
    // model_check_result's neck.lateral.0 and neck.lateral.0(1) are one module called twice; the
    // other model has no neck.lateral.0 at all: its rows are changed or gone, never "split"
    const Comparison c = comparePaths(kData + "/toolchain/model_check_result.txt",
                                      kData + "/toolchain/model_check_result_j6.txt");
    ASSERT_FALSE(c.models.empty());
    EXPECT_EQ(c.models.front().count(RowChange::Split), 0u);
    EXPECT_EQ(answer(c, "compare.shared_split"), nullptr);
    EXPECT_GT(c.models.front().count(RowChange::Removed), 0u);
}

// Two debug tables of one kind, read by the toolchain reader from text in its layout.
DataTableDiff diffTexts(artifacts::ToolchainKind kind, const std::string& a, const std::string& b)
{
    auto ta = artifacts::readToolchainText(kind, a, "a.txt");
    auto tb = artifacts::readToolchainText(kind, b, "b.txt");
    EXPECT_TRUE(ta && tb);
    auto d = diffDataTables(ta->tables.at(0), tb->tables.at(0));
    EXPECT_TRUE(d.has_value());
    return d ? *d : DataTableDiff{};
}

TEST(CompareTables, ACosineTurnedNaNIsTheWorstMove)
{
    const std::string layout =
        "+----+----------+---------------+----------+\n"
        "|    | mod_name | quant_dtype   |   Cosine |\n"
        "|----+----------+---------------+----------|\n"
        "|  0 | conv1    | qint8         | %s |\n"
        "|  1 | conv2    | qint8         | 0.999000 |\n"
        "+----+----------+---------------+----------+\n";
    const auto text = [&](const char* cosine) {
        std::string t = layout;
        return t.replace(t.find("%s"), 2, cosine);
    };
    const DataTableDiff d =
        diffTexts(artifacts::ToolchainKind::ComparePerLayer, text("0.998000"), text("     nan"));
    ASSERT_EQ(d.rows.size(), 2u);
    EXPECT_EQ(d.rows[0].movement, Movement::Worse);
    EXPECT_EQ(diffTexts(artifacts::ToolchainKind::ComparePerLayer, text("     nan"), text("0.998000"))
                  .rows[0]
                  .movement,
              Movement::Better);
}

TEST(CompareTables, ASensitivityWithoutANumberStillComparesItsRank)
{
    const std::string a =
        "op_name    sensitive_type    op_type    L1      quant_dtype\n"
        "---------  ----------------  ---------  ------  -------------\n"
        "conv1      activation        Conv2d     0.5     qint8\n"
        "fc         activation        Linear     -       qint8\n"
        "conv2      activation        Conv2d     0.1     qint8\n";
    const std::string b =
        "op_name    sensitive_type    op_type    L1      quant_dtype\n"
        "---------  ----------------  ---------  ------  -------------\n"
        "conv2      activation        Conv2d     0.2     qint8\n"
        "conv1      activation        Conv2d     0.01    qint8\n"
        "fc         activation        Linear     -       qint8\n";
    Analysis before, after;
    for (auto [side, text] : {std::pair{&before, &a}, std::pair{&after, &b}}) {
        auto read = artifacts::readToolchainText(artifacts::ToolchainKind::Sensitivity, *text, "ops.txt");
        ASSERT_TRUE(read);
        side->tables = read->tables;
    }
    const Comparison c = compareAnalyses(before, after);
    ASSERT_EQ(c.tables.size(), 1u);
    const TableRowChange* fc = tableRow(c.tables.front(), "fc", "activation");
    ASSERT_NE(fc, nullptr);
    EXPECT_FALSE(fc->before.has_value());
    EXPECT_EQ(fc->rankA, 2);
    EXPECT_EQ(fc->rankB, 3);
    // no change is known: A's three most sensitive ops are what a fix aimed at. conv1 fell in
    // value and rank; fc only in rank, with no number to show; conv2 rose
    const Finding* dropped = answer(c, "compare.sensitivity_dropped");
    ASSERT_NE(dropped, nullptr);
    EXPECT_EQ(layersOf(dropped), (std::vector<std::string>{"conv1", "fc"}));
    EXPECT_NE(dropped->evidence.back().detail.find("L1 - → -, rank 2 → 3"), std::string::npos)
        << dropped->evidence.back().detail;
    EXPECT_EQ(layersOf(answer(c, "compare.sensitivity_rose")), std::vector<std::string>{"conv2"});
}

TEST(CompareTables, OneTableInItsTwoLayoutsIsTheSame)
{
    // the .txt (psql, "Cosine") and the .csv (pandas, "COSINE") of one comparison
    const Comparison c = comparePaths(kData + "/toolchain/compare_per_layer_out.txt",
                                      kData + "/toolchain/compare_per_layer_out.csv");
    ASSERT_EQ(c.tables.size(), 1u);
    const DataTableDiff& d = c.tables.front();
    EXPECT_EQ(d.rows.size(), 8u);
    EXPECT_EQ(d.count(Movement::Unmoved), 8u);
    EXPECT_EQ(d.count(RowChange::Same), 8u);
    EXPECT_TRUE(c.answers.empty());
}

TEST(CompareRuns, AccuracyDropBetweenTwoAttemptsIsARegression)
{
    const Comparison c =
        comparePaths(kData + "/diagnosis/healthy_folders", kData + "/diagnosis/worse_than_calib_folders");
    const auto qat =
        std::find_if(c.runs.begin(), c.runs.end(), [](const RunChange& r) { return r.role == "qat"; });
    ASSERT_NE(qat, c.runs.end());
    ASSERT_TRUE(qat->accuracyA && qat->accuracyB);
    EXPECT_GT(*qat->accuracyA, *qat->accuracyB);
    const Finding* dropped = answer(c, "compare.accuracy_dropped");
    ASSERT_NE(dropped, nullptr);
    EXPECT_EQ(dropped->evidence.front().run, qat->runB);
    EXPECT_FALSE(findingIds(c, FindingChangeKind::New).empty());
}

TEST(CompareCheckpoints, TrainingMovesScalesButChangesNoConfiguration)
{
    const Comparison c =
        comparePaths(kData + "/checkpoints/qat_calibrated.pt", kData + "/checkpoints/qat_trained.pt");
    ASSERT_EQ(c.checkpoints.size(), 1u);
    const LayerTableDiff& d = c.checkpoints.front();
    EXPECT_EQ(d.changedRows(), 0u);
    EXPECT_GT(d.count(RowChange::Retuned), 0u);
}

TEST(CompareJson, CarriesAnswersRowsAndMovement)
{
    const nlohmann::json j = comparisonToJson(comparePair("int16"), Lang::En);
    EXPECT_NE(j["summary"].get<std::string>().find("2 of 4 layers changed configuration"), std::string::npos);
    EXPECT_EQ(j["answers"][0]["id"], "compare.int16_fell_back");
    EXPECT_EQ(j["models"][0]["changed"], 2);
    bool sawRank = false;
    for (const auto& t : j["tables"])
        for (const auto& r : t["rows"])
            if (r["layer"] == "conv1" && r.value("part", "") == "activation") {
                EXPECT_EQ(r["rank_a"], 1);
                EXPECT_EQ(r["rank_b"], 6);
                EXPECT_EQ(r["movement"], "better");
                sawRank = true;
            }
    EXPECT_TRUE(sawRank);
}

TEST(CompareReport, WhatChangedSectionFollowsTheSummary)
{
    const Analysis a = load(kPairs + "int16/before"), b = load(kPairs + "int16/after");
    const Comparison c = compareAnalyses(a, b);
    report::ReportOptions options;
    options.hashInputs = false;
    options.comparison = &c;
    Result<report::ReportDocument> doc = report::buildReport(b, options);
    ASSERT_TRUE(doc);
    ASSERT_GE(doc->sections.size(), 3u);
    EXPECT_EQ(doc->sections[2].id, "changes");
    const report::Section* s = doc->section("changes");
    ASSERT_NE(s, nullptr);
    bool fellBack = false, layerRow = false;
    for (const report::Block& block : s->blocks) {
        for (const report::FindingItem& f : block.findings)
            fellBack = fellBack || f.id == "compare.int16_fell_back";
        for (const auto& r : block.table.rows)
            layerRow =
                layerRow || (r.size() == 7 && r[0] == "conv1" && r[4] == "int8 / int16" && r[5] == "changed");
    }
    EXPECT_TRUE(fellBack);
    EXPECT_TRUE(layerRow);
    // without a comparison there is no such section
    options.comparison = nullptr;
    Result<report::ReportDocument> plain = report::buildReport(b, options);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->section("changes"), nullptr);
}

TEST(DiffCli, ExitsOneOnARegressionAtFailOn)
{
    const auto run = cli({"diff", kPairs + "int16/before", kPairs + "int16/after"});
    EXPECT_EQ(run.code, 1) << run.err;
    EXPECT_NE(run.out.find("compare.int16_fell_back"), std::string::npos);
    EXPECT_NE(run.out.find("configured int16, exported int8"), std::string::npos);
    EXPECT_NE(run.out.find("conv1 activation"), std::string::npos);
    EXPECT_EQ(cli({"diff", kPairs + "int16/before", kPairs + "int16/after", "--fail-on", "error"}).code, 0);
    EXPECT_EQ(cli({"diff", kPairs + "output/before", kPairs + "output/after"}).code, 0);
}

TEST(DiffCli, ComparesTwoFilesOfOneKindAndSpeaksChinese)
{
    const auto run = cli({"diff", kPairs + "shared/before/model.onnx", kPairs + "shared/after/model.onnx",
                          "--lang", "zh", "--json"});
    ASSERT_EQ(run.code, 0) << run.err;
    const nlohmann::json j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["comparison"]["answers"][0]["id"], "compare.shared_split");
    EXPECT_EQ(j["comparison"]["answers"][0]["title"], "共享的量化参数已拆开");
    bool split = false;
    for (const auto& r : j["comparison"]["models"][0]["rows"])
        split = split || (r["b"] == "add2" && r["change"] == "split" && r["matched_by"] == "position");
    EXPECT_TRUE(split);
}

TEST(DiffCli, SimulatesBothModelsOnOneInput)
{
    const auto run = cli({"diff", kPairs + "output/before", kPairs + "output/after", "--simulate", "--json",
                          "--fail-on", "error"});
    ASSERT_EQ(run.code, 0) << run.err;
    const nlohmann::json sim = nlohmann::json::parse(run.out)["comparison"]["simulation"];
    ASSERT_TRUE(sim.is_object());
    EXPECT_NEAR(sim["output_sqnr_db_a"].get<double>(), 34.40, 0.05);
    EXPECT_NEAR(sim["output_sqnr_db_b"].get<double>(), 31.22, 0.05);
    ASSERT_EQ(sim["layers"].size(), 4u);
    EXPECT_EQ(sim["layers"][3]["layer"], "fc");
    EXPECT_DOUBLE_EQ(sim["layers"][3]["cosine_a"].get<double>(), 1.0);  // quantized output: exact
    EXPECT_LT(sim["layers"][3]["cosine_b"].get<double>(), 1.0);  // float output: requantization differs
    EXPECT_NE(run.out.find("compare.sqnr_dropped"), std::string::npos);
    // a model the simulator cannot run is skipped with its reason; the rest is compared
    const auto horizon = cli({"diff", kPairs + "int16/before", kPairs + "int16/after", "--simulate"});
    EXPECT_EQ(horizon.code, 1);
    EXPECT_NE(horizon.err.find("--simulate skipped for A"), std::string::npos);
    EXPECT_EQ(cli({"diff", kPairs + "output/before", kPairs + "output/after", "--seed", "3"}).code, 2);
}

TEST(DiffCli, NothingInCommonIsAUsageError)
{
    const auto run =
        cli({"diff", kData + "/toolchain/compare_per_layer_out.txt", kPairs + "output/after/model.onnx"});
    EXPECT_EQ(run.code, 2);
    EXPECT_NE(run.err.find("nothing of one kind to compare"), std::string::npos);
    EXPECT_EQ(cli({"diff", kPairs + "output/after"}).code, 2);
    EXPECT_EQ(cli({"diff", kPairs + "output/after", kPairs + "no_such_folder"}).code, 2);
}

TEST(DiffCli, WritesBsReportWithWhatChanged)
{
    const std::string path = ::testing::TempDir() + "/diff_report.html";
    std::remove(path.c_str());
    const auto run =
        cli({"diff", kPairs + "shared/before", kPairs + "shared/after", "--report", path, "--force"});
    ASSERT_EQ(run.code, 0) << run.err;
    Result<std::string> html = readFile(path);
    ASSERT_TRUE(html);
    EXPECT_NE(html->find("What changed"), std::string::npos);
    EXPECT_NE(html->find("add2"), std::string::npos);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace qatdoctor::core::compare
