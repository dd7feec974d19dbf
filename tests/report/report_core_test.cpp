// core/report: the document built from real fixture analyses, its HTML (checked by a stdlib
// parser), the SHA-256 used for the inputs, and the file rules (no silent overwrite, clear errors).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/common/input_set_name.h"
#include "core/common/sha256.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "core/faq/wizard_session_json.h"
#include "core/logs/run_palette.h"
#include "core/report/html_writer.h"
#include "core/report/report_builder.h"
#include "core/report/report_writer.h"
#include "core/report/svg_plot.h"
#include "report_test_support.h"

namespace qatdoctor {
namespace {

using namespace core::report;
using namespace report_test;

TEST(Sha256, KnownVectors)
{
    EXPECT_EQ(core::sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(core::sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(core::sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(core::sha256Hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, StreamingMatchesOneShotAcrossChunks)
{
    core::Sha256 h;
    const std::string data(200003, 'x');
    for (size_t i = 0; i < data.size(); i += 61) h.update(std::string_view(data).substr(i, 61));
    EXPECT_EQ(h.finishHex(), core::sha256Hex(data));
    const std::string model = testData("models/qat_qdq.onnx");
    auto bytes = core::readFile(model);
    ASSERT_TRUE(bytes);
    auto file = core::sha256File(model);
    ASSERT_TRUE(file);
    EXPECT_EQ(*file, core::sha256Hex(*bytes));
    EXPECT_FALSE(core::sha256File("/nonexistent/x.onnx"));
}

// The report's subtitle and the window title name the inputs the same way.
TEST(InputSetName, CommonFolderOfTheInputs)
{
    const std::string demo = sourceDir("resources/demo");
    EXPECT_EQ(core::inputSetName({demo + "/logs", demo + "/model/demo_qat.onnx"}), "demo");
    // `analyze resources/demo` lists the project folder and the model files read from it.
    EXPECT_EQ(core::inputSetName({demo, demo + "/model/demo_qat.onnx", demo + "/model/demo_qat_printed.txt"}),
              "demo");
    EXPECT_EQ(core::inputSetName({demo + "/model/demo_qat.onnx", demo}), "demo");
    EXPECT_EQ(core::inputSetName({demo + "/logs/"}), "logs");  // one folder: itself
    EXPECT_EQ(core::inputSetName({demo + "/model/demo_qat.onnx"}), "model/demo_qat.onnx");
    EXPECT_EQ(core::inputSetName({demo + "/logs/qat", demo + "/logs/float"}), "logs");
    EXPECT_EQ(core::commonFolder({demo + "/logs", demo + "/model/demo_qat.onnx"}),
              std::filesystem::path(demo).lexically_normal().string());
    EXPECT_EQ(core::inputSetName({}), "");
    ReportOptions o;
    o.hashInputs = false;
    const core::Analysis a = analyzeOrDie({demo + "/logs", demo + "/model/demo_qat.onnx"});
    EXPECT_EQ(buildReport(a, o)->subtitle, "demo");
}

class ReportFixture : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_analysis = new core::Analysis(
            analyzeOrDie({testData("runs/nan_loss"), testData("models/qat_qdq_highprec.onnx")}));
        s_faq = new core::faq::FaqLoad(core::faq::FaqBase::loadDirectory(sourceDir("faq")));
    }
    static void TearDownTestSuite()
    {
        delete s_analysis;
        delete s_faq;
    }
    void SetUp() override { m_dir = makeTempDir("qatdoctor-report-test"); }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    static ReportDocument build(core::Lang lang, std::string wizard = {})
    {
        ReportOptions o;
        o.lang = lang;
        o.faq = &s_faq->base;
        o.date = "2026-01-02 03:04 UTC";
        o.wizardJson = std::move(wizard);
        auto doc = buildReport(*s_analysis, o);
        EXPECT_TRUE(doc) << (doc ? "" : doc.error().toString());
        return doc ? std::move(doc).value() : ReportDocument{};
    }

    static inline core::Analysis* s_analysis = nullptr;
    static inline core::faq::FaqLoad* s_faq = nullptr;
    std::string m_dir;
};

TEST_F(ReportFixture, FixtureHasFindingsAndLayers)
{
    ASSERT_FALSE(s_analysis->findings.empty());
    ASSERT_NE(s_analysis->primaryModel(), nullptr);
    ASSERT_FALSE(s_analysis->primaryModel()->layers.empty());
}

TEST_F(ReportFixture, AllSectionsInOrderWithTitles)
{
    const ReportDocument doc = build(core::Lang::En);
    std::vector<std::string> ids;
    for (const Section& s : doc.sections) ids.push_back(s.id);
    std::vector<std::string> expected = allSectionIds();
    expected.erase(std::find(expected.begin(), expected.end(), "changes"));  // only with a comparison
    EXPECT_EQ(ids, expected);
    EXPECT_EQ(doc.subtitle, "data");  // runs/nan_loss and models/x.onnx share tests/data
    EXPECT_EQ(doc.date, "2026-01-02 03:04 UTC");
    EXPECT_EQ(doc.section("summary")->title, "Summary");
    EXPECT_EQ(build(core::Lang::Zh).section("summary")->title, "结论与发现");
}

TEST_F(ReportFixture, TitleListsInputsWithRealHashes)
{
    const ReportDocument doc = build(core::Lang::En);
    const Section* title = doc.section("title");
    ASSERT_NE(title, nullptr);
    const Block* inputs = nullptr;
    for (const Block& b : title->blocks)
        if (b.kind == BlockKind::Table) inputs = &b;
    ASSERT_NE(inputs, nullptr);
    const std::string model = testData("models/qat_qdq_highprec.onnx");
    bool found = false;
    for (const auto& row : inputs->table.rows)
        if (row[0] == model) {
            found = true;
            EXPECT_EQ(row[3], *core::sha256File(model));
        }
    EXPECT_TRUE(found);
    // The folder's log files are listed under it, each hashed (64 hex digits).
    size_t hashed = 0;
    for (const auto& row : inputs->table.rows)
        if (row[3].size() == 64) ++hashed;
    EXPECT_GE(hashed, 4u);
}

TEST_F(ReportFixture, SummaryHasEveryFindingWithEvidenceAndAdvice)
{
    const ReportDocument doc = build(core::Lang::En);
    std::set<std::string> ids;
    bool anyAdvice = false;
    for (const Block& b : doc.section("summary")->blocks)
        for (const FindingItem& f : b.findings) {
            ids.insert(f.id);
            anyAdvice = anyAdvice || !f.advice.empty();
        }
    for (const core::Finding& f : s_analysis->findings) EXPECT_TRUE(ids.count(f.id)) << f.id;
    EXPECT_TRUE(anyAdvice);
}

TEST(ReportStrength, FindingsCarryTheirStrengthAndTheAppendixWhatWasNotChecked)
{
    // the demo: the quantized model at chance is an error past its threshold; one QAT run per
    // batch size elsewhere, so nothing is skipped there; a QAT-only folder skips what needs float
    const std::string demo = sourceDir("resources/demo");
    const core::Analysis a = analyzeOrDie({demo + "/logs"});
    ReportOptions o;
    o.hashInputs = false;
    const auto doc = buildReport(a, o);
    ASSERT_TRUE(doc);
    const FindingItem* gap = nullptr;
    for (const Block& b : doc->section("summary")->blocks)
        for (const FindingItem& f : b.findings)
            if (f.id == "qat.quantized_gap") gap = &f;
    ASSERT_NE(gap, nullptr);
    EXPECT_EQ(gap->severity, "error");
    EXPECT_EQ(gap->strength, "accuracy drop relative to QAT 72.9% (threshold 10.0%, 62.9% above it)");

    const core::Analysis qatOnly = analyzeOrDie({testData("logs/wild/hat_crashed")});
    ASSERT_FALSE(qatOnly.checksSkipped.empty());
    const auto appendix = buildReport(qatOnly, o);
    ASSERT_TRUE(appendix);
    std::set<std::string> listed;
    for (const Block& b : appendix->section("appendix")->blocks)
        for (const auto& row : b.table.rows)
            if (row.size() == 2 && row[1].starts_with("not checked: needs")) listed.insert(row[0]);
    for (const core::Analysis::SkippedCheck& k : qatOnly.checksSkipped)
        EXPECT_TRUE(listed.count(k.id)) << k.id;
}

// The events table lists at most 40 rows and says how many there were; with fewer it says
// nothing (it used to read the count from the moved-from table: "Only the first 40 of 2").
TEST(ReportEvents, TheNoteCountsWhatWasListedAndOnlyWhenSomethingWasLeftOut)
{
    auto notesWith = [](size_t events) {
        core::Analysis a;
        core::logs::Run run;
        run.name = "qat";
        run.files.push_back({"qat/train.log", "text", 100});
        for (size_t i = 0; i < events; ++i)
            run.events.push_back({core::logs::RunEvent::Kind::Warning, "UserWarning: " + std::to_string(i), 0,
                                  static_cast<int64_t>(i + 1)});
        a.logs.runs.push_back(run);
        ReportOptions o;
        o.hashInputs = false;
        auto doc = buildReport(a, o);
        EXPECT_TRUE(doc);
        std::vector<std::string> notes;
        for (const Block& b : doc->section("training")->blocks)
            if (b.kind == BlockKind::Note && b.text.find("events are listed") != std::string::npos)
                notes.push_back(b.text);
        return notes;
    };
    EXPECT_TRUE(notesWith(2).empty());
    EXPECT_EQ(notesWith(45), std::vector<std::string>{"Only the first 40 of 45 events are listed."});
}

TEST_F(ReportFixture, TrainingPlotsKeepAndMarkNonFiniteValues)
{
    const ReportDocument doc = build(core::Lang::En);
    size_t plots = 0, marked = 0;
    for (const Block& b : doc.section("training")->blocks) {
        if (b.kind != BlockKind::Plot) continue;
        ++plots;
        for (const PlotSeries& s : b.plot.series) {
            for (size_t i : s.nonFinite) EXPECT_FALSE(std::isfinite(s.y[i]));
            marked += s.nonFinite.size();
        }
    }
    EXPECT_GE(plots, 1u);
    EXPECT_GT(marked, 0u) << "nan_loss has NaN losses; they must stay in the data, marked";
    const std::string svg = renderSvgPlot(doc.section("training")->blocks[1].plot);
    EXPECT_NE(svg.find("<polyline"), std::string::npos);
}

// The report's training charts follow the app: one colour per run (the app's palette), a log
// axis for a loss that explodes over decades, far outliers left off the scale and counted.
TEST(ReportCharts, ScaledAndColouredAsInTheApp)
{
    const core::Analysis a = analyzeOrDie({testData("runs/divergence")});
    ReportOptions o;
    o.hashInputs = false;
    auto doc = buildReport(a, o);
    ASSERT_TRUE(doc);
    const std::vector<std::string> colors = core::logs::runColors(a.logs.runs);
    const PlotBlock* loss = nullptr;
    for (const Block& b : doc->section("training")->blocks)
        if (b.kind == BlockKind::Plot && b.plot.title == "loss") loss = &b.plot;
    ASSERT_NE(loss, nullptr);
    EXPECT_TRUE(loss->autoScaleY);
    EXPECT_TRUE(plotYScale(*loss).log);
    for (const PlotSeries& s : loss->series)
        for (size_t r = 0; r < a.logs.runs.size(); ++r)
            if (a.logs.runs[r].name == s.name) EXPECT_EQ(s.color, colors[r]) << s.name;
    EXPECT_NE(renderSvgPlot(*loss).find(">1e+06<"), std::string::npos) << "decade ticks";

    // the Chinese report's evidence reads in Chinese, figures and names as they are
    o.lang = core::Lang::Zh;
    auto zh = buildReport(a, o);
    ASSERT_TRUE(zh);
    std::string evidence;
    for (const Section& section : zh->sections)
        for (const Block& b : section.blocks)
            if (b.kind == BlockKind::Findings)
                for (const FindingItem& f : b.findings)
                    for (const std::string& e : f.evidence) evidence += e + "\n";
    EXPECT_NE(evidence.find("第一个超过早期水平"), std::string::npos) << evidence;
    EXPECT_EQ(evidence.find("first point above"), std::string::npos) << evidence;

    PlotBlock spike;
    spike.autoScaleY = true;
    spike.offScaleLabel = "%1 point(s) off the scale";
    spike.series.push_back(
        {"qat", "qat", "", {1, 2, 3, 4, 5, 6, 7, 8}, {0.5, 0.48, 0.47, 40, 0.45, 0.44, 0.44, 0.43}, {}});
    const core::YScale scale = plotYScale(spike);
    EXPECT_FALSE(scale.log);
    EXPECT_EQ(scale.above, 1u);
    EXPECT_NE(renderSvgPlot(spike).find("1 point(s) off the scale"), std::string::npos);
}

TEST_F(ReportFixture, ModelTableHasEveryLayerAndHighlightsFlaggedOnes)
{
    const ReportDocument doc = build(core::Lang::En);
    const Block* layers = nullptr;
    for (const Block& b : doc.section("model")->blocks)
        if (b.kind == BlockKind::Table && !layers) layers = &b;
    ASSERT_NE(layers, nullptr);
    const auto& model = *s_analysis->primaryModel();
    ASSERT_EQ(layers->table.rows.size(), model.layers.size());
    std::set<std::string> flagged;
    for (const core::Finding& f : s_analysis->findings)
        if (f.severity != core::Severity::Info)
            for (const core::Evidence& e : f.evidence)
                if (!e.layer.empty()) flagged.insert(e.layer);
    for (size_t i = 0; i < model.layers.size(); ++i) {
        EXPECT_EQ(layers->table.rows[i][1], model.layers[i].name);
        EXPECT_EQ(layers->table.highlighted[i], flagged.count(model.layers[i].name) > 0)
            << model.layers[i].name;
    }
}

TEST_F(ReportFixture, HtmlParsesAndShowsIdsAndLayersInBothLanguages)
{
    for (core::Lang lang : {core::Lang::En, core::Lang::Zh}) {
        const std::string path = m_dir + "/report_" + core::langCode(lang) + ".html";
        ASSERT_TRUE(core::writeFileAtomic(path, renderHtml(build(lang)), false));
        std::string args;
        for (const core::Finding& f : s_analysis->findings) args += " " + shellQuote(f.id);
        for (const auto& l : s_analysis->primaryModel()->layers) args += " " + shellQuote(l.name);
        args += " " + shellQuote(lang == core::Lang::Zh ? "训练曲线" : "Training");
        const CommandResult r =
            run("python3 " + shellQuote(std::string(QATDOCTOR_REPORT_TEST_DIR) + "/check_html.py") + " " +
                shellQuote(path) + args + " 2>&1");
        EXPECT_EQ(r.exitCode, 0) << r.output;
    }
}

TEST_F(ReportFixture, WizardWalkIsPrinted)
{
    const core::faq::FaqBase& base = s_faq->base;
    ASSERT_FALSE(base.topics().empty());
    core::faq::WizardSession session(&base);
    const core::faq::Topic& topic = base.topics().front();
    ASSERT_TRUE(session.start(topic.id));
    const core::faq::Node* q = session.current();
    ASSERT_TRUE(q && !q->isResult() && !q->answers.empty());
    ASSERT_TRUE(session.answer(q->answers.front().id));
    const nlohmann::json state = {{"version", 1}, {"session", core::faq::sessionToJson(session, base)}};
    const ReportDocument doc = build(core::Lang::En, state.dump());
    const Section* wizard = doc.section("wizard");
    ASSERT_NE(wizard, nullptr);
    const Block* path = nullptr;
    for (const Block& b : wizard->blocks)
        if (b.kind == BlockKind::Table) path = &b;
    ASSERT_NE(path, nullptr);
    ASSERT_EQ(path->table.rows.size(), 1u);
    EXPECT_EQ(path->table.rows[0][1], q->text.en);
    EXPECT_EQ(path->table.rows[0][2], q->answers.front().label.en);
    // The wizard page's state (with its report items): a walk only on screen, never added with
    // "Add to report", is not the user's report.
    nlohmann::json pageState = state;
    pageState["reportItems"] = nlohmann::json::array();
    const ReportDocument onScreenDoc = build(core::Lang::En, pageState.dump());
    const Section* onScreen = onScreenDoc.section("wizard");
    ASSERT_NE(onScreen, nullptr);
    for (const Block& b : onScreen->blocks) EXPECT_NE(b.kind, BlockKind::Table);
    ASSERT_FALSE(onScreen->blocks.empty());
    EXPECT_EQ(onScreen->blocks.front().text, "The symptom wizard was not used for this report.");
    // A broken state is a note, never an exception.
    const ReportDocument bad = build(core::Lang::En, R"({"session": {"path": [{"automatic": "yes"}]}})");
    EXPECT_EQ(bad.section("wizard")->blocks.front().kind, BlockKind::Note);
}

TEST_F(ReportFixture, ExistingFileIsNotReplacedWithoutOverwrite)
{
    const std::string path = m_dir + "/r.html";
    ASSERT_TRUE(core::writeFileAtomic(path, "keep me", false));
    WriteOptions o;
    o.report.faq = &s_faq->base;
    auto r = writeReport(*s_analysis, path, o);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "io.exists");
    EXPECT_NE(r.error().message.find(path), std::string::npos);
    EXPECT_EQ(*core::readFile(path), "keep me");
    o.overwrite = true;
    ASSERT_TRUE(writeReport(*s_analysis, path, o));
    EXPECT_NE(core::readFile(path)->find("<!DOCTYPE html>"), std::string::npos);
}

TEST_F(ReportFixture, UnwritableOrUnknownTargetsAreClearErrors)
{
    WriteOptions o;
    auto missing = writeReport(*s_analysis, "/nonexistent-folder/sub/r.html", o);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, "io.write");
    EXPECT_NE(missing.error().message.find("/nonexistent-folder/sub/r.html"), std::string::npos);
    auto folder = writeReport(*s_analysis, m_dir, o);  // a folder, even with overwrite
    ASSERT_FALSE(folder);
    auto ext = writeReport(*s_analysis, m_dir + "/r.docx", o);
    ASSERT_FALSE(ext);
    EXPECT_EQ(ext.error().code, "report.format");
    auto pdf = writeReport(*s_analysis, m_dir + "/r.pdf", o);  // no renderer installed
    ASSERT_FALSE(pdf);
    EXPECT_EQ(pdf.error().code, "report.no_pdf");
    EXPECT_FALSE(std::filesystem::exists(m_dir + "/r.pdf"));
}

TEST_F(ReportFixture, JsonIsTheAnalyzeJson)
{
    const std::string path = m_dir + "/r.json";
    ASSERT_TRUE(writeReport(*s_analysis, path, {}));
    const auto j = nlohmann::json::parse(*core::readFile(path));
    EXPECT_EQ(j["findings"].size(), s_analysis->findings.size());
}

TEST_F(ReportFixture, CancelStopsBuilding)
{
    ReportOptions o;
    auto doc = buildReport(*s_analysis, o, [](double, std::string_view) { return false; });
    ASSERT_FALSE(doc);
    EXPECT_EQ(doc.error().code, core::kCancelledCode);
}

}  // namespace
}  // namespace qatdoctor
