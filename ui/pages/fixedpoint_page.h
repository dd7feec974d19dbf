// The Fixed-point page: simulates Analysis::primaryModel()'s ONNX file in float, fake-quant and
// integer modes (core/fixedpoint) in the background, and shows the per-layer error chart with
// the first bad layer, the three-way table, the int16 what-if (tick layers -> re-run), the
// sensitivity ranking, weight histograms with the quantization grid and LUT error curves. A
// finished simulation is attached to the shared Analysis (Analysis::simulation) for the report.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "core/fixedpoint/simulation.h"
#include "ui/pages/page.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStandardItemModel;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace qatdoctor::ui {

class BackgroundJob;
class FixedpointColourPanel;
class FixedpointDatasetPanel;
class FixedpointLayerTable;
class FixedpointLayerPlot;
class FixedpointLutPlot;
class WeightHistogram;
class WeightView;

class FixedpointPage : public Page {
    Q_OBJECT
public:
    explicit FixedpointPage(AppContext* context, QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("fixedpoint"); }
    QString title() const override { return tr("Fixed-point"); }
    void focusOn(const NavigationTarget& target) override;

    // Starts a simulation of the current model (with the ticked int16 layers); false when there
    // is no ONNX model to simulate.
    bool runSimulation();
    void setInputFile(const QString& path);  // "" = seeded random input

    // For tests.
    QStandardItemModel* layerModel() const;  // FixedpointLayerTable::Column columns
    FixedpointLayerTable* layerTable() const { return m_layerTable; }
    QStandardItemModel* sensitivityModel() const { return m_sensitivity; }
    FixedpointLayerPlot* layerPlot() const { return m_plot; }
    FixedpointLutPlot* lutPlot() const { return m_lutPlot; }
    WeightHistogram* weightHistogram() const;
    WeightView* weightView() const { return m_weightView; }
    QListWidget* weightList() const { return m_weightList; }
    QTabWidget* tabs() const { return m_tabs; }
    QLabel* summary() const { return m_summary; }
    QComboBox* requantBox() const { return m_requant; }
    QString headerText() const;
    BackgroundJob* job() const { return m_job; }
    FixedpointColourPanel* colourPanel() const { return m_colourPanel; }
    FixedpointDatasetPanel* datasetPanel() const { return m_datasetPanel; }
    const core::fixedpoint::SimulationResult* result() const { return m_result.get(); }
    void setLayerTicked(const QString& layer, bool ticked);
    void setSensitivityEnabled(bool on);

signals:
    void simulationFinished(bool ok);

protected:
    void showEvent(QShowEvent* event) override;
    void autoRunSmallModel();

private:
    struct Outcome;
    void onAnalysisChanged();
    void onFinished(std::shared_ptr<Outcome> outcome);
    void publishToAnalysis(const Outcome& outcome);
    void fillWeights();
    void fillLuts();
    void showWeight(int row);
    QString modelPath() const;
    // The graph the analysis loaded for modelPath() (the page never reads the model again).
    std::shared_ptr<const core::model::ModelGraph> modelGraph() const;
    // Session: the last simulation's settings go to the page state; a restored state whose
    // model is loaded is simulated again with them (once).
    void saveSettings();
    void restoreSettings();

    QLabel* m_header;
    QLabel* m_inputLabel;
    QComboBox* m_requant;
    QComboBox* m_colour;
    QSpinBox* m_threads;
    QCheckBox* m_rankSensitivity;
    QPushButton* m_run;
    QPushButton* m_whatIf;
    QLabel* m_summary;
    QTabWidget* m_tabs;
    FixedpointLayerPlot* m_plot;
    FixedpointLayerTable* m_layerTable;
    QStandardItemModel* m_sensitivity;
    QLabel* m_sensitivityHint;
    QTableView* m_sensitivityView = nullptr;
    QListWidget* m_weightList;
    WeightView* m_weightView;
    QLabel* m_weightStats;
    QListWidget* m_lutList;
    FixedpointLutPlot* m_lutPlot;
    QTextBrowser* m_findings;
    BackgroundJob* m_job;
    FixedpointColourPanel* m_colourPanel = nullptr;    // the RGB vs YUV444 tab
    FixedpointDatasetPanel* m_datasetPanel = nullptr;  // the Dataset tab

    QString m_inputFile;
    QString m_autoRanFor;  // the model simulated on its own when the page was first shown
    std::shared_ptr<const core::fixedpoint::Interpreter> m_interp;
    std::shared_ptr<const core::fixedpoint::SimulationResult> m_result;
    std::shared_ptr<const Outcome> m_outcome;  // m_result with the settings and inputs it ran with
    QString m_pendingLayer;                    // focusOn before the results arrived
    QString m_restoredFor;                     // the model a session's settings were re-run for
};

}  // namespace qatdoctor::ui
