// Item model over one toolchain DataTable (read-only). Numbers sort as numbers: the sort role
// gives a double for numeric cells, so a QSortFilterProxyModel orders 1e-05 < 0.5 < 12.
#pragma once

#include <QAbstractTableModel>

#include "ui/common/app_context.h"

namespace qatdoctor::ui {

class DataTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kLineRole = Qt::UserRole + 2;  // 1-based source line of the row

    explicit DataTableModel(QObject* parent = nullptr);

    // Shows analysis->tables[index] (keeps the snapshot alive); index -1 shows nothing.
    void setTable(AnalysisPtr analysis, int index);
    const core::DataTable* table() const { return m_table; }
    // Tints one source row (the first bad layer of a comparison table); -1 = none.
    void setHighlightRow(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AnalysisPtr m_analysis;
    const core::DataTable* m_table = nullptr;
    int m_highlight = -1;
};

}  // namespace qatdoctor::ui
