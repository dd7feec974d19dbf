#include "ui/pages/fixedpoint_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <cstring>

#include "core/analysis_simulation.h"
#include "core/fixedpoint/colour.h"
#include "core/fixedpoint/result_diff.h"
#include "core/fixedpoint/run_simulation.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/model/onnx_file.h"
#include "ui/common/background_job.h"
#include "ui/common/number_strings.h"
#include "ui/pages/fixedpoint/colour_panel.h"
#include "ui/pages/fixedpoint/dataset_panel.h"
#include "ui/pages/fixedpoint/image_input.h"
#include "ui/pages/fixedpoint/layer_table.h"
#include "ui/pages/fixedpoint/simulation_settings.h"
#include "ui/plots/fixedpoint_layer_plot.h"
#include "ui/plots/fixedpoint_lut_plot.h"
#include "ui/plots/weight_histogram.h"
#include "ui/plots/weight_view.h"

namespace qatdoctor::ui {

namespace fp = core::fixedpoint;

struct FixedpointPage::Outcome {
    std::shared_ptr<const fp::Interpreter> interp;
    std::shared_ptr<const fp::SimulationResult> result;
    QString error;
    bool whatIf = false;
    fp::SimulationOptions options;
    std::vector<std::string> inputSources;  // per graph input (for the analysis' summary)
};

namespace {

// The Requantization box, by index (sessions store the index: 0 and 1 keep the meaning they had
// when fixed point had one rounding). Ties of the float multiply always go to even.
struct RequantChoice {
    const char* label;
    fp::RequantMode mode;
};
const RequantChoice kRequantChoices[] = {
    {QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "float multiply (reference runtimes)"),
     fp::RequantMode::Float},
    {QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "fixed point, ties to even"), fp::RequantMode::Fixed},
    {QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "fixed point, ties away from zero"),
     fp::RequantMode::fixedPoint(fp::RoundMode::HalfAwayFromZero)},
    {QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "fixed point, ties up"),
     fp::RequantMode::fixedPoint(fp::RoundMode::HalfUp)},
};

QString requantLabel(const fp::RequantMode& mode)
{
    for (const RequantChoice& c : kRequantChoices)
        if (c.mode == mode) return FixedpointPage::tr(c.label);
    return QString::fromLatin1(fp::requantModeName(mode));
}

fp::RequantMode requantChoice(int index)
{
    return index >= 0 && index < int(std::size(kRequantChoices)) ? kRequantChoices[size_t(index)].mode
                                                                 : fp::RequantMode::Float;
}

QStandardItem* numberItem(double v, int prec)
{
    auto* it = new QStandardItem(fixedString(v, prec));
    it->setData(std::isfinite(v) ? v : (v > 0 ? 1e9 : -1e9), Qt::UserRole);  // sort key
    it->setEditable(false);
    return it;
}

// The simulation's mode names ("float", "fake", "int") as the page's timing line says them.
QString modeLabel(const QString& mode)
{
    static const std::pair<const char*, const char*> kModes[] = {
        {"float", QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "float")},
        {"fake", QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "fake-quant")},
        {"int", QT_TRANSLATE_NOOP("qatdoctor::ui::FixedpointPage", "integer")}};
    for (const auto& [name, label] : kModes)
        if (mode == QLatin1String(name)) return FixedpointPage::tr(label);
    return mode;
}

double outputSqnr(const fp::SimulationResult& r)
{
    return r.outputSqnrDb().value_or(NAN);
}

}  // namespace

