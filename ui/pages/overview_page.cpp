#include "ui/pages/overview_page.h"

#include <QAction>
#include <QCheckBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include "core/rules/verdict.h"
#include "ui/common/live_watch_session.h"
#include "ui/common/wrapping_delegate.h"
#include "ui/pages/compare/comparison_view.h"
#include "ui/pages/overview/finding_navigation.h"
#include "ui/pages/overview/findings_model.h"
#include "ui/pages/overview/ladder_strip.h"
#include "ui/pages/overview/loaded_models.h"

namespace qatdoctor::ui {
namespace {

QString verdictStyle(const core::rules::Verdict& v, const core::Analysis* a)
{
    // Background by the worst severity behind the verdict: green clear, amber warning, red error.
    QString bg = QStringLiteral("#e8f5e9"), border = QStringLiteral("#66bb6a");
    if (!v.clear && a) {
        bool error = false;
        for (const core::Finding& f : a->findings) error |= f.severity == core::Severity::Error;
        bg = error ? QStringLiteral("#fdecea") : QStringLiteral("#fff4e5");
        border = error ? QStringLiteral("#e57373") : QStringLiteral("#ffb74d");
    }
    return QStringLiteral(
               "QLabel { background: %1; border: 1px solid %2; border-radius: 4px; padding: 8px; "
               "font-size: 11pt; color: #212121; }")
        .arg(bg, border);
}

}  // namespace

OverviewPage::OverviewPage(AppContext* context, QWidget* parent) : Page(context, parent)
{
    m_findingsModel = new FindingsModel(this);
    m_inputsModel = new InputsModel(this);
    m_runsModel = new RunsModel(this);
    buildUi();
    connect(context, &AppContext::analysisChanged, this, &OverviewPage::setAnalysis);
    connect(context, &AppContext::comparisonChanged, this, [this](const ComparisonPtr& c) {
        const bool started = c && m_tabs->indexOf(m_comparePane) < 0;
        updateComparison();
        if (!started) return;
        m_tabs->setCurrentWidget(m_comparePane);  // the user asked for it just now
        m_comparePane->setSizes({1000, 1000});    // the answers and the tables side by side, halves
    });
    connect(context, &AppContext::langChanged, this, [this](core::Lang lang) {
        m_findingsModel->setLang(lang);
        m_runsModel->setLang(lang);
        retranslate();
    });
    connect(m_runsModel, &RunsModel::roleChangeRequested, context, &AppContext::requestRoleChange);
    m_findingsModel->setLang(context->lang());
    m_runsModel->setLang(context->lang());
    setAnalysis(context->analysis());
}

void OverviewPage::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    m_verdict = new QLabel(this);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setObjectName(QStringLiteral("overviewVerdict"));
    layout->addWidget(m_verdict);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::RichText);
    connect(m_summary, &QLabel::linkActivated, this, [this] { showSkippedChecks(); });
    // Watch mode (shared with the Curves page): findings while the run is written
    m_watch = new QCheckBox(this);
    connect(m_watch, &QCheckBox::toggled, this, [this](bool on) { context()->liveWatch()->setActive(on); });
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_watch);
    layout->addLayout(summaryRow);
    m_liveBanner = new QLabel(this);
    m_liveBanner->setObjectName(QStringLiteral("liveBanner"));
    m_liveBanner->setWordWrap(true);
    m_liveBanner->hide();
    layout->addWidget(m_liveBanner);
    LiveWatchSession* watch = context()->liveWatch();
    connect(watch, &LiveWatchSession::activeChanged, this, [this](bool on) {
        const QSignalBlocker block(m_watch);
        m_watch->setChecked(on);
        if (!on) m_findingsModel->clearLive();
        updateLiveBanner();
    });
    connect(watch, &LiveWatchSession::statusChanged, this, &OverviewPage::updateLiveBanner);
    connect(watch, &LiveWatchSession::findingsFired, this, &OverviewPage::addLiveFindings);
    // where the accuracy is lost, stage by stage; a stage leads to where its value came from
    m_ladder = new LadderStrip(this);
    connect(m_ladder, &LadderStrip::evidenceRequested, this, [this](const core::Evidence& e) {
        core::Finding f;
        f.evidence.push_back(e);
        const NavigationTarget target =
            routedTo(navigationFor(f, &f.evidence.front()), context()->analysis().get());
        if (!target.page.isEmpty()) context()->navigate(target);
    });
    layout->addWidget(m_ladder);

    auto* vertical = new QSplitter(Qt::Vertical, this);
    auto* loaded = new QSplitter(Qt::Horizontal, vertical);
    auto makeTable = [](QWidget* parent, QAbstractItemModel* model) {
        auto* view = new QTableView(parent);
        view->setModel(model);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->verticalHeader()->hide();
        view->horizontalHeader()->setStretchLastSection(true);
        view->setWordWrap(false);
        return view;
    };
    auto* inputsBox = new QGroupBox(tr("Loaded inputs"), loaded);
    m_inputsView = makeTable(inputsBox, m_inputsModel);
    // Every input can be taken out again: context menu or Delete on its row.
    m_inputsView->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* remove = new QAction(tr("Remove from this analysis"), m_inputsView);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this] { removeInputAt(m_inputsView->currentIndex().row()); });
    m_inputsView->addAction(remove);
    (new QVBoxLayout(inputsBox))->addWidget(m_inputsView);
    auto* runsBox = new QGroupBox(tr("Runs (double-click a role to correct it)"), loaded);
    m_runsView = makeTable(runsBox, m_runsModel);
    m_runsView->setItemDelegateForColumn(RunsModel::RoleColumn, new RoleDelegate(m_runsView));
    m_runsView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked);
    (new QVBoxLayout(runsBox))->addWidget(m_runsView);

    m_tabs = new QTabWidget(vertical);
    auto* lower = new QSplitter(Qt::Horizontal, m_tabs);
    m_tabs->addTab(lower, tr("Findings"));
    m_comparePane = new QSplitter(Qt::Horizontal, m_tabs);
    m_answers = new QTextBrowser(m_comparePane);
    m_answers->setOpenLinks(false);
    connect(m_answers, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const ComparisonPtr c = context()->comparison();
        const QStringList at = url.path().split('.');
        if (!c || url.scheme() != QLatin1String("answer") || at.size() != 2) return;
        const auto f = at[0].toULongLong(), e = at[1].toULongLong();
        if (f < c->comparison.answers.size() && e < c->comparison.answers[f].evidence.size())
            context()->navigate(sourceFor(c->comparison.answers[f].evidence[e]));
    });
    m_compare = new ComparisonView(m_comparePane);
    m_comparePane->setStretchFactor(0, 1);
    m_comparePane->setStretchFactor(1, 1);
    m_comparePane->hide();
    m_findingsView = new QTreeView(lower);
    m_findingsView->setModel(m_findingsModel);
    m_findingsView->setAlternatingRowColors(true);
    // Titles and evidence wrap in their column (never cut with "…"); rows grow to fit them.
    m_findingsView->setUniformRowHeights(false);
    m_findingsView->setWordWrap(true);
    m_findingsView->setTextElideMode(Qt::ElideNone);
    m_findingsView->setItemDelegateForColumn(FindingsModel::TextColumn, new WrappingDelegate(m_findingsView));
    connect(m_findingsView->header(), &QHeaderView::sectionResized, m_findingsView,
            [this] { m_findingsView->doItemsLayout(); });
    m_findingsView->header()->setStretchLastSection(false);
    m_findingsView->header()->setSectionResizeMode(FindingsModel::TextColumn, QHeaderView::Stretch);
    connect(m_findingsView, &QTreeView::activated, this, &OverviewPage::showEvidence);
    connect(m_findingsView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &OverviewPage::updateDetails);

    auto* detailsPane = new QWidget(lower);
    auto* detailsLayout = new QVBoxLayout(detailsPane);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    m_details = new QTextBrowser(detailsPane);
    m_details->setOpenLinks(false);
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const core::Finding* f = m_findingsModel->findingAt(m_findingsView->currentIndex());
        const size_t i = url.path().toULongLong();
        if (!f || url.scheme() != QLatin1String("source") || i >= f->evidence.size()) return;
        context()->navigate(sourceFor(f->evidence[i]));
    });
    detailsLayout->addWidget(m_details);
    auto* buttons = new QHBoxLayout;
    m_showButton = new QPushButton(detailsPane);
    m_wizardButton = new QPushButton(detailsPane);
    buttons->addWidget(m_showButton);
    buttons->addWidget(m_wizardButton);
    buttons->addStretch();
    detailsLayout->addLayout(buttons);
    connect(m_showButton, &QPushButton::clicked, this,
            [this] { showEvidence(m_findingsView->currentIndex()); });
    connect(m_wizardButton, &QPushButton::clicked, this, &OverviewPage::openInWizard);

    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 3);
    layout->addWidget(vertical, 1);
    retranslate();
}

