// "Debug files": the toolchain's text tables (model_check_result sections, per-layer comparison,
// sensitivity, statistics, similarity, weight comparison, deploy devices) as sortable tables,
// with a per-layer similarity plot (cosine / SQNR by layer, first bad layer marked) for the
// comparison tables and the warnings of the file shown. Reads only Analysis::tables.
//
// Page state (AppContext::pageState("artifacts")): {"table": "<kind>|<source path>"} = the
// table last shown, restored when the same file is loaded again.
#pragma once

#include <optional>

#include "ui/pages/page.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;

namespace qatdoctor::ui {

class ComparisonView;
class DataTableModel;
class SimilarityPlot;

class ArtifactsPage : public Page {
    Q_OBJECT
public:
    explicit ArtifactsPage(AppContext* context, QWidget* parent = nullptr);

    QString id() const override { return "artifacts"; }
    QString title() const override { return tr("Debug files"); }
    // target.layer: select the row naming that layer (in the current table, else the first
    // table that has it).
    void focusOn(const NavigationTarget& target) override;

    // For tests and the report: what is shown.
    QComboBox* tableChooser() const { return m_chooser; }
    QTableView* tableView() const { return m_view; }
    SimilarityPlot* similarityPlot() const { return m_plot; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QLabel* warningLabel() const { return m_warnings; }
    QTabWidget* tabs() const { return m_tabs; }
    ComparisonView* comparisonView() const { return m_compare; }

private:
    void rebuild();
    void showTable(int index);
    std::optional<int> firstBadRow(const core::DataTable& table) const;
    bool selectLayer(const QString& layer);
    void updateComparison();  // the A | B tab: each debug table of A against B's of its kind

    AnalysisPtr m_analysis;
    QComboBox* m_chooser;
    QLineEdit* m_filter;
    QLabel* m_empty;
    QLabel* m_warnings;
    QSplitter* m_splitter;
    QTabWidget* m_tabs;
    ComparisonView* m_compare;
    QTableView* m_view;
    SimilarityPlot* m_plot;
    DataTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
};

}  // namespace qatdoctor::ui
