#include "ui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdio>

#include "core/common/input_set_name.h"
#include "core/common/number_text.h"
#include "ui/common/background_job.h"
#include "ui/common/live_watch_session.h"
#include "ui/pages/overview/finding_navigation.h"
#include "ui/pages/page.h"
#include "ui/pages/page_registry.h"
#include "ui/shell/desktop_notifier.h"
#include "ui/shell/job_status.h"
#include "ui/shell/language.h"
#include "ui/shell/recent_files.h"
#include "ui/shell/welcome_panel.h"

namespace qatdoctor::ui {

namespace {
constexpr int kStartRow = 0;  // sidebar row 0 is the Start (welcome) panel; pages follow
}

MainWindow::MainWindow(const QString& dataDir, Language* language, QWidget* parent)
    : QMainWindow(parent),
      m_context(new AppContext(this)),
      m_language(language),
      m_loadJob(new BackgroundJob(this)),
      m_compareJob(new BackgroundJob(this)),
      m_jobStatus(new JobStatus(this)),
      m_autosaveTimer(new QTimer(this))
{
    m_context->setDataDir(dataDir);
    m_context->setLang(language->current().startsWith("zh") ? core::Lang::Zh : core::Lang::En);
    setAcceptDrops(true);
    setMinimumSize(900, 600);

    auto* splitter = new QSplitter(this);
    // Left column: what is open (session name + input count) above the page list.
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    m_sessionLabel = new QLabel(left);
    m_sessionLabel->setObjectName("sessionLabel");
    m_sessionLabel->setWordWrap(true);
    m_sessionLabel->setStyleSheet(
        "QLabel#sessionLabel { padding: 10px 8px; background: #1f4e79; color: white; }");
    m_sidebar = new QListWidget(left);
    leftLayout->addWidget(m_sessionLabel);
    leftLayout->addWidget(m_sidebar, 1);
    m_sidebar->setObjectName("sidebar");
    left->setMinimumWidth(170);
    left->setMaximumWidth(260);
    m_sidebar->setIconSize(QSize(20, 20));
    // The page names fit (buildPages sizes the column to them): never a horizontal scrollbar.
    m_sidebar->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_sidebar->setTextElideMode(Qt::ElideRight);
    m_sidebar->setStyleSheet(
        "QListWidget#sidebar { font-size: 11pt; } "
        "QListWidget#sidebar::item { padding: 8px 6px; }");
    m_stack = new QStackedWidget(splitter);
    splitter->addWidget(left);
    splitter->addWidget(m_stack);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);
    connect(m_sidebar, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);

    m_notesDock = new QDockWidget(this);
    m_notesDock->setObjectName("notesDock");
    m_notes = new QPlainTextEdit(m_notesDock);
    m_notesDock->setWidget(m_notes);
    addDockWidget(Qt::RightDockWidgetArea, m_notesDock);
    m_notesDock->hide();
    connect(m_notes, &QPlainTextEdit::textChanged, this, [this] {
        m_session.notes = m_notes->toPlainText();
        scheduleAutosave();
    });