void OverviewPage::updateComparison()
{
    const ComparisonPtr c = context()->comparison();
    m_compare->showIn(m_tabs, c != nullptr, m_comparePane);
    if (!c) return;
    const core::Lang lang = context()->lang();
    std::vector<core::compare::DiffTable> tables = {core::compare::findingsDiffTable(c->comparison, lang)};
    if (!c->comparison.runs.empty()) tables.push_back(core::compare::runsDiffTable(c->comparison, lang));
    m_compare->setTables(ComparisonView::header(*c, lang), std::move(tables), {});
    // the answers, most severe first; evidence with a file and line opens the source view
    QString html = QStringLiteral("<h3>%1</h3>").arg(tr("Did the changes take effect?"));
    if (c->comparison.answers.empty())
        html +=
            QStringLiteral("<p>%1</p>")
                .arg(
                    tr("No configuration change the comparison can judge: no layer's dtype, output precision "
                       "or quantizer sharing changed, and no debug table or run moved."));
    for (size_t i = 0; i < c->comparison.answers.size(); ++i) {
        const core::Finding& f = c->comparison.answers[i];
        const bool bad = f.severity != core::Severity::Info;
        html += QStringLiteral("<p><span style=\"color:%1\"><b>%2 %3</b></span><br>%4</p><ul>")
                    .arg(bad ? QStringLiteral("#c62828") : QStringLiteral("#2e7d32"),
                         bad ? QStringLiteral("✗") : QStringLiteral("✓"),
                         QString::fromStdString(f.title.in(lang)).toHtmlEscaped(),
                         QString::fromStdString(f.message.in(lang)).toHtmlEscaped());
        for (size_t e = 0; e < f.evidence.size(); ++e) {
            const QString text = FindingsModel::evidenceText(f.evidence[e], lang).toHtmlEscaped();
            html += !f.evidence[e].file.empty() && f.evidence[e].line > 0
                        ? QStringLiteral("<li><a href=\"answer:%1.%2\">%3</a></li>").arg(i).arg(e).arg(text)
                        : QStringLiteral("<li>%1</li>").arg(text);
        }
        html += QStringLiteral("</ul>");
    }
    m_answers->setHtml(html);
}

