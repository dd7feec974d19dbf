#include "ui/plots/weight_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/plots/weight_histogram.h"

namespace qatdoctor::ui {

WeightView::WeightView(QWidget* parent)
    : QWidget(parent),
      m_channelLabel(new QLabel(tr("Output channel"), this)),
      m_channel(new QSpinBox(this)),
      m_channelScale(new QLabel(this)),
      m_histogram(new WeightHistogram(this))
{
    auto* row = new QHBoxLayout;
    row->addWidget(m_channelLabel);
    row->addWidget(m_channel);
    row->addWidget(m_channelScale);
    row->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_histogram, 1);
    m_histogram->setMinimumHeight(180);
    connect(m_channel, qOverload<int>(&QSpinBox::valueChanged), this, [this] { render(); });
    showMessage({});
}

void WeightView::showMessage(const QString& text)
{
    m_weights.reset();
    m_quant.reset();
    for (QWidget* w : {static_cast<QWidget*>(m_channelLabel), static_cast<QWidget*>(m_channel),
                       static_cast<QWidget*>(m_channelScale)})
        w->setVisible(false);
    m_histogram->showMessage(text);
}

void WeightView::showWeights(std::shared_ptr<const core::model::LayerWeights> weights,
                             std::optional<core::model::QuantParams> quant)
{
    m_weights = std::move(weights);
    m_quant = std::move(quant);
    const bool perChannel = m_quant && m_quant->perChannel();
    m_channel->blockSignals(true);
    m_channel->setRange(0, perChannel ? static_cast<int>(m_quant->scales.size()) - 1 : 0);
    m_channel->setValue(0);
    m_channel->blockSignals(false);
    for (QWidget* w : {static_cast<QWidget*>(m_channelLabel), static_cast<QWidget*>(m_channel),
                       static_cast<QWidget*>(m_channelScale)})
        w->setVisible(perChannel);
    render();
}

void WeightView::render()
{
    if (!m_weights) return;
    const core::model::QuantParams* q = m_quant ? &*m_quant : nullptr;
    if (q && q->perChannel()) {
        const int channel = m_channel->value();
        m_channelScale->setText(tr("of %1, scale %2")
                                    .arg(q->scales.size())
                                    .arg(q->scales[static_cast<size_t>(channel)], 0, 'g', 4));
        m_histogram->showWeights(core::model::channelValues(*m_weights, *q, channel), q, channel);
    } else {
        m_histogram->showWeights(m_weights->values, q, 0);
    }
    emit weightsShown();
}

}  // namespace qatdoctor::ui
