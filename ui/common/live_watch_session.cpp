#include "ui/common/live_watch_session.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/common/app_context.h"

namespace qatdoctor::ui {

// What one read off the GUI thread brings back: the findings, a snapshot of the runs for the
// pages, and the paths the file-system watcher should follow now.
struct LiveWatchSession::ReadResult {
    core::WatchRead read;
    std::shared_ptr<const core::logs::LogSet> logs;
    QStringList paths;
};

namespace {

constexpr int kBurstMs = 150;
constexpr int kPollMs = 1000;
constexpr int kSnapshotMs = 1000;

}  // namespace

LiveWatchSession::LiveWatchSession(AppContext* context) : QObject(context), m_context(context)
{
    m_burst.setSingleShot(true);
    m_burst.setInterval(kBurstMs);
    m_poll.setInterval(kPollMs);
    connect(&m_burst, &QTimer::timeout, this, &LiveWatchSession::startRead);
    connect(&m_poll, &QTimer::timeout, this, &LiveWatchSession::requestRead);
    // a change starts the pause once: a log written without a break is still read every kBurstMs
    auto changed = [this] {
        if (!m_burst.isActive()) m_burst.start();
    };
    connect(&m_fsWatcher, &QFileSystemWatcher::fileChanged, this, changed);
    connect(&m_fsWatcher, &QFileSystemWatcher::directoryChanged, this, changed);
    // another project, or the same one analysed again: what is watched starts from it
    connect(context, &AppContext::analysisChanged, this, [this] {
        if (!active()) return;
        setActive(false);
        setActive(true);
    });
}

LiveWatchSession::~LiveWatchSession() = default;

void LiveWatchSession::setStatus(const QString& status)
{
    m_status = status;
    emit statusChanged(status);
}

void LiveWatchSession::setActive(bool on)
{
    if (on == active()) return;
    ++m_generation;  // a read under way belongs to the watch before
    m_burst.stop();
    m_poll.stop();
    if (!m_fsWatcher.files().isEmpty()) m_fsWatcher.removePaths(m_fsWatcher.files());
    if (!m_fsWatcher.directories().isEmpty()) m_fsWatcher.removePaths(m_fsWatcher.directories());
    m_watch.reset();
    m_logs.reset();
    m_fired.clear();
    m_reading = false;
    m_again = false;
    m_stale = false;
    m_lastSnapshot.invalidate();
    const AnalysisPtr analysis = m_context->analysis();
    if (on && (!analysis || analysis->logs.root.empty())) {
        setStatus(tr("No log folder loaded to watch."));
        emit activeChanged(false);
        return;
    }
    if (on) {
        // Continue from the loaded state: only what was appended since the load is parsed, and
        // what the analysis found is not announced again.
        std::shared_ptr<const core::logs::LogSet> loaded(analysis, &analysis->logs);
        m_watch = std::make_shared<core::LiveWatch>(std::vector<std::string>{analysis->logs.root},
                                                    core::rules::defaultThresholds(), loaded);
        m_watch->markReported(analysis->findings);
        m_logs = loaded;
        setStatus(tr("Watching %1").arg(QString::fromStdString(analysis->logs.root)));
        m_poll.start();
        startRead();
    } else {
        setStatus(QString());
    }
    emit activeChanged(on);
}

void LiveWatchSession::requestRead()
{
    startRead();
}

void LiveWatchSession::startRead()
{
    if (!m_watch) return;
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    const quint64 generation = m_generation;
    std::shared_ptr<core::LiveWatch> watch = m_watch;
    // The pages' copy of the runs costs a copy of every point: taken at most once a second
    // while the log grows (findings still come at every read)
    const bool stale = m_stale;
    const bool allowed = !m_lastSnapshot.isValid() || m_lastSnapshot.elapsed() >= kSnapshotMs;
    auto* watcher = new QFutureWatcher<std::shared_ptr<ReadResult>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<ReadResult>>::finished, this,
            [this, watcher, generation] {
                watcher->deleteLater();
                if (generation != m_generation) return;  // stopped or restarted meanwhile
                m_reading = false;
                finishRead(watcher->result());
                if (std::exchange(m_again, false)) startRead();
            });
    watcher->setFuture(QtConcurrent::run([watch, stale, allowed] {
        auto r = std::make_shared<ReadResult>();
        try {
            r->read = watch->read();
        } catch (const std::exception& e) {  // (out of memory): said, never the app's end
            r->read.notices.push_back(core::makeError("watch.read", e.what()));
            return r;
        }
        if ((r->read.grew && allowed) || stale)
            r->logs = std::make_shared<core::logs::LogSet>(watch->logs(0));
        for (const std::string& p : watch->watchedPaths()) r->paths << QString::fromStdString(p);
        return r;
    }));
}

void LiveWatchSession::finishRead(const std::shared_ptr<ReadResult>& result)
{
    // new files and run folders join the watched set
    QStringList missing;
    for (const QString& p : result->paths)
        if (!m_fsWatcher.files().contains(p) && !m_fsWatcher.directories().contains(p)) missing << p;
    if (!missing.isEmpty()) m_fsWatcher.addPaths(missing);
    if (result->logs) {
        m_logs = result->logs;
        m_stale = false;
        m_lastSnapshot.start();
        emit logsUpdated(m_logs);
    } else if (result->read.grew) {
        m_stale = true;  // the next read (the poll within a second) brings the pages' copy
    }
    if (!result->read.notices.empty())
        setStatus(QString::fromStdString(result->read.notices.back().toString()));
    if (result->read.fired.empty()) return;
    for (const core::WatchedFinding& f : result->read.fired) m_fired.push_back(f);
    emit findingsFired(result->read.fired);
}

void LiveWatchSession::readNow()
{
    if (!m_watch) return;
    const quint64 before = m_generation;
    startRead();
    while (m_reading && before == m_generation) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace qatdoctor::ui
