// The Fixed-point section from a real simulation attached to the analysis (lut_qdq.onnx: four
// nonlinear layers, one 16-bit table off by 12 LSB): the summary, the check that brings its
// findings into the analysis, the chart (series per pair of modes, layer names, first-bad marker),
// the per-layer / LUT / sensitivity tables, the JSON "simulation" object and the HTML. Also the
// wizard input of `analyze --report --wizard FILE`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/analysis_json.h"
#include "core/analysis_simulation.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "core/faq/wizard_session_json.h"
#include "core/report/html_writer.h"
#include "core/report/report_builder.h"
#include "core/report/svg_plot.h"
#include "core/report/wizard_input.h"
#include "report_test_support.h"

namespace qatdoctor {
namespace {

using namespace core::report;
using namespace report_test;
namespace fp = core::fixedpoint;

const std::vector<std::string> kLutLayers = {"sigmoid", "tanh", "softmax", "exp"};

class FixedpointReport : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_analysis = new core::Analysis(analyzeOrDie({testData("fixedpoint/lut_qdq.onnx")}));
        fp::SimulationOptions options;
        options.sensitivity = true;
        fp::InputSpec input;
        input.files = {testData("fixedpoint/lut_qdq.input_0.npy")};
        const core::Result<void> ran = core::simulateAnalysisModel(*s_analysis, options, input);
        if (!ran) throw std::runtime_error(ran.error().toString());
    }
    static void TearDownTestSuite() { delete s_analysis; }

    static ReportDocument build(const core::Analysis& a, core::Lang lang = core::Lang::En)
    {
        ReportOptions o;
        o.lang = lang;
        o.hashInputs = false;
        auto doc = buildReport(a, o);
        EXPECT_TRUE(doc);
        return doc ? std::move(doc).value() : ReportDocument{};
    }
    static std::vector<const Block*> blocks(const Section& s, BlockKind kind)
    {
        std::vector<const Block*> out;
        for (const Block& b : s.blocks)
            if (b.kind == kind) out.push_back(&b);
        return out;
    }

    static inline core::Analysis* s_analysis = nullptr;
};

TEST_F(FixedpointReport, SimulationJoinsTheAnalysisWithItsFindings)
{
    ASSERT_TRUE(s_analysis->simulation);
    const fp::SimulationSummary& sim = *s_analysis->simulation;
    ASSERT_EQ(sim.layers.size(), kLutLayers.size());
    for (size_t i = 0; i < kLutLayers.size(); ++i) EXPECT_EQ(sim.layers[i].layer, kLutLayers[i]);
    EXPECT_EQ(sim.inputs, std::vector<std::string>{testData("fixedpoint/lut_qdq.input_0.npy")});
    ASSERT_EQ(sim.luts.size(), 4u);
    EXPECT_EQ(sim.sensitivity.size(), 4u);
    EXPECT_EQ(sim.modelPath, testData("fixedpoint/lut_qdq.onnx"));
    // The simulator's finding is an analysis finding now, and its checks count as run.
    bool lutFinding = false;
    for (const core::Finding& f : s_analysis->findings)
        lutFinding = lutFinding || f.id == "simulation.lut_error";
    EXPECT_TRUE(lutFinding);
    EXPECT_EQ(s_analysis->checksRun.count("simulation.first_bad_layer"), 1u);
    // Re-running the checks (a role change) keeps them.
    core::Analysis copy = *s_analysis;
    core::runChecks(copy);
    EXPECT_EQ(copy.findings.size(), s_analysis->findings.size());
}

