#include "ui/plots/similarity_plot.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include "core/artifacts/text_lines.h"

namespace qatdoctor::ui {
namespace {

int findColumn(const core::DataTable& t, std::initializer_list<const char*> names)
{
    for (const char* n : names)
        if (int c = t.column(n); c >= 0) return c;
    return -1;
}

QString layerLabel(const core::DataTable& t, size_t row)
{
    const int c = findColumn(t, {"mod_name", "module name", "op_name", "name"});
    if (c >= 0 && !t.rows[row][static_cast<size_t>(c)].empty())
        return QString::fromStdString(t.rows[row][static_cast<size_t>(c)]);
    return QString::number(row);
}

}  // namespace

SimilarityPlot::SimilarityPlot(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(180);
    m_plot->xAxis->setLabel(tr("Layer (table order)"));
    m_plot->yAxis->setLabel(tr("Cosine similarity"));
    m_plot->yAxis2->setLabel(tr("SQNR (dB)"));
    m_plot->legend->setVisible(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    connect(m_plot, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable*, int dataIndex, QMouseEvent*) { emit rowClicked(dataIndex); });
}

void SimilarityPlot::clear()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_marker = nullptr;
    m_label = nullptr;
    m_points = 0;
    m_marked.reset();
    m_plot->replot();
}

bool SimilarityPlot::setTable(const core::DataTable& table, std::optional<int> firstBadRow)
{
    clear();
    const int cosine = findColumn(table, {"cosine", "similarity"});
    const int sqnr = findColumn(table, {"sqnr"});
    if (cosine < 0 && sqnr < 0) return false;

    // Rows without a value (fused intermediates) are left out; x stays the row index so a
    // click maps back to the table row.
    auto series = [&](int col, QCPAxis* valueAxis, const QString& name, const QPen& pen) {
        QVector<double> xs, ys;
        for (size_t r = 0; r < table.rows.size(); ++r)
            if (auto v = core::artifacts::parseNumber(table.rows[r][static_cast<size_t>(col)]);
                v && std::isfinite(*v)) {
                xs.push_back(static_cast<double>(r));
                ys.push_back(*v);
            }
        QCPGraph* g = m_plot->addGraph(m_plot->xAxis, valueAxis);
        g->setName(name);
        g->setPen(pen);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        g->setData(xs, ys, true);
        return static_cast<int>(xs.size());
    };
    if (cosine >= 0)
        m_points =
            series(cosine, m_plot->yAxis, QString::fromStdString(table.columns[static_cast<size_t>(cosine)]),
                   QPen(QColor(31, 119, 180), 2));
    m_plot->yAxis2->setVisible(sqnr >= 0);
    if (sqnr >= 0) {
        const int n = series(sqnr, m_plot->yAxis2, tr("SQNR"), QPen(QColor(255, 127, 14), 1.5, Qt::DashLine));
        if (cosine < 0) m_points = n;
    }
    m_plot->rescaleAxes();
    // Leave room above the top points (cosine sits at ~1.0) and below the marker label.
    m_plot->yAxis->scaleRange(1.15, m_plot->yAxis->range().center());
    m_plot->yAxis2->scaleRange(1.15, m_plot->yAxis2->range().center());
    m_plot->xAxis->setRange(-0.5, std::max<double>(1.0, static_cast<double>(table.rows.size()) - 0.5));

    if (table.rows.size() <= 40) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (size_t r = 0; r < table.rows.size(); ++r)
            ticker->addTick(static_cast<double>(r), layerLabel(table, r));
        m_plot->xAxis->setTicker(ticker);
        m_plot->xAxis->setTickLabelRotation(35);
    } else {
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        m_plot->xAxis->setTickLabelRotation(0);
    }

    if (firstBadRow && *firstBadRow >= 0 && *firstBadRow < static_cast<int>(table.rows.size())) {
        m_marked = firstBadRow;
        m_marker = new QCPItemStraightLine(m_plot);
        m_marker->point1->setCoords(*firstBadRow, 0);
        m_marker->point2->setCoords(*firstBadRow, 1);
        m_marker->setPen(QPen(QColor(214, 39, 40), 1.5, Qt::DashLine));
        m_label = new QCPItemText(m_plot);
        m_label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        m_label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m_label->position->setCoords(*firstBadRow + 0.1, 0.05);
        m_label->setColor(QColor(214, 39, 40));
        m_label->setText(tr("first drop: %1").arg(layerLabel(table, static_cast<size_t>(*firstBadRow))));
    }
    m_plot->replot();
    return true;
}

}  // namespace qatdoctor::ui