FixedpointPage::FixedpointPage(AppContext* context, QWidget* parent)
    : Page(context, parent),
      m_header(new QLabel(this)),
      m_inputLabel(new QLabel(this)),
      m_requant(new QComboBox(this)),
      m_colour(new QComboBox(this)),
      m_threads(new QSpinBox(this)),
      m_rankSensitivity(new QCheckBox(tr("Rank layers for int16"), this)),
      m_run(new QPushButton(tr("Simulate"), this)),
      m_whatIf(new QPushButton(tr("Re-run with the ticked layers"), this)),
      m_summary(new QLabel(this)),
      m_tabs(new QTabWidget(this)),
      m_plot(new FixedpointLayerPlot(this)),
      m_layerTable(new FixedpointLayerTable(this)),
      m_sensitivity(new QStandardItemModel(this)),
      m_sensitivityHint(new QLabel(this)),
      m_weightList(new QListWidget(this)),
      m_weightView(new WeightView(this)),
      m_weightStats(new QLabel(this)),
      m_lutList(new QListWidget(this)),
      m_lutPlot(new FixedpointLutPlot(this)),
      m_findings(new QTextBrowser(this)),
      m_job(new BackgroundJob(this))
{
    m_header->setWordWrap(true);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (size_t i = 0; i < std::size(kRequantChoices); ++i)
        m_requant->addItem(tr(kRequantChoices[i].label), int(i));
    m_requant->setToolTip(
        tr("How the integer mode requantizes accumulators. Reference runtimes multiply in "
           "float and round ties to even; integer hardware multiplies and shifts, and "
           "boards differ in how they round ties. Change it and simulate again: the "
           "summary names the layers whose integer results changed."));
    m_colour->addItem(tr("image as RGB"), int(fp::ColourFormat::Rgb));
    m_colour->addItem(tr("image as BGR"), int(fp::ColourFormat::Bgr));
    m_colour->addItem(tr("image as YUV444 (centered)"), int(fp::ColourFormat::Yuv444Centered));
    m_colour->setToolTip(
        tr("How an image input is fed: the board takes centered YUV444; a model trained on RGB "
           "fed YUV444 (or the reverse) shows here as a large float-vs-int error."));
    m_threads->setRange(1, 64);
    m_threads->setValue(2);
    m_threads->setPrefix(tr("threads "));
    auto* pickInput = new QPushButton(tr("Input file..."), this);
    auto* randomInput = new QPushButton(tr("Random input"), this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_inputLabel, 1);
    controls->addWidget(pickInput);
    controls->addWidget(randomInput);
    controls->addWidget(m_colour);
    controls->addWidget(m_requant);
    controls->addWidget(m_threads);
    controls->addWidget(m_rankSensitivity);
    controls->addWidget(m_run);

    auto* layersTab = new QWidget(this);
    auto* lt = new QVBoxLayout(layersTab);
    auto* split = new QSplitter(Qt::Vertical, layersTab);
    split->addWidget(m_plot);
    split->addWidget(m_layerTable);
    lt->addWidget(split, 1);
    auto* whatIfRow = new QHBoxLayout;
    whatIfRow->addWidget(new QLabel(tr("What-if: tick layers at int16 or in float, then"), layersTab));
    whatIfRow->addWidget(m_whatIf);
    whatIfRow->addStretch(1);
    lt->addLayout(whatIfRow);
    m_tabs->addTab(layersTab, tr("Layers"));

    auto* sensTab = new QWidget(this);
    auto* sensLayout = new QVBoxLayout(sensTab);
    sensLayout->addWidget(m_sensitivityHint);
    m_sensitivityView = new QTableView(sensTab);
    m_sensitivityView->setModel(m_sensitivity);
    m_sensitivityView->verticalHeader()->hide();
    sensLayout->addWidget(m_sensitivityView, 1);
    m_sensitivityHint->setWordWrap(true);
    m_tabs->addTab(sensTab, tr("int16 sensitivity"));

    auto* weightsTab = new QSplitter(Qt::Horizontal, this);
    weightsTab->addWidget(m_weightList);
    auto* wRight = new QWidget(weightsTab);
    auto* wl = new QVBoxLayout(wRight);
    wl->addWidget(m_weightView, 1);
    wl->addWidget(m_weightStats);
    weightsTab->addWidget(wRight);
    weightsTab->setStretchFactor(1, 3);
    m_tabs->addTab(weightsTab, tr("Weights"));

    auto* lutTab = new QSplitter(Qt::Horizontal, this);
    lutTab->addWidget(m_lutList);
    lutTab->addWidget(m_lutPlot);
    lutTab->setStretchFactor(1, 3);
    m_tabs->addTab(lutTab, tr("Look-up tables"));
    m_tabs->addTab(m_findings, tr("Findings"));
    m_colourPanel = new FixedpointColourPanel(
        context, [this] { return modelGraph(); }, [this] { return m_threads->value(); }, this);
    m_tabs->addTab(m_colourPanel, tr("RGB vs YUV444"));
    m_datasetPanel = new FixedpointDatasetPanel(
        context, [this] { return modelGraph(); }, [this] { return m_threads->value(); }, this);
    // the row above is full: the evaluation lives in its own tab, named as the action it offers
    const int datasetTab = m_tabs->addTab(m_datasetPanel, tr("Evaluate on a dataset"));
    m_tabs->setTabToolTip(datasetTab,
                          tr("Top-1 of the float, fake-quant and integer modes over an evaluation "
                             "set: the simulated deployment accuracy, a rung of the stage ladder"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);

    context->announceJob(m_job);
    connect(m_job, &BackgroundJob::cancelled, this, [this] { m_run->setEnabled(!modelPath().isEmpty()); });
    connect(context, &AppContext::analysisChanged, this, [this] { onAnalysisChanged(); });
    connect(context, &AppContext::pageStateChanged, this, [this](const QString& pageId) {
        if (pageId == id()) restoreSettings();
    });
    connect(m_run, &QPushButton::clicked, this, [this] { runSimulation(); });
    connect(m_whatIf, &QPushButton::clicked, this, [this] { runSimulation(); });
    connect(pickInput, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(
            this, tr("Input tensor"), {}, tr("Inputs (*.npy *.pb *.png *.jpg *.jpeg *.bmp);;All files (*)"));
        if (!f.isEmpty()) setInputFile(f);
    });
    connect(randomInput, &QPushButton::clicked, this, [this] { setInputFile({}); });
    connect(m_weightList, &QListWidget::currentRowChanged, this, [this](int row) { showWeight(row); });
    connect(m_lutList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (m_result && row >= 0 && row < static_cast<int>(m_result->luts.size()))
            m_lutPlot->showLut(m_result->luts[static_cast<size_t>(row)]);
    });
    connect(m_plot, &FixedpointLayerPlot::layerClicked, this, [this](int i) {
        if (m_result && i >= 0 && i < static_cast<int>(m_result->layers.size()))
            m_layerTable->selectLayer(QString::fromStdString(m_result->layers[static_cast<size_t>(i)].name));
    });
    setInputFile({});
    onAnalysisChanged();
}