QString OverviewPage::answersText() const
{
    return m_answers->toPlainText();
}

void OverviewPage::addLiveFindings(const std::vector<core::WatchedFinding>& fired)
{
    std::vector<core::Finding> findings;
    findings.reserve(fired.size());
    for (const core::WatchedFinding& f : fired) findings.push_back(f.live.finding);
    m_findingsModel->addLiveFindings(findings);
    m_findingsView->expand(m_findingsModel->index(0, 0));
    m_findingsView->resizeColumnToContents(FindingsModel::SeverityColumn);
    if (!m_findingsView->currentIndex().isValid())
        m_findingsView->setCurrentIndex(m_findingsModel->index(0, 0));
    updateLiveBanner();
}

void OverviewPage::updateLiveBanner()
{
    const LiveWatchSession* watch = context()->liveWatch();
    m_liveBanner->setVisible(watch->active());
    if (!watch->active()) return;
    const core::Lang lang = context()->lang();
    int errors = 0;
    for (const core::WatchedFinding& f : watch->fired())
        errors += f.live.finding.severity == core::Severity::Error;
    QString text = QStringLiteral("● ") + watch->status();
    if (watch->fired().empty()) {
        text += QStringLiteral(" — ") +
                tr("nothing new so far: findings appear here the moment the logs show them");
    } else {
        const core::WatchedFinding& last = watch->fired().back();
        text += QStringLiteral(" — ") + tr("%n new finding(s) while the run was written; latest: %1", nullptr,
                                           static_cast<int>(watch->fired().size()))
                                            .arg(QString::fromStdString(last.live.finding.title.in(lang)));
    }
    m_liveBanner->setText(text);
    const bool alarm = errors > 0;
    m_liveBanner->setStyleSheet(
        QStringLiteral("QLabel#liveBanner { background: %1; border: 1px solid %2; border-radius: 4px; "
                       "padding: 6px; color: #212121; }")
            .arg(alarm ? QStringLiteral("#fdecea") : QStringLiteral("#e3f2fd"),
                 alarm ? QStringLiteral("#c62828") : QStringLiteral("#64b5f6")));
}

