// A layer's weights as a histogram with the quantization grid, plus a channel picker when the
// quantizer is per-channel: each output channel has its own scale, so its grid and clip range
// only mean something over that channel's values. Used by the Model page's details pane and the
// Fixed-point page's Weights tab.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>

#include "core/model/layer_table.h"
#include "core/model/layer_weights.h"

class QLabel;
class QSpinBox;

namespace qatdoctor::ui {

class WeightHistogram;

class WeightView : public QWidget {
    Q_OBJECT
public:
    explicit WeightView(QWidget* parent = nullptr);

    // quant: the weight quantizer (none = float weight, no grid). Shows channel 0 of a
    // per-channel quantizer first.
    void showWeights(std::shared_ptr<const core::model::LayerWeights> weights,
                     std::optional<core::model::QuantParams> quant);
    void showMessage(const QString& text);  // no weights (yet): the reason, centered

    WeightHistogram* histogram() const { return m_histogram; }
    QSpinBox* channelPicker() const { return m_channel; }

signals:
    void weightsShown();  // the histogram was redrawn with weight values (tests)

private:
    void render();

    QLabel* m_channelLabel;
    QSpinBox* m_channel;
    QLabel* m_channelScale;
    WeightHistogram* m_histogram;
    std::shared_ptr<const core::model::LayerWeights> m_weights;
    std::optional<core::model::QuantParams> m_quant;
};

}  // namespace qatdoctor::ui
