#include "ui/pages/compare/diff_table_model.h"

#include <QColor>

namespace qatdoctor::ui {
namespace {

using core::compare::RowChange;

// Row tints by change, the colours the Checkpoints page's diff uses: amber changed, blue split,
// green only in B, grey only in A; red over all of them for a move the wrong way.
QVariant tint(RowChange kind, bool worse)
{
    if (worse) return QColor(0xfd, 0xec, 0xea);
    switch (kind) {
        case RowChange::Changed:
            return QColor(0xff, 0xf4, 0xe5);
        case RowChange::Split:
            return QColor(0xe3, 0xf2, 0xfd);
        case RowChange::Added:
            return QColor(0xe8, 0xf5, 0xe9);
        case RowChange::Removed:
            return QColor(0xee, 0xee, 0xee);
        case RowChange::Same:
        case RowChange::Retuned:
            return {};
    }
    return {};
}

}  // namespace

DiffTableModel::DiffTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiffTableModel::setTable(core::compare::DiffTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int DiffTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int DiffTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QVariant DiffTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const auto r = static_cast<size_t>(index.row());
    const auto c = static_cast<size_t>(index.column());
    if (r >= m_table.rows.size() || c >= m_table.rows[r].size()) return {};
    switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            return QString::fromStdString(m_table.rows[r][c]);
        case Qt::BackgroundRole:
            return tint(m_table.kinds[r], m_table.worse[r]);
        case Qt::ForegroundRole:
            return (m_table.kinds[r] == RowChange::Changed || m_table.kinds[r] == RowChange::Split ||
                    m_table.worse[r])
                       ? QVariant(QColor(0x21, 0x21, 0x21))
                       : QVariant();
        case kChangedRole:
            return static_cast<bool>(m_table.changed[r]);
        case kKindRole:
            return QString::fromUtf8(core::compare::rowChangeName(m_table.kinds[r]));
        default:
            return {};
    }
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        static_cast<size_t>(section) >= m_table.columns.size())
        return {};
    return QString::fromStdString(m_table.columns[static_cast<size_t>(section)]);
}

void ChangedOnlyFilter::setChangedOnly(bool on)
{
    if (on == m_changedOnly) return;
    m_changedOnly = on;
    invalidateRowsFilter();
}

bool ChangedOnlyFilter::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    if (!m_changedOnly) return true;
    return sourceModel()->index(row, 0, parent).data(DiffTableModel::kChangedRole).toBool();
}

}  // namespace qatdoctor::ui
