// The Model page: the per-layer table of Analysis::primaryModel() (sortable, filterable, dtypes
// colour-coded, flagged rows with the finding and an "open in wizard" link), a details pane for
// the selected layer (quantization parameters, weight histogram with the quantization grid) and
// the graph view. Text sources (printed modules) show the table; their graph view says so.
#pragma once

#include <map>
#include <string>

#include "ui/pages/page.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;

namespace qatdoctor::ui {

class BackgroundJob;
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
    bool selectLayer(const QString& name);
    // Re-runs the checks on a copy of the analysis with these expectations (module -> dtype)
    // in the background and publishes it; what the "Expected dtypes…" button does.
    void applyExpectations(const std::map<std::string, std::string>& expected);

private:
    void reload();
    void onCurrentRowChanged();
    void openWizard(const QString& faqTopic);
    void editExpectations();

    QLabel* m_header;
    QLineEdit* m_filterEdit;
    QCheckBox* m_flaggedOnly;
    QTabWidget* m_tabs;
    QTableView* m_table;
    GraphView* m_graph;
    LayerDetails* m_details;
    LayerTableModel* m_model;
    LayerFilterModel* m_filter;
    BackgroundJob* m_checksJob;
};

}  // namespace qatdoctor::ui
