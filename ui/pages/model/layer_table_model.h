// The per-layer table of the Model page: a read-only item model over a LayerTable plus the
// findings that name its layers. Display text, dtype colours, sort keys and tooltips.
#pragma once

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <map>
#include <memory>
#include <vector>

#include "core/analysis.h"

namespace qatdoctor::ui {

class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Op,
        Inputs,
        Weight,
        Granularity,
        WeightScales,
        Output,
        OutputScale,
        ZeroPoint,
        Finding,
        Flags,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, FlaggedRole, FaqRole };

    explicit LayerTableModel(QObject* parent = nullptr);

    // Keeps the analysis alive while the table points into it; table may be null (no model).
    void setTable(std::shared_ptr<const core::Analysis> analysis, const core::model::LayerTable* table,
                  core::Lang lang);
    const core::model::LayerTable* table() const { return m_table; }
    const core::model::Layer* layerAt(int row) const;
    int rowOf(const QString& layerName) const;
    // Findings whose evidence names the layer at row (empty if none).
    std::vector<const core::Finding*> findingsAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QColor dtypeColor(core::model::DType t);

private:
    std::shared_ptr<const core::Analysis> m_analysis;
    const core::model::LayerTable* m_table = nullptr;
    std::map<std::string, std::vector<const core::Finding*>> m_findings;  // layer -> findings
    core::Lang m_lang = core::Lang::En;
};

// Filter: text in name / op / dtypes / flags / finding, and "flagged rows only".
class LayerFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LayerFilterModel(QObject* parent = nullptr);
    void setText(const QString& text);
    void setFlaggedOnly(bool on);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    bool m_flaggedOnly = false;
};

}  // namespace qatdoctor::ui
