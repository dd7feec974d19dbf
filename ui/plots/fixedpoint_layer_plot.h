// Per-layer agreement of the fixed-point simulation: SQNR (dB) by layer for fake vs int and
// float vs fake, the first bad layer marked, hover for the values.
#pragma once

#include <QWidget>

#include "core/fixedpoint/simulation.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace qatdoctor::ui {

class FixedpointLayerPlot : public QWidget {
    Q_OBJECT
public:
    explicit FixedpointLayerPlot(QWidget* parent = nullptr);

    void setResult(const core::fixedpoint::SimulationResult& result);
    void clear();

    QCustomPlot* plot() const { return m_plot; }
    int pointCount() const { return m_points; }
    int markedLayer() const { return m_marked; }  // -1 = none
    // Tooltip text for the layer nearest x (what hovering shows).
    QString hoverText(double x) const;

signals:
    void layerClicked(int index);

private:
    QCustomPlot* m_plot;
    QCPItemStraightLine* m_marker = nullptr;
    QCPItemText* m_label = nullptr;
    int m_points = 0;
    int m_marked = -1;
    std::vector<QString> m_tips;
};

}  // namespace qatdoctor::ui
