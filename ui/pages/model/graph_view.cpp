#include "ui/pages/model/graph_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QStyleOptionGraphicsItem>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>

#include "ui/common/app_context.h"
#include "ui/common/background_job.h"
#include "ui/pages/model/layer_table_model.h"

namespace qatdoctor::ui {
namespace {

using LayoutResult = std::shared_ptr<core::Result<core::model::GraphLayout>>;
constexpr int kGroupAboveNodes = 1500;  // graphs larger than this start grouped by module

class NodeItem : public QGraphicsItem {
public:
    NodeItem(const core::model::LayoutNode& n, int index) : m_node(n), m_index(index)
    {
        setPos(n.x, n.y);
        setFlag(ItemIsSelectable);
        setToolTip(QString::fromStdString(n.name + (n.layer.empty() ? "" : "\nlayer: " + n.layer) + "\n") +
                   QString::fromLatin1(core::model::dtypeName(n.dtype)));
        setData(0, index);
    }
    QRectF boundingRect() const override
    {
        return {-m_node.w / 2 - 2, -m_node.h / 2 - 2, m_node.w + 4, m_node.h + 4};
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override
    {
        const QRectF r(-m_node.w / 2, -m_node.h / 2, m_node.w, m_node.h);
        const double lod = option->levelOfDetailFromTransform(p->worldTransform());
        QColor fill = LayerTableModel::dtypeColor(m_node.dtype);
        if (m_node.op == "input" || m_node.op == "output") fill = QColor(0xee, 0xee, 0xee);
        p->setBrush(fill);
        p->setPen(
            QPen(isSelected() ? QColor(0xd0, 0x20, 0x20) : QColor(0x50, 0x50, 0x50), isSelected() ? 3 : 1));
        if (lod < 0.25) {  // far away: just the box
            p->drawRect(r);
            return;
        }
        p->drawRoundedRect(r, m_node.op == "group" ? 2 : 8, m_node.op == "group" ? 2 : 8);
        p->setPen(Qt::black);
        const QString label = QString::fromStdString(m_node.label);
        const QString dtype = QString::fromLatin1(core::model::dtypeName(m_node.dtype));
        p->drawText(r.adjusted(6, 2, -6, -r.height() / 2), Qt::AlignCenter,
                    p->fontMetrics().elidedText(label, Qt::ElideMiddle, static_cast<int>(r.width()) - 12));
        p->setPen(QColor(0x40, 0x40, 0x40));
        p->drawText(r.adjusted(6, r.height() / 2, -6, -2), Qt::AlignCenter, dtype);
    }
    const core::model::LayoutNode& node() const { return m_node; }

private:
    core::model::LayoutNode m_node;
    int m_index;
};

class EdgeItem : public QGraphicsItem {
public:
    EdgeItem(QPointF a, QPointF b, core::model::DType dtype, int span) : m_a(a), m_b(b), m_dtype(dtype)
    {
        setZValue(-1);
        QPainterPath path(m_a);
        const double dy = (m_b.y() - m_a.y()) / 2;
        // Edges skipping rows bow out sideways so they do not run through the nodes in between.
        const double side = span > 1 ? std::min(60.0 * span, 260.0) : 0.0;
        path.cubicTo(m_a + QPointF(side, dy), m_b + QPointF(side, -dy), m_b);
        m_path = path;
    }
    QRectF boundingRect() const override { return m_path.boundingRect().adjusted(-30, -10, 30, 10); }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override
    {
        QColor c = LayerTableModel::dtypeColor(m_dtype).darker(170);
        p->setPen(QPen(c, 1.2));
        p->setBrush(Qt::NoBrush);
        p->drawPath(m_path);
        if (option->levelOfDetailFromTransform(p->worldTransform()) < 0.6) return;
        const QPointF mid = m_path.pointAtPercent(0.5);
        p->setPen(c.darker(130));
        QFont f = p->font();
        f.setPointSizeF(7);
        p->setFont(f);
        p->drawText(mid + QPointF(4, 3), QString::fromLatin1(core::model::dtypeName(m_dtype)));
    }

private:
    QPointF m_a, m_b;
    core::model::DType m_dtype;
    QPainterPath m_path;
};

}  // namespace

void ZoomableGraphicsView::wheelEvent(QWheelEvent* event)
{
    const double factor = event->angleDelta().y() > 0 ? 1.2 : 1 / 1.2;
    setTransformationAnchor(AnchorUnderMouse);
    scale(factor, factor);
    event->accept();
}

GraphView::GraphView(AppContext* context, QWidget* parent)
    : QWidget(parent),
      m_context(context),
      m_search(new QLineEdit(this)),
      m_grouping(new QComboBox(this)),
      m_fold(new QCheckBox(tr("Fold quantizers"), this)),
      m_status(new QLabel(this)),
      m_scene(new QGraphicsScene(this)),
      m_view(new ZoomableGraphicsView(m_scene, this)),
      m_job(new BackgroundJob(this))
{
    m_search->setPlaceholderText(tr("Search nodes (Enter = next)"));
    m_search->setClearButtonEnabled(true);
    m_grouping->addItem(tr("No grouping"), 0);
    for (int d = 1; d <= 3; ++d) m_grouping->addItem(tr("Group by module, depth %1").arg(d), d);
    m_fold->setChecked(true);
    m_fold->setToolTip(
        tr("Hide Quantize/Dequantize, Constant and Identity nodes; edges then show the quantized dtype"));
    auto* fit = new QPushButton(tr("Fit"), this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_search, 2);
    bar->addWidget(m_grouping);
    bar->addWidget(m_fold);
    bar->addWidget(fit);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    m_view->setDragMode(QGraphicsView::ScrollHandDrag);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchFrom = 0; });
    connect(m_grouping, qOverload<int>(&QComboBox::activated), this, [this] { relayout(); });
    connect(m_fold, &QCheckBox::toggled, this, [this] { relayout(); });
    connect(fit, &QPushButton::clicked, this,
            [this] { m_view->fitInView(m_scene->itemsBoundingRect(), Qt::KeepAspectRatio); });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, [this] {
        const auto items = m_scene->selectedItems();
        if (items.size() != 1) return;
        const int idx = items.front()->data(0).toInt();
        if (m_layout && idx >= 0 && idx < static_cast<int>(m_layout->nodes.size())) {
            m_selected = idx;
            const auto& n = m_layout->nodes[static_cast<size_t>(idx)];
            if (!n.layer.empty()) emit layerActivated(QString::fromStdString(n.layer));
        }
    });
    if (m_context) m_context->announceJob(m_job);
    setTable(nullptr, nullptr);
}

