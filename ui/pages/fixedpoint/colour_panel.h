// The Fixed-point page's "RGB vs YUV444" tab: the current image input run through the model in
// the colour form it was trained on and in the form it is fed (the board takes centered
// YUV444), per-layer error of the mismatch side by side with the quantization error alone, the
// first layer where the mismatch breaks agreement, and the top-1 class either way.
#pragma once

#include <QWidget>
#include <functional>
#include <memory>

#include "core/fixedpoint/colour_compare.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace qatdoctor::ui {

class AppContext;
class BackgroundJob;

class FixedpointColourPanel : public QWidget {
    Q_OBJECT
public:
    // model() gives the graph to simulate (the analysis's; null = none); threads() the page's choice.
    FixedpointColourPanel(AppContext* context,
                          std::function<std::shared_ptr<const core::model::ModelGraph>()> model,
                          std::function<int()> threads, QWidget* parent = nullptr);

    void setImage(const QString& path);  // "" or a non-image file: the comparison is disabled
    bool compare();                      // starts the background run; false when it cannot

    // For tests.
    QStandardItemModel* model() const { return m_rows; }
    QLabel* summary() const { return m_summary; }
    QComboBox* trainedCombo() const { return m_trained; }
    QComboBox* fedCombo() const { return m_fed; }
    QDoubleSpinBox* pixelScale() const { return m_scale; }
    const core::fixedpoint::ColourComparison* result() const { return m_result.get(); }

signals:
    void comparisonFinished(bool ok);

private:
    void show(const core::fixedpoint::ColourComparison& c);
    void updateEnabled();

    std::function<std::shared_ptr<const core::model::ModelGraph>()> m_model;
    std::function<int()> m_threads;
    QString m_image;
    QComboBox* m_trained;
    QComboBox* m_fed;
    QComboBox* m_mode;
    QDoubleSpinBox* m_scale;
    QPushButton* m_run;
    QLabel* m_summary;
    QTableView* m_table;
    QStandardItemModel* m_rows;
    BackgroundJob* m_job;
    std::shared_ptr<const core::fixedpoint::ColourComparison> m_result;
};

}  // namespace qatdoctor::ui
