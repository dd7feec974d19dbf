// A look-up table against its float function over the observed input range, with the error on
// a second axis (the "export turns nonlinear ops into tables" loss).
#pragma once

#include <qcustomplot.h>

#include "core/fixedpoint/interpreter.h"

namespace qatdoctor::ui {

class FixedpointLutPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit FixedpointLutPlot(QWidget* parent = nullptr);
    void showLut(const core::fixedpoint::LutReport& lut);
    void showMessage(const QString& text);  // no table to show: the reason, centered, no axes
    int sampleCount() const { return m_samples; }
    QString message() const;

private:
    void setAxesVisible(bool on);

    int m_samples = 0;
    QCPItemText* m_message = nullptr;
};

}  // namespace qatdoctor::ui