WeightHistogram* FixedpointPage::weightHistogram() const
{
    return m_weightView->histogram();
}

QString FixedpointPage::headerText() const
{
    return m_header->text();
}

QString FixedpointPage::modelPath() const
{
    auto a = context()->analysis();
    return a ? QString::fromStdString(core::simulatableModelPath(*a)) : QString();
}

std::shared_ptr<const core::model::ModelGraph> FixedpointPage::modelGraph() const
{
    auto a = context()->analysis();
    const core::model::LayerTable* m = a ? core::simulatableModel(*a) : nullptr;
    return m ? m->graph : nullptr;
}

void FixedpointPage::setInputFile(const QString& path)
{
    m_inputFile = path;
    m_colourPanel->setImage(path);
    m_inputLabel->setText(path.isEmpty() ? tr("Input: random values (seed 0)") : tr("Input: %1").arg(path));
}

void FixedpointPage::setSensitivityEnabled(bool on)
{
    m_rankSensitivity->setChecked(on);
}

void FixedpointPage::onAnalysisChanged()
{
    const QString path = modelPath();
    m_run->setEnabled(!path.isEmpty());
    m_whatIf->setEnabled(false);
    m_colourPanel->setImage(m_inputFile);
    const auto analysis = context()->analysis();
    const core::Error none = analysis ? core::noSimulatableModel(*analysis) : core::Error{};
    m_header->setText(
        path.isEmpty()
            ? (!none.file.empty()  // an ONNX file was found but refused: say which and why
                   ? QString::fromStdString(none.message)
                   : tr("Load an ONNX model exported from QAT (QuantizeLinear/DequantizeLinear form) to "
                        "simulate "
                        "float, fake-quant and integer inference layer by layer."))
            : tr("Model: %1. Simulate runs it as float (quantizers removed), fake-quant (= ONNX Runtime, "
                 "the QAT model) and integer (= the deployed model) on the same input.")
                  .arg(path));
    restoreSettings();
    autoRunSmallModel();
}

void FixedpointPage::saveSettings()
{
    SimulationSettings s;
    s.model = QString::fromStdString(m_result->modelPath);
    s.input = m_inputFile;
    s.requant = m_requant->currentData().toInt();
    s.colour = m_colour->currentData().toInt();
    s.threads = m_threads->value();
    s.sensitivity = m_rankSensitivity->isChecked();
    for (const std::string& layer : m_result->int16Layers) s.int16 << QString::fromStdString(layer);
    for (const std::string& layer : m_result->floatLayers) s.floatLayers << QString::fromStdString(layer);
    const QJsonObject state = s.toJson();
    if (context()->pageState(id()) != state) context()->setPageState(id(), state);
}

