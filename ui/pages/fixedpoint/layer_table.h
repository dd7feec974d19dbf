// The Fixed-point page's three-way table: one row per layer with every agreement figure of the
// chosen pair of modes (fake vs int = the deployment gap, float vs fake = what quantization costs,
// float vs int = both), and the what-if ticks: a layer at int16, or computed in float. The ticks
// are kept by layer name, so they survive a re-run, a pair switch and a session restore that
// arrives before the first result.
#pragma once

#include <QWidget>
#include <map>
#include <set>
#include <string>

#include "core/fixedpoint/simulation.h"

class QComboBox;
class QStandardItemModel;
class QTableView;

namespace qatdoctor::ui {

class FixedpointLayerTable : public QWidget {
    Q_OBJECT
public:
    enum Column {
        ColInt16,
        ColFloat,
        ColLayer,
        ColOp,
        ColCosine,
        ColSqnr,
        ColMse,
        ColL1,
        ColMaxAbs,
        ColLsb,
        ColOverflow,
        ColCount
    };
    enum class WhatIf { None, Int16, Float };

    explicit FixedpointLayerTable(QWidget* parent = nullptr);

    void setResult(const core::fixedpoint::SimulationResult& result);
    void setPair(const QString& pair);  // "fake_int", "float_fake" or "float_int"
    QString pair() const;

    void setWhatIf(const std::string& layer, WhatIf kind);
    void clearWhatIf();
    std::set<std::string> layersAt(WhatIf kind) const;
    void selectLayer(const QString& layer);

    QStandardItemModel* model() const { return m_model; }
    QComboBox* pairPicker() const { return m_pair; }

signals:
    void whatIfChanged();

private:
    void fill();
    void onItemChanged(int row, int column);

    QComboBox* m_pair;
    QTableView* m_view;
    QStandardItemModel* m_model;
    std::map<std::string, WhatIf> m_whatIf;
    const core::fixedpoint::SimulationResult* m_result = nullptr;  // owned by the page (shared_ptr)
    bool m_filling = false;
};

}  // namespace qatdoctor::ui
