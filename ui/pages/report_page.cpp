#include "ui/pages/report_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include "core/faq/faq_base.h"
#include "core/report/report_builder.h"
#include "core/report/report_writer.h"
#include "ui/common/background_job.h"
#include "ui/report/pdf_renderer.h"

namespace qatdoctor::ui {
namespace {

namespace report = core::report;

constexpr double kPreviewScale = 0.75;

struct PreviewResult {
    std::vector<QImage> images;
    QString error;
};

}  // namespace

ReportPage::ReportPage(AppContext* context, QWidget* parent) : Page(context, parent)
{
    buildUi();
    restoreState();
    m_previewJob = new BackgroundJob(this);
    m_exportJob = new BackgroundJob(this);
    context->announceJob(m_previewJob);
    context->announceJob(m_exportJob);
    connect(m_exportJob, &BackgroundJob::cancelled, this, [this] { m_export->setEnabled(true); });
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(400);
    connect(m_previewTimer, &QTimer::timeout, this, &ReportPage::refreshPreview);
    connect(context, &AppContext::analysisChanged, this, &ReportPage::schedulePreview);
    connect(context, &AppContext::langChanged, this,
            [this](core::Lang lang) { m_lang->setCurrentIndex(lang == core::Lang::Zh ? 0 : 1); });
    connect(context, &AppContext::comparisonChanged, this, [this] { schedulePreview(); });
    connect(context, &AppContext::pageStateChanged, this, [this](const QString& pageId) {
        if (pageId == "wizard") schedulePreview();
        if (pageId == id() && !m_restoring) restoreState();
    });
    schedulePreview();
}

void ReportPage::buildUi()
{
    auto* controls = new QGroupBox(tr("Contents"));
    auto* form = new QVBoxLayout(controls);
    for (const std::string& sid : report::allSectionIds()) {
        auto* box = new QCheckBox(QString::fromStdString(report::sectionTitle(sid, context()->lang())));
        box->setChecked(true);
        m_sections.insert(QString::fromStdString(sid), box);
        form->addWidget(box);
        if (sid == "changes") {
            // only a comparison fills it (File ▸ Compare with…)
            const auto sync = [box](const ComparisonPtr& c) {
                box->setEnabled(c != nullptr);
                box->setToolTip(c ? QString()
                                  : tr("Compare with another attempt (File ▸ Compare with…) to fill it"));
            };
            sync(context()->comparison());
            connect(context(), &AppContext::comparisonChanged, box, sync);
        }
        connect(box, &QCheckBox::toggled, this, [this] {
            saveState();
            schedulePreview();
        });
    }
    auto* options = new QFormLayout;
    m_lang = new QComboBox;
    m_lang->addItem(QStringLiteral("中文"), "zh");
    m_lang->addItem(QStringLiteral("English"), "en");
    m_lang->setCurrentIndex(context()->lang() == core::Lang::Zh ? 0 : 1);
    m_paper = new QComboBox;
    m_paper->addItem("A4", "a4");
    m_paper->addItem("Letter", "letter");
    options->addRow(tr("Language"), m_lang);
    options->addRow(tr("Paper"), m_paper);
    form->addLayout(options);
    for (QComboBox* combo : {m_lang, m_paper})
        connect(combo, &QComboBox::currentIndexChanged, this, [this] {
            saveState();
            schedulePreview();
        });
    m_export = new QPushButton(tr("Export…"));
    connect(m_export, &QPushButton::clicked, this, &ReportPage::exportReport);
    form->addWidget(m_export);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    form->addWidget(m_status);
    // After an export: open the file in the desktop's viewer, or its folder.
    m_openExported = new QPushButton(tr("Open the report"));
    m_openExported->setVisible(false);
    connect(m_openExported, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_lastExported)); });
    m_showFolder = new QPushButton(tr("Show in folder"));
    m_showFolder->setVisible(false);
    connect(m_showFolder, &QPushButton::clicked, this, [this] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(m_lastExported).absolutePath()));
    });
    form->addWidget(m_openExported);
    form->addWidget(m_showFolder);
    form->addStretch(1);

    auto* pages = new QWidget;
    pages->setStyleSheet("background: #808080;");
    m_pagesLayout = new QVBoxLayout(pages);
    m_pagesLayout->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_pagesLayout->setSpacing(12);
    auto* scroll = new QScrollArea;
    scroll->setWidget(pages);
    scroll->setWidgetResizable(true);

    auto* layout = new QHBoxLayout(this);
    controls->setMaximumWidth(260);
    layout->addWidget(controls);
    layout->addWidget(scroll, 1);
}

void ReportPage::saveState()
{
    if (m_restoring) return;
    QJsonArray sections;
    for (auto it = m_sections.cbegin(); it != m_sections.cend(); ++it)
        if (it.value()->isChecked()) sections.append(it.key());
    m_restoring = true;  // our own write must not come back as a restore
    context()->setPageState(id(), QJsonObject{{"version", 1},
                                              {"sections", sections},
                                              {"lang", m_lang->currentData().toString()},
                                              {"paper", m_paper->currentData().toString()}});
    m_restoring = false;
}

void ReportPage::restoreState()
{
    const QJsonObject state = context()->pageState(id());
    if (state.isEmpty()) return;
    m_restoring = true;
    if (state.contains("sections")) {
        const QJsonArray on = state.value("sections").toArray();
        for (auto it = m_sections.begin(); it != m_sections.end(); ++it)
            it.value()->setChecked(on.contains(it.key()));
    }
    if (state.contains("lang")) m_lang->setCurrentIndex(state.value("lang").toString() == "zh" ? 0 : 1);
    if (state.contains("paper"))
        m_paper->setCurrentIndex(state.value("paper").toString() == "letter" ? 1 : 0);
    m_restoring = false;
}

