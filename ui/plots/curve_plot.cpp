#include "ui/plots/curve_plot.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/common/number_text.h"
#include "core/logs/run_palette.h"

namespace qatdoctor::ui {

using core::logs::RunRole;

namespace {

constexpr int kMaxBadLabels = 8;  // value labels per curve; every NaN/Inf still gets a marker

QSharedPointer<QCPGraphDataContainer> toContainer(const std::vector<double>& x, const std::vector<double>& y)
{
    auto c = QSharedPointer<QCPGraphDataContainer>::create();
    QVector<QCPGraphData> v(static_cast<qsizetype>(x.size()));
    for (size_t i = 0; i < x.size(); ++i) v[static_cast<qsizetype>(i)] = QCPGraphData(x[i], y[i]);
    c->set(v, true);
    return c;
}

}  // namespace

CurvePlot::CurvePlot(QWidget* parent) : QCustomPlot(parent)
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setNoAntialiasingOnDrag(true);
    setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    setAttribute(Qt::WA_Hover);
    setMouseTracking(true);
    connect(this, &QCustomPlot::legendClick, this, &CurvePlot::onLegendClick);
    connect(selectionRect(), &QCPSelectionRect::accepted, this, &CurvePlot::onSelectionRect);
    rebuild();
}

void CurvePlot::setCurves(std::shared_ptr<const core::logs::LogSet> logs, const QStringList& metrics,
                          XAxisMode mode, bool keepView)
{
    const bool keep = keepView && mode == m_mode && metrics == m_metrics && !m_rects.empty();
    QCPRange x = keep ? m_rects.front()->axis(QCPAxis::atBottom)->range() : QCPRange();
    const double endBefore = keep ? dataEnd() : NAN;
    m_logs = std::move(logs);
    m_metrics = metrics;
    m_mode = mode;
    rebuild();
    if (!keep) {
        resetView();
        return;
    }
    // a view that showed the end of the data follows it as the run writes more (Watch mode);
    // one zoomed into the middle stays where the user put it
    const double endNow = dataEnd();
    if (std::isfinite(endBefore) && x.upper >= endBefore && endNow > endBefore)
        x.upper = endNow + (endNow - x.lower) * 0.02;
    m_syncing = true;
    for (QCPAxisRect* r : m_rects) r->axis(QCPAxis::atBottom)->setRange(x);
    m_syncing = false;
    redrawNow();
}

void CurvePlot::setYAxisMode(core::YAxisMode mode)
{
    m_yMode = mode;
    m_autoY = true;
    redrawNow();
}

void CurvePlot::setSmoothing(double weight)
{
    m_smoothing = std::clamp(weight, 0.0, 0.999);
    for (Curve& c : m_curves) {
        c.smooth.clear();
        c.smoothIndex.reset();
        if (m_smoothing > 0 && c.series && !c.single) c.smooth = smoothEma(c.series->value, m_smoothing);
        indexCurve(c);
    }
    redrawNow();
}

void CurvePlot::setBoxZoom(bool on)
{
    setSelectionRectMode(on ? QCP::srmZoom : QCP::srmNone);
}