    statusBar()->addPermanentWidget(m_jobStatus);
    m_jobStatus->track(m_loadJob);
    m_jobStatus->track(m_compareJob);
    connect(m_compareJob, &BackgroundJob::cancelled, this, &MainWindow::runIdleCallbacks);
    connect(m_context, &AppContext::jobAnnounced, m_jobStatus, &JobStatus::track);
    connect(m_context, &AppContext::roleChangeRequested, this, &MainWindow::changeRole);
    connect(m_context, &AppContext::inputRemovalRequested, this, &MainWindow::removeInput);
    connect(m_context, &AppContext::navigationRequested, this, [this](const NavigationTarget& requested) {
        const AnalysisPtr analysis = m_context->analysis();
        const NavigationTarget t = routedTo(requested, analysis.get());
        if (t.page == QLatin1String("source")) {
            openSource(t.file, t.line);
            return;
        }
        if (!showPage(t.page)) return;
        for (Page* p : m_pages)
            if (p->id() == t.page) p->focusOn(t);
    });
    connect(m_context, &AppContext::pageStateChanged, this, [this] { scheduleAutosave(); });
    // Watch mode: a finding made while the run is written is said in the status bar, and an
    // error reaches the desktop too (the window is often behind the terminal running the job)
    m_notifier = new DesktopNotifier(this);
    connect(m_context->liveWatch(), &LiveWatchSession::findingsFired, this,
            &MainWindow::announceLiveFindings);

    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(1500);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::writeAutosave);

    buildPages();
    buildMenus();
    updateTitle();

    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) resize(1280, 800);
    restoreState(settings.value("window/state").toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::announceLiveFindings(const std::vector<core::WatchedFinding>& fired)
{
    const core::Lang lang = m_context->lang();
    const core::WatchedFinding* worst = &fired.front();
    for (const core::WatchedFinding& f : fired)
        if (f.live.finding.severity > worst->live.finding.severity) worst = &f;
    const core::Finding& f = worst->live.finding;
    const QString title = QString::fromStdString(f.title.in(lang));
    QString where = QString::fromStdString(worst->live.run);
    if (worst->live.step)
        where += tr(", step %1").arg(QString::fromStdString(core::fullNumber(*worst->live.step)));
    QString told;
    if (f.severity == core::Severity::Error) {
        const DesktopNotifier::Channel channel =
            m_notifier->notify(tr("Training problem: %1").arg(QString::fromStdString(f.id)), title);
        told = tr(" (desktop notified: %1)").arg(DesktopNotifier::channelName(channel));
        m_lastNotification = DesktopNotifier::channelName(channel);
    }
    statusBar()->showMessage(tr("Live: %1 — %2%3").arg(title, where, told));
}

void MainWindow::buildPages()
{
    const QString current = currentPageId();
    m_sidebar->blockSignals(true);
    m_sidebar->clear();
    while (m_stack->count() > 0) {
        QWidget* w = m_stack->widget(0);
        m_stack->removeWidget(w);
        w->deleteLater();
    }
    m_pages.clear();

    m_welcome = new WelcomePanel(QDir(m_context->demoDir()).exists(), m_stack);
    connect(m_welcome, &WelcomePanel::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_welcome, &WelcomePanel::openModelRequested, this, &MainWindow::openFileDialog);
    connect(m_welcome, &WelcomePanel::openDemoRequested, this, &MainWindow::openDemo);
    connect(m_welcome, &WelcomePanel::openPathRequested, this, [this](const QString& p) { openPaths({p}); });
    m_stack->addWidget(m_welcome);
    new QListWidgetItem(QIcon(":/icons/page-start.svg"), tr("Start"), m_sidebar);

    m_pages = createPages(m_context, m_stack);
    for (Page* page : m_pages) {
        m_stack->addWidget(page);
        // Pages may bring their own icon; otherwise the shell's icon for the page id is used.
        const QIcon icon =
            page->icon().isNull() ? QIcon(":/icons/page-" + page->id() + ".svg") : page->icon();
        auto* item = new QListWidgetItem(icon, page->title(), m_sidebar);
        item->setData(Qt::UserRole, page->id());
    }
    m_sidebar->blockSignals(false);
    const int names = m_sidebar->sizeHintForColumn(0) + 2 * m_sidebar->frameWidth() + 4;
    m_sidebar->parentWidget()->setMinimumWidth(std::clamp(names, 170, 260));
    // Pages built after a language switch must see the analysis that is already loaded.
    if (m_context->analysis()) emit m_context->analysisChanged(m_context->analysis());
    if (!showPage(current)) m_sidebar->setCurrentRow(kStartRow);
}

bool MainWindow::showPage(const QString& idAndTab)
{
    // "fixedpoint:3" shows the page's third tab too, so a screenshot can reach every tab.
    const QString id = idAndTab.section(':', 0, 0);
    const QString tab = idAndTab.section(':', 1);
    if (id == "start") {
        m_sidebar->setCurrentRow(kStartRow);
        return tab.isEmpty();
    }
    for (int row = 1; row < m_sidebar->count(); ++row) {
        if (m_sidebar->item(row)->data(Qt::UserRole).toString() != id) continue;
        m_sidebar->setCurrentRow(row);
        if (tab.isEmpty()) return true;
        bool isNumber = false;
        const int index = tab.toInt(&isNumber) - 1;
        auto* tabs = m_stack->widget(row)->findChild<QTabWidget*>();
        if (!isNumber || !tabs || index < 0 || index >= tabs->count()) return false;
        tabs->setCurrentIndex(index);
        return true;
    }
    return false;
}

QString MainWindow::currentPageId() const
{
    const int row = m_sidebar ? m_sidebar->currentRow() : -1;
    if (row <= kStartRow) return row == kStartRow ? "start" : QString();
    return m_sidebar->item(row)->data(Qt::UserRole).toString();
}

bool MainWindow::isBusy() const
{
    return m_loadJob->running() || m_compareJob->running();
}

void MainWindow::openPaths(const QStringList& paths)
{
    // Opening another project used to merge it into the open one: runs renamed "float (2)",
    // findings comparing one project's runs with the other's. Open replaces; adding is a choice.
    if (!m_session.inputs.isEmpty() && !m_headless) {
        QMessageBox box(QMessageBox::Question, tr("Open"),
                        tr("An analysis is open (%n input(s)). Replace it with what you open, or add to it?",
                           nullptr, static_cast<int>(m_session.inputs.size())),
                        QMessageBox::Cancel, this);
        QPushButton* replace = box.addButton(tr("Replace"), QMessageBox::AcceptRole);
        QPushButton* add = box.addButton(tr("Add to it"), QMessageBox::ActionRole);
        box.setDefaultButton(replace);
        box.exec();
        if (box.clickedButton() == add) return addPaths(paths);
        if (box.clickedButton() != replace) return;
    }
    newSession();
    addPaths(paths);
}

void MainWindow::addPaths(const QStringList& paths)
{
    const QStringList previous = m_session.inputs;
    for (const QString& p : paths) {
        const QString abs = QFileInfo(p).absoluteFilePath();
        if (!m_session.inputs.contains(abs)) m_session.inputs << abs;
        RecentFiles::add(abs);
    }
    rebuildRecentMenu();
    m_welcome->refreshRecent();
    startAnalysis(previous);
}

void MainWindow::removeInput(const QString& path)
{
    const QStringList previous = m_session.inputs;
    const QString abs = QFileInfo(path).absoluteFilePath();
    if (!m_session.inputs.removeAll(abs) && !m_session.inputs.removeAll(path)) return;
    startAnalysis(previous);
}

void MainWindow::openDemo()
{
    // The demo folder itself, as `qatdoctor-cli analyze resources/demo` reads it: same inputs,
    // same runs, same findings in the app and on the command line.
    const QDir demo(m_context->demoDir());
    if (!QFileInfo::exists(demo.filePath("logs"))) {
        showError(tr("Demo not found"), tr("The demo data is missing from %1.").arg(demo.path()));
        return;
    }
    openPaths({demo.path()});
}

void MainWindow::startAnalysis(const QStringList& previousInputs)
{
    core::AnalyzeOptions options;
    for (const QString& p : m_session.inputs) options.paths.push_back(p.toStdString());
    for (auto it = m_session.roles.begin(); it != m_session.roles.end(); ++it)
        options.roleOverrides[it.key().toStdString()] = it.value().toStdString();
    options.expectPath = m_session.expectPath.toStdString();
    if (options.paths.empty()) {
        applyAnalysis(core::Analysis{});
        return;
    }
    m_loadJob->start<core::Result<core::Analysis>>(
        tr("Loading %n input(s)…", nullptr, static_cast<int>(options.paths.size())),
        [options](const core::ProgressFn& progress) { return core::analyze(options, progress); },
        [this, previousInputs](core::Result<core::Analysis> result) {
            if (!result) {
                // Keep what was loaded before; only the new inputs are dropped.
                m_session.inputs = previousInputs;
                showError(tr("Cannot open"), QString::fromStdString(result.error().toString()));
                runIdleCallbacks();
                return;
            }
            applyAnalysis(std::move(result).value());
        });
    connect(
        m_loadJob, &BackgroundJob::cancelled, this,
        [this, previousInputs] {
            m_session.inputs = previousInputs;
            statusBar()->showMessage(tr("Loading cancelled."), 4000);
            runIdleCallbacks();
        },
        Qt::SingleShotConnection);
}

void MainWindow::applyAnalysis(core::Analysis analysis)
{
    const bool wasEmpty = !m_context->analysis() || m_context->analysis()->inputs.empty();
    const size_t findings = analysis.findings.size();
    const bool hasInputs = !analysis.inputs.empty();
    m_context->setAnalysis(std::make_shared<const core::Analysis>(std::move(analysis)));
    refreshComparison();
    updateTitle();
    scheduleAutosave();
    if (hasInputs) {
        statusBar()->showMessage(
            tr("Loaded %n input(s), %1 finding(s).", nullptr, m_session.inputs.size()).arg(findings), 6000);
        if (wasEmpty && currentPageId() == "start") showPage("overview");
    }
    runIdleCallbacks();
}

void MainWindow::changeRole(const QString& run, const QString& role)
{
    auto current = m_context->analysis();
    const auto parsed = core::logs::parseRole(role.toStdString());
    if (!current || !parsed) return;
    core::Analysis copy = *current;
    for (auto& r : copy.logs.runs) {
        if (QString::fromStdString(r.name) != run) continue;
        r.role = *parsed;
        r.roleReason = "set by the user";
    }
    core::runChecks(copy);  // checks are cheap; loading is what runs in the background
    m_session.roles[run] = role;
    applyAnalysis(std::move(copy));
}

void MainWindow::whenIdle(std::function<void()> callback)
{
    if (!isBusy()) {
        callback();
        return;
    }
    m_idleCallbacks.push_back(std::move(callback));
}

void MainWindow::runIdleCallbacks()
{
    auto callbacks = std::move(m_idleCallbacks);
    m_idleCallbacks.clear();
    for (auto& cb : callbacks) cb();
}

void MainWindow::showError(const QString& title, const QString& message)
{
    m_lastError = message;
    if (m_headless) {
        std::fprintf(stderr, "qatdoctor: %s: %s\n", qPrintable(title), qPrintable(message));
        return;
    }
    statusBar()->showMessage(message, 8000);
    QMessageBox::warning(this, title, message);
}

QString MainWindow::sessionName() const
{
    if (!m_sessionPath.isEmpty()) return QFileInfo(m_sessionPath).completeBaseName();
    std::vector<std::string> paths;
    for (const QString& input : m_session.inputs) paths.push_back(input.toStdString());
    // The same name the report puts on its title page (core/common/input_set_name.h).
    return QString::fromStdString(core::inputSetName(paths));
}

void MainWindow::updateTitle()
{
    const QString name = sessionName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("QAT Doctor") : name + QStringLiteral(" — QAT Doctor"));
    if (name.isEmpty()) {
        m_sessionLabel->setText(
            QStringLiteral("<b>QAT Doctor</b><br><small>%1</small>").arg(tr("nothing open")));
    } else {
        m_sessionLabel->setText(
            QStringLiteral("<b>%1</b><br><small>%2</small>")
                .arg(name.toHtmlEscaped(),
                     tr("%n input(s)", nullptr, static_cast<int>(m_session.inputs.size()))));
    }
    QString tip = m_session.inputs.join('\n');
    if (const ComparisonPtr c = m_context->comparison()) {
        m_sessionLabel->setText(
            m_sessionLabel->text() +
            QStringLiteral("<br><small>%1</small>")
                .arg(
                    tr("compared with %1").arg(QString::fromStdString(c->comparison.nameB)).toHtmlEscaped()));
        tip += QStringLiteral("\n\n") + tr("Compared with:") + QStringLiteral("\n") + c->paths.join('\n');
    }
    m_sessionLabel->setToolTip(tip);
}

void MainWindow::switchLanguage(const QString& code)
{
    if (code == m_language->current()) return;
    m_language->choose(code);
    m_context->setLang(code.startsWith("zh") ? core::Lang::Zh : core::Lang::En);
    // Rebuilding is simpler and more reliable than retranslating every widget by hand: pages
    // restore their state from the AppContext (analysis + page state).
    buildPages();
    buildMenus();
    updateTitle();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_loadJob->cancel();
    writeAutosave();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    QString session;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (!url.isLocalFile()) continue;
        const QString p = url.toLocalFile();
        if (p.endsWith(".qatdoctor"))
            session = p;
        else
            paths << p;
    }
    event->acceptProposedAction();
    if (!session.isEmpty()) openSession(session);
    if (!paths.isEmpty()) addPaths(paths);  // dropped on the window: added to what is open
}

}  // namespace qatdoctor::ui
