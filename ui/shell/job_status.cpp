#include "ui/shell/job_status.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include "ui/common/background_job.h"
#include "ui/shell/progress_text.h"

namespace qatdoctor::ui {

JobStatus::JobStatus(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel(this);
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 1000);
    m_bar->setMaximumWidth(220);
    m_bar->setTextVisible(false);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop this work (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        if (m_active) m_active->cancel();
    });
    setVisible(false);
}

void JobStatus::track(BackgroundJob* job)
{
    connect(job, &BackgroundJob::started, this, [this, job](const QString& label) { showJob(job, label); });
    connect(job, &BackgroundJob::progress, this, [this, job](double f, const QString& stage) {
        if (job != m_active) return;
        m_bar->setValue(static_cast<int>(f * 1000));
        m_label->setText(progressText(stage));
    });
    connect(job, &BackgroundJob::finished, this, [this, job] { hideJob(job); });
    connect(job, &QObject::destroyed, this, [this, job] {
        if (m_active == job) {
            m_active = nullptr;
            setVisible(false);
        }
    });
}

void JobStatus::showJob(BackgroundJob* job, const QString& label)
{
    m_active = job;
    m_label->setText(label);
    m_bar->setValue(0);
    setVisible(true);
}

void JobStatus::hideJob(BackgroundJob* job)
{
    if (job != m_active) return;
    m_active = nullptr;
    setVisible(false);
}

}  // namespace qatdoctor::ui
