// The training-curves plot: runs overlaid by role colour, one stacked axis rect per metric
// with a shared x axis, TensorBoard smoothing with the raw curve faint behind, NaN/Inf markers
// with labels at the top edge, isolated points as dots, calibration/quantized single numbers as
// labelled horizontal lines, crosshair readout, legend click to hide/show, wheel zoom, drag
// pan, box zoom, reset and export. Redraws re-decimate to the pixel width (curve_data.h).
#pragma once

#include <qcustomplot.h>

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "core/logs/run.h"
#include "ui/plots/curve_data.h"

namespace qatdoctor::ui {

QColor roleColor(core::logs::RunRole role, int variant = 0);

class CurvePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit CurvePlot(QWidget* parent = nullptr);

    // Shows metrics (one stacked plot each) of every run in logs. logs must outlive the plot's
    // use of it (the page keeps the shared_ptr).
    // keepView: keep the x range (live updates) instead of fitting all data.
    void setCurves(std::shared_ptr<const core::logs::LogSet> logs, const QStringList& metrics, XAxisMode mode,
                   bool keepView = false);
    void setLogY(bool on);
    void setSmoothing(double weight);  // 0 = off
    void setBoxZoom(bool on);
    void resetView();
    // Zooms the x axis around x (a step in the current axis mode) and highlights run.
    void zoomTo(double x, const QString& run);
    // Writes PNG, SVG or PDF by the file suffix. false on an unknown suffix or a write error.
    bool exportTo(const QString& path);
    void setRunHidden(const QString& run, bool hidden);

    // Introspection for tests and the benchmark.
    int curveCount() const { return static_cast<int>(m_curves.size()); }
    qsizetype drawnPoints(const QString& run, const QString& metric) const;
    qsizetype sourcePoints(const QString& run, const QString& metric) const;
    int nonFiniteMarkers(const QString& run, const QString& metric) const;
    int labelCount() const;  // NaN/Inf value labels + single-number labels
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
        bool single = false;  // a one-number run (calibration / quantized eval)
    };

    void rebuild();
    void redecimate();
    void indexCurve(Curve& c);
    void fitY(QCPAxisRect* rect);
    void placeMarkers();
    void syncX(const QCPRange& range);
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    void onSelectionRect(const QRect& rect, QMouseEvent* event);
    void scheduleRedraw();

    std::shared_ptr<const core::logs::LogSet> m_logs;
    QStringList m_metrics;
    XAxisMode m_mode = XAxisMode::Step;
    bool m_logY = false;
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
