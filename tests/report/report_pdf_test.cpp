// The PDF renderer on real fixture analyses, checked with poppler-utils: pdftotext finds the
// section titles, every finding id and every layer name (en and zh); pdfinfo gives a sane page
// count and the paper size; pdffonts shows the CJK font embedded; long tables repeat their header.
// Also the qatdoctor-cli executable writing a PDF with no display.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSignalSpy>
#include <QThreadPool>
#include <regex>

#include "core/analysis_simulation.h"
#include "core/faq/faq_base.h"
#include "core/report/report_builder.h"
#include "core/report/report_writer.h"
#include "report_test_support.h"
#include "ui/common/app_context.h"
#include "ui/pages/fixedpoint_page.h"
#include "ui/pages/report_page.h"
#include "ui/report/pdf_renderer.h"

namespace qatdoctor {
namespace {

using namespace core::report;
using namespace report_test;
namespace fp = core::fixedpoint;

class PdfReport : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_analysis =
            new core::Analysis(analyzeOrDie({sourceDir("resources/demo/logs"), testData("runs/nan_loss/qat"),
                                             testData("models/qat_qdq_highprec.onnx")}));
        fp::SimulationOptions simulation;
        simulation.sensitivity = true;
        if (auto ran = core::simulateAnalysisModel(*s_analysis, simulation, {}); !ran)
            throw std::runtime_error(ran.error().toString());
        s_faq = new core::faq::FaqLoad(core::faq::FaqBase::loadDirectory(sourceDir("faq")));
    }
    static void TearDownTestSuite()
    {
        delete s_analysis;
        delete s_faq;
    }
    void SetUp() override
    {
        m_dir = makeTempDir(std::string("qatdoctor-report-pdf-") +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    }
    // QATDOCTOR_REPORT_TEST_KEEP=1 keeps the PDFs for looking at them (pdftoppm).
    void TearDown() override
    {
        if (qEnvironmentVariableIsEmpty("QATDOCTOR_REPORT_TEST_KEEP")) std::filesystem::remove_all(m_dir);
    }

    std::string writePdf(const ReportDocument& doc, const std::string& name)
    {
        auto bytes = ui::renderPdf(doc);
        EXPECT_TRUE(bytes) << (bytes ? "" : bytes.error().toString());
        const std::string path = m_dir + "/" + name;
        EXPECT_TRUE(core::writeFileAtomic(path, bytes ? *bytes : std::string(), false));
        return path;
    }
    static ReportDocument build(core::Lang lang, Paper paper = Paper::A4)
    {
        ReportOptions o;
        o.lang = lang;
        o.paper = paper;
        o.faq = &s_faq->base;
        return *buildReport(*s_analysis, o);
    }
    static int pages(const std::string& pdf)
    {
        std::smatch m;
        const std::string info = run("pdfinfo " + shellQuote(pdf)).output;
        return std::regex_search(info, m, std::regex("Pages:\\s+(\\d+)")) ? std::stoi(m[1]) : -1;
    }

    static inline core::Analysis* s_analysis = nullptr;
    static inline core::faq::FaqLoad* s_faq = nullptr;
    std::string m_dir;
};

TEST_F(PdfReport, TextHasSectionsFindingIdsAndLayersInBothLanguages)
{
    ASSERT_FALSE(s_analysis->findings.empty());
    for (core::Lang lang : {core::Lang::En, core::Lang::Zh}) {
        const ReportDocument doc = build(lang);
        const std::string pdf = writePdf(doc, std::string("r_") + core::langCode(lang) + ".pdf");
        const std::string text = run("pdftotext -enc UTF-8 " + shellQuote(pdf) + " -").output;
        ASSERT_FALSE(text.empty());
        for (const Section& s : doc.sections)  // the title page shows the report title instead
            if (s.id != "title") EXPECT_TRUE(containsText(text, s.title)) << s.title;
        EXPECT_TRUE(containsText(text, doc.labels.contents));
        for (const core::Finding& f : s_analysis->findings) EXPECT_TRUE(containsText(text, f.id)) << f.id;
        for (const auto& l : s_analysis->primaryModel()->layers)
            EXPECT_TRUE(containsText(text, l.name)) << l.name;
        // The fixed-point section: its sub-headings, every simulated layer, the chart's legend.
        ASSERT_TRUE(s_analysis->simulation);
        const bool zh = lang == core::Lang::Zh;
        for (const char* t :
             zh ? std::vector<const char*>{"逐层一致性", "查找表", "假设分析", "伪量化 vs 整数"}
                : std::vector<const char*>{"Per-layer agreement", "Look-up tables", "What-if",
                                           "fake-quant vs integer", "int16 sensitivity"})
            EXPECT_TRUE(containsText(text, t)) << t;
        for (const auto& l : s_analysis->simulation->layers)
            EXPECT_TRUE(containsText(text, l.layer)) << l.layer;
        const int n = pages(pdf);
        EXPECT_GE(n, 8);
        EXPECT_LE(n, 60);
        const std::string fonts = run("pdffonts " + shellQuote(pdf)).output;
        EXPECT_TRUE(std::regex_search(fonts, std::regex("WenQuanYi\\S*\\s+CID TrueType\\s+\\S+\\s+yes")))
            << fonts;
    }
}

TEST_F(PdfReport, LetterPaperSize)
{
    const std::string pdf = writePdf(build(core::Lang::En, Paper::Letter), "letter.pdf");
    EXPECT_NE(run("pdfinfo " + shellQuote(pdf)).output.find("612 x 792 pts (letter)"), std::string::npos);
    const std::string a4 = writePdf(build(core::Lang::En), "a4.pdf");
    EXPECT_NE(run("pdfinfo " + shellQuote(a4)).output.find("(A4)"), std::string::npos);
}

TEST_F(PdfReport, LongTableSplitsAcrossPagesWithRepeatedHeaderAndNumberedContents)
{
    ReportDocument doc;
    doc.lang = "en";
    doc.title = "Long table";
    doc.labels = {"Contents", "Page {n} of {total}", "test"};
    Section s;
    s.id = "model";
    s.title = "Model";
    TableBlock t;
    t.columns = {"#", "LayerColumnHeader", "Output"};
    for (int i = 0; i < 240; ++i)
        t.rows.push_back({std::to_string(i), "backbone.stage" + std::to_string(i) + ".conv", "int8"});
    t.highlighted.assign(t.rows.size(), false);
    t.highlighted[100] = true;
    s.blocks.push_back(table(t));
    doc.sections.push_back(s);
    const std::string pdf = writePdf(doc, "long.pdf");
    const int n = pages(pdf);
    ASSERT_GE(n, 5);  // title, contents, >= 3 table pages
    int headerPages = 0;
    for (int p = 3; p <= n; ++p) {
        const std::string text = run("pdftotext -f " + std::to_string(p) + " -l " + std::to_string(p) + " " +
                                     shellQuote(pdf) + " -")
                                     .output;
        headerPages += containsText(text, "LayerColumnHeader");
        EXPECT_TRUE(containsText(text, "Page " + std::to_string(p) + " of " + std::to_string(n)));
    }
    EXPECT_EQ(headerPages, n - 2);
    const std::string all = run("pdftotext " + shellQuote(pdf) + " -").output;
    EXPECT_TRUE(containsText(all, "backbone.stage239.conv"));
    // Contents page names the section with its page number (3).
    const std::string contents = run("pdftotext -f 2 -l 2 " + shellQuote(pdf) + " -").output;
    EXPECT_TRUE(containsText(contents, "Model")) << contents;
    EXPECT_NE(contents.find("3"), std::string::npos);
}

TEST_F(PdfReport, PreviewImagesMatchPages)
{
    const ReportDocument doc = build(core::Lang::En);
    auto images = ui::renderPreview(doc, 0.5);
    ASSERT_TRUE(images);
    const std::string pdf = writePdf(doc, "preview.pdf");
    EXPECT_EQ(static_cast<int>(images->size()), pages(pdf));
    EXPECT_FALSE(images->front().isNull());
}

TEST_F(PdfReport, CliWritesPdfWithNoDisplayAndRefusesOverwrite)
{
    const std::string pdf = m_dir + "/cli.pdf";
    const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM " +
                            shellQuote(QATDOCTOR_CLI_EXE) + " analyze " +
                            shellQuote(sourceDir("resources/demo/logs")) + " " +
                            shellQuote(sourceDir("resources/demo/model/demo_qat.onnx")) +
                            " --lang zh --report " + shellQuote(pdf) + " --fail-on error";
    const CommandResult first = run(cmd + " 2>&1");
    EXPECT_NE(first.exitCode, 2) << first.output;
    ASSERT_TRUE(std::filesystem::exists(pdf)) << first.output;
    EXPECT_GE(pages(pdf), 5);
    const auto size = std::filesystem::file_size(pdf);
    const CommandResult again = run(cmd + " 2>&1");
    EXPECT_EQ(again.exitCode, 2);
    EXPECT_NE(again.output.find(pdf), std::string::npos) << again.output;
    EXPECT_EQ(std::filesystem::file_size(pdf), size);
    const CommandResult forced = run(cmd + " --force 2>&1");
    EXPECT_NE(forced.exitCode, 2) << forced.output;
}

// The Report page: preview pages appear, exports run in the background and keep an existing
// file unless told to overwrite.
TEST_F(PdfReport, ReportPagePreviewsAndExports)
{
    ui::AppContext context;
    context.setDataDir(QString::fromStdString(sourceDir("")));
    ui::ReportPage page(&context);
    QSignalSpy preview(&page, &ui::ReportPage::previewReady);
    context.setAnalysis(std::make_shared<const core::Analysis>(*s_analysis));
    ASSERT_TRUE(preview.wait(30000));
    EXPECT_GE(preview.last().at(0).toInt(), 8);

    QSignalSpy done(&page, &ui::ReportPage::exportFinished);
    const QString pdf = QString::fromStdString(m_dir + "/page.pdf");
    page.exportTo(pdf, false);
    ASSERT_TRUE(done.wait(30000));
    EXPECT_EQ(done.last().at(1).toString(), QString());
    EXPECT_GE(pages(pdf.toStdString()), 8);
    EXPECT_EQ(page.openableReport(), pdf) << "the \"Open the report\" button opens what was written";

    page.exportTo(pdf, false);
    ASSERT_TRUE(done.wait(30000));
    EXPECT_TRUE(done.last().at(1).toString().contains("already exists"))
        << done.last().at(1).toString().toStdString();
    EXPECT_EQ(page.openableReport(), QString()) << "nothing new to open after a failed export";

    const QString html = QString::fromStdString(m_dir + "/page.html");
    page.exportTo(html, true);
    ASSERT_TRUE(done.wait(30000));
    EXPECT_EQ(done.last().at(1).toString(), QString());
    EXPECT_NE(core::readFile(html.toStdString())->find("<svg"), std::string::npos);
}

// Quitting while an export runs: closing the window destroys the page and its job (cancelled),
// and the worker, which needs the GUI thread to draw the plots, must not wait for it forever: the
// GUI thread joins the thread pool here, as QApplication's destructor does when the app quits.
TEST_F(PdfReport, ClosingTheWindowDuringAnExportReturnsAndLeavesNoFile)
{
    ui::AppContext context;
    context.setDataDir(QString::fromStdString(sourceDir("")));
    auto* window = new QWidget;
    auto* page = new ui::ReportPage(&context, window);
    context.setAnalysis(std::make_shared<const core::Analysis>(*s_analysis));
    QSignalSpy done(page, &ui::ReportPage::exportFinished);
    const std::string pdf = m_dir + "/closed.pdf";
    page->exportTo(QString::fromStdString(pdf), false);
    window->show();
    window->close();
    delete window;
    // No event is processed between the start and the close, so the plots were never drawn: the
    // export cannot have finished before the window went away.
    EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(120000))
        << "the export worker hangs after the window closed";
    QCoreApplication::processEvents();  // the plot request left queued finds nobody waiting
    EXPECT_EQ(done.count(), 0);
    EXPECT_FALSE(std::filesystem::exists(pdf));
    EXPECT_TRUE(std::filesystem::is_empty(m_dir)) << "a partial or temporary file was left in " << m_dir;
}