QString OverviewPage::liveText() const
{
    return m_liveBanner->isHidden() ? QString() : m_liveBanner->text();
}

void OverviewPage::retranslate()
{
    m_watch->setText(tr("Watch folder"));
    m_watch->setToolTip(
        tr("Follow the log folder while training writes it: findings appear the moment the "
           "logs show them, and an error reaches the desktop"));
    updateLiveBanner();
    m_showButton->setText(tr("Show evidence"));
    m_showButton->setToolTip(tr("Open the curve at the step, or the model at the layer"));
    m_wizardButton->setText(tr("Open in wizard"));
    updateVerdict();
    updateDetails();
    updateComparison();
}

void OverviewPage::setAnalysis(AnalysisPtr analysis)
{
    m_findingsModel->setAnalysis(analysis);
    m_inputsModel->setAnalysis(analysis);
    m_runsModel->setAnalysis(analysis);
    m_findingsView->expandAll();
    for (int c = 0; c < FindingsModel::ColumnCount; ++c)
        if (c != FindingsModel::TextColumn) m_findingsView->resizeColumnToContents(c);
    m_inputsView->resizeColumnsToContents();
    m_runsView->resizeColumnsToContents();
    if (m_findingsModel->rowCount() > 0) m_findingsView->setCurrentIndex(m_findingsModel->index(0, 0));
    updateVerdict();
    updateDetails();
}

void OverviewPage::updateVerdict()
{
    const AnalysisPtr a = context()->analysis();
    if (!a) {
        m_verdict->setText(tr("Open a training log folder, a model or toolchain files to start."));
        m_verdict->setStyleSheet(verdictStyle(core::rules::Verdict{}, nullptr));
        m_summary->clear();
        m_ladder->setLadder({}, context()->lang());
        return;
    }
    m_ladder->setLadder(a->ladder, context()->lang());
    const core::rules::Verdict v = core::verdictOf(*a);
    m_verdict->setText(QString::fromStdString(v.text.in(context()->lang())));
    m_verdict->setStyleSheet(verdictStyle(v, a.get()));
    int errors = 0, warnings = 0, infos = 0;
    for (const core::Finding& f : a->findings) {
        errors += f.severity == core::Severity::Error;
        warnings += f.severity == core::Severity::Warning;
        infos += f.severity == core::Severity::Info;
    }
    QString summary =
        tr("%1 error(s), %2 warning(s), %3 note(s); %4 check(s) ran on %5 run(s) and %6 model(s).")
            .arg(errors)
            .arg(warnings)
            .arg(infos)
            .arg(a->checksRun.size())
            .arg(a->logs.runs.size())
            .arg(a->models.size())
            .toHtmlEscaped();
    if (!a->checkpoints.empty())
        summary.insert(
            summary.size() - 1,
            tr(", %n checkpoint(s)", nullptr, static_cast<int>(a->checkpoints.size())).toHtmlEscaped());
    // what could not be checked is unknown, not clear: say so where the counts are
    if (!a->checksSkipped.empty())
        summary += QStringLiteral(" <a href=\"skipped\">%1</a>")
                       .arg(tr("%n check(s) not run: see what they need", nullptr,
                               static_cast<int>(a->checksSkipped.size()))
                                .toHtmlEscaped());
    m_summary->setText(summary);
}

