#include "ui/pages/fixedpoint/dataset_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/analysis_simulation.h"
#include "core/common/file_io.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/fixedpoint/dataset_eval_json.h"
#include "core/fixedpoint/dataset_eval_table.h"
#include "ui/common/app_context.h"
#include "ui/common/background_job.h"
#include "ui/pages/fixedpoint/image_input.h"

namespace qatdoctor::ui {

namespace fp = core::fixedpoint;

namespace {

struct DatasetOutcome {
    std::shared_ptr<const fp::DatasetEvaluation> result;
    QString error;
};

QString shown(const QString& path, const QString& none)
{
    return path.isEmpty() ? none : QFileInfo(path).fileName();
}

}  // namespace

FixedpointDatasetPanel::FixedpointDatasetPanel(
    AppContext* context, std::function<std::shared_ptr<const core::model::ModelGraph>()> model,
    std::function<int()> threads, QWidget* parent)
    : QWidget(parent),
      m_context(context),
      m_model(std::move(model)),
      m_threads(std::move(threads)),
      m_datasetLabel(new QLabel(this)),
      m_labelsLabel(new QLabel(this)),
      m_modes(new QComboBox(this)),
      m_run(new QPushButton(tr("Evaluate"), this)),
      m_save(new QPushButton(tr("Save result..."), this)),
      m_summary(new QLabel(this)),
      m_table(new QTableView(this)),
      m_rows(new QStandardItemModel(this)),
      m_job(new BackgroundJob(this))
{
    m_modes->addItem(tr("float, fake-quant and integer"), 0);
    m_modes->addItem(tr("integer only (fastest)"), 1);
    m_modes->setToolTip(
        tr("Integer only gives the simulated deployment accuracy; all three modes also "
           "show where it is lost (quantization or the fixed-point arithmetic)."));
    auto* pickFile = new QPushButton(tr("Batch file..."), this);
    pickFile->setToolTip(tr("A .npy batch of the model's input (read a sample at a time) or a .pb file"));
    auto* pickFolder = new QPushButton(tr("Folder..."), this);
    pickFolder->setToolTip(tr("A folder of .npy / .pb samples, or of images in one folder per class"));
    auto* pickLabels = new QPushButton(tr("Labels..."), this);
    pickLabels->setToolTip(tr("A .npy of one integer class per sample, in sample order"));
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Dataset:"), this));
    row->addWidget(m_datasetLabel);
    row->addWidget(pickFile);
    row->addWidget(pickFolder);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Labels:"), this));
    row->addWidget(m_labelsLabel);
    row->addWidget(pickLabels);
    row->addStretch(1);
    row->addWidget(m_modes);
    row->addWidget(m_run);
    row->addWidget(m_save);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setModel(m_rows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);

    context->announceJob(m_job);
    connect(pickFile, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Dataset file"), {},
                                                       tr("Samples (*.npy *.pb);;All files (*)"));
        if (!f.isEmpty()) setDataset(f);
    });
    connect(pickFolder, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Dataset folder"));
        if (!d.isEmpty()) setDataset(d);
    });
    connect(pickLabels, &QPushButton::clicked, this, [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Labels"), {}, tr("Labels (*.npy);;All files (*)"));
        if (!f.isEmpty()) setLabels(f);
    });
    connect(m_run, &QPushButton::clicked, this, [this] { evaluate(); });
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(
            this, tr("Save evaluation result"), QStringLiteral("evaluation.json"), tr("JSON (*.json)"));
        if (!f.isEmpty()) saveResult(f);
    });
    connect(m_job, &BackgroundJob::cancelled, this, [this] { updateEnabled(); });
    connect(context, &AppContext::analysisChanged, this, [this] { updateEnabled(); });
    setDataset({});
    setLabels({});
}

void FixedpointDatasetPanel::setDataset(const QString& path)
{
    m_dataset = path;
    m_datasetLabel->setText(shown(path, tr("(none)")));
    m_datasetLabel->setToolTip(path);
    updateEnabled();
}

void FixedpointDatasetPanel::setLabels(const QString& path)
{
    m_labels = path;
    m_labelsLabel->setText(shown(path, tr("(none)")));
    m_labelsLabel->setToolTip(path);
}

void FixedpointDatasetPanel::updateEnabled()
{
    m_run->setEnabled(!m_dataset.isEmpty() && m_model() != nullptr && !m_job->running());
    m_save->setEnabled(m_result != nullptr);
}

