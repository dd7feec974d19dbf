#include "ui/pages/overview/findings_model.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>
#include <cmath>

#include "ui/common/number_strings.h"

namespace qatdoctor::ui {
namespace {

// Finding rows carry internalId 0; evidence rows carry their finding's index + 1.
constexpr quintptr kFindingRow = 0;

const std::vector<core::Finding> kNoFindings;

QString severityLabel(core::Severity s)
{
    switch (s) {
        case core::Severity::Error:
            return FindingsModel::tr("Error");
        case core::Severity::Warning:
            return FindingsModel::tr("Warning");
        case core::Severity::Info:
            break;
    }
    return FindingsModel::tr("Info");
}

QString stageLabel(core::Stage s)
{
    switch (s) {
        case core::Stage::Environment:
            return FindingsModel::tr("Environment");
        case core::Stage::Float:
            return FindingsModel::tr("Float");
        case core::Stage::Calibration:
            return FindingsModel::tr("Calibration");
        case core::Stage::Qat:
            return FindingsModel::tr("QAT");
        case core::Stage::Export:
            return FindingsModel::tr("Export");
        case core::Stage::Deployment:
            return FindingsModel::tr("Deployment");
    }
    return {};
}

QColor severityColor(core::Severity s)
{
    switch (s) {
        case core::Severity::Error:
            return QColor(0xc6, 0x28, 0x28);
        case core::Severity::Warning:
            return QColor(0xb2, 0x6a, 0x00);
        case core::Severity::Info:
            break;
    }
    return QColor(0x15, 0x65, 0xc0);
}

}  // namespace

FindingsModel::FindingsModel(QObject* parent) : QAbstractItemModel(parent) {}

void FindingsModel::setAnalysis(AnalysisPtr analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_live.clear();  // a new analysis holds what the watch found before it
    endResetModel();
}

void FindingsModel::addLiveFindings(const std::vector<core::Finding>& fired)
{
    if (fired.empty()) return;
    // newest first, above the analysis' findings; rows below move down, the selection with them
    beginInsertRows({}, 0, static_cast<int>(fired.size()) - 1);
    m_live.insert(m_live.begin(), fired.rbegin(), fired.rend());
    endInsertRows();
}

void FindingsModel::clearLive()
{
    if (m_live.empty()) return;
    beginRemoveRows({}, 0, static_cast<int>(m_live.size()) - 1);
    m_live.clear();
    endRemoveRows();
}

bool FindingsModel::isLive(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this) return false;
    const size_t row = findingRowOf(index);
    return row < m_live.size();
}

// An evidence row keeps its finding's distance from the last row: live findings come and go at
// the top, so that distance (unlike the row) stays true for the indexes a view holds.
size_t FindingsModel::findingRowOf(const QModelIndex& index) const
{
    if (index.internalId() == kFindingRow) return static_cast<size_t>(index.row());
    const size_t count = findingCount();
    return index.internalId() <= count ? count - index.internalId() : count;
}

size_t FindingsModel::findingCount() const
{
    return m_live.size() + findings().size();
}

const core::Finding* FindingsModel::findingOfRow(size_t row) const
{
    if (row < m_live.size()) return &m_live[row];
    row -= m_live.size();
    return row < findings().size() ? &findings()[row] : nullptr;
}

void FindingsModel::setLang(core::Lang lang)
{
    if (lang == m_lang) return;
    m_lang = lang;
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const std::vector<core::Finding>& FindingsModel::findings() const
{
    return m_analysis ? m_analysis->findings : kNoFindings;
}

const core::Finding* FindingsModel::findingAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this) return nullptr;
    const size_t row = findingRowOf(index);
    return findingOfRow(row);
}

const core::Evidence* FindingsModel::evidenceAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == kFindingRow) return nullptr;
    const core::Finding* f = findingAt(index);
    const auto row = static_cast<size_t>(index.row());
    return f && row < f->evidence.size() ? &f->evidence[row] : nullptr;
}

