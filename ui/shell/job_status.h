// The status-bar part that shows any announced BackgroundJob: a label, a progress bar and a
// cancel button, visible only while a job runs.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace qatdoctor::ui {

class BackgroundJob;

class JobStatus : public QWidget {
    Q_OBJECT
public:
    explicit JobStatus(QWidget* parent = nullptr);
    void track(BackgroundJob* job);

private:
    void showJob(BackgroundJob* job, const QString& label);
    void hideJob(BackgroundJob* job);

    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
    BackgroundJob* m_active = nullptr;
};

}  // namespace qatdoctor::ui
