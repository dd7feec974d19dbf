#include "ui/pages/curves_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <set>

#include "core/common/file_io.h"
#include "core/folder_input.h"
#include "core/logs/explain.h"
#include "core/logs/role_reason_text.h"
#include "core/logs/run_palette.h"
#include "core/rules/metrics.h"
#include "ui/common/background_job.h"
#include "ui/common/live_watch_session.h"
#include "ui/plots/curve_plot.h"

namespace qatdoctor::ui {

using core::logs::RunRole;

namespace {

// Metrics chosen first when nothing was chosen yet: the training loss, then the main
// evaluation metric (core::rules::headlineMetrics, so the report opens on the same).
QStringList defaultMetrics(const std::vector<core::logs::Run>& runs)
{
    QStringList out;
    for (const std::string& m : core::rules::headlineMetrics(runs)) out << QString::fromStdString(m);
    return out;
}

}  // namespace

CurvesPage::CurvesPage(AppContext* context, QWidget* parent) : Page(context, parent)
{
    buildUi();
    m_explainJob = new BackgroundJob(this);
    connect(context, &AppContext::analysisChanged, this, &CurvesPage::setAnalysis);
    // B's runs (File ▸ Compare with…) dashed over A's
    connect(context, &AppContext::comparisonChanged, this, [this] { setLogs(m_logs, true); });
    // Watch mode (shared with the Overview): the runs as the training writes them
    LiveWatchSession* watch = context->liveWatch();
    connect(watch, &LiveWatchSession::activeChanged, this, [this](bool on) {
        const QSignalBlocker block(m_live);
        m_live->setChecked(on);
        if (!on) setAnalysis(m_analysis);
    });
    connect(watch, &LiveWatchSession::logsUpdated, this,
            [this](std::shared_ptr<const core::logs::LogSet> logs) {
                setLogs(std::move(logs), /*keepView=*/true);
            });
    connect(watch, &LiveWatchSession::findingsFired, this, &CurvesPage::updateMarks);
    connect(watch, &LiveWatchSession::statusChanged, this,
            [this](const QString& s) { m_status->setText(s); });
    setAnalysis(context->analysis());
}

CurvesPage::~CurvesPage() = default;

void CurvesPage::buildUi()
{
    auto* top = new QHBoxLayout;
    m_xMode = new QComboBox;
    m_xMode->addItem(tr("Step"));
    m_xMode->addItem(tr("Epoch"));
    m_xMode->addItem(tr("Wall time"));
    m_xMode->addItem(tr("QAT after float"));
    m_xMode->setToolTip(tr("x axis; \"QAT after float\" places QAT's step 0 at float's last step"));
    m_yMode = new QComboBox;
    m_yMode->addItem(tr("y: auto"));
    m_yMode->addItem(tr("y: linear"));
    m_yMode->addItem(tr("y: log"));
    m_yMode->setToolTip(
        tr("Auto: a chart whose values span more than three decades is drawn on a log "
           "scale; a few far outliers are left off the scale (and counted) so they do not "
           "flatten the rest"));
    m_difference = new QCheckBox(tr("QAT − float"));
    m_difference->setToolTip(tr("Adds, per chart, each QAT run minus the float run at equal steps"));
    m_smoothing = new QSlider(Qt::Horizontal);
    m_smoothing->setRange(0, 99);
    m_smoothing->setMaximumWidth(160);
    m_smoothing->setToolTip(tr(
        "Smoothing (TensorBoard's debiased exponential moving average); the raw curve stays faint behind"));
    m_smoothingValue = new QLabel(QStringLiteral("0.00"));
    m_boxZoom = new QToolButton;
    m_boxZoom->setText(tr("Box zoom"));
    m_boxZoom->setCheckable(true);
    auto* reset = new QToolButton;
    reset->setText(tr("Reset view"));
    auto* exportButton = new QToolButton;
    exportButton->setText(tr("Export…"));
    m_live = new QCheckBox(tr("Watch folder"));
    m_live->setToolTip(tr("Re-read appended lines and new files of the log folder as training writes them"));
    top->addWidget(new QLabel(tr("x:")));
    top->addWidget(m_xMode);
    top->addWidget(m_yMode);
    top->addWidget(m_difference);
    top->addWidget(new QLabel(tr("Smoothing")));
    top->addWidget(m_smoothing);
    top->addWidget(m_smoothingValue);
    top->addWidget(m_boxZoom);
    top->addWidget(reset);
    top->addWidget(exportButton);
    top->addWidget(m_live);
    top->addStretch();

    m_runFilter = new QLineEdit;
    m_runFilter->setPlaceholderText(tr("Filter runs (text or regex)"));
    m_runFilter->setClearButtonEnabled(true);
    m_runs = new QTableWidget(0, 2);
    m_runs->setHorizontalHeaderLabels({tr("Run"), tr("Role")});
    m_runs->horizontalHeader()->setStretchLastSection(true);
    m_runs->verticalHeader()->hide();
    m_runs->setSelectionMode(QAbstractItemView::NoSelection);
    m_runs->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_runs, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const int row = m_runs->rowAt(at.y());
        if (row < 0) return;
        QMenu menu(this);
        menu.addAction(tr("Explain this reading…"), this, [this, row] { explainRun(row); });
        menu.exec(m_runs->viewport()->mapToGlobal(at));
    });
    m_metricList = new QListWidget;
    m_metricList->setToolTip(tr("Each checked metric is one plot; the plots share the x axis"));
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Runs")));
    leftLayout->addWidget(m_runFilter);
    leftLayout->addWidget(m_runs, 1);
    leftLayout->addWidget(new QLabel(tr("Metrics")));
    leftLayout->addWidget(m_metricList, 2);

    m_plot = new CurvePlot;
    m_plot->setMinimumSize(400, 300);
    m_status = new QLabel;
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_plot, 1);
    rightLayout->addWidget(m_status);

    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({230, 800});
    auto* content = new QWidget;
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(top);
    contentLayout->addWidget(split, 1);
    m_empty = new QLabel;
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_empty);
    m_stack->addWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_stack);

    connect(m_xMode, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    connect(m_yMode, &QComboBox::currentIndexChanged, this,
            [this](int mode) { m_plot->setYAxisMode(static_cast<core::YAxisMode>(std::max(0, mode))); });
    connect(m_difference, &QCheckBox::toggled, m_plot, &CurvePlot::setDifference);
    connect(m_runFilter, &QLineEdit::textChanged, this, &CurvesPage::applyRunVisibility);
    connect(m_runs, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (!m_filling && item->column() == 0) applyRunVisibility();
    });
    connect(m_smoothing, &QSlider::valueChanged, this, [this](int v) {
        m_smoothingValue->setText(QString::number(v / 100.0, 'f', 2));
        m_plot->setSmoothing(v / 100.0);
    });
    connect(m_boxZoom, &QToolButton::toggled, m_plot, &CurvePlot::setBoxZoom);
    connect(reset, &QToolButton::clicked, m_plot, &CurvePlot::resetView);
    connect(exportButton, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export plot"), QStringLiteral("curves.png"),
            tr("PNG image (*.png);;SVG image (*.svg);;PDF (*.pdf);;Visible series as CSV (*.csv)"));
        if (!path.isEmpty() && !exportPlot(path)) m_status->setText(tr("Could not write %1").arg(path));
    });
    connect(m_metricList, &QListWidget::itemChanged, this, [this] {
        if (!m_filling) replot();
    });
    connect(m_live, &QCheckBox::toggled, this, &CurvesPage::setLiveWatching);
}

