// The training-curves plot: runs overlaid by role colour, one stacked axis rect per metric
// with a shared x axis, TensorBoard smoothing with the raw curve faint behind, NaN/Inf markers
// with labels at the top edge, isolated points as dots, calibration/quantized single numbers as
// labelled horizontal lines, crosshair readout, legend click to hide/show, wheel zoom, drag
// pan, box zoom, reset and export. Redraws re-decimate to the pixel width (curve_data.h).
#pragma once

#include <qcustomplot.h>

#include <QString>
#include <QStringList>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/common/y_scale.h"
#include "core/logs/run.h"
#include "ui/plots/curve_data.h"

namespace qatdoctor::ui {

// A point the user should see on the curves: a finding's evidence (a ring on the run's curve
// at that step) or a crash/error line of the log (a vertical line through every chart).
struct CurveMark {
    // Live: a finding Watch mode made while the run was written (a solid line, labelled on top)
    enum class Kind { Evidence, Crash, Live };
    Kind kind = Kind::Evidence;
    QString run;
    QString metric;  // evidence: the series; crash: "" (every chart)
    double step = 0;
    QString label;
};

class CurvePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit CurvePlot(QWidget* parent = nullptr);

    // Shows metrics (one stacked plot each) of every run in logs. logs must outlive the plot's
    // use of it (the page keeps the shared_ptr).
    // keepView: keep the x range (live updates) instead of fitting all data.
    void setCurves(std::shared_ptr<const core::logs::LogSet> logs, const QStringList& metrics, XAxisMode mode,
                   bool keepView = false);
    // Auto: each chart on its own decides log (positive values over three decades) or linear
    // with far outliers off the scale (core/common/y_scale.h, as the report does).
    void setYAxisMode(core::YAxisMode mode);
    void setSmoothing(double weight);  // 0 = off
    void setBoxZoom(bool on);
    // Adds, per metric, "QAT − float" at equal steps for every QAT run against the float run.
    void setDifference(bool on);
    // The runs of the attempt compared with (B), drawn dashed over these in their role colours and
    // named "B · run"; null = none. Takes effect at the next setCurves.
    void setComparedRuns(std::shared_ptr<const core::logs::LogSet> other);
    void setMarks(std::vector<CurveMark> marks);
    const std::vector<CurveMark>& marks() const { return m_marks; }
    void resetView();
    // Zooms x and y so run's point at step (a logged step; of metric, else of its first chart)
    // is in view, highlights the run and rings the point.
    void zoomTo(double step, const QString& run, const QString& metric = {});
    // Writes PNG, SVG or PDF by the file suffix. false on an unknown suffix or a write error.
    bool exportTo(const QString& path);
    // The visible runs' points in the current x range: run,role,metric,step,x,value.
    QString visibleCsv() const;
    void setRunHidden(const QString& run, bool hidden);
    QColor runColor(const QString& run) const;

    // Introspection for tests and the benchmark.
    int curveCount() const { return static_cast<int>(m_curves.size()); }
    qsizetype drawnPoints(const QString& run, const QString& metric) const;
    qsizetype sourcePoints(const QString& run, const QString& metric) const;
    int nonFiniteMarkers(const QString& run, const QString& metric) const;
    int labelCount() const;  // NaN/Inf value labels + single-number labels
    bool isLogY(int chart) const;
    size_t offScale(int chart) const;  // values of the chart left off its y range
    int markCount() const { return static_cast<int>(m_markPoints.size()); }
    std::optional<QPointF> focusPoint() const;  // the ringed point of the last zoomTo, (x, y)
    QStringList curveNames() const;             // "run · metric" of every curve
    double lastRedrawMs() const { return m_lastRedrawMs; }
    QString readoutAt(double x) const;
    void redrawNow();  // re-decimate and replot synchronously (benchmark)

signals:
    void readoutChanged(const QString& text);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Curve {
        QString run, metric;
        core::logs::RunRole role = core::logs::RunRole::Unknown;
        const core::logs::Series* series = nullptr;
        std::vector<double> x;
        std::vector<float> smooth;
        // min/max pyramids of the raw and the smoothed values (x ascending; else the linear scan)
        bool ascending = false;
        std::shared_ptr<const DecimationIndex> rawIndex, smoothIndex;
        QCPAxisRect* rect = nullptr;
        QCPGraph* line = nullptr;  // smoothed (or raw when smoothing is off)
        QCPGraph* raw = nullptr;   // faint raw curve behind (smoothing on)
        QCPGraph* dots = nullptr;  // isolated points
        QCPGraph* bad = nullptr;   // NaN/Inf markers at the top edge
        std::vector<double> badX;  // for the labels
        std::vector<float> badY;
        bool single = false;      // a one-number run (calibration / quantized eval)
        bool difference = false;  // a QAT − float curve, on the chart's right axis
    };

    void rebuild();
    void redecimate();
    void indexCurve(Curve& c);
    void fitY(size_t chart);
    void addDifferenceCurves(const std::vector<std::string>& colors);
    // Every run of logs with a curve per metric shown; prefix and dashed mark the compared attempt.
    void addRuns(const core::logs::LogSet& logs, const QString& prefix, bool dashed);
    Curve& addCurve(const QString& run, const QString& metric, core::logs::RunRole role,
                    const core::logs::Series* series, size_t chart, QColor color, double offset,
                    double wallStart, bool inLegend, bool difference = false);
    void locateMarks();
    double dataEnd() const;  // the largest x of the curves (NaN without any)
    std::optional<size_t> nearestPoint(const Curve& c, double step) const;
    void placeMarkers();
    void placeAnnotations();  // evidence rings, crash lines, the focus, off-scale counts
    void syncX(const QCPRange& range);
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    void onSelectionRect(const QRect& rect, QMouseEvent* event);
    void scheduleRedraw();

    // A mark placed on one curve: its x on the axis, y on the curve (crash marks: no y).
    struct MarkPoint {
        size_t curve = 0;
        double x = 0, y = 0;
        CurveMark mark;
    };
    struct Focus {
        QString run, metric;
        double x = 0, y = 0;
        QCPAxisRect* rect = nullptr;
    };

    std::shared_ptr<const core::logs::LogSet> m_logs;
    std::shared_ptr<const core::logs::LogSet> m_compared;
    QStringList m_metrics;
    XAxisMode m_mode = XAxisMode::Step;
    core::YAxisMode m_yMode = core::YAxisMode::Auto;
    bool m_difference = false;
    std::deque<core::logs::Series> m_derived;  // difference curves (Curve::series points here)
    std::vector<CurveMark> m_marks;
    std::vector<MarkPoint> m_markPoints;
    std::optional<Focus> m_focus;
    std::vector<size_t> m_offScale;  // per chart
    std::map<QString, QColor> m_runColors;
    double m_smoothing = 0;
    bool m_autoY = true;
    bool m_syncing = false;
    bool m_redrawPending = false;
    double m_lastRedrawMs = 0;
    std::vector<Curve> m_curves;
    std::vector<QCPAxisRect*> m_rects;
    std::vector<QCPItemStraightLine*> m_crosshair;
    std::vector<QCPAbstractItem*> m_labels;  // rebuilt on every redraw
    QCPMarginGroup* m_margins = nullptr;
    QSet<QString> m_hiddenRuns;
    QString m_highlight;
};

}  // namespace qatdoctor::ui
