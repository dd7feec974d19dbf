// The Model page: the per-layer table of Analysis::primaryModel() (sortable, filterable, dtypes
// colour-coded, flagged rows with the finding and an "open in wizard" link), a details pane for
// the selected layer (quantization parameters, weight histogram with the quantization grid) and
// the graph view. Text sources (printed modules) show the table; their graph view says so.
//
// Page state (AppContext::pageState("model"), saved in the session file):
//   {"expected": {"<module>": "<dtype>", ...}} = the dtype expectations set with "Expected
//   dtypes…" (model.int16_not_applied). When present they are applied to every analysis the
//   page sees (a restored session, a reload), in the background; absent = leave the analysis's
//   own (from --expect / the session's expect file).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "ui/pages/page.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;

namespace qatdoctor::ui {

class BackgroundJob;
class ComparisonView;
class GraphView;
class LayerDetails;
class LayerFilterModel;
class LayerTableModel;

class ModelPage : public Page {
    Q_OBJECT
public:
    explicit ModelPage(AppContext* context, QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("model"); }
    QString title() const override { return tr("Model"); }
    QIcon icon() const override;
    void focusOn(const NavigationTarget& target) override;

    // For tests and navigation.
    LayerTableModel* tableModel() const { return m_model; }
    LayerFilterModel* filterModel() const { return m_filter; }
    QTableView* tableView() const { return m_table; }
    GraphView* graphView() const { return m_graph; }
    LayerDetails* details() const { return m_details; }
    QTabWidget* tabs() const { return m_tabs; }
    ComparisonView* comparisonView() const { return m_compare; }
    bool selectLayer(const QString& name);
    // What the "Expected dtypes…" dialog does on OK: keeps the expectations (module -> dtype)
    // in the page state and applies them.
    void setExpectations(const std::map<std::string, std::string>& expected);
    // The expectations kept in the page state (nullopt: none set in the UI).
    std::optional<std::map<std::string, std::string>> savedExpectations() const;
    // Re-runs the checks on a copy of the analysis with these expectations in the background
    // and publishes it (dropped if another analysis was published meanwhile).
    void applyExpectations(const std::map<std::string, std::string>& expected);

private:
    void reload();
    void onCurrentRowChanged();
    void openWizard(const QString& faqTopic);
    void editExpectations();
    void syncExpectations();  // page state -> current analysis, when they differ
    void updateComparison();  // the A | B tab: each model's and checkpoint's layers, A against B

    QLabel* m_header;
    QLineEdit* m_filterEdit;
    QCheckBox* m_flaggedOnly;
    QTabWidget* m_tabs;
    QTableView* m_table;
    GraphView* m_graph;
    ComparisonView* m_compare;
    LayerDetails* m_details;
    LayerTableModel* m_model;
    LayerFilterModel* m_filter;
    BackgroundJob* m_checksJob;
};

}  // namespace qatdoctor::ui
