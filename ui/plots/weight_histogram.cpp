#include "ui/plots/weight_histogram.h"

#include <algorithm>
#include <cmath>

namespace qatdoctor::ui {
namespace {

constexpr int kBins = 80;
constexpr int kMaxGridLines = 96;  // beyond this, every n-th grid value is drawn

std::pair<int64_t, int64_t> integerRange(const core::model::QuantParams& q)
{
    using core::model::DType;
    int64_t lo = -128, hi = 127;
    switch (q.dtype) {
        case DType::UInt8:
            lo = 0;
            hi = 255;
            break;
        case DType::Int16:
            lo = -32768;
            hi = 32767;
            break;
        case DType::UInt16:
            lo = 0;
            hi = 65535;
            break;
        case DType::Int32:
            lo = INT32_MIN;
            hi = INT32_MAX;
            break;
        default:
            break;
    }
    return {q.qmin.value_or(lo), q.qmax.value_or(hi)};
}

}  // namespace

WeightHistogram::WeightHistogram(QWidget* parent) : QCustomPlot(parent)
{
    m_bars = new QCPBars(xAxis, yAxis);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(QColor(70, 120, 190, 200));
    m_bars->setName(tr("weights"));
    m_grid = addGraph();
    m_grid->setLineStyle(QCPGraph::lsImpulse);
    m_grid->setPen(QPen(QColor(220, 120, 40, 110), 1));
    m_grid->setName(tr("quantization grid"));
    m_bounds = addGraph();
    m_bounds->setLineStyle(QCPGraph::lsImpulse);
    m_bounds->setPen(QPen(QColor(200, 30, 30), 2));
    m_bounds->setName(tr("clip range"));
    xAxis->setLabel(tr("weight value"));
    yAxis->setLabel(tr("count"));
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 7));
    legend->setBrush(QColor(255, 255, 255, 190));
    legend->setRowSpacing(-3);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_message = new QCPItemText(this);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setVisible(false);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setRangeDrag(Qt::Horizontal);
}

void WeightHistogram::showMessage(const QString& text)
{
    m_bars->data()->clear();
    m_grid->data()->clear();
    m_bounds->data()->clear();
    m_gridLines = 0;
    m_values = 0;
    m_gridScale = 0;
    m_message->setText(text);
    m_message->setVisible(true);
    legend->setVisible(false);
    replot();
}

void WeightHistogram::showWeights(const std::vector<float>& values, const core::model::QuantParams* quant,
                                  int channel)
{
    m_message->setVisible(false);
    legend->setVisible(true);
    m_bars->data()->clear();
    m_grid->data()->clear();
    m_bounds->data()->clear();
    m_gridLines = 0;
    m_gridScale = 0;
    m_values = static_cast<int>(values.size());
    if (values.empty()) {
        showMessage(tr("no weight values"));
        return;
    }
    auto [minIt, maxIt] = std::minmax_element(values.begin(), values.end());
    double lo = *minIt, hi = *maxIt;
    if (hi <= lo) hi = lo + 1e-6;
    const double width = (hi - lo) / kBins;
    QVector<double> keys(kBins), counts(kBins, 0.0);
    for (int i = 0; i < kBins; ++i) keys[i] = lo + (i + 0.5) * width;
    for (float v : values) {
        const int bin = std::clamp(static_cast<int>((v - lo) / width), 0, kBins - 1);
        counts[bin] += 1;
    }
    m_bars->setWidth(width);
    m_bars->setData(keys, counts, true);
    const double top = *std::max_element(counts.begin(), counts.end());

    double viewLo = lo, viewHi = hi;
    if (quant && !quant->scales.empty()) {
        const size_t c = std::min(static_cast<size_t>(std::max(channel, 0)), quant->scales.size() - 1);
        const double scale = quant->scales[c];
        const double zp =
            quant->zeroPoints.empty()
                ? 0.0
                : static_cast<double>(quant->zeroPoints[std::min(c, quant->zeroPoints.size() - 1)]);
        const auto [qlo, qhi] = integerRange(*quant);
        const double rangeLo = (static_cast<double>(qlo) - zp) * scale;
        const double rangeHi = (static_cast<double>(qhi) - zp) * scale;
        if (scale > 0) {
            m_gridScale = scale;
            // Grid values inside the data range (plus the clip bounds), thinned to stay readable.
            const int64_t kLo = std::max<int64_t>(qlo, static_cast<int64_t>(std::floor(lo / scale + zp)));
            const int64_t kHi = std::min<int64_t>(qhi, static_cast<int64_t>(std::ceil(hi / scale + zp)));
            const int64_t count = kHi - kLo + 1;
            const int64_t step =
                std::max<int64_t>(1, count / kMaxGridLines + (count % kMaxGridLines ? 1 : 0));
            QVector<double> gx, gy;
            for (int64_t k = kLo; k <= kHi; k += step) {
                gx << (static_cast<double>(k) - zp) * scale;
                gy << top * 1.2;
            }
            m_grid->setData(gx, gy, true);
            m_gridLines = static_cast<int>(gx.size());
            m_grid->setName(step == 1 ? tr("quantization grid (scale %1)").arg(scale, 0, 'g', 4)
                                      : tr("quantization grid, 1 line per %1 values (scale %2)")
                                            .arg(step)
                                            .arg(scale, 0, 'g', 4));
            if (rangeLo >= lo - (hi - lo) && rangeHi <= hi + (hi - lo)) {
                m_bounds->setData(QVector<double>{rangeLo, rangeHi}, QVector<double>{top * 1.3, top * 1.3},
                                  true);
                viewLo = std::min(viewLo, rangeLo);
                viewHi = std::max(viewHi, rangeHi);
            }
        }
    }
    const double pad = (viewHi - viewLo) * 0.04;
    xAxis->setRange(viewLo - pad, viewHi + pad);
    yAxis->setRange(0, top * 1.7);  // headroom for the legend
    replot();
}

}  // namespace qatdoctor::ui
