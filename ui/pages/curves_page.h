// The Training-curves page: float, calibration, QAT and quantized runs overlaid by role colour.
// Left: the runs (with a role combo each: changing it asks the main window to re-run the checks)
// and the metrics (each checked metric is one stacked plot sharing the x axis). Top: x axis
// mode, log-y, smoothing, box zoom, reset, export, live watching. Bottom: the crosshair readout.
#pragma once

#include <memory>

#include "ui/pages/page.h"
#include "ui/plots/curve_plot.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QListWidget;
class QSlider;
class QTableWidget;
class QToolButton;

namespace qatdoctor::ui {

class BackgroundJob;

class CurvesPage : public Page {
    Q_OBJECT
public:
    explicit CurvesPage(AppContext* context, QWidget* parent = nullptr);
    ~CurvesPage() override;

    QString id() const override { return QStringLiteral("curves"); }
    QString title() const override { return tr("Training curves"); }
    void focusOn(const NavigationTarget& target) override;

    // For tests: the plot, and choosing metrics / live watching programmatically.
    CurvePlot* plot() const { return m_plot; }
    void setMetrics(const QStringList& metrics);
    QStringList metrics() const;
    void setLiveWatching(bool on);
    bool exportPlot(const QString& path);
    // How the run's series were read (layout, file, source lines): computed off the GUI thread,
    // then shown in a window (the CLI's `logs --explain` text). For tests: the window's text.
    void explainRun(int row);
    QString lastExplanation() const { return m_lastExplanation; }
    void setRunFilter(const QString& text);
    void setRunShown(const QString& run, bool shown);
    bool showsEmptyState() const;
    QString emptyText() const;

private:
    void buildUi();
    void setAnalysis(AnalysisPtr analysis);
    void setLogs(std::shared_ptr<const core::logs::LogSet> logs, bool keepView = false);
    void fillRuns();
    void fillMetrics();
    void replot(bool keepView = false);
    // Marks of what Watch mode found while the run was written (ui/common/live_watch_session.h).
    std::vector<CurveMark> liveMarks() const;
    // The analysis' marks and Watch mode's on the plot (a live finding changes only these).
    void updateMarks();
    void applyRunVisibility();
    void showEmptyState();
    // Evidence points of the findings and crash/error events of the logs, for the plot.
    static std::vector<CurveMark> marksOf(const core::Analysis* analysis, const core::logs::LogSet* logs,
                                          core::Lang lang);

    std::shared_ptr<const core::logs::LogSet> m_logs;
    // B's logs while two attempts are compared (drawn dashed), else null
    std::shared_ptr<const core::logs::LogSet> comparedLogs() const;
    AnalysisPtr m_analysis;
    CurvePlot* m_plot = nullptr;
    QTableWidget* m_runs = nullptr;
    QListWidget* m_metricList = nullptr;
    QComboBox* m_xMode = nullptr;
    QComboBox* m_yMode = nullptr;
    QCheckBox* m_difference = nullptr;
    QLineEdit* m_runFilter = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_empty = nullptr;
    QSlider* m_smoothing = nullptr;
    QLabel* m_smoothingValue = nullptr;
    QToolButton* m_boxZoom = nullptr;
    QCheckBox* m_live = nullptr;
    QLabel* m_status = nullptr;
    bool m_filling = false;

    BackgroundJob* m_explainJob = nullptr;
    QString m_lastExplanation;
};

}  // namespace qatdoctor::ui
