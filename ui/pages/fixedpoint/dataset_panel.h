// The Fixed-point page's "Dataset" tab: the model evaluated over an evaluation set in float,
// fake-quant and integer modes (core/fixedpoint/dataset_eval.h) in the background, with progress
// and cancel; per mode the top-1 with its 95 % interval, the samples where fake-quant and integer
// answer differently and the worst samples. The result joins the analysis as the stage ladder's
// simulated rungs, and can be saved as the JSON `simulate --dataset --out` writes.
#pragma once

#include <QWidget>
#include <functional>
#include <memory>

#include "core/fixedpoint/dataset_eval.h"

class QComboBox;
class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace qatdoctor::ui {

class AppContext;
class BackgroundJob;

class FixedpointDatasetPanel : public QWidget {
    Q_OBJECT
public:
    // model() gives the graph to evaluate (the analysis's; null = none); threads() the page's choice.
    FixedpointDatasetPanel(AppContext* context,
                           std::function<std::shared_ptr<const core::model::ModelGraph>()> model,
                           std::function<int()> threads, QWidget* parent = nullptr);

    void setDataset(const QString& path);  // a .npy / .pb file or a folder
    void setLabels(const QString& path);   // "" = none (class folders give their own)
    bool evaluate();                       // starts the background run; false when it cannot
    bool saveResult(const QString& path);  // atomic; false (and a message) when it cannot

    // For tests.
    QStandardItemModel* model() const { return m_rows; }
    QLabel* summary() const { return m_summary; }
    const core::fixedpoint::DatasetEvaluation* result() const { return m_result.get(); }

signals:
    void evaluationFinished(bool ok);

private:
    void show(const core::fixedpoint::DatasetEvaluation& e);
    void updateEnabled();

    AppContext* m_context;
    std::function<std::shared_ptr<const core::model::ModelGraph>()> m_model;
    std::function<int()> m_threads;
    QString m_dataset, m_labels;
    QLabel* m_datasetLabel;
    QLabel* m_labelsLabel;
    QComboBox* m_modes;
    QPushButton* m_run;
    QPushButton* m_save;
    QLabel* m_summary;
    QTableView* m_table;
    QStandardItemModel* m_rows;
    BackgroundJob* m_job;
    std::shared_ptr<const core::fixedpoint::DatasetEvaluation> m_result;
};

}  // namespace qatdoctor::ui
