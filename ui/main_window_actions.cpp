// MainWindow's menus and the actions behind them (files, session, language, help).
#include <google/protobuf/stubs/common.h>
#include <qcustomplot.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <nlohmann/json.hpp>

#include "core/artifacts/artifacts_api.h"
#include "core/common/version.h"
#include "ui/common/background_job.h"
#include "ui/main_window.h"
#include "ui/pages/page.h"
#include "ui/pages/paste_model_dialog.h"
#include "ui/shell/language.h"
#include "ui/shell/recent_files.h"
#include "ui/shell/source_view.h"
#include "ui/shell/welcome_panel.h"

namespace qatdoctor::ui {

SourceView* MainWindow::openSource(const QString& file, qint64 line)
{
    if (file.isEmpty()) return nullptr;
    auto* view = new SourceView(file, line, this);
    view->show();
    return view;
}

void MainWindow::buildMenus()
{
    menuBar()->clear();
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Open &log folder…"), QKeySequence::Open, this, &MainWindow::openFolderDialog);
    file->addAction(tr("Open &model or debug file…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                    &MainWindow::openFileDialog);
    file->addAction(tr("&Add to this analysis…"), QKeySequence(tr("Ctrl+Shift+A")), this,
                    &MainWindow::addFilesDialog);
    file->addAction(tr("&Paste printed model…"), QKeySequence(tr("Ctrl+Shift+V")), this,
                    &MainWindow::pastePrintedModel);
    QMenu* compare = file->addMenu(tr("&Compare with…"));
    compare->setToolTip(tr("Open a second attempt (B, after a change) next to this one (A)"));
    compare->addAction(tr("&Folder…"), QKeySequence(tr("Ctrl+Shift+D")), this,
                       [this] { compareWithDialog(true); });
    compare->addAction(tr("F&ile…"), this, [this] { compareWithDialog(false); });
    QAction* stop = compare->addAction(tr("&Stop comparing"), this, &MainWindow::stopComparing);
    stop->setEnabled(m_context->comparison() != nullptr);
    connect(m_context, &AppContext::comparisonChanged, stop,
            [stop](const ComparisonPtr& c) { stop->setEnabled(c != nullptr); });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("Open &demo"), this, &MainWindow::openDemo);
    file->addSeparator();
    file->addAction(tr("&New session"), QKeySequence::New, this, &MainWindow::newSession);
    file->addAction(tr("Open &session…"), this, &MainWindow::openSessionDialog);
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveSession(false); });
    file->addAction(tr("Save session &as…"), QKeySequence::SaveAs, this, [this] { saveSession(true); });
    file->addSeparator();
    file->addAction(tr("&Export report…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportReport);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int row = 0; row < static_cast<int>(m_pages.size()); ++row) {
        Page* page = m_pages[static_cast<size_t>(row)];
        const QString id = page->id();
        view->addAction(page->title(), QKeySequence(QString("Ctrl+%1").arg(row + 1)), this,
                        [this, id] { showPage(id); });
    }
    view->addSeparator();
    m_notesDock->setWindowTitle(tr("Notes"));
    QAction* notes = m_notesDock->toggleViewAction();
    notes->setText(tr("&Notes"));
    view->addAction(notes);

    QMenu* language = menuBar()->addMenu(tr("&Language"));
    auto* group = new QActionGroup(language);
    for (auto [code, label] : {std::pair{"zh_CN", "中文"}, std::pair{"en", "English"}}) {
        QAction* a = language->addAction(QString::fromUtf8(label));
        a->setCheckable(true);
        a->setChecked(m_language->current() == code);
        group->addAction(a);
        const QString c = code;
        // Deferred: switching rebuilds the menu bar that owns this action.
        connect(a, &QAction::triggered, this,
                [this, c] { QTimer::singleShot(0, this, [this, c] { switchLanguage(c); }); });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About QAT Doctor"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList recent = RecentFiles::load();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openPaths({path}); });
    if (recent.isEmpty()) m_recentMenu->addAction(tr("(empty)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear list"), this, [this] {
        RecentFiles::clear();
        rebuildRecentMenu();
        m_welcome->refreshRecent();
    });
}

void MainWindow::openFolderDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open training log folder"));
    if (!dir.isEmpty()) openPaths({dir});
}

void MainWindow::openFileDialog()
{
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Open model, log or debug file"), QString(),
                                      tr("Models, checkpoints and debug files (*.onnx *.pt *.pth *.ckpt "
                                         "*.bin *.txt *.csv *.log *.jsonl *.json);;"
                                         "QAT Doctor session (*.qatdoctor);;All files (*)"));
    QStringList inputs;
    for (const QString& f : files) {
        if (f.endsWith(".qatdoctor"))
            openSession(f);
        else
            inputs << f;
    }
    if (!inputs.isEmpty()) openPaths(inputs);
}

// Files or a folder added to the open analysis (a model after the logs, another run's folder).
void MainWindow::addFilesDialog()
{
    QFileDialog dialog(this, tr("Add to this analysis"));
    dialog.setFileMode(QFileDialog::ExistingFiles);
    dialog.setOption(QFileDialog::DontUseNativeDialog);  // lets a folder be chosen too
    dialog.setNameFilter(tr("Logs, models and debug files (*)"));
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
        addPaths(dialog.selectedFiles());
}

