// The main window: a sidebar of pages over one shared Analysis. It wires pages, menus, the
// session and background loading together and owns no analysis logic (that is core::analyze).
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <functional>

#include "core/analysis.h"
#include "core/live_watch.h"
#include "ui/common/app_context.h"
#include "ui/shell/session_file.h"

class QLabel;
class QListWidget;
class QStackedWidget;
class QTimer;
class QPlainTextEdit;
class QDockWidget;
class QMenu;

namespace qatdoctor::ui {

class BackgroundJob;
class DesktopNotifier;
class JobStatus;
class Language;
class Page;
class SourceView;
class WelcomePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(const QString& dataDir, Language* language, QWidget* parent = nullptr);
    ~MainWindow() override;

    AppContext* context() const { return m_context; }

    // Adds inputs to the session and (re)analyses in the background.
    // Opens paths as the analysis, replacing what is open (with inputs open and a user to ask:
    // Replace, Add to it, or Cancel). addPaths adds them to the open analysis.
    void openPaths(const QStringList& paths);
    void addPaths(const QStringList& paths);
    // Drops one input (a path as opened) and analyses the rest again.
    void removeInput(const QString& path);
    void openDemo();
    // Compares the open analysis (A) with these paths (B, analysed in the background): the A | B
    // views, the dashed curves and the report's "What changed". stopComparing() ends it.
    void compareWith(const QStringList& paths);
    void stopComparing();
    bool openSession(const QString& path);
    void restoreAutosave();
    bool showPage(const QString& idAndTab);  // "model", or "fixedpoint:3" for its third tab
    // The source view of an evidence's file:line, a window of its own (several may be open).
    SourceView* openSource(const QString& file, qint64 line);
    QString currentPageId() const;
    bool isBusy() const;

    // Called once the current load (if any) is done; used by --screenshot.
    void whenIdle(std::function<void()> callback);
    // In headless runs, errors go to stderr instead of a dialog.
    void setHeadless(bool headless) { m_headless = headless; }
    QString lastError() const { return m_lastError; }

    static QString autosavePath();

    // How the last live error reached the desktop ("freedesktop", "tray", "window"; "" = none yet).
    QString lastNotification() const { return m_lastNotification; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void announceLiveFindings(const std::vector<core::WatchedFinding>& fired);
    void buildPages();
    void buildMenus();
    void startAnalysis(const QStringList& previousInputs);
    void applyAnalysis(core::Analysis analysis);
    void changeRole(const QString& run, const QString& role);
    void switchLanguage(const QString& code);
    void showError(const QString& title, const QString& message);
    void scheduleAutosave();
    void writeAutosave();
    Session currentSession() const;
    void saveSession(bool askPath);
    void newSession();
    void updateTitle();
    QString sessionName() const;
    void showAbout();
    void exportReport();
    void pastePrintedModel();
    void openFolderDialog();
    void openFileDialog();
    void addFilesDialog();
    void openSessionDialog();
    void rebuildRecentMenu();
    void runIdleCallbacks();
    void refreshComparison();
    void compareWithDialog(bool folder);

    AppContext* m_context;
    DesktopNotifier* m_notifier = nullptr;
    QString m_lastNotification;
    Language* m_language;
    QListWidget* m_sidebar = nullptr;
    QLabel* m_sessionLabel = nullptr;
    QStackedWidget* m_stack = nullptr;
    WelcomePanel* m_welcome = nullptr;
    std::vector<Page*> m_pages;
    BackgroundJob* m_loadJob;
    BackgroundJob* m_compareJob;
    JobStatus* m_jobStatus;
    QTimer* m_autosaveTimer;
    QDockWidget* m_notesDock = nullptr;
    QPlainTextEdit* m_notes = nullptr;
    QMenu* m_recentMenu = nullptr;

    Session m_session;
    QString m_sessionPath;  // named session file, "" until saved
    bool m_headless = false;
    QString m_lastError;
    std::vector<std::function<void()>> m_idleCallbacks;
};

}  // namespace qatdoctor::ui