void FixedpointPage::restoreSettings()
{
    const std::optional<SimulationSettings> s = SimulationSettings::fromJson(context()->pageState(id()));
    const QString path = modelPath();
    if (!s || path.isEmpty() || s->model != path || m_restoredFor == path || m_job->running()) return;
    if (m_result && QString::fromStdString(m_result->modelPath) == path) return;  // already simulated
    m_restoredFor = path;
    m_autoRanFor = path;  // the first show must not start a second run
    setInputFile(s->input.isEmpty() || QFileInfo::exists(s->input) ? s->input : QString());
    auto select = [](QComboBox* box, int value) {
        if (const int i = box->findData(value); i >= 0) box->setCurrentIndex(i);
    };
    select(m_requant, s->requant);
    select(m_colour, s->colour);
    m_threads->setValue(s->threads);
    m_rankSensitivity->setChecked(s->sensitivity);
    m_layerTable->clearWhatIf();
    for (const QString& layer : s->int16)
        m_layerTable->setWhatIf(layer.toStdString(), FixedpointLayerTable::WhatIf::Int16);
    for (const QString& layer : s->floatLayers)
        m_layerTable->setWhatIf(layer.toStdString(), FixedpointLayerTable::WhatIf::Float);
    QTimer::singleShot(0, this, [this] { runSimulation(); });
}

void FixedpointPage::showEvent(QShowEvent* event)
{
    Page::showEvent(event);
    autoRunSmallModel();
}

void FixedpointPage::autoRunSmallModel()
{
    // A small model is simulated as soon as it arrives (random input, in the background), so the
    // wizard's simulation questions are answered without a visit to this page, and the page opens
    // on its answer instead of empty axes; a big one waits for the button (seconds of CPU).
    constexpr qint64 kAutoRunBytes = 32 << 20;
    const QString path = modelPath();
    if (path.isEmpty() || m_autoRanFor == path || m_job->running()) return;
    if (m_result && QString::fromStdString(m_result->modelPath) == path) return;
    if (QFileInfo(path).size() > kAutoRunBytes) return;
    m_autoRanFor = path;
    QTimer::singleShot(0, this, [this] { runSimulation(); });
}

bool FixedpointPage::runSimulation()
{
    const QString path = modelPath();
    if (path.isEmpty()) return false;
    fp::SimulationOptions opt;
    opt.requant = requantChoice(m_requant->currentData().toInt());
    opt.threads = m_threads->value();
    opt.sensitivity = m_rankSensitivity->isChecked();
    opt.int16Layers = m_layerTable->layersAt(FixedpointLayerTable::WhatIf::Int16);
    opt.floatLayers = m_layerTable->layersAt(FixedpointLayerTable::WhatIf::Float);
    const bool whatIf = !opt.int16Layers.empty() || !opt.floatLayers.empty();
    fp::SimulationRequest request;
    request.options = opt;
    if (isImageFile(m_inputFile)) {  // an image: scaled to the model's H x W, in the chosen colour form
        fp::ImageRequest image;
        image.path = m_inputFile.toStdString();
        image.colour = fp::ColourFormat(m_colour->currentData().toInt());
        image.decode = decodeImage;
        request.image = image;
    } else if (!m_inputFile.isEmpty()) {
        request.input.files = {m_inputFile.toStdString()};
    }
    request.reuse = m_interp && QString::fromStdString(m_interp->path()) == path ? m_interp : nullptr;
    const std::shared_ptr<const core::model::ModelGraph> graph =
        modelGraph();  // the analysis's: no second read
    m_run->setEnabled(false);
    m_whatIf->setEnabled(false);
    m_job->start<std::shared_ptr<Outcome>>(
        tr("Simulating %1").arg(path),
        [graph, request, whatIf](const core::ProgressFn& progress) {
            auto out = std::make_shared<Outcome>();
            out->whatIf = whatIf;
            out->options = request.options;
            auto run = fp::runSimulation(graph, request, progress);
            if (!run) {
                out->error = QString::fromStdString(run.error().toString());
                return out;
            }
            out->interp = run->interpreter;
            out->inputSources = run->inputs.sources;
            out->result = std::make_shared<fp::SimulationResult>(std::move(run->result));
            return out;
        },
        [this](std::shared_ptr<Outcome> o) { onFinished(std::move(o)); });
    return true;
}