TEST_F(FixedpointReport, ChartHasOneSeriesPerPairWithLayerNames)
{
    const ReportDocument doc = build(*s_analysis);
    const Section* s = doc.section("fixedpoint");
    ASSERT_NE(s, nullptr);
    const auto plots = blocks(*s, BlockKind::Plot);
    ASSERT_EQ(plots.size(), 1u);
    const PlotBlock& p = plots[0]->plot;
    ASSERT_EQ(p.series.size(), 3u);
    EXPECT_EQ(p.series.back().name, "fake-quant vs integer");
    ASSERT_EQ(p.xTicks.size(), 4u);
    EXPECT_EQ(p.xTicks[1].first, 2.0);
    EXPECT_EQ(p.xTicks[1].second, "tanh");
    ASSERT_EQ(p.references.size(), 1u);
    EXPECT_EQ(p.references[0].y, 20.0);
    // Fake-quant and integer agree on every layer here; float and fake-quant part at softmax (the
    // real input drives its 8-bit output hard), drawn as the second, blue marker kind.
    EXPECT_TRUE(s_analysis->simulation->firstBadLayer.empty());
    ASSERT_EQ(s_analysis->simulation->firstBadLayerFloat, "softmax");
    ASSERT_EQ(p.markers.size(), 1u);
    EXPECT_EQ(p.markers[0].x, 3.0);
    EXPECT_EQ(p.markers[0].color, "#1f77b4");
    // The real SQNR of tanh (fake vs int) is the plotted one; identical layers sit at the ceiling.
    const fp::Agreement* tanh = s_analysis->simulation->layers[1].pair("fake_int");
    ASSERT_NE(tanh, nullptr);
    EXPECT_DOUBLE_EQ(p.series.back().y[1], std::min(tanh->sqnrDb, 80.0));
    for (double y : p.series.back().y) EXPECT_LE(y, 80.0);
}

TEST_F(FixedpointReport, FirstBadLayerIsMarkedAndHighlighted)
{
    core::Analysis a = *s_analysis;
    a.simulation->firstBadLayer = "softmax";
    a.simulation->firstBadLayerFloat.clear();
    const ReportDocument doc = build(a);
    const Section* s = doc.section("fixedpoint");
    const PlotBlock& p = blocks(*s, BlockKind::Plot).at(0)->plot;
    ASSERT_EQ(p.markers.size(), 1u);
    EXPECT_EQ(p.markers[0].x, 3.0);
    EXPECT_NE(p.markers[0].label.find("softmax"), std::string::npos);
    const TableBlock& layers = blocks(*s, BlockKind::Table).at(0)->table;
    ASSERT_EQ(layers.rows.size(), 4u);
    EXPECT_EQ(layers.rows[2][1], "softmax");
    EXPECT_TRUE(layers.highlighted[2]);
    EXPECT_FALSE(layers.highlighted[0]);  // sigmoid agrees both ways
    const std::string svg = renderSvgPlot(p);
    EXPECT_NE(svg.find("class=\"marker\""), std::string::npos);
    EXPECT_NE(svg.find("first bad (fake vs int): softmax"), std::string::npos);
}

TEST_F(FixedpointReport, TablesForLayersLutsAndSensitivity)
{
    const ReportDocument doc = build(*s_analysis);
    const Section* s = doc.section("fixedpoint");
    const auto tables = blocks(*s, BlockKind::Table);
    ASSERT_GE(tables.size(), 4u);  // layers, LUTs, sensitivity, findings
    const TableBlock& layers = tables[0]->table;
    EXPECT_TRUE(layers.repeatHeader);
    ASSERT_EQ(layers.rows.size(), 4u);
    EXPECT_EQ(layers.columns.size(), layers.rows[0].size());
    const fp::Agreement* tanh = s_analysis->simulation->layers[1].pair("fake_int");
    char sqnr[32];
    std::snprintf(sqnr, sizeof sqnr, "%.1f", tanh->sqnrDb);
    EXPECT_EQ(layers.rows[1][7], sqnr);
    const TableBlock& luts = tables[1]->table;
    ASSERT_EQ(luts.rows.size(), 4u);
    for (size_t i = 0; i < luts.rows.size(); ++i) {  // tables off by more than 1 LSB are marked
        EXPECT_EQ(luts.rows[i][0], s_analysis->simulation->luts[i].layer);
        EXPECT_EQ(luts.highlighted[i], s_analysis->simulation->luts[i].maxErrorLsb > 1.0) << luts.rows[i][0];
        if (luts.rows[i][0] == "tanh") {
            EXPECT_TRUE(luts.highlighted[i]);  // the 16-bit table interpolates: 12.7 LSB
            EXPECT_EQ(luts.rows[i][2], "16");
            EXPECT_EQ(luts.rows[i][3], "257");
        }
    }
    const TableBlock& sens = tables[2]->table;
    ASSERT_EQ(sens.rows.size(), 4u);
    EXPECT_EQ(sens.rows[0][1], s_analysis->simulation->sensitivity[0].layer);
    EXPECT_EQ(tables[3]->table.rows.at(0)[0], "simulation.lut_error");
}

