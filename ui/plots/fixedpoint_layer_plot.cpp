#include "ui/plots/fixedpoint_layer_plot.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <string_view>

#include "core/fixedpoint/mode_pair.h"
#include "ui/common/number_strings.h"

namespace qatdoctor::ui {

namespace {
// SQNR of identical tensors is infinite; plot it at a ceiling so the line stays readable.
constexpr double kCeilingDb = 80.0;
double plotted(double db)
{
    return std::isfinite(db) ? std::min(db, kCeilingDb) : kCeilingDb;
}
}  // namespace

FixedpointLayerPlot::FixedpointLayerPlot(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(220);
    m_plot->xAxis->setLabel(tr("Layer"));
    m_plot->yAxis->setLabel(tr("SQNR (dB)"));
    // The legend sits in its own row above the chart, in one line: inside the axis rect it hid
    // the points drawn at the 80 dB ceiling (layers that agree exactly).
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setMargins(QMargins(0, 2, 0, 0));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const double x = m_plot->xAxis->pixelToCoord(e->pos().x());
        const QString t = hoverText(x);
        if (!t.isEmpty()) QToolTip::showText(e->globalPosition().toPoint(), t, m_plot);
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        const int i = static_cast<int>(std::lround(m_plot->xAxis->pixelToCoord(e->pos().x())));
        if (i >= 0 && i < m_points) emit layerClicked(i);
    });
}

void FixedpointLayerPlot::clear()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_marker = nullptr;
    m_label = nullptr;
    m_points = 0;
    m_marked = -1;
    m_tips.clear();
    m_plot->replot();
}

QString FixedpointLayerPlot::hoverText(double x) const
{
    const int i = static_cast<int>(std::lround(x));
    if (i < 0 || i >= static_cast<int>(m_tips.size())) return {};
    return m_tips[static_cast<size_t>(i)];
}

void FixedpointLayerPlot::setResult(const core::fixedpoint::SimulationResult& r)
{
    clear();
    struct Series {
        const char* pair;
        QString name;
        QColor color;
    };
    auto seriesOf = [](core::fixedpoint::ModePair p, const QString& name) {
        const auto& info = core::fixedpoint::modePairInfo(p);
        return Series{info.key, name, QColor(QRgb(info.rgb))};
    };
    const Series series[] = {seriesOf(core::fixedpoint::ModePair::FakeInt, tr("fake vs int")),
                             seriesOf(core::fixedpoint::ModePair::FloatFake, tr("float vs fake")),
                             seriesOf(core::fixedpoint::ModePair::FloatInt, tr("float vs int"))};
    QVector<QString> labels;
    QVector<double> ticks;
    for (const Series& s : series) {
        QVector<double> xs, ys;
        for (size_t i = 0; i < r.comparisons.size(); ++i) {
            auto it = r.comparisons[i].pairs.find(s.pair);
            if (it == r.comparisons[i].pairs.end()) continue;
            xs.push_back(double(i));
            ys.push_back(plotted(it->second.sqnrDb));
        }
        if (xs.isEmpty()) continue;
        QCPGraph* g = m_plot->addGraph();
        g->setName(s.name);
        // float vs int is drawn last and dashed: where it lies on float vs fake (integer arithmetic
        // adds nothing to the quantization error) the blue line still shows between the dashes
        const bool dashed =
            std::string_view(s.pair) == core::fixedpoint::modePairKey(core::fixedpoint::ModePair::FloatInt);
        g->setPen(QPen(s.color, dashed ? 1.5 : 2, dashed ? Qt::DashLine : Qt::SolidLine));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        g->setData(xs, ys, true);
        m_points = std::max(m_points, static_cast<int>(xs.size()));
    }
    for (size_t i = 0; i < r.layers.size(); ++i) {
        const auto& c = r.comparisons[i];
        QString tip =
            QString::fromStdString(r.layers[i].name) + " (" + QString::fromStdString(r.layers[i].op) + ")";
        for (const auto& [pair, a] : c.pairs)
            tip += QString("\n%1: cos %2, SQNR %3 dB, max %4 LSB")
                       .arg(QString::fromStdString(pair))
                       .arg(a.cosine, 0, 'f', 4)
                       .arg(fixedString(a.sqnrDb, 1))
                       .arg(a.maxErrLsb, 0, 'f', 1);
        if (c.overflows) tip += tr("\naccumulator overflows: %1").arg(c.overflows);
        m_tips.push_back(tip);
        if (r.layers.size() <= 40) {
            ticks.push_back(double(i));
            labels.push_back(QString::fromStdString(r.layers[i].name));
        }
    }
    if (!ticks.isEmpty()) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        ticker->setTicks(ticks, labels);
        m_plot->xAxis->setTicker(ticker);
        m_plot->xAxis->setTickLabelRotation(45);
    } else {
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    for (size_t i = 0; i < r.layers.size(); ++i)
        if (r.layers[i].name == r.firstBadLayer) m_marked = static_cast<int>(i);
    if (m_marked >= 0) {
        m_marker = new QCPItemStraightLine(m_plot);
        m_marker->point1->setCoords(m_marked, 0);
        m_marker->point2->setCoords(m_marked, 1);
        m_marker->setPen(QPen(QColor(200, 0, 0), 1.5, Qt::DashLine));
        m_label = new QCPItemText(m_plot);
        m_label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m_label->position->setCoords(m_marked, 0.05);
        m_label->setText(tr("first bad: %1").arg(QString::fromStdString(r.firstBadLayer)));
        m_label->setColor(QColor(200, 0, 0));
    }
    m_plot->rescaleAxes();
    m_plot->xAxis->setRange(-0.5, std::max<double>(0.5, double(r.layers.size()) - 0.5));
    m_plot->yAxis->setRange(std::min(0.0, m_plot->yAxis->range().lower), kCeilingDb + 5);
    m_plot->replot();
}

}  // namespace qatdoctor::ui