void OverviewPage::updateDetails()
{
    const QModelIndex current = m_findingsView->currentIndex();
    const core::Finding* f = m_findingsModel->findingAt(current);
    m_showButton->setEnabled(f && !navigationFor(*f, m_findingsModel->evidenceAt(current)).page.isEmpty());
    m_wizardButton->setEnabled(f && !f->faq.empty());
    if (!f) {
        m_details->setHtml(
            QStringLiteral("<p>%1</p>").arg(tr("Select a finding to see its explanation and evidence.")));
        return;
    }
    const core::Lang lang = context()->lang();
    QString html =
        QStringLiteral("<h3>%1</h3>").arg(QString::fromStdString(f->title.in(lang)).toHtmlEscaped());
    if (f->strength)
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(tr("Strength:"),
                         QString::fromStdString(core::strengthText(*f->strength, lang)).toHtmlEscaped());
    if (f->recovered)
        html += QStringLiteral("<p><i>%1</i></p>")
                    .arg(tr("The data recovered by itself: listed, but not counted in the verdict."));
    html += QStringLiteral("<p>%1</p><p><b>%2</b></p><ul>")
                .arg(QString::fromStdString(f->message.in(lang)).toHtmlEscaped(), tr("Evidence"));
    // Evidence with a file and line links to the source view (read-only, the line highlighted).
    for (size_t i = 0; i < f->evidence.size(); ++i) {
        const core::Evidence& e = f->evidence[i];
        const QString text = FindingsModel::evidenceText(e, lang).toHtmlEscaped();
        html += !e.file.empty() && e.line > 0
                    ? QStringLiteral("<li><a href=\"source:%1\">%2</a></li>").arg(i).arg(text)
                    : QStringLiteral("<li>%1</li>").arg(text);
    }
    html += QStringLiteral("</ul><p><small>%1 · %2</small></p>")
                .arg(QString::fromStdString(f->id),
                     f->faq.empty() ? tr("no FAQ topic")
                                    : tr("FAQ topic %1").arg(QString::fromStdString(f->faq)));
    m_details->setHtml(html);
}

void OverviewPage::showSkippedChecks()
{
    const AnalysisPtr a = context()->analysis();
    if (!a) return;
    m_findingsView->clearSelection();
    m_findingsView->setCurrentIndex({});
    const core::Lang lang = context()->lang();
    QString html =
        QStringLiteral("<h3>%1</h3><p>%2</p><ul>")
            .arg(tr("Not checked"), tr("These checks had no data to run on: their answer is unknown, "
                                       "not clear. Load what each needs to have it checked."));
    for (const core::Analysis::SkippedCheck& s : a->checksSkipped) {
        QString where;
        for (const core::Evidence& e : s.evidence)
            where += QStringLiteral("<br>&nbsp;&nbsp;%1")
                         .arg(FindingsModel::evidenceText(e, lang).toHtmlEscaped());
        html += QStringLiteral("<li><b>%1</b>: %2%3</li>")
                    .arg(QString::fromStdString(s.id).toHtmlEscaped(),
                         QString::fromStdString(s.reason.in(lang)).toHtmlEscaped(), where);
    }
    m_details->setHtml(html + QStringLiteral("</ul>"));
    m_showButton->setEnabled(false);
    m_wizardButton->setEnabled(false);
}

QString OverviewPage::verdictText() const
{
    return m_verdict->text();
}
QString OverviewPage::detailsText() const
{
    return m_details->toPlainText();
}

void OverviewPage::removeInputAt(int row)
{
    const AnalysisPtr a = context()->analysis();
    if (!a || row < 0 || row >= static_cast<int>(a->inputs.size())) return;
    context()->requestInputRemoval(QString::fromStdString(a->inputs[static_cast<size_t>(row)].path));
}

void OverviewPage::showEvidence(const QModelIndex& index)
{
    const core::Finding* f = m_findingsModel->findingAt(index);
    if (!f) return;
    const NavigationTarget target = navigationFor(*f, m_findingsModel->evidenceAt(index));
    if (!target.page.isEmpty()) context()->navigate(target);
}

void OverviewPage::openInWizard()
{
    const core::Finding* f = m_findingsModel->findingAt(m_findingsView->currentIndex());
    if (!f) return;
    const NavigationTarget target = wizardFor(*f);
    if (!target.page.isEmpty()) context()->navigate(target);
}

void OverviewPage::focusOn(const NavigationTarget& target)
{
    if (target.findingId.isEmpty()) return;
    const QModelIndex idx = m_findingsModel->indexOfFinding(target.findingId);
    if (!idx.isValid()) return;
    m_findingsView->setCurrentIndex(idx);
    m_findingsView->scrollTo(idx);
}

}  // namespace qatdoctor::ui