QString GraphView::statusText() const
{
    return m_status->text();
}

void GraphView::setTable(std::shared_ptr<const core::Analysis> analysis, const core::model::LayerTable* table)
{
    m_analysis = std::move(analysis);
    m_table = table;
    m_layout.reset();
    m_job->cancel();
    m_scene->clear();
    m_nodeItems.clear();
    m_selected = -1;
    const bool haveGraph = table && table->graph;
    m_search->setEnabled(haveGraph);
    m_grouping->setEnabled(haveGraph);
    m_fold->setEnabled(haveGraph);
    if (!table) {
        m_status->setText(tr("No model loaded."));
        return;
    }
    if (!haveGraph) {
        m_status->setText(
            tr("No graph for this source (%1 is a %2, not a model graph).")
                .arg(QString::fromStdString(table->sourcePath), QString::fromStdString(table->format)));
        return;
    }
    const bool big = table->graph && table->layers.size() * 3 > kGroupAboveNodes;
    m_grouping->setCurrentIndex(big ? 1 : 0);
    relayout();
}

void GraphView::relayout()
{
    if (!m_table || !m_table->graph) return;
    core::model::LayoutOptions options;
    options.collapseDepth = m_grouping->currentData().toInt();
    options.foldQuantizers = m_fold->isChecked();
    m_status->setText(tr("Laying out the graph…"));
    auto keep = m_analysis;
    const core::model::LayerTable* table = m_table;
    m_job->start<LayoutResult>(
        tr("Laying out the model graph"),
        [keep, table, options](const core::ProgressFn& progress) {
            return std::make_shared<core::Result<core::model::GraphLayout>>(
                core::model::layoutGraph(*table, options, progress));
        },
        [this](LayoutResult r) {
            if (!r->ok()) {
                m_status->setText(QString::fromStdString(r->error().message));
                return;
            }
            m_layout = std::make_shared<const core::model::GraphLayout>(std::move(r->value()));
            buildScene();
            emit layoutReady();
        });
}