TEST_F(FixedpointReport, WhatIfRunSaysWhatChanged)
{
    core::Analysis a = *s_analysis;
    a.simulation->int16Layers = {"tanh"};
    a.simulation->baselineOutputSqnrDb = 30.0;
    const ReportDocument doc = build(a);
    bool said = false;
    for (const Block* b : blocks(*doc.section("fixedpoint"), BlockKind::Paragraph))
        said = said || (b->text.find("int16 for tanh") != std::string::npos &&
                        b->text.find("unchanged model 30.00 dB") != std::string::npos);
    EXPECT_TRUE(said);
}

TEST_F(FixedpointReport, JsonHasTheSimulationObject)
{
    const nlohmann::json j = core::analysisToJson(*s_analysis, core::Lang::En);
    ASSERT_TRUE(j["simulation"].is_object());
    const nlohmann::json& s = j["simulation"];
    EXPECT_EQ(s["model"], testData("fixedpoint/lut_qdq.onnx"));
    ASSERT_EQ(s["layers"].size(), 4u);
    EXPECT_EQ(s["layers"][1]["name"], "tanh");
    EXPECT_TRUE(s["layers"][1]["fake_int"]["sqnr_db"].is_number());
    EXPECT_EQ(s["luts"].size(), 4u);
    EXPECT_TRUE(s["first_bad_layer"].is_null());
    EXPECT_EQ(s["sensitivity"].size(), 4u);
    EXPECT_EQ(s["findings"][0]["id"], "simulation.lut_error");
    core::Analysis none = analyzeOrDie({testData("fixedpoint/lut_qdq.onnx")});
    EXPECT_TRUE(core::analysisToJson(none, core::Lang::En)["simulation"].is_null());
}

TEST_F(FixedpointReport, HtmlShowsTheSectionInBothLanguages)
{
    const std::string dir = makeTempDir("qatdoctor-report-fp");
    for (core::Lang lang : {core::Lang::En, core::Lang::Zh}) {
        const std::string path = dir + "/fp_" + core::langCode(lang) + ".html";
        ASSERT_TRUE(core::writeFileAtomic(path, renderHtml(build(*s_analysis, lang)), false));
        std::string args;
        for (const std::string& l : kLutLayers) args += " " + shellQuote(l);
        for (const char* t : lang == core::Lang::Zh
                                 ? std::vector<const char*>{"定点仿真", "逐层一致性", "查找表", "假设分析"}
                                 : std::vector<const char*>{"Fixed-point", "Per-layer agreement",
                                                            "Look-up tables", "What-if"})
            args += " " + shellQuote(t);
        const CommandResult r =
            run("python3 " + shellQuote(std::string(QATDOCTOR_REPORT_TEST_DIR) + "/check_html.py") + " " +
                shellQuote(path) + args + " 2>&1");
        EXPECT_EQ(r.exitCode, 0) << r.output;
    }
    std::filesystem::remove_all(dir);
}

TEST(FixedpointReportNone, WithoutASimulationTheSectionSaysHowToRunIt)
{
    const core::Analysis a = analyzeOrDie({testData("models/qat_qdq.onnx")});
    ReportOptions o;
    o.hashInputs = false;
    const ReportDocument doc = *buildReport(a, o);
    const Section* s = doc.section("fixedpoint");
    ASSERT_NE(s, nullptr);
    ASSERT_FALSE(s->blocks.empty());
    EXPECT_EQ(s->blocks.back().kind, BlockKind::Note);
    EXPECT_NE(s->blocks.back().text.find("--simulate"), std::string::npos);
}

