#include "ui/pages/fixedpoint/layer_table.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

#include "core/fixedpoint/mode_pair.h"
#include "ui/common/number_strings.h"

namespace qatdoctor::ui {
namespace {

namespace fp = core::fixedpoint;

QString num(double v, int prec)
{
    // MSE and L1 of well-agreeing layers are tiny: keep their digits instead of printing 0.0000
    return prec < 0 ? numberString(v, 4) : fixedString(v, prec);
}

QStandardItem* numberItem(double v, int prec)
{
    auto* it = new QStandardItem(num(v, prec));
    it->setData(std::isfinite(v) ? v : (v > 0 ? 1e300 : -1e300), Qt::UserRole);  // sort key
    it->setEditable(false);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

QStandardItem* textItem(const QString& text)
{
    auto* it = new QStandardItem(text);
    it->setData(text, Qt::UserRole);
    it->setEditable(false);
    return it;
}

QStandardItem* tickItem(bool ticked, const QString& tip)
{
    auto* it = new QStandardItem;
    it->setCheckable(true);
    it->setEditable(false);
    it->setCheckState(ticked ? Qt::Checked : Qt::Unchecked);
    it->setData(ticked ? 1 : 0, Qt::UserRole);
    it->setToolTip(tip);
    return it;
}

}  // namespace

FixedpointLayerTable::FixedpointLayerTable(QWidget* parent)
    : QWidget(parent),
      m_pair(new QComboBox(this)),
      m_view(new QTableView(this)),
      m_model(new QStandardItemModel(this))
{
    auto key = [](fp::ModePair p) { return QString::fromLatin1(fp::modePairKey(p)); };
    m_pair->addItem(tr("fake-quant vs integer (what deployment changes)"), key(fp::ModePair::FakeInt));
    m_pair->addItem(tr("float vs fake-quant (what quantization costs)"), key(fp::ModePair::FloatFake));
    m_pair->addItem(tr("float vs integer (both)"), key(fp::ModePair::FloatInt));
    m_view->setModel(m_model);
    // execution order until the user sorts by a column
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_model->setSortRole(Qt::UserRole);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Compare"), this));
    top->addWidget(m_pair);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    connect(m_pair, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { fill(); });
    connect(m_model, &QStandardItemModel::itemChanged, this,
            [this](QStandardItem* it) { onItemChanged(it->row(), it->column()); });
    fill();
}

void FixedpointLayerTable::setResult(const fp::SimulationResult& result)
{
    m_result = &result;
    fill();
}

void FixedpointLayerTable::setPair(const QString& pair)
{
    if (const int i = m_pair->findData(pair); i >= 0) m_pair->setCurrentIndex(i);
}

QString FixedpointLayerTable::pair() const
{
    return m_pair->currentData().toString();
}

void FixedpointLayerTable::setWhatIf(const std::string& layer, WhatIf kind)
{
    if (kind == WhatIf::None)
        m_whatIf.erase(layer);
    else
        m_whatIf[layer] = kind;
    fill();
    emit whatIfChanged();
}

void FixedpointLayerTable::clearWhatIf()
{
    m_whatIf.clear();
    fill();
    emit whatIfChanged();
}

std::set<std::string> FixedpointLayerTable::layersAt(WhatIf kind) const
{
    std::set<std::string> out;
    for (const auto& [layer, k] : m_whatIf)
        if (k == kind) out.insert(layer);
    return out;
}

void FixedpointLayerTable::selectLayer(const QString& layer)
{
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (m_model->item(r, ColLayer)->text() == layer) m_view->selectRow(r);
}

void FixedpointLayerTable::onItemChanged(int row, int column)
{
    if (m_filling || (column != ColInt16 && column != ColFloat)) return;
    const std::string layer = m_model->item(row, ColLayer)->text().toStdString();
    const bool on = m_model->item(row, column)->checkState() == Qt::Checked;
    const WhatIf kind = column == ColInt16 ? WhatIf::Int16 : WhatIf::Float;
    // int16 and float exclude each other: ticking one unticks the other
    if (on)
        m_whatIf[layer] = kind;
    else if (auto it = m_whatIf.find(layer); it != m_whatIf.end() && it->second == kind)
        m_whatIf.erase(it);
    fill();
    emit whatIfChanged();
}

void FixedpointLayerTable::fill()
{
    m_filling = true;
    const int sortColumn = m_view->horizontalHeader()->sortIndicatorSection();
    const Qt::SortOrder sortOrder = m_view->horizontalHeader()->sortIndicatorOrder();
    m_model->clear();
    m_model->setHorizontalHeaderLabels({tr("int16"), tr("float"), tr("Layer"), tr("Op"), tr("cosine"),
                                        tr("SQNR (dB)"), tr("MSE"), tr("L1 (mean |err|)"), tr("max abs err"),
                                        tr("max err (LSB)"), tr("overflows")});
    m_model->horizontalHeaderItem(ColLsb)->setToolTip(
        tr("largest error in steps of the layer's output scale"));
    m_model->horizontalHeaderItem(ColOverflow)
        ->setToolTip(tr("integer-mode outputs whose accumulator passed int32"));
    if (m_result) {
        const std::string pair = this->pair().toStdString();
        const fp::SimulationResult& r = *m_result;
        for (size_t i = 0; i < r.layers.size(); ++i) {
            const std::string& name = r.layers[i].name;
            const auto it = m_whatIf.find(name);
            const WhatIf kind = it == m_whatIf.end() ? WhatIf::None : it->second;
            QList<QStandardItem*> row;
            row << tickItem(kind == WhatIf::Int16, tr("what-if: this layer's quantizers at 16 bits"))
                << tickItem(kind == WhatIf::Float, tr("what-if: this layer computed in float"));
            auto* nameItem = textItem(QString::fromStdString(name));
            nameItem->setData(int(i), Qt::UserRole + 1);
            if (name == r.firstBadLayer && pair == fp::modePairKey(fp::ModePair::FakeInt))
                nameItem->setForeground(QColor(200, 0, 0));
            if (name == r.firstBadLayerFloat && pair == fp::modePairKey(fp::ModePair::FloatFake))
                nameItem->setForeground(QColor(200, 0, 0));
            row << nameItem << textItem(QString::fromStdString(r.layers[i].op));
            const auto& pairs =
                i < r.comparisons.size() ? r.comparisons[i].pairs : std::map<std::string, fp::Agreement>{};
            if (auto p = pairs.find(pair); p != pairs.end()) {
                const fp::Agreement& a = p->second;
                row << numberItem(a.cosine, 4) << numberItem(a.sqnrDb, 1) << numberItem(a.mse, -1)
                    << numberItem(a.l1, -1) << numberItem(a.maxAbs, -1) << numberItem(a.maxErrLsb, 1);
            } else {
                for (int c = ColCosine; c <= ColLsb; ++c) row << textItem(QStringLiteral("-"));
            }
            row << numberItem(i < r.comparisons.size() ? double(r.comparisons[i].overflows) : 0.0, 0);
            m_model->appendRow(row);
        }
    }
    m_view->resizeColumnsToContents();
    if (sortColumn >= 0 && sortColumn < ColCount) m_view->sortByColumn(sortColumn, sortOrder);
    m_filling = false;
}

}  // namespace qatdoctor::ui
