// The Model page's graph view: the layered DAG of the model (laid out in the background by
// core::model::layoutGraph), nodes coloured by dtype, edges labelled with the dtype they carry,
// zoom (wheel) / pan (drag), search, the selected layer centred, grouping by module prefix so
// 5,000-node graphs stay usable.
#pragma once

#include <QGraphicsView>
#include <QWidget>
#include <memory>

#include "core/analysis.h"
#include "core/model/graph_layout.h"

class QCheckBox;
class QComboBox;
class QGraphicsItem;
class QGraphicsScene;
class QLabel;
class QLineEdit;

namespace qatdoctor::ui {

class AppContext;
class BackgroundJob;

class ZoomableGraphicsView : public QGraphicsView {
    Q_OBJECT
public:
    using QGraphicsView::QGraphicsView;

protected:
    void wheelEvent(QWheelEvent* event) override;
};

class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(AppContext* context, QWidget* parent = nullptr);

    void setTable(std::shared_ptr<const core::Analysis> analysis, const core::model::LayerTable* table);
    // Selects and centres the node of a layer (or the group holding it). False if not drawn.
    bool centerOnLayer(const QString& layer);
    // Selects and centres the next node whose name / label / layer contains text.
    bool search(const QString& text);

    const core::model::GraphLayout* layout() const { return m_layout.get(); }
    QString statusText() const;
    BackgroundJob* job() const { return m_job; }

signals:
    void layerActivated(const QString& layer);
    void layoutReady();

private:
    void relayout();
    void buildScene();
    void selectNode(int index);

    AppContext* m_context;
    QLineEdit* m_search;
    QComboBox* m_grouping;
    QCheckBox* m_fold;
    QLabel* m_status;
    QGraphicsScene* m_scene;
    ZoomableGraphicsView* m_view;
    BackgroundJob* m_job;
    std::shared_ptr<const core::Analysis> m_analysis;
    const core::model::LayerTable* m_table = nullptr;
    std::shared_ptr<const core::model::GraphLayout> m_layout;
    std::vector<QGraphicsItem*> m_nodeItems;
    int m_selected = -1;
    int m_searchFrom = 0;
    QString m_pendingLayer;
};

}  // namespace qatdoctor::ui
