#include "ui/pages/fixedpoint/colour_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

#include "core/model/onnx_file.h"
#include "ui/common/app_context.h"
#include "ui/common/background_job.h"
#include "ui/common/number_strings.h"
#include "ui/pages/fixedpoint/image_input.h"

namespace qatdoctor::ui {

namespace fp = core::fixedpoint;

namespace {

struct ColourOutcome {
    std::shared_ptr<const fp::ColourComparison> result;
    QString error;
};

QStandardItem* dbItem(double v, bool bad)
{
    auto* it = new QStandardItem(fixedString(v, 1));
    it->setData(std::isfinite(v) ? v : 1e9, Qt::UserRole);
    it->setEditable(false);
    if (bad) it->setForeground(QColor(200, 0, 0));
    return it;
}

void addForms(QComboBox* box, fp::ColourFormat selected)
{
    for (fp::ColourFormat f :
         {fp::ColourFormat::Rgb, fp::ColourFormat::Bgr, fp::ColourFormat::Yuv444Centered})
        box->addItem(f == fp::ColourFormat::Yuv444Centered ? QObject::tr("YUV444 (centered)")
                                                           : QString(fp::colourFormatName(f)).toUpper(),
                     int(f));
    box->setCurrentIndex(box->findData(int(selected)));
}

}  // namespace

FixedpointColourPanel::FixedpointColourPanel(
    AppContext* context, std::function<std::shared_ptr<const core::model::ModelGraph>()> model,
    std::function<int()> threads, QWidget* parent)
    : QWidget(parent),
      m_model(std::move(model)),
      m_threads(std::move(threads)),
      m_trained(new QComboBox(this)),
      m_fed(new QComboBox(this)),
      m_mode(new QComboBox(this)),
      m_scale(new QDoubleSpinBox(this)),
      m_run(new QPushButton(tr("Compare"), this)),
      m_summary(new QLabel(this)),
      m_table(new QTableView(this)),
      m_rows(new QStandardItemModel(this)),
      m_job(new BackgroundJob(this))
{
    addForms(m_trained, fp::ColourFormat::Rgb);
    addForms(m_fed, fp::ColourFormat::Yuv444Centered);
    m_mode->addItem(tr("integer (deployed)"), int(fp::SimMode::Int));
    m_mode->addItem(tr("fake-quant (QAT)"), int(fp::SimMode::Fake));
    m_scale->setDecimals(7);  // 1/128 = 0.0078125 exactly
    m_scale->setRange(1e-6, 1000.0);
    m_scale->setValue(1.0 / 128.0);
    m_scale->setToolTip(
        tr("Pixels (0..255, or -128..127 for centered YUV) are multiplied by this before the model, "
           "as the training normalization did; 1/128 is horizon's convention for centered YUV444."));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setModel(m_rows);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_rows->setSortRole(Qt::UserRole);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Model trained on"), this));
    controls->addWidget(m_trained);
    controls->addWidget(new QLabel(tr("fed"), this));
    controls->addWidget(m_fed);
    controls->addWidget(m_mode);
    controls->addWidget(new QLabel(tr("pixel scale"), this));
    controls->addWidget(m_scale);
    controls->addWidget(m_run);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    context->announceJob(m_job);
    connect(m_run, &QPushButton::clicked, this, [this] { compare(); });
    connect(m_job, &BackgroundJob::cancelled, this, [this] { updateEnabled(); });
    setImage({});
}

void FixedpointColourPanel::setImage(const QString& path)
{
    m_image = isImageFile(path) ? path : QString();
    updateEnabled();
    if (!m_result)
        m_summary->setText(
            m_image.isEmpty()
                ? tr("Pick an image as the input (Input file...) to see what feeding it in the wrong "
                     "colour form does: the board takes centered YUV444, a model trained on RGB (or "
                     "the reverse) is wrong from its first layer on.")
                : tr("Image %1: press Compare.").arg(m_image));
}

void FixedpointColourPanel::updateEnabled()
{
    m_run->setEnabled(!m_image.isEmpty() && m_model() != nullptr);
}

bool FixedpointColourPanel::compare()
{
    const std::shared_ptr<const core::model::ModelGraph> graph = m_model();
    if (!graph || m_image.isEmpty()) return false;
    const QString model = QString::fromStdString(graph->model().path);
    fp::ColourCompareOptions opt;
    opt.trained = fp::ColourFormat(m_trained->currentData().toInt());
    opt.fed = fp::ColourFormat(m_fed->currentData().toInt());
    opt.mode = fp::SimMode(m_mode->currentData().toInt());
    opt.pixelScale = float(m_scale->value());
    opt.threads = m_threads ? m_threads() : 1;
    const QString image = m_image;
    m_run->setEnabled(false);
    m_job->start<std::shared_ptr<ColourOutcome>>(
        tr("Comparing colour forms on %1").arg(model),
        [graph, image, opt](const core::ProgressFn& progress) {
            auto out = std::make_shared<ColourOutcome>();
            auto interp = fp::interpreterFor(graph, nullptr);
            if (!interp) {
                out->error = QString::fromStdString(interp.error().toString());
                return out;
            }
            fp::ImageRequest request;
            request.path = image.toStdString();
            request.decode = decodeImage;
            auto img = fp::imageForModel(**interp, request);
            if (!img) {
                out->error = QString::fromStdString(img.error().toString());
                return out;
            }
            auto c =
                fp::compareColourForms(**interp, img->rgb.data(), img->height, img->width, opt, progress);
            if (!c) {
                out->error = QString::fromStdString(c.error().toString());
                return out;
            }
            out->result = std::make_shared<fp::ColourComparison>(std::move(*c));
            return out;
        },
        [this](std::shared_ptr<ColourOutcome> o) {
            updateEnabled();
            if (!o->result) {
                m_summary->setText(tr("Colour comparison failed: %1").arg(o->error));
                emit comparisonFinished(false);
                return;
            }
            m_result = o->result;
            show(*m_result);
            emit comparisonFinished(true);
        });
    return true;
}

void FixedpointColourPanel::show(const fp::ColourComparison& c)
{
    const QString trained = m_trained->itemText(m_trained->findData(int(c.options.trained)));
    const QString fed = m_fed->itemText(m_fed->findData(int(c.options.fed)));
    m_rows->clear();
    m_rows->setHorizontalHeaderLabels({tr("Layer"), tr("Op"), tr("Quantization only: SQNR (dB)"),
                                       tr("%1 fed as %2: SQNR (dB)").arg(trained, fed),
                                       tr("cosine (%1)").arg(fed), tr("max error (%1, LSB)").arg(fed)});
    for (const auto& row : c.layers) {
        const bool broken = fp::agreementBroken(row.mismatch, c.options.thresholds);
        auto* name = new QStandardItem(QString::fromStdString(row.layer));
        name->setData(name->text(), Qt::UserRole);
        name->setEditable(false);
        if (row.layer == c.firstBadLayer) name->setForeground(QColor(200, 0, 0));
        auto* op = new QStandardItem(QString::fromStdString(row.op));
        op->setData(op->text(), Qt::UserRole);
        op->setEditable(false);
        auto* cosine = dbItem(row.mismatch.cosine, broken);
        cosine->setText(QString::number(row.mismatch.cosine, 'f', 4));
        auto* lsb = dbItem(row.mismatch.maxErrLsb, false);
        m_rows->appendRow({name, op, dbItem(row.quantization.sqnrDb, false),
                           dbItem(row.mismatch.sqnrDb, broken), cosine, lsb});
    }
    m_table->resizeColumnsToContents();
    QString text = tr("<b>Model trained on %1, fed %2</b> (%3 mode).")
                       .arg(trained, fed, fp::simModeName(c.options.mode));
    if (!c.outputMismatch.empty()) {
        const double mis = c.outputMismatch[0].sqnrDb, q = c.outputQuantization[0].sqnrDb;
        text +=
            " " + tr("Output SQNR: %1 dB with the wrong colour form against %2 dB from quantization alone.")
                      .arg(std::isfinite(mis) ? QString::number(mis, 'f', 1) : QStringLiteral("inf"))
                      .arg(std::isfinite(q) ? QString::number(q, 'f', 1) : QStringLiteral("inf"));
    }
    text +=
        "<br>" +
        (c.firstBadLayer.empty()
             ? tr("The two forms agree on every layer.")
             : tr("First layer where they part: <b>%1</b>.").arg(QString::fromStdString(c.firstBadLayer)));
    if (c.top1Trained && c.top1Fed)
        text += " " + (*c.top1Trained == *c.top1Fed
                           ? tr("Top-1 class unchanged (%1).").arg(*c.top1Trained)
                           : tr("Top-1 class changes: %1 -> %2.").arg(*c.top1Trained).arg(*c.top1Fed));
    m_summary->setText(text);
}

}  // namespace qatdoctor::ui
