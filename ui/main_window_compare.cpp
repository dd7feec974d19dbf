// MainWindow's comparison of two attempts (File ▸ Compare with…): B's paths are analysed off the
// GUI thread as the open inputs are; the comparison itself (core::compare) takes milliseconds, so
// it is made again on the GUI thread whenever A changes (a role corrected, an input added).
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include "ui/common/background_job.h"
#include "ui/main_window.h"

namespace qatdoctor::ui {

void MainWindow::compareWith(const QStringList& paths)
{
    if (paths.isEmpty()) return;
    QStringList absolute;
    for (const QString& p : paths) absolute << QFileInfo(p).absoluteFilePath();
    core::AnalyzeOptions options;
    for (const QString& p : absolute) options.paths.push_back(p.toStdString());
    m_compareJob->start<core::Result<core::Analysis>>(
        tr("Loading the attempt to compare with…"),
        [options](const core::ProgressFn& progress) { return core::analyze(options, progress); },
        [this, absolute](core::Result<core::Analysis> result) {
            if (!result) {
                showError(tr("Cannot compare"), QString::fromStdString(result.error().toString()));
                runIdleCallbacks();
                return;
            }
            auto state = std::make_shared<ComparisonState>();
            state->paths = absolute;
            state->other = std::make_shared<const core::Analysis>(std::move(result).value());
            static const core::Analysis kNothingOpen;
            const AnalysisPtr a = m_context->analysis();
            state->comparison = core::compare::compareAnalyses(a ? *a : kNothingOpen, *state->other);
            m_session.comparedWith = absolute;
            m_context->setComparison(std::move(state));
            updateTitle();
            scheduleAutosave();
            statusBar()->showMessage(QString::fromStdString(core::compare::comparisonSummary(
                                         m_context->comparison()->comparison, m_context->lang())),
                                     10000);
            runIdleCallbacks();
        });
}

void MainWindow::stopComparing()
{
    m_compareJob->cancel();
    m_session.comparedWith.clear();
    m_context->setComparison(nullptr);
    updateTitle();
    scheduleAutosave();
}

void MainWindow::refreshComparison()
{
    const ComparisonPtr current = m_context->comparison();
    const AnalysisPtr a = m_context->analysis();
    if (!current) return;
    if (!a || a->inputs.empty()) {
        stopComparing();
        return;
    }
    auto state = std::make_shared<ComparisonState>(*current);
    state->comparison = core::compare::compareAnalyses(*a, *state->other);
    m_context->setComparison(std::move(state));
}

void MainWindow::compareWithDialog(bool folder)
{
    const QString path =
        folder ? QFileDialog::getExistingDirectory(this, tr("Compare with folder (B, after the change)"))
               : QFileDialog::getOpenFileName(this, tr("Compare with file (B, after the change)"));
    if (!path.isEmpty()) compareWith({path});
}

}  // namespace qatdoctor::ui