void CurvePlot::rebuild()
{
    clearGraphs();
    clearItems();
    m_labels.clear();
    m_crosshair.clear();
    m_curves.clear();
    m_derived.clear();
    m_runColors.clear();
    m_markPoints.clear();
    m_focus.reset();
    plotLayout()->clear();
    m_rects.clear();
    delete m_margins;
    m_margins = new QCPMarginGroup(this);
    legend = new QCPLegend;  // the old one died with the layout
    legend->setVisible(true);
    legend->setSelectableParts(QCPLegend::spItems);

    QStringList metrics = m_metrics;
    if (metrics.isEmpty()) metrics << QString();
    for (int row = 0; row < metrics.size(); ++row) {
        auto* rect = new QCPAxisRect(this);
        plotLayout()->addElement(row, 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, m_margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->axis(QCPAxis::atLeft)->setLabel(metrics[row]);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        const bool lastRow = row == metrics.size() - 1;
        x->setTickLabels(lastRow);
        if (lastRow) {
            static const char* kLabels[] = {QT_TR_NOOP("step"), QT_TR_NOOP("epoch"),
                                            QT_TR_NOOP("wall time (hours)"),
                                            QT_TR_NOOP("step (QAT after float)")};
            x->setLabel(tr(kLabels[static_cast<int>(m_mode)]));
        }
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &CurvePlot::syncX);
        auto* cross = new QCPItemStraightLine(this);
        cross->setClipAxisRect(rect);
        cross->point1->setAxes(x, rect->axis(QCPAxis::atLeft));
        cross->point2->setAxes(x, rect->axis(QCPAxis::atLeft));
        cross->setPen(QPen(QColor(0, 0, 0, 90), 1, Qt::DashLine));
        cross->setVisible(false);
        m_crosshair.push_back(cross);
        m_rects.push_back(rect);
    }
    m_offScale.assign(m_rects.size(), 0);
    // The legend below the charts, four entries a row: never over the data.
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(static_cast<int>(m_rects.size()), 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 2));
    legendRow->addElement(0, 0, legend);
    legend->setWrap(4);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    plotLayout()->setRowStretchFactor(static_cast<int>(m_rects.size()), 0.001);
    legend->setLayer(QStringLiteral("legend"));

    if (!m_logs) return;
    addRuns(*m_logs, QString(), false);
    if (m_compared) addRuns(*m_compared, QStringLiteral("B · "), true);
    if (m_difference) addDifferenceCurves(core::logs::runColors(m_logs->runs));
    for (const QString& r : m_hiddenRuns) setRunHidden(r, true);
    locateMarks();
}

void CurvePlot::addRuns(const core::logs::LogSet& logs, const QString& prefix, bool dashed)
{
    // Float's last step: where "QAT after float" puts every later stage's step 0.
    double floatEnd = 0;
    double wallStart = INFINITY;
    for (const auto& run : logs.runs) {
        for (const auto& [name, s] : run.series) {
            if (run.role == RunRole::Float && !s.empty()) floatEnd = std::max(floatEnd, s.step.back());
            if (s.hasWallTime()) wallStart = std::min(wallStart, s.wallTimes.front().value);
        }
    }
    const std::vector<std::string> colors = core::logs::runColors(logs.runs);
    for (size_t r = 0; r < logs.runs.size(); ++r) {
        const core::logs::Run& run = logs.runs[r];
        const QColor color(QString::fromStdString(colors[r]));
        const QString runName = prefix + QString::fromStdString(run.name);
        m_runColors[runName] = color;
        // "QAT after float" shifts every non-float run by float's last step; wall time is
        // measured from the earliest run's start so stages line up in real time.
        const double offset =
            (m_mode == XAxisMode::QatAfterFloat && run.role != RunRole::Float) ? floatEnd : 0;
        bool inLegend = true;
        for (int row = 0; row < m_metrics.size(); ++row) {
            const core::logs::Series* s = run.find(m_metrics[row].toStdString());
            if (!s || s->empty()) continue;
            Curve& c = addCurve(runName, m_metrics[row], run.role, s, static_cast<size_t>(row), color, offset,
                                std::isfinite(wallStart) ? wallStart : 0, inLegend);
            inLegend = false;
            if (!dashed) continue;
            QPen pen = c.line->pen();
            pen.setStyle(Qt::DashLine);
            c.line->setPen(pen);
        }
    }
}

void CurvePlot::setComparedRuns(std::shared_ptr<const core::logs::LogSet> other)
{
    m_compared = std::move(other);
}

