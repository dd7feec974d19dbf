#include "ui/pages/overview/loaded_models.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLocale>

#include "core/logs/role_reason_text.h"

namespace qatdoctor::ui {

// ---- InputsModel ---------------------------------------------------------------------------

InputsModel::InputsModel(QObject* parent) : QAbstractTableModel(parent) {}

void InputsModel::setAnalysis(AnalysisPtr analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    endResetModel();
}

int InputsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_analysis ? 0 : static_cast<int>(m_analysis->inputs.size());
}

int InputsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant InputsModel::data(const QModelIndex& index, int role) const
{
    if (!m_analysis || !index.isValid() || index.row() >= rowCount()) return {};
    const core::InputItem& in = m_analysis->inputs[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole) return QString::fromStdString(in.path);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case PathColumn:
            return QFileInfo(QString::fromStdString(in.path)).fileName();
        case KindColumn:
            return QString::fromLatin1(core::inputKindName(in.kind));
        case FormatColumn:
            return QString::fromStdString(in.format);
        case DetailColumn: {
            // A model input: its layer count; other inputs: their size.
            if (in.kind == core::InputKind::Model)
                for (const auto& m : m_analysis->models)
                    if (m.sourcePath == in.path)
                        return tr("%n layer(s)", nullptr, static_cast<int>(m.layers.size()));
            return in.size > 0 ? QLocale().formattedDataSize(static_cast<qint64>(in.size)) : QString();
        }
        default:
            return {};
    }
}

QVariant InputsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case PathColumn:
            return tr("Input");
        case KindColumn:
            return tr("Kind");
        case FormatColumn:
            return tr("Format");
        case DetailColumn:
            return tr("Size / layers");
        default:
            return {};
    }
}

// ---- RunsModel -----------------------------------------------------------------------------

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsModel::setLang(core::Lang lang)
{
    m_lang = lang;
    if (rowCount() > 0) emit dataChanged(index(0, ReasonColumn), index(rowCount() - 1, ReasonColumn));
}

void RunsModel::setAnalysis(AnalysisPtr analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    endResetModel();
}

QStringList RunsModel::runRoleNames()
{
    return {QStringLiteral("float"), QStringLiteral("calibration"), QStringLiteral("qat"),
            QStringLiteral("quantized"), QStringLiteral("unknown")};
}

int RunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_analysis ? 0 : static_cast<int>(m_analysis->logs.runs.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    if (!m_analysis || !index.isValid() || index.row() >= rowCount()) return {};
    const core::logs::Run& run = m_analysis->logs.runs[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole && index.column() == RoleColumn)
        return tr("Double-click to correct the role; the checks run again.");
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(run.name);
        case RoleColumn:
            return QString::fromLatin1(core::logs::roleName(run.role));
        case FilesColumn:
            return static_cast<int>(run.files.size());
        case SeriesColumn:
            return static_cast<int>(run.series.size());
        case ReasonColumn:
            return QString::fromStdString(core::logs::roleReasonText(run.roleReason, m_lang));
        default:
            return {};
    }
}

bool RunsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!m_analysis || !index.isValid() || index.column() != RoleColumn || role != Qt::EditRole) return false;
    const QString newRole = value.toString();
    if (!runRoleNames().contains(newRole)) return false;
    const core::logs::Run& run = m_analysis->logs.runs[static_cast<size_t>(index.row())];
    if (newRole == QString::fromLatin1(core::logs::roleName(run.role))) return false;
    emit roleChangeRequested(QString::fromStdString(run.name), newRole);
    return true;
}

Qt::ItemFlags RunsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == RoleColumn) f |= Qt::ItemIsEditable;
    return f;
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn:
            return tr("Run");
        case RoleColumn:
            return tr("Role");
        case FilesColumn:
            return tr("Files");
        case SeriesColumn:
            return tr("Series");
        case ReasonColumn:
            return tr("Why this role");
        default:
            return {};
    }
}

// ---- RoleDelegate --------------------------------------------------------------------------

QWidget* RoleDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const
{
    auto* combo = new QComboBox(parent);
    combo->addItems(RunsModel::runRoleNames());
    return combo;
}

void RoleDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    auto* combo = static_cast<QComboBox*>(editor);
    combo->setCurrentText(index.data(Qt::EditRole).toString());
}

void RoleDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    model->setData(index, static_cast<QComboBox*>(editor)->currentText(), Qt::EditRole);
}

}  // namespace qatdoctor::ui
