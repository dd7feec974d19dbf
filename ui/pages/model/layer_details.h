// The details pane of the Model page: the selected layer's quantization parameters and
// findings, and a histogram of its weights with the quantization grid (weights are read from
// the ONNX file on demand, in the background).
#pragma once

#include <QWidget>
#include <memory>

#include "core/analysis.h"
#include "core/model/layer_weights.h"

class QTextBrowser;

namespace qatdoctor::ui {

class AppContext;
class BackgroundJob;
class WeightHistogram;
class WeightView;

class LayerDetails : public QWidget {
    Q_OBJECT
public:
    explicit LayerDetails(AppContext* context, QWidget* parent = nullptr);

    // analysis keeps table and layer alive; layer null clears the pane.
    void showLayer(std::shared_ptr<const core::Analysis> analysis, const core::model::LayerTable* table,
                   const core::model::Layer* layer);
    WeightHistogram* histogram() const;
    BackgroundJob* job() const { return m_job; }

signals:
    void wizardRequested(const QString& faqTopic);
    void weightsShown();  // the histogram was redrawn with weight values (tests)

private:
    void renderText();

    AppContext* m_context;
    QTextBrowser* m_text;
    WeightView* m_weightView;
    BackgroundJob* m_job;
    std::shared_ptr<const core::Analysis> m_analysis;
    const core::model::LayerTable* m_table = nullptr;
    const core::model::Layer* m_layer = nullptr;
};

}  // namespace qatdoctor::ui