CurvePlot::Curve& CurvePlot::addCurve(const QString& run, const QString& metric, RunRole role,
                                      const core::logs::Series* s, size_t chart, QColor color, double offset,
                                      double wallStart, bool inLegend, bool difference)
{
    Curve c;
    c.run = run;
    c.metric = metric;
    c.role = role;
    c.series = s;
    c.rect = m_rects[chart];
    c.x = curveX(*s, m_mode, offset, wallStart);
    if (c.x.empty()) c.x = curveX(*s, XAxisMode::Step, offset, 0);  // no epochs / times: steps
    c.single = s->size() <= 2 && (role == RunRole::Calibration || role == RunRole::Quantized);
    if (m_smoothing > 0 && !c.single) c.smooth = smoothEma(s->value, m_smoothing);
    c.ascending = ascending(c.x, s->size());
    indexCurve(c);
    QCPAxis* xa = c.rect->axis(QCPAxis::atBottom);
    // a difference (QAT − float) crosses zero: its own linear axis on the right, so the left one
    // can stay logarithmic for an exploding loss
    c.difference = difference;
    QCPAxis* ya = c.rect->axis(difference ? QCPAxis::atRight : QCPAxis::atLeft);
    if (difference) {
        ya->setVisible(true);
        ya->setLabel(tr("QAT − float"));
    }
    c.raw = addGraph(xa, ya);
    QColor faint = color;
    faint.setAlpha(60);
    c.raw->setPen(QPen(faint, 1));
    c.raw->removeFromLegend();
    c.line = addGraph(xa, ya);
    c.line->setPen(QPen(color, 1.6));
    c.line->setName(role == RunRole::Unknown && !m_runColors.count(run)
                        ? run
                        : run + QStringLiteral(" (") + QString::fromUtf8(core::logs::roleName(role)) + ")");
    if (!inLegend) c.line->removeFromLegend();
    c.dots = addGraph(xa, ya);
    c.dots->setLineStyle(QCPGraph::lsNone);
    c.dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 5));
    c.dots->removeFromLegend();
    c.bad = addGraph(xa, ya);
    c.bad->setLineStyle(QCPGraph::lsNone);
    c.bad->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, QPen(Qt::black), QBrush(color), 10));
    c.bad->removeFromLegend();
    for (size_t i = 0; i < s->size(); ++i) {
        if (std::isfinite(s->value[i])) continue;
        c.badX.push_back(c.x[i]);
        c.badY.push_back(s->value[i]);
    }
    m_curves.push_back(std::move(c));
    return m_curves.back();
}

void CurvePlot::addDifferenceCurves(const std::vector<std::string>& colors)
{
    const core::logs::Run* floatRun = m_logs->firstWithRole(RunRole::Float);
    if (!floatRun) return;
    for (size_t r = 0; r < m_logs->runs.size(); ++r) {
        const core::logs::Run& run = m_logs->runs[r];
        if (run.role != RunRole::Qat) continue;
        const QString name =
            QString::fromStdString(run.name) + QStringLiteral(" − ") + QString::fromStdString(floatRun->name);
        bool inLegend = true;
        for (int row = 0; row < m_metrics.size(); ++row) {
            const core::logs::Series* q = run.find(m_metrics[row].toStdString());
            const core::logs::Series* f = floatRun->find(m_metrics[row].toStdString());
            if (!q || !f) continue;
            m_derived.push_back(differenceSeries(*q, *f));
            if (m_derived.back().empty()) continue;
            Curve& c = addCurve(
                name, m_metrics[row], RunRole::Unknown, &m_derived.back(), static_cast<size_t>(row),
                QColor(QString::fromStdString(colors[r])).darker(160), 0, 0, inLegend, /*difference=*/true);
            QPen pen = c.line->pen();
            pen.setStyle(Qt::DashLine);
            c.line->setPen(pen);
            inLegend = false;
        }
    }
}

std::optional<size_t> CurvePlot::nearestPoint(const Curve& c, double step) const
{
    if (!c.series || c.series->empty()) return std::nullopt;
    size_t best = 0;
    double bestDistance = INFINITY;
    for (size_t i = 0; i < c.series->size(); ++i) {
        const double d = std::fabs(c.series->step[i] - step);
        if (d < bestDistance) best = i, bestDistance = d;
    }
    return best;
}

void CurvePlot::locateMarks()
{
    m_markPoints.clear();
    for (const CurveMark& m : m_marks)
        for (size_t k = 0; k < m_curves.size(); ++k) {
            const Curve& c = m_curves[k];
            if (c.run != m.run || c.single) continue;
            if (m.kind == CurveMark::Kind::Evidence && c.metric != m.metric) continue;
            const std::optional<size_t> i = nearestPoint(c, m.step);
            if (!i) continue;
            m_markPoints.push_back({k, c.x[*i], static_cast<double>(c.series->value[*i]), m});
            if (m.kind != CurveMark::Kind::Evidence) break;  // one line through every chart
        }
}