void ReportPage::schedulePreview()
{
    m_previewTimer->start();
}

// Options as plain values, so the background work touches no widget.
static report::ReportOptions optionsFrom(const QMap<QString, QCheckBox*>& sections, const QComboBox* lang,
                                         const QComboBox* paper, const QJsonObject& wizardState)
{
    report::ReportOptions o;
    o.lang = core::parseLang(lang->currentData().toString().toStdString());
    o.paper = paper->currentData().toString() == "letter" ? report::Paper::Letter : report::Paper::A4;
    for (auto it = sections.cbegin(); it != sections.cend(); ++it)
        if (it.value()->isChecked()) o.sections.insert(it.key().toStdString());
    if (o.sections.empty()) o.sections.insert("title");  // empty would mean "all"
    if (!wizardState.isEmpty())
        o.wizardJson = QJsonDocument(wizardState).toJson(QJsonDocument::Compact).toStdString();
    return o;
}

void ReportPage::refreshPreview()
{
    AnalysisPtr analysis = context()->analysis();
    if (!analysis) {
        showPreview({}, tr("Open logs or a model to build a report."));
        return;
    }
    report::ReportOptions options = optionsFrom(m_sections, m_lang, m_paper, context()->pageState("wizard"));
    options.hashInputs = false;  // the preview must be quick; the export hashes
    const std::string faqDir = context()->faqDir().toStdString();
    const ComparisonPtr comparison = context()->comparison();  // kept alive by the work's copy
    m_previewJob->start<PreviewResult>(
        tr("Report preview"),
        [analysis, options, faqDir, comparison](const core::ProgressFn& progress) mutable {
            const core::faq::FaqLoad faq = core::faq::FaqBase::loadDirectory(faqDir);
            options.faq = faq.base.empty() ? nullptr : &faq.base;
            options.comparison = comparison ? &comparison->comparison : nullptr;
            auto doc = report::buildReport(*analysis, options, progress);
            if (!doc) return PreviewResult{{}, QString::fromStdString(doc.error().toString())};
            auto images = renderPreview(*doc, kPreviewScale, progress);
            if (!images) return PreviewResult{{}, QString::fromStdString(images.error().toString())};
            return PreviewResult{std::move(images).value(), {}};
        },
        [this](PreviewResult r) { showPreview(std::move(r.images), r.error); });
}

void ReportPage::showPreview(std::vector<QImage> images, const QString& error)
{
    while (QLayoutItem* item = m_pagesLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_previewImages = std::move(images);
    for (const QImage& image : m_previewImages) {
        auto* label = new QLabel;
        label->setPixmap(QPixmap::fromImage(image));
        label->setStyleSheet("background: white;");
        m_pagesLayout->addWidget(label);
    }
    if (!error.isEmpty())
        m_status->setText(error);
    else
        m_status->setText(tr("%n page(s)", nullptr, static_cast<int>(m_previewImages.size())));
    emit previewReady(static_cast<int>(m_previewImages.size()));
}

void ReportPage::exportReport()
{
    if (!context()->analysis()) {
        QMessageBox::information(this, tr("Export report"), tr("Open logs or a model first."));
        return;
    }
    QFileDialog dialog(this, tr("Export report"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilters({tr("PDF (*.pdf)"), tr("HTML (*.html)"), tr("JSON (*.json)")});
    dialog.setDefaultSuffix("pdf");
    // Confirmation is ours (below), so it also covers the suffix the dialog appends.
    dialog.setOption(QFileDialog::DontConfirmOverwrite);
    connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString& filter) {
        dialog.setDefaultSuffix(filter.contains("html") ? "html" : filter.contains("json") ? "json" : "pdf");
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return;
    const QString path = dialog.selectedFiles().front();
    bool overwrite = false;
    if (QFileInfo::exists(path)) {
        const auto answer =
            QMessageBox::question(this, tr("Export report"), tr("%1 already exists. Replace it?").arg(path),
                                  QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) return;
        overwrite = true;
    }
    exportTo(path, overwrite);
}

void ReportPage::exportTo(const QString& path, bool overwrite)
{
    AnalysisPtr analysis = context()->analysis();
    if (!analysis) {
        emit exportFinished(path, tr("No analysis loaded"));
        return;
    }
    report::WriteOptions options;
    options.report = optionsFrom(m_sections, m_lang, m_paper, context()->pageState("wizard"));
    options.overwrite = overwrite;
    options.pdf = [](const report::ReportDocument& doc, const core::ProgressFn& progress) {
        return renderPdf(doc, progress);
    };
    const std::string faqDir = context()->faqDir().toStdString();
    const std::string target = path.toStdString();
    const ComparisonPtr comparison = context()->comparison();
    m_export->setEnabled(false);
    m_status->setText(tr("Writing %1…").arg(path));
    m_exportJob->start<QString>(
        tr("Exporting report"),
        [analysis, options, faqDir, target, comparison](const core::ProgressFn& progress) mutable {
            const core::faq::FaqLoad faq = core::faq::FaqBase::loadDirectory(faqDir);
            options.report.faq = faq.base.empty() ? nullptr : &faq.base;
            options.report.comparison = comparison ? &comparison->comparison : nullptr;
            core::Result<void> ok = report::writeReport(*analysis, target, options, progress);
            return ok ? QString() : QString::fromStdString(ok.error().message);
        },
        [this, path](QString error) {
            m_export->setEnabled(true);
            m_status->setText(error.isEmpty() ? tr("Report written to %1").arg(path) : error);
            m_lastExported = error.isEmpty() ? path : QString();
            m_openExported->setVisible(error.isEmpty());
            m_showFolder->setVisible(error.isEmpty());
            emit exportFinished(path, error);
        });
}

}  // namespace qatdoctor::ui
