// The one way pages run long work off the GUI thread: QtConcurrent + a watcher owned by the
// job (so results never reach a dead widget), a job id so a superseded run's result is dropped,
// progress delivered on the GUI thread, and cancellation through core's ProgressFn.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <functional>
#include <memory>

#include "core/common/progress.h"

namespace qatdoctor::ui {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    explicit BackgroundJob(QObject* owner) : QObject(owner) {}
    // The owner is going away (a closed window): the work is told to stop, so it does not keep
    // the application's exit waiting on the thread pool, nor wait for a GUI thread that is gone.
    ~BackgroundJob() override
    {
        if (m_cancelFlag) m_cancelFlag->store(true);
    }

    // Runs work(progress) on the thread pool; onDone(result) runs on the GUI thread unless the
    // job was cancelled or superseded by a later start().
    template <class T>
    void start(const QString& label, std::function<T(const core::ProgressFn&)> work,
               std::function<void(T)> onDone)
    {
        cancel();
        const quint64 id = ++m_currentId;
        auto cancelled = std::make_shared<std::atomic<bool>>(false);
        m_cancelFlag = cancelled;
        QPointer<BackgroundJob> self(this);
        core::ProgressFn progress = [self, id, cancelled](double f, std::string_view stage) {
            if (cancelled->load()) return false;
            const QString s = QString::fromUtf8(stage.data(), static_cast<int>(stage.size()));
            QMetaObject::invokeMethod(
                self,
                [self, id, f, s] {
                    if (self && self->m_currentId == id) emit self->progress(f, s);
                },
                Qt::QueuedConnection);
            return !cancelled->load();
        };
        auto* watcher = new QFutureWatcher<T>(this);
        connect(watcher, &QFutureWatcher<T>::finished, this, [this, watcher, id, cancelled, onDone] {
            watcher->deleteLater();
            if (id != m_currentId) return;  // superseded
            m_running = false;
            emit finished();
            if (!cancelled->load()) onDone(watcher->result());
        });
        m_running = true;
        emit started(label);
        watcher->setFuture(QtConcurrent::run([work, progress] { return work(progress); }));
    }

    void cancel()
    {
        if (m_cancelFlag) m_cancelFlag->store(true);
        if (m_running) {
            m_running = false;
            ++m_currentId;  // drop whatever the cancelled work returns
            emit finished();
            emit cancelled();
        }
    }
    bool running() const { return m_running; }

signals:
    void started(const QString& label);
    void progress(double fraction, const QString& stage);
    void finished();
    void cancelled();

private:
    quint64 m_currentId = 0;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
};

}  // namespace qatdoctor::ui