void GraphView::buildScene()
{
    m_scene->clear();
    m_nodeItems.clear();
    m_selected = -1;
    const auto& L = *m_layout;
    for (size_t i = 0; i < L.nodes.size(); ++i) {
        auto* item = new NodeItem(L.nodes[i], static_cast<int>(i));
        m_scene->addItem(item);
        m_nodeItems.push_back(item);
    }
    for (const auto& e : L.edges) {
        const auto& a = L.nodes[static_cast<size_t>(e.from)];
        const auto& b = L.nodes[static_cast<size_t>(e.to)];
        m_scene->addItem(
            new EdgeItem(QPointF(a.x, a.y + a.h / 2), QPointF(b.x, b.y - b.h / 2), e.dtype, b.rank - a.rank));
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-40, -40, 40, 40));
    QString status = tr("%1 nodes drawn, %2 edges, %3 quantizer/constant nodes folded")
                         .arg(L.nodes.size())
                         .arg(L.edges.size())
                         .arg(L.hiddenNodes);
    if (L.grouping.coarsened) {
        // Say why the drawing is not what the grouping box asked for.
        const QString why =
            L.grouping.consecutive > 0
                ? tr("%L1 nodes are too many to draw one by one: drawn in groups of %L2 consecutive "
                     "nodes (the Layers tab lists every one)")
                      .arg(L.grouping.visibleNodes)
                      .arg(L.grouping.consecutive)
                : tr("%L1 nodes are too many to draw one by one: grouped by module, depth %2")
                      .arg(L.grouping.visibleNodes)
                      .arg(L.grouping.depth);
        status = why + QStringLiteral(" — ") + status;
    }
    m_status->setText(status);
    m_view->resetTransform();
    if (!m_pendingLayer.isEmpty()) {
        const QString layer = m_pendingLayer;
        m_pendingLayer.clear();
        centerOnLayer(layer);
    } else if (!L.nodes.empty()) {
        m_view->centerOn(L.nodes.front().x, L.nodes.front().y);
    }
}

void GraphView::selectNode(int index)
{
    if (index < 0 || index >= static_cast<int>(m_nodeItems.size())) return;
    const QSignalBlocker block(m_scene);
    m_scene->clearSelection();
    m_nodeItems[static_cast<size_t>(index)]->setSelected(true);
    m_selected = index;
    m_view->centerOn(m_nodeItems[static_cast<size_t>(index)]);
}

bool GraphView::centerOnLayer(const QString& layer)
{
    if (!m_layout) {
        m_pendingLayer = layer;
        return false;
    }
    const std::string name = layer.toStdString();
    int group = -1;
    for (size_t i = 0; i < m_layout->nodes.size(); ++i) {
        const auto& n = m_layout->nodes[i];
        if (n.layer == name && n.op != "group") {
            selectNode(static_cast<int>(i));
            return true;
        }
        if (n.op == "group" && (name == n.name || name.rfind(n.name + ".", 0) == 0))
            group = static_cast<int>(i);
    }
    if (group >= 0) selectNode(group);
    return group >= 0;
}

bool GraphView::search(const QString& text)
{
    if (!m_layout || text.isEmpty()) return false;
    const int count = static_cast<int>(m_layout->nodes.size());
    for (int k = 0; k < count; ++k) {
        const int i = (m_searchFrom + k) % count;
        const auto& n = m_layout->nodes[static_cast<size_t>(i)];
        if (QString::fromStdString(n.name).contains(text, Qt::CaseInsensitive) ||
            QString::fromStdString(n.label).contains(text, Qt::CaseInsensitive)) {
            selectNode(i);
            m_searchFrom = i + 1;
            return true;
        }
    }
    return false;
}

}  // namespace qatdoctor::ui
