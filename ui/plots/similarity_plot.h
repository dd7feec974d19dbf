// Per-layer similarity of a compare_per_layer / similarity table: cosine (left axis) and, when
// the table has it, SQNR (right axis) by layer, with the first bad layer marked.
#pragma once

#include <QWidget>
#include <optional>

#include "core/common/data_table.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace qatdoctor::ui {

class SimilarityPlot : public QWidget {
    Q_OBJECT
public:
    explicit SimilarityPlot(QWidget* parent = nullptr);

    // Plots the table; firstBadRow = row index to mark (nullopt: none). Returns false when the
    // table has no similarity column (the plot is then cleared).
    bool setTable(const core::DataTable& table, std::optional<int> firstBadRow);
    void clear();

    QCustomPlot* plot() const { return m_plot; }
    int pointCount() const { return m_points; }
    std::optional<int> markedRow() const { return m_marked; }

signals:
    void rowClicked(int row);  // a click near a point selects its row

private:
    QCustomPlot* m_plot;
    QCPItemStraightLine* m_marker = nullptr;
    QCPItemText* m_label = nullptr;
    int m_points = 0;
    std::optional<int> m_marked;
};

}  // namespace qatdoctor::ui
