#include "ui/pages/model/layer_table_model.h"

#include <QApplication>
#include <QColor>
#include <QFont>
#include <QStyle>
#include <algorithm>

namespace qatdoctor::ui {
namespace {

using core::model::DType;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString dtypeText(DType t)
{
    return t == DType::Unknown ? QStringLiteral("-") : QString::fromLatin1(core::model::dtypeName(t));
}

QString scalesText(const core::model::QuantParams& q)
{
    if (q.scales.empty()) return QStringLiteral("-");
    const auto [lo, hi] = std::minmax_element(q.scales.begin(), q.scales.end());
    if (q.scales.size() == 1) return QString::number(*lo, 'g', 5);
    return QStringLiteral("%1 … %2").arg(QString::number(*lo, 'g', 4), QString::number(*hi, 'g', 4));
}

}  // namespace

LayerTableModel::LayerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerTableModel::setTable(std::shared_ptr<const core::Analysis> analysis,
                               const core::model::LayerTable* table, core::Lang lang)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_table = table;
    m_lang = lang;
    m_findings.clear();
    if (m_analysis && m_table)
        for (const core::Finding& f : m_analysis->findings)
            for (const core::Evidence& e : f.evidence)
                if (!e.layer.empty() && (e.file.empty() || e.file == m_table->sourcePath)) {
                    auto& list = m_findings[e.layer];
                    if (std::find(list.begin(), list.end(), &f) == list.end()) list.push_back(&f);
                }
    endResetModel();
}

const core::model::Layer* LayerTableModel::layerAt(int row) const
{
    if (!m_table || row < 0 || row >= static_cast<int>(m_table->layers.size())) return nullptr;
    return &m_table->layers[static_cast<size_t>(row)];
}

int LayerTableModel::rowOf(const QString& layerName) const
{
    if (!m_table) return -1;
    const std::string name = layerName.toStdString();
    for (size_t i = 0; i < m_table->layers.size(); ++i)
        if (m_table->layers[i].name == name) return static_cast<int>(i);
    return -1;
}

std::vector<const core::Finding*> LayerTableModel::findingsAt(int row) const
{
    const core::model::Layer* l = layerAt(row);
    if (!l) return {};
    auto it = m_findings.find(l->name);
    return it == m_findings.end() ? std::vector<const core::Finding*>{} : it->second;
}

int LayerTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->layers.size());
}

int LayerTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QColor LayerTableModel::dtypeColor(DType t)
{
    switch (t) {
        case DType::Int8:
        case DType::UInt8:
            return QColor(0xf4, 0xb4, 0x9c);  // low precision: warm
        case DType::Int16:
        case DType::UInt16:
            return QColor(0xf6, 0xdc, 0x8c);  // 16 bit: yellow
        case DType::Int32:
        case DType::UInt32:
        case DType::Int64:
            return QColor(0xa8, 0xd8, 0xb0);  // accumulators
        case DType::Float16:
        case DType::BFloat16:
            return QColor(0xb4, 0xd4, 0xf4);
        case DType::Float32:
        case DType::Float64:
            return QColor(0xd4, 0xe4, 0xf8);  // float: blue
        default:
            return QColor(0xe0, 0xe0, 0xe0);
    }
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const
{
    const core::model::Layer* l = layerAt(index.row());
    if (!l) return {};
    const auto findings = findingsAt(index.row());
    const int col = index.column();
    if (role == FlaggedRole) return !findings.empty();
    if (role == FaqRole) return findings.empty() ? QString() : qs(findings.front()->faq);
    if (role == Qt::BackgroundRole) {
        if (col == Inputs && !l->inputDtypes.empty()) {
            DType worst = l->inputDtypes.front();
            for (DType d : l->inputDtypes)
                if (core::model::bitWidth(d) < core::model::bitWidth(worst)) worst = d;
            return dtypeColor(worst);
        }
        if (col == Weight && l->weightDtype != DType::Unknown) return dtypeColor(l->weightDtype);
        if (col == Output) return dtypeColor(l->outputDtype);
        if (col == Finding && !findings.empty())
            return findings.front()->severity == core::Severity::Error ? QColor(0xf8, 0xc8, 0xc8)
                                                                       : QColor(0xfc, 0xe8, 0xc4);
        return {};
    }
    if (role == Qt::ForegroundRole && col == Finding && !findings.empty() && !findings.front()->faq.empty())
        return QColor(0x1a, 0x5f, 0xb4);  // a link
    if (role == Qt::DecorationRole && col == Name && !findings.empty())
        return QApplication::style()->standardIcon(findings.front()->severity == core::Severity::Error
                                                       ? QStyle::SP_MessageBoxCritical
                                                       : QStyle::SP_MessageBoxWarning);
    if (role == Qt::FontRole && col == Name && !findings.empty()) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole) {
        if (col == Finding && !findings.empty()) {
            QString tip;
            for (const core::Finding* f : findings)
                tip += QStringLiteral("<b>%1</b><br>%2<br>")
                           .arg(qs(f->title.in(m_lang)).toHtmlEscaped(),
                                qs(f->message.in(m_lang)).toHtmlEscaped());
            return tip + tr("Click to open the wizard on this topic.");
        }
        if (col == Name) return qs(l->source.node);
        return {};
    }
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (col) {
        case Name:
            return qs(l->name);
        case Op:
            return qs(l->op);
        case Inputs: {
            QStringList parts;
            for (DType d : l->inputDtypes) parts << dtypeText(d);
            return parts.join(QStringLiteral(", "));
        }
        case Weight:
            return qs(core::model::dtypeCellText(l->weightDtype, l->weightQuant));
        case Granularity:
            return qs(core::model::granularityName(*l));
        case WeightScales:
            if (role == SortRole)
                return l->weightQuant && !l->weightQuant->scales.empty()
                           ? QVariant(l->weightQuant->scales.front())
                           : QVariant(0.0);
            return l->weightQuant ? scalesText(*l->weightQuant) : QStringLiteral("-");
        case Output:
            return qs(core::model::dtypeCellText(l->outputDtype, l->outputQuant));
        case OutputScale:
            if (role == SortRole)
                return l->outputQuant && !l->outputQuant->scales.empty()
                           ? QVariant(l->outputQuant->scales.front())
                           : QVariant(0.0);
            return l->outputQuant ? scalesText(*l->outputQuant) : QStringLiteral("-");
        case ZeroPoint:
            if (!l->outputQuant || l->outputQuant->zeroPoints.empty())
                return role == SortRole ? QVariant(0) : QVariant(QStringLiteral("-"));
            return QVariant::fromValue<qlonglong>(l->outputQuant->zeroPoints.front());
        case Flags: {
            QStringList parts;
            for (const auto& f : l->flags) parts << qs(f);
            return parts.join(QStringLiteral(", "));
        }
        case Finding: {
            if (findings.empty()) return QString();
            QString text = QStringLiteral("⚠ ") + qs(findings.front()->title.in(m_lang));
            if (findings.size() > 1) text += QStringLiteral(" (+%1)").arg(findings.size() - 1);
            if (!findings.front()->faq.empty() && role == Qt::DisplayRole)
                text += QStringLiteral("  → ") + tr("double-click: open in wizard");
            return text;
        }
        default:
            return {};
    }
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name:
            return tr("Layer");
        case Op:
            return tr("Op");
        case Inputs:
            return tr("Input dtypes");
        case Weight:
            return tr("Weight");
        case Granularity:
            return tr("Granularity");
        case WeightScales:
            return tr("Weight scales");
        case Output:
            return tr("Output");
        case OutputScale:
            return tr("Output scale");
        case ZeroPoint:
            return tr("Zero point");
        case Flags:
            return tr("Flags");
        case Finding:
            return tr("Finding");
        default:
            return {};
    }
}

LayerFilterModel::LayerFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(LayerTableModel::SortRole);
}

void LayerFilterModel::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void LayerFilterModel::setFlaggedOnly(bool on)
{
    m_flaggedOnly = on;
    invalidateFilter();
}

bool LayerFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* m = sourceModel();
    if (m_flaggedOnly && !m->index(sourceRow, 0, sourceParent).data(LayerTableModel::FlaggedRole).toBool())
        return false;
    if (m_text.isEmpty()) return true;
    for (int c = 0; c < m->columnCount(sourceParent); ++c)
        if (m->index(sourceRow, c, sourceParent)
                .data(Qt::DisplayRole)
                .toString()
                .contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

}  // namespace qatdoctor::ui