void CurvePlot::setMarks(std::vector<CurveMark> marks)
{
    m_marks = std::move(marks);
    locateMarks();
    redrawNow();
}

void CurvePlot::setDifference(bool on)
{
    if (m_difference == on) return;
    m_difference = on;
    setCurves(m_logs, m_metrics, m_mode, /*keepView=*/true);
}

QColor CurvePlot::runColor(const QString& run) const
{
    const auto it = m_runColors.find(run);
    return it == m_runColors.end() ? QColor(Qt::gray) : it->second;
}

double CurvePlot::dataEnd() const
{
    double end = -INFINITY;
    for (const Curve& c : m_curves)
        if (!c.single && !c.x.empty()) end = std::max(end, *std::max_element(c.x.begin(), c.x.end()));
    return std::isfinite(end) ? end : NAN;
}

void CurvePlot::resetView()
{
    double lo = INFINITY, hi = -INFINITY;
    for (const Curve& c : m_curves) {
        if (c.single || c.x.empty()) continue;
        lo = std::min(lo, *std::min_element(c.x.begin(), c.x.end()));
        hi = std::max(hi, *std::max_element(c.x.begin(), c.x.end()));
    }
    if (!std::isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    if (hi <= lo) hi = lo + 1;
    const double pad = (hi - lo) * 0.02;
    m_autoY = true;
    m_syncing = true;
    for (QCPAxisRect* r : m_rects) r->axis(QCPAxis::atBottom)->setRange(lo - pad, hi + pad);
    m_syncing = false;
    redrawNow();
}

void CurvePlot::zoomTo(double step, const QString& run, const QString& metric)
{
    m_highlight = run;
    m_focus.reset();
    for (const Curve& c : m_curves) {
        if (c.run != run || c.single || (!metric.isEmpty() && c.metric != metric)) continue;
        if (const std::optional<size_t> i = nearestPoint(c, step))
            m_focus = Focus{c.run, c.metric, c.x[*i], static_cast<double>(c.series->value[*i]), c.rect};
        break;
    }
    const double x = m_focus ? m_focus->x : step;
    const QCPRange full = m_rects.front()->axis(QCPAxis::atBottom)->range();
    const double half = std::max(1.0, full.size() * 0.05);
    m_syncing = true;
    for (QCPAxisRect* r : m_rects) r->axis(QCPAxis::atBottom)->setRange(x - half, x + half);
    m_syncing = false;
    m_autoY = true;
    redrawNow();
}

std::optional<QPointF> CurvePlot::focusPoint() const
{
    if (!m_focus) return std::nullopt;
    return QPointF(m_focus->x, m_focus->y);
}

void CurvePlot::syncX(const QCPRange& range)
{
    if (m_syncing) return;
    m_syncing = true;
    for (QCPAxisRect* r : m_rects) r->axis(QCPAxis::atBottom)->setRange(range);
    m_syncing = false;
    scheduleRedraw();
}

void CurvePlot::scheduleRedraw()
{
    if (m_redrawPending) return;
    m_redrawPending = true;
    QTimer::singleShot(0, this, [this] {
        m_redrawPending = false;
        redrawNow();
    });
}

void CurvePlot::redrawNow()
{
    QElapsedTimer t;
    t.start();
    redecimate();
    if (m_autoY)
        for (size_t chart = 0; chart < m_rects.size(); ++chart) fitY(chart);
    placeMarkers();
    replot(QCustomPlot::rpImmediateRefresh);
    m_lastRedrawMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void CurvePlot::indexCurve(Curve& c)
{
    // Small curves scan faster than they index; unsorted x (a restarted step counter) has no
    // pixel-column ranges to look up.
    constexpr size_t kIndexFrom = 20000;
    if (!c.series || c.single || !c.ascending || c.series->size() < kIndexFrom) {
        c.rawIndex.reset();
        c.smoothIndex.reset();
        return;
    }
    if (!c.rawIndex) c.rawIndex = std::make_shared<DecimationIndex>(c.series->value.data(), c.series->size());
    if (!c.smooth.empty() && !c.smoothIndex)
        c.smoothIndex = std::make_shared<DecimationIndex>(c.smooth.data(), c.smooth.size());
}

void CurvePlot::redecimate()
{
    for (Curve& c : m_curves) {
        const QCPRange xr = c.rect->axis(QCPAxis::atBottom)->range();
        const int pixels = std::max(50, c.rect->width());
        if (c.single) {
            for (QCPGraph* g : {c.line, c.raw, c.dots, c.bad}) g->data()->clear();
            continue;
        }
        const bool smooth = !c.smooth.empty();
        const float* y = smooth ? c.smooth.data() : c.series->value.data();
        const DecimationIndex* index = smooth ? c.smoothIndex.get() : c.rawIndex.get();
        const DecimatedCurve main = index ? decimate(c.x, *index, y, xr.lower, xr.upper, pixels)
                                          : decimate(c.x, y, c.series->size(), xr.lower, xr.upper, pixels);
        c.line->setData(toContainer(main.x, main.y));
        // Wide or antialiased pens make Qt's raster engine stroke the zigzag of a dense curve
        // as a path (seconds for a few thousand segments); 1 px lines use its fast line drawer.
        const bool dense = main.x.size() > 1500;
        const bool highlighted = !m_highlight.isEmpty() && c.run == m_highlight;
        QPen pen = c.line->pen();
        pen.setWidthF(dense ? 1.0 : (highlighted ? 2.6 : 1.6));
        c.line->setPen(pen);
        c.line->setAntialiased(!dense);
        c.raw->setAntialiased(false);
        c.dots->setData(toContainer(main.isolatedX, main.isolatedY));
        if (smooth) {
            const DecimatedCurve raw =
                c.rawIndex
                    ? decimate(c.x, *c.rawIndex, c.series->value.data(), xr.lower, xr.upper, pixels)
                    : decimate(c.x, c.series->value.data(), c.series->size(), xr.lower, xr.upper, pixels);
            c.raw->setData(toContainer(raw.x, raw.y));
        } else {
            c.raw->data()->clear();
        }
    }
}

void CurvePlot::fitY(size_t chart)
{
    QCPAxisRect* rect = m_rects[chart];
    std::vector<double> values, differences;
    for (const Curve& c : m_curves) {
        if (c.rect != rect || !c.line->visible()) continue;
        std::vector<double>& to = c.difference ? differences : values;
        if (c.single) {
            to.insert(to.end(), c.series->value.begin(), c.series->value.end());
            continue;
        }
        for (const QCPGraph* g : {c.line, c.raw})
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                to.push_back(it->value);
    }
    if (const core::YScale d = core::chooseYScale(differences, core::YAxisMode::Linear); d.valid)
        rect->axis(QCPAxis::atRight)->setRange(d.lo, d.hi);
    core::YScale scale = core::chooseYScale(values, m_yMode);
    if (!scale.valid) return;
    // The point "Show evidence" went to is in view even when the rule calls it an outlier.
    if (m_focus && m_focus->rect == rect && std::isfinite(m_focus->y) && (!scale.log || m_focus->y > 0)) {
        if (m_focus->y > scale.hi)
            scale.hi = scale.log ? m_focus->y * 1.6 : m_focus->y + (scale.hi - scale.lo) * 0.1;
        if (m_focus->y < scale.lo)
            scale.lo = scale.log ? m_focus->y / 1.3 : m_focus->y - (scale.hi - scale.lo) * 0.1;
    }
    m_offScale[chart] = scale.above + scale.below;
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const bool wasLog = y->scaleType() == QCPAxis::stLogarithmic;
    if (scale.log != wasLog) {
        y->setScaleType(scale.log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (scale.log)
            y->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        else
            y->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    y->setRange(scale.lo, scale.hi);
}

bool CurvePlot::isLogY(int chart) const
{
    return chart >= 0 && chart < static_cast<int>(m_rects.size()) &&
           m_rects[static_cast<size_t>(chart)]->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLogarithmic;
}

size_t CurvePlot::offScale(int chart) const
{
    return chart >= 0 && chart < static_cast<int>(m_offScale.size()) ? m_offScale[static_cast<size_t>(chart)]
                                                                     : 0;
}

void CurvePlot::placeMarkers()
{
    for (QCPAbstractItem* i : m_labels) removeItem(i);
    m_labels.clear();
    for (Curve& c : m_curves) {
        QCPAxis* ya = c.line->valueAxis();
        QCPAxis* xa = c.rect->axis(QCPAxis::atBottom);
        const bool visible = c.line->visible();
        if (c.single) {
            // calibration / quantized evaluation: a labelled horizontal line
            const float v = c.series->value.back();
            if (!visible || !std::isfinite(v)) continue;
            auto* line = new QCPItemStraightLine(this);
            line->setClipAxisRect(c.rect);
            line->point1->setAxes(xa, ya);
            line->point2->setAxes(xa, ya);
            line->point1->setCoords(0, v);
            line->point2->setCoords(1, v);
            line->setPen(QPen(c.line->pen().color(), 1.5, Qt::DashDotLine));
            auto* label = new QCPItemText(this);
            label->setClipAxisRect(c.rect);
            label->position->setAxes(xa, ya);
            label->position->setCoords(xa->range().upper, v);
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            label->setText(
                QStringLiteral("%1 %2 = %3").arg(c.run, c.metric).arg(static_cast<double>(v), 0, 'g', 4));
            label->setColor(c.line->pen().color());
            m_labels.push_back(line);
            m_labels.push_back(label);
            continue;
        }
        // NaN/Inf: a marker at the top edge at its x, never silently dropped
        const bool log = ya->scaleType() == QCPAxis::stLogarithmic;
        const double top = log ? ya->range().upper / 1.15 : ya->range().upper - ya->range().size() * 0.04;
        std::vector<double> ys(c.badX.size(), top);
        c.bad->setData(toContainer(c.badX, ys));
        int labels = 0;
        for (size_t i = 0; visible && i < c.badX.size() && labels < kMaxBadLabels; ++i) {
            if (!xa->range().contains(c.badX[i])) continue;
            if (i > 0 && labels > 0 && std::isnan(c.badY[i]) == std::isnan(c.badY[i - 1]) &&
                xa->coordToPixel(c.badX[i]) - xa->coordToPixel(c.badX[i - 1]) < 90)
                continue;  // a run of NaNs: label its start only
            auto* label = new QCPItemText(this);
            label->setClipAxisRect(c.rect);
            label->position->setAxes(xa, ya);
            label->position->setCoords(c.badX[i], top);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
            label->setPadding(QMargins(0, 8, 0, 0));
            label->setText(QStringLiteral("%1 @ %2")
                               .arg(QString::fromLatin1(core::nonFiniteText(c.badY[i])))
                               .arg(c.badX[i], 0, 'g', 6));
            label->setColor(c.line->pen().color().darker(130));
            m_labels.push_back(label);
            ++labels;
        }
    }
    placeAnnotations();
}

void CurvePlot::placeAnnotations()
{
    auto ring = [&](const Curve& c, double x, double y, QColor color, double size) {
        auto* t = new QCPItemTracer(this);
        t->setClipAxisRect(c.rect);
        t->position->setAxes(c.rect->axis(QCPAxis::atBottom), c.line->valueAxis());
        t->position->setCoords(x, y);
        t->setStyle(QCPItemTracer::tsCircle);
        t->setSize(size);
        t->setPen(QPen(color, 2));
        m_labels.push_back(t);
    };
    auto text = [&](QCPAxisRect* rect, double x, double y, const QString& s, QColor color,
                    Qt::Alignment align) {
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(rect);
        label->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        label->position->setCoords(x, y);
        label->setPositionAlignment(align);
        label->setPadding(QMargins(4, 2, 4, 2));
        label->setBrush(QColor(255, 255, 255, 215));
        label->setColor(color);
        label->setText(s);
        m_labels.push_back(label);
    };
    const QColor markColor(QString::fromLatin1(core::logs::kMarkColor));
    for (const MarkPoint& p : m_markPoints) {
        const Curve& c = m_curves[p.curve];
        if (!c.line->visible()) continue;
        if (p.mark.kind == CurveMark::Kind::Evidence) {
            if (!std::isfinite(p.y)) continue;  // a NaN has its triangle already
            ring(c, p.x, p.y, markColor, 11);
            continue;
        }
        // a crash or a live finding: a line through every chart
        const bool live = p.mark.kind == CurveMark::Kind::Live;
        const QColor color = live ? QColor(QStringLiteral("#c62828")) : markColor;
        for (QCPAxisRect* rect : m_rects) {
            QCPAxis* xa = rect->axis(QCPAxis::atBottom);
            QCPAxis* ya = rect->axis(QCPAxis::atLeft);
            auto* line = new QCPItemStraightLine(this);
            line->setClipAxisRect(rect);
            line->point1->setAxes(xa, ya);
            line->point2->setAxes(xa, ya);
            line->point1->setCoords(p.x, ya->range().lower);
            line->point2->setCoords(p.x, ya->range().upper);
            line->setPen(QPen(color, live ? 2.0 : 1.5, live ? Qt::SolidLine : Qt::DashLine));
            m_labels.push_back(line);
        }
        QCPAxis* ya = m_rects.front()->axis(QCPAxis::atLeft);
        // the label on the side with room: a line in the right half (a live one at the newest
        // step, mostly) has it to its left
        const QCPRange xr = m_rects.front()->axis(QCPAxis::atBottom)->range();
        const Qt::Alignment side = p.x > xr.center() ? Qt::AlignRight : Qt::AlignLeft;
        text(m_rects.front(), p.x, live ? ya->range().upper : ya->range().lower, p.mark.label, color,
             side | (live ? Qt::AlignTop : Qt::AlignBottom));
    }
    if (m_focus)
        for (const Curve& c : m_curves)
            if (c.run == m_focus->run && c.metric == m_focus->metric && c.line->visible() &&
                std::isfinite(m_focus->y)) {
                ring(c, m_focus->x, m_focus->y, Qt::black, 18);
                text(c.rect, m_focus->x, m_focus->y,
                     QStringLiteral("%1 = %2").arg(c.run,
                                                   QString::fromStdString(core::fullNumber(m_focus->y))),
                     Qt::black, Qt::AlignLeft | Qt::AlignBottom);
                break;
            }
    for (size_t chart = 0; chart < m_rects.size(); ++chart) {
        if (m_offScale[chart] == 0) continue;
        QCPAxisRect* rect = m_rects[chart];
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(rect);
        label->position->setType(QCPItemPosition::ptAxisRectRatio);
        label->position->setAxisRect(rect);
        label->position->setCoords(0.01, 0.02);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setColor(QColor(0x66, 0x66, 0x66));
        label->setText(tr("%n point(s) off the scale", nullptr, static_cast<int>(m_offScale[chart])));
        m_labels.push_back(label);
    }
}

void CurvePlot::setRunHidden(const QString& run, bool hidden)
{
    if (hidden)
        m_hiddenRuns.insert(run);
    else
        m_hiddenRuns.remove(run);
    for (Curve& c : m_curves) {
        if (c.run != run) continue;
        for (QCPGraph* g : {c.line, c.raw, c.dots, c.bad}) g->setVisible(!hidden);
        if (auto* item = legend->itemWithPlottable(c.line)) item->setTextColor(hidden ? Qt::gray : Qt::black);
    }
}

void CurvePlot::onLegendClick(QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*)
{
    auto* pli = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!pli) return;
    for (const Curve& c : m_curves) {
        if (c.line != pli->plottable()) continue;
        setRunHidden(c.run, !m_hiddenRuns.contains(c.run));
        break;
    }
    legend->setSelectedParts(QCPLegend::spNone);
    redrawNow();
}

void CurvePlot::onSelectionRect(const QRect&, QMouseEvent*)
{
    // QCustomPlot zoomed the rect under the box; share its x with the others and keep its y.
    m_autoY = false;
    scheduleRedraw();
}

QString CurvePlot::readoutAt(double x) const
{
    QStringList lines;
    for (const Curve& c : m_curves) {
        if (!c.line->visible() || c.x.empty()) continue;
        size_t i;
        if (c.single) {
            i = c.series->size() - 1;
        } else {
            auto it = std::lower_bound(c.x.begin(), c.x.end(), x);
            i = static_cast<size_t>(it - c.x.begin());
            if (i >= c.x.size()) i = c.x.size() - 1;
            if (i > 0 && std::fabs(c.x[i - 1] - x) < std::fabs(c.x[i] - x)) --i;
        }
        const float v = c.series->value[i];
        const QString value = QString::fromStdString(core::numberText(v, 6));
        lines << QStringLiteral("%1 · %2 = %3  (x %4)").arg(c.run, c.metric, value).arg(c.x[i], 0, 'g', 7);
    }
    return lines.join(QLatin1Char('\n'));
}

void CurvePlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (m_rects.empty()) return;
    const double x = m_rects.front()->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x());
    for (size_t i = 0; i < m_crosshair.size(); ++i) {
        QCPAxis* ya = m_rects[i]->axis(QCPAxis::atLeft);
        m_crosshair[i]->point1->setCoords(x, ya->range().lower);
        m_crosshair[i]->point2->setCoords(x, ya->range().upper);
        m_crosshair[i]->setVisible(true);
    }
    layer(QStringLiteral("main"))->replot();
    replot(QCustomPlot::rpQueuedReplot);
    const QString readout = readoutAt(x);
    // At the cursor, so reading values never resizes the plot.
    if (!readout.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), readout, this);
    emit readoutChanged(readout);
}

