// The app's Watch mode: one live watch (core/live_watch.h) over the open analysis' log folder,
// shared by the Overview and Curves pages (their "Watch folder" boxes toggle it). Reads run off
// the GUI thread, one at a time, woken by the file-system watcher (a short pause lets a burst of
// lines arrive together) and by a poll every second for file systems that report nothing (NFS).
// Findings the analysis already shows are not announced again.
#pragma once

#include <QElapsedTimer>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

#include "core/live_watch.h"

namespace qatdoctor::ui {

class AppContext;

class LiveWatchSession : public QObject {
    Q_OBJECT
public:
    explicit LiveWatchSession(AppContext* context);
    ~LiveWatchSession() override;

    bool active() const { return m_watch != nullptr; }
    // Starts following the analysis' log root (nothing to follow: stays off and says why), or
    // stops.
    void setActive(bool on);
    // The runs as last read (null when not watching).
    std::shared_ptr<const core::logs::LogSet> logs() const { return m_logs; }
    // What fired since watching started, in order.
    const std::vector<core::WatchedFinding>& fired() const { return m_fired; }
    QString status() const { return m_status; }

    // For tests: read now and wait for it.
    void readNow();

signals:
    void activeChanged(bool on);
    void logsUpdated(std::shared_ptr<const core::logs::LogSet> logs);
    void findingsFired(const std::vector<qatdoctor::core::WatchedFinding>& fired);
    void statusChanged(const QString& status);

private:
    struct ReadResult;
    void requestRead();
    void startRead();
    void finishRead(const std::shared_ptr<ReadResult>& result);
    void setStatus(const QString& status);

    AppContext* m_context;
    std::shared_ptr<core::LiveWatch> m_watch;
    std::shared_ptr<const core::logs::LogSet> m_logs;
    std::vector<core::WatchedFinding> m_fired;
    QFileSystemWatcher m_fsWatcher;
    QTimer m_burst;  // a change seen: read after this pause
    QTimer m_poll;   // read this often anyway
    bool m_reading = false;
    bool m_again = false;  // a change came during a read
    bool m_stale = false;  // the runs grew since the pages' copy
    QElapsedTimer m_lastSnapshot;
    quint64 m_generation = 0;
    QString m_status;
};

}  // namespace qatdoctor::ui