TEST(FixedpointReportNone, NoOnnxModelIsAClearError)
{
    core::Analysis a = analyzeOrDie({testData("runs/healthy")});
    const core::Result<void> r = core::simulateAnalysisModel(a, {}, {});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "simulate.no_model");
    EXPECT_FALSE(a.simulation);
}

// The simulation runs on the graph the analysis loaded: the model is not read from disk again
// (it was read twice before; here the file is gone by the time the simulation runs).
TEST(FixedpointReportNone, TheSimulationUsesTheLoadedModelNotTheFileAgain)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("qatdoctor_sim_once_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::filesystem::path copy = dir / "model.onnx";
    std::filesystem::copy_file(testData("models/qat_qdq.onnx"), copy,
                               std::filesystem::copy_options::overwrite_existing);
    core::Analysis a = analyzeOrDie({copy.string()});
    std::filesystem::remove_all(dir);
    const core::Result<void> r = core::simulateAnalysisModel(a, {}, {});
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_TRUE(a.simulation);
    EXPECT_EQ(a.simulation->modelPath, copy.string());
    EXPECT_FALSE(a.simulation->layers.empty());
}

// --wizard FILE: a .qatdoctor session, the wizard page's state or a bare walk.
TEST(WizardInput, AcceptsSessionFilePageStateAndBareWalk)
{
    const core::faq::FaqLoad faq = core::faq::FaqBase::loadDirectory(sourceDir("faq"));
    ASSERT_FALSE(faq.base.topics().empty());
    core::faq::WizardSession session(&faq.base);
    ASSERT_TRUE(session.start(faq.base.topics().front().id));
    ASSERT_TRUE(session.answer(session.current()->answers.front().id));
    const nlohmann::json walk = core::faq::sessionToJson(session, faq.base);
    const nlohmann::json state = {{"version", 1}, {"session", walk}};
    const nlohmann::json file = {
        {"format", "qatdoctor-session"}, {"version", 1}, {"inputs", {"x"}}, {"pages", {{"wizard", state}}}};
    for (const nlohmann::json& j : {walk, state, file}) {
        core::Result<std::string> got = wizardStateFromJson(j.dump(2), "w.json");
        ASSERT_TRUE(got) << got.error().toString();
        ReportOptions o;
        o.hashInputs = false;
        o.faq = &faq.base;
        o.wizardJson = *got;
        const ReportDocument doc = *buildReport(core::Analysis{}, o);
        bool asked = false;
        for (const Block& b : doc.section("wizard")->blocks)
            if (b.kind == BlockKind::Table && !b.table.rows.empty())
                asked = b.table.rows[0][1] == walk["path"][0]["question"]["en"];
        EXPECT_TRUE(asked) << j.dump().substr(0, 80);
    }
}

TEST(WizardInput, ErrorsNameTheFile)
{
    auto notJson = wizardStateFromJson("{\n\"a\": 1,\n oops", "/tmp/w.json");
    ASSERT_FALSE(notJson);
    EXPECT_EQ(notJson.error().code, "report.wizard");
    EXPECT_NE(notJson.error().message.find("/tmp/w.json"), std::string::npos);
    EXPECT_EQ(notJson.error().line, 3);
    auto noWizard =
        wizardStateFromJson(R"({"format": "qatdoctor-session", "version": 1, "pages": {}})", "s.qatdoctor");
    ASSERT_FALSE(noWizard);
    EXPECT_NE(noWizard.error().message.find("no symptom wizard walk"), std::string::npos);
    auto other = wizardStateFromJson(R"({"runs": []})", "a.json");
    ASSERT_FALSE(other);
    EXPECT_NE(other.error().message.find("a.json"), std::string::npos);
    auto deep = wizardStateFromJson(std::string(5000, '[') + std::string(5000, ']'), "deep.json");
    ASSERT_FALSE(deep);
    EXPECT_FALSE(readWizardState("/nonexistent/w.json"));
}

}  // namespace
}  // namespace qatdoctor
