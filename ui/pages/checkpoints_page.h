// "Checkpoints": what the torch.save checkpoints of the analysis hold, read without Python
// (core/checkpoint): per checkpoint its facts and its quantizers (scales, zero points, observed
// ranges, switches; a float checkpoint lists its tensors), and per consecutive pair what changed
// (every tensor: same, changed with its relative L2 and max abs change, gained, lost). Rows a
// finding names are highlighted. Reads Analysis::checkpoints and checkpointDiffs only.
//
// Page state (AppContext::pageState("checkpoints")): {"view": "<index in the chooser>",
// "changed_only": bool}.
#pragma once

#include "ui/pages/page.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace qatdoctor::ui {

class CheckpointsPage : public Page {
    Q_OBJECT
public:
    explicit CheckpointsPage(AppContext* context, QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("checkpoints"); }
    QString title() const override { return tr("Checkpoints"); }
    // target.file: show that checkpoint; target.layer: select its module's row.
    void focusOn(const NavigationTarget& target) override;

    // For tests: what is shown.
    QComboBox* viewChooser() const { return m_chooser; }
    QTableView* tableView() const { return m_view; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QLabel* factsLabel() const { return m_facts; }
    QCheckBox* changedOnlyBox() const { return m_changedOnly; }

private:
    void rebuild();
    void showView(int index);
    void showCheckpoint(size_t index);
    void showDiff(size_t index);
    bool selectRow(const QString& name);

    AnalysisPtr m_analysis;
    QComboBox* m_chooser;
    QLineEdit* m_filter;
    QCheckBox* m_changedOnly;
    QLabel* m_empty;
    QLabel* m_facts;
    QTableView* m_view;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
};

}  // namespace qatdoctor::ui