void FixedpointPage::onFinished(std::shared_ptr<Outcome> o)
{
    m_run->setEnabled(!modelPath().isEmpty());
    if (!o->error.isEmpty() || !o->result) {
        m_summary->setText(tr("Simulation failed: %1").arg(o->error));
        emit simulationFinished(false);
        return;
    }
    m_interp = o->interp;
    const std::shared_ptr<const Outcome> previous = m_outcome;
    m_outcome = o;
    m_result = o->result;
    const fp::SimulationResult& r = *m_result;
    const double sq = outputSqnr(r);
    QString text;
    for (const auto& [mode, ms] : r.timingMs)
        text += tr("%1 %2 ms  ").arg(modeLabel(QString::fromStdString(mode))).arg(ms, 0, 'f', 1);
    text += "<br>" + (r.firstBadLayer.empty() ? tr("Fake-quant and integer agree on every layer.")
                                              : tr("<b>First layer where fake-quant and integer part: %1</b>")
                                                    .arg(QString::fromStdString(r.firstBadLayer)));
    if (std::isfinite(sq)) text += "<br>" + tr("Output SQNR, integer vs float: %1 dB").arg(sq, 0, 'f', 2);
    if (r.baselineOutputSqnrDb && std::isfinite(*r.baselineOutputSqnrDb))
        text += tr(" (what-if: %1 layer(s) at int16, %2 in float; unchanged model %3 dB, gain %4 dB)")
                    .arg(r.int16Layers.size())
                    .arg(r.floatLayers.size())
                    .arg(*r.baselineOutputSqnrDb, 0, 'f', 2)
                    .arg(sq - *r.baselineOutputSqnrDb, 0, 'f', 2);
    if (r.requantDiffLsb)
        text +=
            "<br>" +
            tr("Float vs fixed-point requantization: %1 LSB at the output").arg(*r.requantDiffLsb, 0, 'f', 2);
    if (previous && previous->result->modelPath == r.modelPath && previous->inputSources == o->inputSources &&
        !(previous->options.requant == o->options.requant) &&
        previous->result->int16Layers == r.int16Layers && previous->result->floatLayers == r.floatLayers) {
        // the same model and input simulated with another requantization: what it changed
        const auto changed = fp::layersWithOtherIntegerResults(*previous->result, r);
        QStringList names;
        for (size_t i = 0; i < changed.size() && i < 6; ++i) names << QString::fromStdString(changed[i]);
        if (changed.size() > 6) names << QStringLiteral("…");
        text += "<br>" +
                (changed.empty()
                     ? tr("Requantization %1 → %2: no layer's integer result changed.")
                           .arg(requantLabel(previous->options.requant), requantLabel(o->options.requant))
                     : tr("Requantization %1 → %2: the integer results of %3 of %4 "
                          "layers changed: %5")
                           .arg(requantLabel(previous->options.requant), requantLabel(o->options.requant))
                           .arg(changed.size())
                           .arg(r.layers.size())
                           .arg(names.join(", ").toHtmlEscaped()));
    }
    if (r.samples > 1)
        text +=
            "<br>" +
            tr("Figures cover %1 input samples of the batch; the sensitivity ranking is the first sample's.")
                .arg(r.samples);
    if (!r.fallbacks.empty())
        text += "<br>" + tr("%1 op(s) fell back to float in integer mode").arg(r.fallbacks.size());
    m_summary->setText(text);
    m_layerTable->setResult(r);
    m_plot->setResult(r);
    m_sensitivity->clear();
    m_sensitivity->setHorizontalHeaderLabels({tr("Layer"), tr("Output SQNR at int16 (dB)"), tr("Gain (dB)")});
    for (const auto& s : r.sensitivity)
        m_sensitivity->appendRow({new QStandardItem(QString::fromStdString(s.layer)),
                                  numberItem(s.outputSqnrDb, 2), numberItem(s.gainDb, 2)});
    m_sensitivityHint->setText(
        r.sensitivity.empty()
            ? tr("Not ranked in this run. Tick \"Rank layers for int16\" and simulate: every layer is run "
                 "once more "
                 "at int16, and the layers are ranked by the output SQNR that gains.")
            : tr("Each layer alone at int16, best gain first: the layers worth 16 bits on the board."));
    m_sensitivityView->resizeColumnsToContents();
    fillWeights();
    fillLuts();
    QString f;
    for (const auto& x : r.findings)
        f += QString("<p><b>%1</b> [%2]<br>%3</p>")
                 .arg(QString::fromStdString(x.title.in(context()->lang())).toHtmlEscaped(),
                      QString::fromStdString(x.id),
                      QString::fromStdString(x.message.in(context()->lang())).toHtmlEscaped());
    m_findings->setHtml(f.isEmpty() ? tr("No findings.") : f);
    publishToAnalysis(*o);  // before enabling the what-if: analysisChanged resets the buttons
    m_whatIf->setEnabled(true);
    saveSettings();
    if (!m_pendingLayer.isEmpty()) {
        NavigationTarget t;
        t.layer = m_pendingLayer;
        m_pendingLayer.clear();
        focusOn(t);
    }
    emit simulationFinished(true);
}

