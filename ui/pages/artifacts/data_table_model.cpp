#include "ui/pages/artifacts/data_table_model.h"

#include <QColor>

#include "core/artifacts/text_lines.h"

namespace qatdoctor::ui {

DataTableModel::DataTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DataTableModel::setTable(AnalysisPtr analysis, int index)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_highlight = -1;
    m_table = (m_analysis && index >= 0 && index < static_cast<int>(m_analysis->tables.size()))
                  ? &m_analysis->tables[static_cast<size_t>(index)]
                  : nullptr;
    endResetModel();
}

void DataTableModel::setHighlightRow(int row)
{
    if (row == m_highlight) return;
    const int old = m_highlight;
    m_highlight = row;
    for (int r : {old, row})
        if (r >= 0 && r < rowCount())
            emit dataChanged(index(r, 0), index(r, columnCount() - 1), {Qt::BackgroundRole});
}

int DataTableModel::rowCount(const QModelIndex& parent) const
{
    return (parent.isValid() || !m_table) ? 0 : static_cast<int>(m_table->rows.size());
}

int DataTableModel::columnCount(const QModelIndex& parent) const
{
    return (parent.isValid() || !m_table) ? 0 : static_cast<int>(m_table->columns.size());
}

QVariant DataTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_table || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& row = m_table->rows[static_cast<size_t>(index.row())];
    const std::string& cell = static_cast<size_t>(index.column()) < row.size()
                                  ? row[static_cast<size_t>(index.column())]
                                  : std::string();
    switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            return QString::fromStdString(cell);
        case kSortRole: {
            if (auto v = core::artifacts::parseNumber(cell)) return *v;
            return QString::fromStdString(cell);
        }
        case kLineRole:
            return static_cast<qlonglong>(m_table->rowLines[static_cast<size_t>(index.row())]);
        case Qt::BackgroundRole:
            return index.row() == m_highlight ? QVariant(QColor(255, 228, 225)) : QVariant();
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(core::artifacts::parseNumber(cell) ? Qt::AlignRight | Qt::AlignVCenter
                                                                          : Qt::AlignLeft | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant DataTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_table || role != Qt::DisplayRole) return {};
    if (orientation == Qt::Horizontal)
        return section < columnCount()
                   ? QString::fromStdString(m_table->columns[static_cast<size_t>(section)])
                   : QVariant();
    // Row headers show the source line, so a user can find the row in the text file.
    return section < rowCount()
               ? QVariant(static_cast<qlonglong>(m_table->rowLines[static_cast<size_t>(section)]))
               : QVariant();
}

}  // namespace qatdoctor::ui