QModelIndex FindingsModel::indexOfFinding(const QString& id) const
{
    const std::string key = id.toStdString();
    for (size_t i = 0; i < findingCount(); ++i)
        if (findingOfRow(i)->id == key) return index(static_cast<int>(i), 0);
    return {};
}

QModelIndex FindingsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) {
        if (static_cast<size_t>(row) >= findingCount()) return {};
        return createIndex(row, column, kFindingRow);
    }
    if (parent.internalId() != kFindingRow) return {};  // evidence rows have no children
    const auto findingRow = static_cast<size_t>(parent.row());
    const core::Finding* f = findingOfRow(findingRow);
    if (!f || static_cast<size_t>(row) >= f->evidence.size()) return {};
    return createIndex(row, column, static_cast<quintptr>(findingCount() - findingRow));
}

QModelIndex FindingsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kFindingRow) return {};
    return createIndex(static_cast<int>(findingRowOf(child)), 0, kFindingRow);
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return static_cast<int>(findingCount());
    if (parent.column() != 0 || parent.internalId() != kFindingRow) return 0;
    const core::Finding* f = findingAt(parent);
    return f ? static_cast<int>(f->evidence.size()) : 0;
}

int FindingsModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    const core::Finding* f = findingAt(index);
    if (!f) return {};
    const core::Evidence* e = evidenceAt(index);
    const bool isEvidence = index.internalId() != kFindingRow;
    switch (role) {
        case FindingIndexRole:
            return static_cast<int>(findingRowOf(index));
        case EvidenceIndexRole:
            return isEvidence ? index.row() : -1;
        case SeverityRole:
            return static_cast<int>(f->severity);
        case LiveRole:
            return isLive(index);
        case Qt::BackgroundRole:
            // found while the run was written: tinted until the next analysis takes it in
            if (isLive(index)) return QBrush(QColor(0xff, 0xeb, 0xee));
            return {};
        case Qt::ForegroundRole:
            if (!isEvidence && index.column() == SeverityColumn) return QBrush(severityColor(f->severity));
            return {};
        case Qt::ToolTipRole:
            if (isEvidence) return e ? evidenceText(*e, m_lang) : QString();
            return f->strength ? QString::fromStdString(core::strengthText(*f->strength, m_lang) + "\n\n" +
                                                        f->message.in(m_lang))
                               : QString::fromStdString(f->message.in(m_lang));
        case Qt::DisplayRole:
            break;
        default:
            return {};
    }
    if (isEvidence) return index.column() == TextColumn && e ? evidenceText(*e, m_lang) : QVariant();
    switch (index.column()) {
        case SeverityColumn:
            return isLive(index) ? tr("● live %1").arg(severityLabel(f->severity))
                                 : severityLabel(f->severity);
        case StageColumn:
            return stageLabel(f->stage);
        case TextColumn:
            return QString::fromStdString(f->title.in(m_lang));
        case IdColumn:
            return QString::fromStdString(f->id);
        default:
            return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case SeverityColumn:
            return tr("Severity");
        case StageColumn:
            return tr("Stage");
        case TextColumn:
            return tr("Finding");
        case IdColumn:
            return tr("Id");
        default:
            return {};
    }
}

QString FindingsModel::evidenceText(const core::Evidence& e, core::Lang lang)
{
    QStringList parts;
    if (!e.run.empty()) parts << QString::fromStdString(e.run);
    if (!e.layer.empty()) parts << tr("layer %1").arg(QString::fromStdString(e.layer));
    if (!e.file.empty()) {
        QString where = QFileInfo(QString::fromStdString(e.file)).fileName();
        if (e.line > 0) where += QLatin1Char(':') + QString::number(e.line);
        parts << where;
    }
    if (e.step) parts << tr("step %1").arg(numberString(*e.step, 6));
    if (!e.metric.empty() && e.value)
        parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(e.metric), numberString(*e.value, 6));
    else if (!e.metric.empty())
        parts << QString::fromStdString(e.metric);
    else if (e.value)
        parts << numberString(*e.value, 6);
    if (!e.detailIn(lang).empty()) parts << QString::fromStdString(e.detailIn(lang));
    return parts.join(QStringLiteral(" · "));
}

}  // namespace qatdoctor::ui
