// Item model over one core::compare::DiffTable (the same columns the CLI prints and the report
// draws): rows tinted by their change, a regression in red; a proxy keeps the changed rows only.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "core/compare/diff_tables.h"

namespace qatdoctor::ui {

class DiffTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kChangedRole = Qt::UserRole + 1;  // bool: kept by "changed only"
    static constexpr int kKindRole = Qt::UserRole + 2;     // core::compare::rowChangeName

    explicit DiffTableModel(QObject* parent = nullptr);

    void setTable(core::compare::DiffTable table);
    const core::compare::DiffTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    core::compare::DiffTable m_table;
};

// Keeps every row, or only those a change touched.
class ChangedOnlyFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ChangedOnlyFilter(QObject* parent = nullptr) : QSortFilterProxyModel(parent) {}
    void setChangedOnly(bool on);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    bool m_changedOnly = true;
};

}  // namespace qatdoctor::ui
