#include "ui/report/plot_picture.h"

#include <qcustomplot.h>

#include <cmath>
#include <limits>
#include <map>

#include "core/report/svg_plot.h"

namespace qatdoctor::ui {
namespace {

using core::report::PlotBlock;
using core::report::PlotSeries;

constexpr size_t kMarkPointsBelow = 20;

QVector<double> toVector(const std::vector<double>& v, bool finiteOnly)
{
    QVector<double> out;
    out.reserve(static_cast<qsizetype>(v.size()));
    // QCPGraph leaves a gap at NaN; an infinity would draw a line off to the page edge.
    for (double d : v)
        out.push_back(finiteOnly && !std::isfinite(d) ? std::numeric_limits<double>::quiet_NaN() : d);
    return out;
}

}  // namespace

QPicture drawPlotPicture(const PlotBlock& plot, QSize size, const QString& fontFamily)
{
    QCustomPlot cp;
    cp.resize(size);
    const QFont base(fontFamily, 8);
    cp.setFont(base);
    QFont titleFont(fontFamily, 10);
    titleFont.setBold(true);
    cp.plotLayout()->insertRow(0);
    cp.plotLayout()->addElement(0, 0, new QCPTextElement(&cp, QString::fromStdString(plot.title), titleFont));
    for (QCPAxis* axis : {cp.xAxis, cp.yAxis}) {
        axis->setLabelFont(base);
        axis->setTickLabelFont(base);
    }
    cp.xAxis->setLabel(QString::fromStdString(plot.xLabel));
    cp.yAxis->setLabel(QString::fromStdString(plot.yLabel));

    std::map<std::string, int> perColor;
    for (const PlotSeries& s : plot.series) {
        QCPGraph* g = cp.addGraph();
        g->setName(QString::fromStdString(core::report::legendText(s)));
        const std::string color = core::report::seriesColor(s);
        QPen pen(QColor(QString::fromStdString(color)), 1.5);
        // Two runs of one role (qat, qat_1gpu) share the colour; the second is dashed.
        const int nth = perColor[color]++;
        if (nth == 1) pen.setStyle(Qt::DashLine);
        if (nth >= 2) pen.setStyle(Qt::DotLine);
        g->setPen(pen);
        // A run with a handful of evaluations would be invisible as a line alone.
        if (s.x.size() <= kMarkPointsBelow) g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        g->setData(toVector(s.x, false), toVector(s.y, true), true);
    }
    if (!plot.xTicks.empty()) {  // layer names, slanted
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (const auto& [x, label] : plot.xTicks) ticker->addTick(x, QString::fromStdString(label));
        cp.xAxis->setTicker(ticker);
        cp.xAxis->setTickLabelRotation(40);
    }
    cp.rescaleAxes();
    // A little room on the left and right, so points at the first or last step (a quantized
    // evaluation at step 0) are not hidden under the axis.
    const QCPRange xr = cp.xAxis->range();
    const double xpad = !plot.xTicks.empty() ? 0.5
                        : xr.size() > 0      ? xr.size() * 0.02
                                             : 1.0;  // layers: half a slot
    cp.xAxis->setRange(xr.lower - xpad, xr.upper + xpad);
    double lo = cp.yAxis->range().lower, hi = cp.yAxis->range().upper;
    for (const auto& r : plot.references) lo = std::min(lo, r.y), hi = std::max(hi, r.y);
    double pad = (hi - lo) > 0 ? (hi - lo) * 0.06 : 0.5;
    cp.yAxis->setRange(lo - pad, hi + pad);
    // Training curves: the app's and the HTML report's rule (log over three decades, far
    // outliers off the scale and counted), so one spike does not flatten the chart.
    const core::YScale scale = core::report::plotYScale(plot);
    if (scale.valid) {
        if (scale.log) {
            cp.yAxis->setScaleType(QCPAxis::stLogarithmic);
            cp.yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        }
        cp.yAxis->setRange(scale.lo, scale.hi);
        pad = (scale.hi - scale.lo) * 0.03;
        if (const size_t off = scale.above + scale.below; off > 0 && !plot.offScaleLabel.empty()) {
            auto* text = new QCPItemText(&cp);
            text->position->setType(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(0.01, 0.01);
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            text->setFont(base);
            text->setColor(QColor("#666666"));
            text->setText(QString::fromStdString(plot.offScaleLabel).arg(off));
        }
    }

    for (const auto& r : plot.references) {
        QCPGraph* g = cp.addGraph();
        g->setName(QString::fromStdString(r.label));
        g->setPen(QPen(QColor("#444444"), 1.0, Qt::DashLine));
        g->setData({cp.xAxis->range().lower, cp.xAxis->range().upper}, {r.y, r.y});
    }
    double labelY = 0.04;  // axis-rect ratio; a second marker's label goes below the first
    for (const auto& m : plot.markers) {
        const QColor red(QString::fromStdString(core::report::markerColor(m)));
        auto* line = new QCPItemStraightLine(&cp);
        line->point1->setCoords(m.x, 0);
        line->point2->setCoords(m.x, 1);
        line->setPen(QPen(red, 1.5, Qt::DashLine));
        auto* text = new QCPItemText(&cp);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const bool rightHalf = m.x > cp.xAxis->range().center();  // keep the label inside the axes
        text->position->setCoords(m.x, labelY);
        labelY += 0.07;
        text->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        text->setPadding(QMargins(4, 0, 4, 0));
        text->setFont(base);
        text->setColor(red);
        text->setBrush(QColor(255, 255, 255, 215));  // readable over the lines and points it crosses
        text->setText(QString::fromStdString(m.label));
    }
    // NaN/Inf markers: red triangles on the top edge (NaN, +Inf) or the bottom edge (-Inf).
    QVector<double> mx, my;
    const QCPRange yr = cp.yAxis->range();
    const double top = scale.log ? yr.upper / 1.15 : yr.upper - pad * 0.25;
    const double bottom = scale.log ? yr.lower * 1.15 : yr.lower + pad * 0.25;
    for (const PlotSeries& s : plot.series)
        for (size_t i : s.nonFinite) {
            if (i >= s.x.size() || !std::isfinite(s.x[i])) continue;
            mx.push_back(s.x[i]);
            my.push_back(std::isinf(s.y[i]) && s.y[i] < 0 ? bottom : top);
        }
    if (!mx.isEmpty()) {
        QCPGraph* g = cp.addGraph();
        g->setName(QString::fromStdString(plot.nonFiniteLabel.empty() ? "NaN/Inf" : plot.nonFiniteLabel));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, QColor("#d62728"), QColor("#d62728"), 7));
        g->setData(mx, my);
    }

    // Legend under the axes, three entries a row, so it never hides a curve.
    cp.legend->setVisible(true);
    cp.legend->setFont(base);
    auto* sub = new QCPLayoutGrid;
    cp.plotLayout()->addElement(2, 0, sub);
    sub->setMargins(QMargins(5, 0, 5, 5));
    sub->addElement(0, 0, cp.legend);
    cp.legend->setWrap(3);
    cp.legend->setFillOrder(QCPLegend::foColumnsFirst);  // rearranges with the wrap set above
    cp.plotLayout()->setRowStretchFactor(2, 0.001);
    cp.plotLayout()->setRowStretchFactor(0, 0.001);

    QPicture picture;
    QCPPainter painter(&picture);
    painter.setMode(QCPPainter::pmVectorized);
    cp.toPainter(&painter, size.width(), size.height());
    painter.end();
    return picture;
}

}  // namespace qatdoctor::ui
