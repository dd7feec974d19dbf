// What was loaded, as two table models for the Overview page: the inputs (log folders, models,
// toolchain files) and the runs with their roles. The role column is editable; an edit does not
// change the model but asks for re-analysis through roleChangeRequested (the main window re-runs
// the checks and a new Analysis arrives).
#pragma once

#include <QAbstractTableModel>
#include <QStyledItemDelegate>

#include "ui/common/app_context.h"

namespace qatdoctor::ui {

class InputsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { PathColumn, KindColumn, FormatColumn, DetailColumn, ColumnCount };
    explicit InputsModel(QObject* parent = nullptr);
    void setAnalysis(AnalysisPtr analysis);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AnalysisPtr m_analysis;
};

class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, RoleColumn, FilesColumn, SeriesColumn, ReasonColumn, ColumnCount };
    explicit RunsModel(QObject* parent = nullptr);
    void setAnalysis(AnalysisPtr analysis);
    void setLang(core::Lang lang);  // the role reasons are shown in it

    // The role names the combo offers, in pipeline order.
    static QStringList runRoleNames();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void roleChangeRequested(const QString& run, const QString& role);

private:
    AnalysisPtr m_analysis;
    core::Lang m_lang = core::Lang::En;
};

// A combo box of RunsModel::runRoleNames() for the role column.
class RoleDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace qatdoctor::ui