bool FixedpointDatasetPanel::evaluate()
{
    const std::shared_ptr<const core::model::ModelGraph> graph = m_model();
    if (!graph || m_dataset.isEmpty()) return false;
    fp::DatasetSpec spec;
    spec.paths = {m_dataset.toStdString()};
    spec.labelsPath = m_labels.toStdString();
    spec.decode = decodeImage;
    fp::DatasetEvalOptions options;
    options.threads = m_threads();
    if (m_modes->currentData().toInt() == 1) options.modes = {fp::SimMode::Int};
    m_run->setEnabled(false);
    m_summary->setText(tr("Evaluating..."));
    m_job->start<std::shared_ptr<DatasetOutcome>>(
        tr("Evaluating on %1").arg(m_dataset),
        [graph, spec, options](const core::ProgressFn& progress) {
            auto out = std::make_shared<DatasetOutcome>();
            auto interp = fp::interpreterFor(graph, nullptr);
            auto data = interp ? fp::DatasetSource::open(**interp, spec)
                               : core::Result<fp::DatasetSource>(interp.error());
            auto e = data ? fp::evaluateDataset(**interp, *data, options, progress)
                          : core::Result<fp::DatasetEvaluation>(data.error());
            if (!e)
                out->error = QString::fromStdString(e.error().toString());
            else
                out->result = std::make_shared<const fp::DatasetEvaluation>(std::move(*e));
            return out;
        },
        [this](const std::shared_ptr<DatasetOutcome>& o) {
            m_result = o->result;
            updateEnabled();
            if (!o->result) {
                m_summary->setText(tr("Evaluation failed: %1").arg(o->error));
                emit evaluationFinished(false);
                return;
            }
            show(*o->result);
            // the result joins the analysis: the ladder's simulated rungs, the report, the JSON
            const AnalysisPtr current = m_context->analysis();
            if (current && core::simulatableModelPath(*current) == o->result->modelPath) {
                auto next = std::make_shared<core::Analysis>(*current);
                core::attachEvaluation(*next, *o->result);
                m_context->setAnalysis(std::move(next));
            }
            emit evaluationFinished(true);
        });
    return true;
}

void FixedpointDatasetPanel::show(const fp::DatasetEvaluation& e)
{
    const fp::EvaluationTable t = fp::evaluationTable(e, m_context->lang());
    m_rows->clear();
    QStringList headers;
    for (const std::string& c : t.columns) headers << QString::fromStdString(c);
    m_rows->setHorizontalHeaderLabels(headers);
    for (const auto& cells : t.rows) {
        QList<QStandardItem*> items;
        for (const std::string& c : cells) {
            auto* item = new QStandardItem(QString::fromStdString(c));
            item->setEditable(false);
            items << item;
        }
        m_rows->appendRow(items);
    }
    m_table->resizeColumnsToContents();
    QString text = QString::fromStdString(t.fakeVsInt).toHtmlEscaped();
    if (!e.worst.empty()) {
        text += QStringLiteral("<br>") + tr("Worst samples:").toHtmlEscaped();
        for (size_t k = 0; k < e.worst.size() && k < 5; ++k) {
            const fp::WorstSample& w = e.worst[k];
            QString line = QString::fromStdString(w.where) + QStringLiteral("  cosine ") +
                           QString::fromStdString(core::fixedText(w.cosine, 5));
            if (e.classification)
                line +=
                    tr("  label %1, fake-quant %2, integer %3").arg(w.label).arg(w.fakeClass).arg(w.intClass);
            text += QStringLiteral("<br>&nbsp;&nbsp;") + line.toHtmlEscaped();
        }
    }
    text += QStringLiteral("<br>") + tr("%1 samples in %2 s (%3 samples/s, %4 thread(s)).")
                                         .arg(e.samples)
                                         .arg(QString::fromStdString(core::fixedText(e.seconds, 2)))
                                         .arg(QString::fromStdString(core::fixedText(
                                             e.seconds > 0 ? double(e.samples) / e.seconds : 0.0, 0)))
                                         .arg(e.threads)
                                         .toHtmlEscaped();
    m_summary->setText(text);
}

bool FixedpointDatasetPanel::saveResult(const QString& path)
{
    if (!m_result) return false;
    auto w =
        core::writeFileAtomic(path.toStdString(), core::jsonText(fp::evaluationToJson(*m_result)) + "\n");
    if (!w) m_summary->setText(tr("Could not save: %1").arg(QString::fromStdString(w.error().toString())));
    return w.ok();
}

}  // namespace qatdoctor::ui
