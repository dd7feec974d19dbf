// Histogram of a layer's weights with its quantization grid: where the representable values
// q = (k - zero_point) * scale fall, and the clipping bounds of the integer range.
#pragma once

#include <qcustomplot.h>

#include <vector>

#include "core/model/layer_table.h"

namespace qatdoctor::ui {

class WeightHistogram : public QCustomPlot {
    Q_OBJECT
public:
    explicit WeightHistogram(QWidget* parent = nullptr);

    // values: real weight values; quant: the weight quantizer (null = float weight, no grid);
    // channel: which scale of a per-channel quantizer the grid uses.
    void showWeights(const std::vector<float>& values, const core::model::QuantParams* quant, int channel);
    void showMessage(const QString& text);

    int gridLineCount() const { return m_gridLines; }  // drawn grid lines (tests)
    int valueCount() const { return m_values; }        // weights in the histogram (tests)
    double gridScale() const { return m_gridScale; }   // the scale the grid is drawn with, 0 = none

private:
    QCPBars* m_bars = nullptr;
    QCPGraph* m_grid = nullptr;
    QCPGraph* m_bounds = nullptr;
    QCPItemText* m_message = nullptr;
    int m_gridLines = 0;
    int m_values = 0;
    double m_gridScale = 0;
};

}  // namespace qatdoctor::ui