void CurvesPage::setAnalysis(AnalysisPtr analysis)
{
    m_analysis = std::move(analysis);
    // Alias into the Analysis so the series are not copied (the Analysis is immutable).
    setLogs(m_analysis ? std::shared_ptr<const core::logs::LogSet>(m_analysis, &m_analysis->logs) : nullptr);
}

void CurvesPage::setLogs(std::shared_ptr<const core::logs::LogSet> logs, bool keepView)
{
    m_logs = std::move(logs);
    fillRuns();
    fillMetrics();
    replot(keepView);
    updateMarks();
    applyRunVisibility();
    showEmptyState();
    const size_t warnings = m_logs ? m_logs->warnings.size() : 0;
    QStringList status;
    if (context()->liveWatch()->active()) status << context()->liveWatch()->status();
    if (warnings)
        status << tr("%n warning(s) while reading the logs (see Overview)", nullptr,
                     static_cast<int>(warnings));
    m_status->setText(status.join(QStringLiteral(" · ")));
}

void CurvesPage::explainRun(int row)
{
    if (!m_logs || row < 0 || row >= static_cast<int>(m_logs->runs.size())) return;
    const std::shared_ptr<const core::logs::LogSet> logs = m_logs;
    const auto index = static_cast<size_t>(row);
    m_explainJob->start<std::string>(
        tr("Reading the source lines…"),
        [logs, index](const core::ProgressFn&) { return core::logs::explanationText(logs->runs[index]); },
        [this](std::string text) {
            m_lastExplanation = QString::fromUtf8(text.data(), static_cast<int>(text.size()));
            auto* dialog = new QDialog(this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setWindowTitle(tr("How this run was read"));
            auto* layout = new QVBoxLayout(dialog);
            auto* view = new QPlainTextEdit(m_lastExplanation);
            view->setReadOnly(true);
            view->setLineWrapMode(QPlainTextEdit::NoWrap);
            view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
            layout->addWidget(view);
            dialog->resize(900, 500);
            dialog->show();
        });
}

void CurvesPage::fillRuns()
{
    QSet<QString> hidden;  // the user's choices survive a re-read
    for (int row = 0; row < m_runs->rowCount(); ++row)
        if (m_runs->item(row, 0) && m_runs->item(row, 0)->checkState() == Qt::Unchecked)
            hidden.insert(m_runs->item(row, 0)->text());
    const QSignalBlocker block(m_runs);
    m_runs->setRowCount(0);
    if (!m_logs) return;
    m_runs->setRowCount(static_cast<int>(m_logs->runs.size()));
    const std::vector<std::string> colors = core::logs::runColors(m_logs->runs);
    int row = 0;
    for (const auto& run : m_logs->runs) {
        const QString name = QString::fromStdString(run.name);
        auto* item = new QTableWidgetItem(name);
        item->setForeground(QColor(QString::fromStdString(colors[static_cast<size_t>(row)])));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(hidden.contains(name) ? Qt::Unchecked : Qt::Checked);
        const QString reason =
            QString::fromStdString(core::logs::roleReasonText(run.roleReason, context()->lang()));
        QString tip = reason;
        for (const auto& f : run.files)
            tip += QStringLiteral("\n") + QString::fromStdString(f.path) + QStringLiteral("  [") +
                   QString::fromStdString(f.layout) + QStringLiteral("]");
        item->setToolTip(tip + QStringLiteral("\n") +
                         tr("Untick to hide; right-click: explain this reading"));
        m_runs->setItem(row, 0, item);
        auto* combo = new QComboBox;
        for (const char* r : {"float", "calibration", "qat", "quantized", "unknown"})
            combo->addItem(QString::fromLatin1(r));
        combo->setCurrentText(QString::fromUtf8(core::logs::roleName(run.role)));
        combo->setToolTip(tr("Guessed from: %1").arg(reason));
        connect(combo, &QComboBox::currentTextChanged, this,
                [this, name](const QString& role) { context()->requestRoleChange(name, role); });
        m_runs->setCellWidget(row, 1, combo);
        ++row;
    }
    m_runs->resizeColumnToContents(0);
}

void CurvesPage::fillMetrics()
{
    const QStringList previous = metrics();
    std::set<std::string> all;
    for (const auto& logs : {m_logs, comparedLogs()})
        if (logs)
            for (const auto& run : logs->runs)
                for (const auto& [name, s] : run.series) all.insert(name);
    QStringList chosen;
    for (const QString& m : previous)
        if (all.count(m.toStdString())) chosen << m;
    if (chosen.isEmpty() && m_logs) chosen = defaultMetrics(m_logs->runs);
    m_filling = true;
    m_metricList->clear();
    for (const std::string& name : all) {
        auto* item = new QListWidgetItem(QString::fromStdString(name), m_metricList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(chosen.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
    m_filling = false;
}

QStringList CurvesPage::metrics() const
{
    QStringList out;
    for (int i = 0; i < m_metricList->count(); ++i)
        if (m_metricList->item(i)->checkState() == Qt::Checked) out << m_metricList->item(i)->text();
    return out;
}

void CurvesPage::setMetrics(const QStringList& chosen)
{
    m_filling = true;
    for (int i = 0; i < m_metricList->count(); ++i)
        m_metricList->item(i)->setCheckState(chosen.contains(m_metricList->item(i)->text()) ? Qt::Checked
                                                                                            : Qt::Unchecked);
    m_filling = false;
    replot();
}

std::shared_ptr<const core::logs::LogSet> CurvesPage::comparedLogs() const
{
    const ComparisonPtr c = context()->comparison();
    if (!c || !c->other) return nullptr;
    return std::shared_ptr<const core::logs::LogSet>(c->other, &c->other->logs);
}

void CurvesPage::replot(bool keepView)
{
    m_plot->setComparedRuns(comparedLogs());
    m_plot->setCurves(m_logs, metrics(), static_cast<XAxisMode>(std::max(0, m_xMode->currentIndex())),
                      keepView);
}

void CurvesPage::focusOn(const NavigationTarget& target)
{
    if (!target.metric.isEmpty() && !metrics().contains(target.metric)) {
        QStringList m = metrics();
        m.prepend(target.metric);
        setMetrics(m);
    }
    if (target.step) m_plot->zoomTo(*target.step, target.run, target.metric);
}

bool CurvesPage::exportPlot(const QString& path)
{
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0)
        return core::writeFileAtomic(path.toStdString(), m_plot->visibleCsv().toStdString()).ok();
    return m_plot->exportTo(path);
}

void CurvesPage::applyRunVisibility()
{
    const QRegularExpression filter(m_runFilter->text(), QRegularExpression::CaseInsensitiveOption);
    for (int row = 0; row < m_runs->rowCount(); ++row) {
        const QTableWidgetItem* item = m_runs->item(row, 0);
        if (!item) continue;
        // An unfinished regex ("qat(") filters as plain text until it parses.
        const bool match =
            m_runFilter->text().isEmpty() ||
            (filter.isValid() ? filter.match(item->text()).hasMatch()
                              : item->text().contains(m_runFilter->text(), Qt::CaseInsensitive));
        m_runs->setRowHidden(row, !match);
        m_plot->setRunHidden(item->text(), !match || item->checkState() == Qt::Unchecked);
    }
    m_plot->redrawNow();
}

void CurvesPage::setRunFilter(const QString& text)
{
    m_runFilter->setText(text);
}

void CurvesPage::setRunShown(const QString& run, bool shown)
{
    for (int row = 0; row < m_runs->rowCount(); ++row)
        if (m_runs->item(row, 0) && m_runs->item(row, 0)->text() == run)
            m_runs->item(row, 0)->setCheckState(shown ? Qt::Checked : Qt::Unchecked);
}

bool CurvesPage::showsEmptyState() const
{
    return m_stack->currentIndex() == 0;
}

QString CurvesPage::emptyText() const
{
    return m_empty->text();
}

void CurvesPage::showEmptyState()
{
    bool anySeries = false;
    if (m_logs)
        for (const auto& run : m_logs->runs) anySeries = anySeries || !run.series.empty();
    if (anySeries) {
        m_stack->setCurrentIndex(1);
        return;
    }
    m_empty->setText(
        m_logs && !m_logs->runs.empty()
            ? tr("The loaded logs hold no metric series (see Overview for how they were read).\n"
                 "Open a training log folder with loss or accuracy lines: File ▸ Open log folder…")
            : tr("No training logs loaded.\nOpen a training log folder (File ▸ Open log folder…) or "
                 "drop log files here to see float, calibration, QAT and quantized curves."));
    m_stack->setCurrentIndex(0);
}

std::vector<CurveMark> CurvesPage::marksOf(const core::Analysis* analysis, const core::logs::LogSet* logs,
                                           core::Lang lang)
{
    std::vector<CurveMark> marks;
    if (!logs) return marks;
    // Crashes and errors the log recorded after a step: a line through every chart.
    for (const core::logs::Run& run : logs->runs)
        for (const core::logs::RunEvent& e : run.events) {
            using Kind = core::logs::RunEvent::Kind;
            if (!e.step || (e.kind != Kind::Traceback && e.kind != Kind::Error)) continue;
            marks.push_back({CurveMark::Kind::Crash, QString::fromStdString(run.name), QString(), *e.step,
                             e.kind == Kind::Traceback ? tr("crash (traceback)") : tr("error")});
        }
    if (!analysis) return marks;
    for (const core::Finding& f : analysis->findings)
        for (const core::Evidence& ev : f.evidence)
            if (ev.step && !ev.run.empty() && !ev.metric.empty())
                marks.push_back({CurveMark::Kind::Evidence, QString::fromStdString(ev.run),
                                 QString::fromStdString(ev.metric), *ev.step,
                                 QString::fromStdString(f.title.in(lang))});
    return marks;
}

void CurvesPage::setLiveWatching(bool on)
{
    if (m_live->isChecked() != on) {
        m_live->setChecked(on);  // re-enters through toggled
        return;
    }
    context()->liveWatch()->setActive(on);
}

void CurvesPage::updateMarks()
{
    std::vector<CurveMark> marks = marksOf(m_analysis.get(), m_logs.get(), context()->lang());
    for (CurveMark& m : liveMarks()) marks.push_back(std::move(m));
    m_plot->setMarks(std::move(marks));
}

std::vector<CurveMark> CurvesPage::liveMarks() const
{
    std::vector<CurveMark> marks;
    for (const core::WatchedFinding& w : context()->liveWatch()->fired()) {
        if (!w.live.step) continue;
        const core::Evidence* e =
            w.live.finding.evidence.empty() ? nullptr : &w.live.finding.evidence.front();
        marks.push_back(
            {CurveMark::Kind::Live, QString::fromStdString(w.live.run),
             e ? QString::fromStdString(e->metric) : QString(), *w.live.step,
             tr("live: %1").arg(QString::fromStdString(w.live.finding.title.in(context()->lang())))});
    }
    return marks;
}

}  // namespace qatdoctor::ui