QString CurvePlot::visibleCsv() const
{
    QString out = QStringLiteral("run,role,metric,step,x,value\n");
    auto quoted = [](QString v) {
        if (!v.contains(QLatin1Char(',')) && !v.contains(QLatin1Char('"'))) return v;
        return QLatin1Char('"') + v.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    };
    for (const Curve& c : m_curves) {
        if (!c.line->visible()) continue;
        const QCPRange xr = c.rect->axis(QCPAxis::atBottom)->range();
        const QString head = quoted(c.run) + QLatin1Char(',') +
                             QString::fromUtf8(core::logs::roleName(c.role)) + QLatin1Char(',') +
                             quoted(c.metric) + QLatin1Char(',');
        for (size_t i = 0; i < c.series->size(); ++i) {
            if (!c.single && !xr.contains(c.x[i])) continue;
            const float v = c.series->value[i];
            out += head + QString::number(c.series->step[i], 'g', 12) + QLatin1Char(',') +
                   QString::number(c.x[i], 'g', 12) + QLatin1Char(',') +
                   (std::isfinite(v) ? QString::number(static_cast<double>(v), 'g', 9)
                                     : QString::fromLatin1(core::nonFiniteText(v))) +
                   QLatin1Char('\n');
        }
    }
    return out;
}