void FixedpointPage::publishToAnalysis(const Outcome& o)
{
    // The simulation becomes part of the analysis (report, JSON, wizard answers, findings), on a
    // copy of the current snapshot, unless another model was loaded while it ran.
    const AnalysisPtr current = context()->analysis();
    if (!current || core::simulatableModelPath(*current) != o.result->modelPath) return;
    fp::SimulationSummary summary = fp::summarizeSimulation(*o.result, o.options, o.inputSources);
    auto next = std::make_shared<core::Analysis>(*current);
    core::attachSimulation(*next, std::move(summary));
    context()->setAnalysis(std::move(next));
}

void FixedpointPage::fillWeights()
{
    m_weightList->clear();
    for (const auto& w : m_result->weights) m_weightList->addItem(QString::fromStdString(w.layer));
    if (m_weightList->count())
        m_weightList->setCurrentRow(0);
    else
        m_weightView->showMessage(tr("No layer with a constant weight."));
}

void FixedpointPage::showWeight(int row)
{
    if (!m_result || !m_interp || row < 0 || row >= static_cast<int>(m_result->weights.size())) return;
    const fp::WeightStats& s = m_result->weights[static_cast<size_t>(row)];
    for (const auto& L : m_interp->layers()) {
        if (L.name != s.layer) continue;
        auto w = m_interp->layerWeight(L);
        if (!w) {
            m_weightView->showMessage(QString::fromStdString(w.error().message));
            return;
        }
        std::optional<core::model::QuantParams> q;
        if (w->quant) {
            q.emplace();
            q->dtype = w->quant->dtype;
            q->scales = w->quant->scales;
            q->zeroPoints = w->quant->zeroPoints;
            q->axis = w->quant->axis;
        }
        auto values = std::make_shared<core::model::LayerWeights>();
        values->values = w->values.toFloats();
        values->dims = w->values.shape();
        m_weightView->showWeights(std::move(values), std::move(q));
    }
    m_weightStats->setText(
        tr("Weight SQNR: int8 per-tensor %1 dB, int8 per-channel %2 dB, int16 per-channel %3 dB%4")
            .arg(fixedString(s.sqnrInt8PerTensor, 1), fixedString(s.sqnrInt8PerChannel, 1),
                 fixedString(s.sqnrInt16PerChannel, 1),
                 s.sqnrModel ? tr(", the model's own quantizer %1 dB").arg(fixedString(*s.sqnrModel, 1))
                             : QString()));
}

void FixedpointPage::fillLuts()
{
    m_lutList->clear();
    for (const auto& l : m_result->luts)
        m_lutList->addItem(QString("%1 (%2): max %3 LSB")
                               .arg(QString::fromStdString(l.layer), QString::fromStdString(l.op))
                               .arg(l.maxErrorLsb, 0, 'f', 2));
    if (m_lutList->count())
        m_lutList->setCurrentRow(0);
    else
        m_lutPlot->showMessage(
            tr("No look-up-table op in this model (Sigmoid, Tanh, Exp, Softmax, Gelu, ...):\n"
               "nothing here turns into a table on export."));
}

void FixedpointPage::setLayerTicked(const QString& layer, bool ticked)
{
    m_layerTable->setWhatIf(layer.toStdString(), ticked ? FixedpointLayerTable::WhatIf::Int16
                                                        : FixedpointLayerTable::WhatIf::None);
}

QStandardItemModel* FixedpointPage::layerModel() const
{
    return m_layerTable->model();
}

void FixedpointPage::focusOn(const NavigationTarget& target)
{
    if (target.layer.isEmpty()) return;
    if (!m_result) {
        m_pendingLayer = target.layer;
        return;
    }
    m_tabs->setCurrentIndex(0);
    m_layerTable->selectLayer(target.layer);
}

}  // namespace qatdoctor::ui
