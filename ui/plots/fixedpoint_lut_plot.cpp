#include "ui/plots/fixedpoint_lut_plot.h"

namespace qatdoctor::ui {

FixedpointLutPlot::FixedpointLutPlot(QWidget* parent) : QCustomPlot(parent)
{
    setMinimumHeight(200);
    xAxis->setLabel(tr("input (real)"));
    yAxis->setLabel(tr("output"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("|table - function|"));
    legend->setVisible(true);
    m_message = new QCPItemText(this);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setVisible(false);
}

void FixedpointLutPlot::setAxesVisible(bool on)
{
    for (QCPAxis* a : {xAxis, yAxis, yAxis2}) a->setVisible(on);
    legend->setVisible(on);
}

void FixedpointLutPlot::showMessage(const QString& text)
{
    clearGraphs();
    m_samples = 0;
    setAxesVisible(false);
    m_message->setText(text);
    m_message->setVisible(true);
    replot();
}

QString FixedpointLutPlot::message() const
{
    return m_message->visible() ? m_message->text() : QString();
}

void FixedpointLutPlot::showLut(const core::fixedpoint::LutReport& lut)
{
    clearGraphs();
    m_message->setVisible(false);
    setAxesVisible(true);
    const QVector<double> x(lut.curveX.begin(), lut.curveX.end());
    QCPGraph* exact = addGraph();
    exact->setName(tr("float function"));
    exact->setPen(QPen(QColor(40, 100, 200), 2));
    exact->setData(x, QVector<double>(lut.curveExact.begin(), lut.curveExact.end()), true);
    QCPGraph* table = addGraph();
    table->setName(tr("%1-entry table").arg(lut.entries));
    table->setPen(QPen(QColor(200, 60, 40), 1));
    table->setLineStyle(QCPGraph::lsStepCenter);
    table->setData(x, QVector<double>(lut.curveLut.begin(), lut.curveLut.end()), true);
    QVector<double> err;
    for (size_t i = 0; i < lut.curveX.size(); ++i)
        err.push_back(std::abs(lut.curveLut[i] - lut.curveExact[i]));
    QCPGraph* e = addGraph(xAxis, yAxis2);
    e->setName(tr("error"));
    e->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
    e->setData(x, err, true);
    m_samples = static_cast<int>(x.size());
    rescaleAxes();
    replot();
}

}  // namespace qatdoctor::ui