QStringList CurvePlot::curveNames() const
{
    QStringList out;
    for (const Curve& c : m_curves) out << c.run + QStringLiteral(" · ") + c.metric;
    return out;
}

void CurvePlot::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    scheduleRedraw();
}

bool CurvePlot::exportTo(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (QCPItemStraightLine* c : m_crosshair) c->setVisible(false);
    if (suffix == QLatin1String("png")) return savePng(path, 0, 0, 2.0);
    if (suffix == QLatin1String("pdf")) return savePdf(path);
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(size());
        gen.setViewBox(rect());
        gen.setTitle(tr("Training curves"));
        QCPPainter painter;
        if (!painter.begin(&gen)) return false;
        toPainter(&painter, width(), height());
        painter.end();
        return QFileInfo::exists(path);
    }
    return false;
}

qsizetype CurvePlot::drawnPoints(const QString& run, const QString& metric) const
{
    for (const Curve& c : m_curves)
        if (c.run == run && c.metric == metric) return c.line->data()->size() + c.dots->data()->size();
    return -1;
}

qsizetype CurvePlot::sourcePoints(const QString& run, const QString& metric) const
{
    for (const Curve& c : m_curves)
        if (c.run == run && c.metric == metric) return static_cast<qsizetype>(c.series->size());
    return -1;
}

int CurvePlot::nonFiniteMarkers(const QString& run, const QString& metric) const
{
    for (const Curve& c : m_curves)
        if (c.run == run && c.metric == metric) return static_cast<int>(c.bad->data()->size());
    return -1;
}

int CurvePlot::labelCount() const
{
    int n = 0;
    for (QCPAbstractItem* i : m_labels) n += qobject_cast<QCPItemText*>(i) != nullptr;
    return n;
}

}  // namespace qatdoctor::ui