void MainWindow::pastePrintedModel()
{
    const std::optional<QString> text = askForPrintedModel(this);
    if (!text) return;
    // Pasted text becomes a file next to the autosave, so the session can reopen it like any input.
    const QString folder = QFileInfo(autosavePath()).absolutePath() + "/pasted";
    QDir().mkpath(folder);
    auto saved = core::artifacts::savePastedText(text->toStdString(), folder.toStdString());
    if (!saved) {
        showError(tr("Cannot keep the pasted text"), QString::fromStdString(saved.error().toString()));
        return;
    }
    addPaths({QString::fromStdString(*saved)});
}

void MainWindow::exportReport()
{
    // The report page owns export; it exposes an "exportReport" slot.
    for (Page* p : m_pages) {
        if (p->id() != "report") continue;
        showPage("report");
        QMetaObject::invokeMethod(p, "exportReport");
        return;
    }
}

Session MainWindow::currentSession() const
{
    Session s = m_session;
    s.pages = m_context->allPageState();
    return s;
}

QString MainWindow::autosavePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return QDir(dir).filePath("autosave.qatdoctor");
}

void MainWindow::scheduleAutosave()
{
    m_autosaveTimer->start();
}

void MainWindow::writeAutosave()
{
    m_autosaveTimer->stop();
    const Session s = currentSession();
    auto r = writeSessionFile(autosavePath(), s);
    if (!r)
        statusBar()->showMessage(tr("Autosave failed: %1").arg(QString::fromStdString(r.error().toString())),
                                 8000);
    if (m_sessionPath.isEmpty()) return;
    if (auto saved = writeSessionFile(m_sessionPath, s); !saved)
        statusBar()->showMessage(
            tr("Saving the session failed: %1").arg(QString::fromStdString(saved.error().toString())), 8000);
}

void MainWindow::saveSession(bool askPath)
{
    QString path = m_sessionPath;
    if (askPath || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save session"), QString(),
                                            tr("QAT Doctor session (*.qatdoctor)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(".qatdoctor")) path += ".qatdoctor";
    }
    auto r = writeSessionFile(path, currentSession());
    if (!r) {
        showError(tr("Cannot save session"), QString::fromStdString(r.error().toString()));
        return;
    }
    m_sessionPath = path;
    RecentFiles::add(path);
    rebuildRecentMenu();
    updateTitle();
    statusBar()->showMessage(tr("Session saved to %1").arg(path), 4000);
}

bool MainWindow::openSession(const QString& path)
{
    auto s = readSessionFile(path);
    if (!s) {
        showError(tr("Cannot open session"), QString::fromStdString(s.error().toString()));
        return false;
    }
    if (!path.isEmpty() && path != autosavePath()) m_sessionPath = path;
    m_session = *s;
    m_notes->blockSignals(true);
    m_notes->setPlainText(m_session.notes);
    m_notes->blockSignals(false);
    m_context->restorePageState(m_session.pages);
    // a comparison of the previous session (even one still loading) ends; this one's starts
    m_compareJob->cancel();
    m_context->setComparison(nullptr);
    if (!m_session.comparedWith.isEmpty()) compareWith(m_session.comparedWith);
    // an input that cannot be read (a folder moved, a drive not mounted) must not vanish from the
    // session: a failed load keeps the session's inputs, so the autosave that follows does not
    // write the user's session file back without them
    startAnalysis(m_session.inputs);
    updateTitle();
    return true;
}

void MainWindow::restoreAutosave()
{
    if (QFileInfo::exists(autosavePath())) {
        auto s = readSessionFile(autosavePath());
        if (s && !s->isEmpty()) openSession(autosavePath());
    }
}

void MainWindow::newSession()
{
    m_loadJob->cancel();
    stopComparing();
    m_session = Session{};
    m_sessionPath.clear();
    m_notes->clear();
    m_context->restorePageState({});
    applyAnalysis(core::Analysis{});
    showPage("start");
    updateTitle();
}

void MainWindow::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                      tr("QAT Doctor session (*.qatdoctor)"));
    if (!path.isEmpty()) openSession(path);
}

void MainWindow::showAbout()
{
    const QString text =
        tr("<h3>QAT Doctor %1</h3>"
           "<p>A troubleshooting assistant for quantization-aware training: training curves, "
           "model dtypes, fixed-point simulation and the FAQ as a guided wizard.</p>")
            .arg(core::kVersion) +
        QStringLiteral("<p>Qt %1 · QCustomPlot %2 · protobuf %3 · nlohmann_json %4.%5.%6</p>")
            .arg(qVersion(), QCUSTOMPLOT_VERSION_STR,
                 QString::fromStdString(google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION)))
            .arg(NLOHMANN_JSON_VERSION_MAJOR)
            .arg(NLOHMANN_JSON_VERSION_MINOR)
            .arg(NLOHMANN_JSON_VERSION_PATCH);
    QMessageBox::about(this, tr("About QAT Doctor"), text);
}

}  // namespace qatdoctor::ui