// The Fixed-point page attaches each finished simulation to the shared analysis (what the report,
// the JSON and the wizard read), a what-if run with its int16 layers and the unchanged baseline.
TEST_F(PdfReport, FixedpointPagePutsItsSimulationInTheAnalysis)
{
    ui::AppContext context;
    context.setDataDir(QString::fromStdString(sourceDir("")));
    ui::FixedpointPage page(&context);
    context.setAnalysis(
        std::make_shared<const core::Analysis>(analyzeOrDie({testData("fixedpoint/lut_qdq.onnx")})));
    ASSERT_FALSE(context.analysis()->simulation);
    QSignalSpy finished(&page, &ui::FixedpointPage::simulationFinished);
    QSignalSpy changed(&context, &ui::AppContext::analysisChanged);
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(finished.wait(60000));
    ASSERT_TRUE(finished.last().at(0).toBool());
    EXPECT_EQ(changed.count(), 1);
    ui::AnalysisPtr a = context.analysis();
    ASSERT_TRUE(a->simulation);
    EXPECT_EQ(a->simulation->layers.size(), 4u);
    EXPECT_EQ(a->simulation->inputs, std::vector<std::string>{"random(seed=0)"});
    EXPECT_FALSE(a->simulation->whatIf());
    bool lutFinding = false;
    for (const core::Finding& f : a->findings) lutFinding = lutFinding || f.id == "simulation.lut_error";
    EXPECT_TRUE(lutFinding);

    page.setLayerTicked("sigmoid", true);
    ASSERT_TRUE(page.runSimulation());
    ASSERT_TRUE(finished.wait(60000));
    a = context.analysis();
    ASSERT_TRUE(a->simulation);
    EXPECT_EQ(a->simulation->int16Layers, std::set<std::string>{"sigmoid"});
    EXPECT_TRUE(a->simulation->layers[0].int16);
    ASSERT_TRUE(a->simulation->baselineOutputSqnrDb);

    ReportOptions o;
    o.hashInputs = false;
    const ReportDocument doc = *buildReport(*a, o);
    bool whatIf = false;
    for (const Block& b : doc.section("fixedpoint")->blocks)
        whatIf = whatIf ||
                 (b.kind == BlockKind::Paragraph && b.text.find("int16 for sigmoid") != std::string::npos);
    EXPECT_TRUE(whatIf);
}

}  // namespace
}  // namespace qatdoctor
