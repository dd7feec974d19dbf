#include "ui/pages/checkpoints_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>
#include <set>

#include "core/analysis.h"
#include "core/common/number_text.h"

namespace qatdoctor::ui {
namespace {

using core::checkpoint::ChangeKind;

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kNameRole = Qt::UserRole + 2;       // the row's module or tensor name (navigation)
constexpr int kChangedRole = Qt::UserRole + 3;    // diff rows: not "same" (the "changed only" filter)
const QColor kFlaggedColour(0xf8, 0xc8, 0xc8);    // a finding names this row
const QColor kStructureColour(0xfc, 0xe8, 0xc4);  // gained, lost or reshaped

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString fileName(const std::string& path)
{
    return QFileInfo(qs(path)).fileName();
}

// One cell: its text, and the number it sorts by when it has one.
QStandardItem* cell(const QString& text, std::optional<double> sortKey = std::nullopt)
{
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortKey ? QVariant(*sortKey) : QVariant(text), kSortRole);
    return item;
}

QString switchText(const std::optional<core::model::QuantParams>& a,
                   const std::optional<core::model::QuantParams>& b,
                   std::optional<bool> core::model::QuantParams::*field)
{
    // weight / output, as the dtype column: "- / 1" for a module with an output quantizer only
    QStringList parts;
    bool any = false;
    for (const auto* q : {&a, &b}) {
        const bool known = *q && ((**q).*field).has_value();
        any = any || known;
        parts << (known ? (((**q).*field).value() ? "1" : "0") : "-");
    }
    return any ? parts.join(" / ") : QStringLiteral("-");
}

// What a whole pickled module says of a quantizer's configuration, one line per quantizer.
QString settingsTip(const core::model::Layer& l)
{
    QStringList lines;
    for (const auto& [which, q] : {std::pair{CheckpointsPage::tr("weight"), &l.weightQuant},
                                   std::pair{CheckpointsPage::tr("output"), &l.outputQuant}}) {
        if (!*q || (!(*q)->qmin && (*q)->observer.empty())) continue;
        QStringList parts{qs(core::model::dtypeName((*q)->dtype))};
        if ((*q)->qmin && (*q)->qmax)
            parts << QStringLiteral("[%1, %2]").arg((*q)->qmin.value()).arg((*q)->qmax.value());
        if (!(*q)->observer.empty()) parts << qs((*q)->observer);
        if ((*q)->averagingConstant)
            parts << CheckpointsPage::tr("averaging constant %1")
                         .arg(qs(core::shortNumber(*(*q)->averagingConstant)));
        lines << which + ": " + parts.join(", ");
    }
    return lines.join("\n");
}

// Names a finding's evidence points at in one file (rows to highlight).
std::set<std::string> flaggedNames(const core::Analysis& a, const std::string& file)
{
    std::set<std::string> out;
    for (const core::Finding& f : a.findings)
        for (const core::Evidence& e : f.evidence)
            if (e.file == file && !e.layer.empty()) out.insert(e.layer);
    return out;
}

// Sorts by kSortRole, filters by the text, and with "changed only" hides the rows a comparison
// marks unchanged (kChangedRole false). Rows without the role (a checkpoint's own table) always
// pass, so the box cannot empty a view it is not shown for.
class CheckpointRowsProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setChangedOnly(bool on)
    {
        m_changedOnly = on;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        if (m_changedOnly) {
            const QVariant changed = sourceModel()->index(row, 0, parent).data(kChangedRole);
            if (changed.isValid() && !changed.toBool()) return false;
        }
        return QSortFilterProxyModel::filterAcceptsRow(row, parent);
    }

private:
    bool m_changedOnly = false;
};

}  // namespace

CheckpointsPage::CheckpointsPage(AppContext* context, QWidget* parent)
    : Page(context, parent),
      m_chooser(new QComboBox(this)),
      m_filter(new QLineEdit(this)),
      m_changedOnly(new QCheckBox(tr("Changed only"), this)),
      m_empty(new QLabel(this)),
      m_facts(new QLabel(this)),
      m_view(new QTableView(this)),
      m_model(new QStandardItemModel(this)),
      m_proxy(new CheckpointRowsProxy(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Show:"), this));
    top->addWidget(m_chooser, 1);
    m_filter->setPlaceholderText(tr("Filter rows…"));
    m_filter->setClearButtonEnabled(true);
    top->addWidget(m_filter);
    m_changedOnly->setToolTip(tr("Hide the tensors that are byte-identical in both checkpoints"));
    top->addWidget(m_changedOnly);
    layout->addLayout(top);

    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(tr(
        "No checkpoint is loaded.\n\nOpen or drop torch.save files (.pt, .pth, .ckpt, .bin): one to see its "
        "quantizers, two or more (calibration, QAT…) to see what changed between them. They are read without "
        "Python and never executed."));
    layout->addWidget(m_empty, 1);

    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_facts);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->verticalHeader()->setVisible(false);
    layout->addWidget(m_view, 3);

    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this](int i) { showView(i); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_changedOnly, &QCheckBox::toggled, this, [this](bool on) {
        static_cast<CheckpointRowsProxy*>(m_proxy)->setChangedOnly(on);
        QJsonObject state = this->context()->pageState(id());
        state["changed_only"] = on;
        this->context()->setPageState(id(), state);
    });
    connect(context, &AppContext::analysisChanged, this, [this] { rebuild(); });
    rebuild();
}

void CheckpointsPage::rebuild()
{
    m_analysis = context()->analysis();
    const QJsonObject state = context()->pageState(id());
    QSignalBlocker block(m_chooser);
    m_chooser->clear();
    if (m_analysis) {
        for (const core::checkpoint::CheckpointRead& c : m_analysis->checkpoints)
            m_chooser->addItem(tr("%1 — %n tensor(s)", "", static_cast<int>(c.file.tensors.size()))
                                   .arg(fileName(c.file.path)));
        for (const core::checkpoint::CheckpointDiff& d : m_analysis->checkpointDiffs)
            m_chooser->addItem(tr("What changed: %1 → %2").arg(fileName(d.pathA), fileName(d.pathB)));
    }
    const bool any = m_chooser->count() > 0;
    m_empty->setVisible(!any);
    m_view->setVisible(any);
    m_facts->setVisible(any);
    m_filter->setEnabled(any);
    if (!any) {
        m_model->clear();
        m_changedOnly->setVisible(false);
        return;
    }
    // the first comparison is the answer most users came for; else the last view, else the first
    int select = m_analysis->checkpointDiffs.empty() ? 0 : static_cast<int>(m_analysis->checkpoints.size());
    if (state.contains("view") && state.value("view").toInt() < m_chooser->count())
        select = state.value("view").toInt();
    m_changedOnly->setChecked(state.value("changed_only").toBool());
    static_cast<CheckpointRowsProxy*>(m_proxy)->setChangedOnly(m_changedOnly->isChecked());
    m_chooser->setCurrentIndex(select);
    showView(select);
}

void CheckpointsPage::showView(int index)
{
    if (!m_analysis || index < 0) return;
    const size_t i = static_cast<size_t>(index);
    const size_t checkpoints = m_analysis->checkpoints.size();
    m_model->clear();
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    if (i < checkpoints)
        showCheckpoint(i);
    else if (i - checkpoints < m_analysis->checkpointDiffs.size())
        showDiff(i - checkpoints);
    m_changedOnly->setVisible(i >= checkpoints);
    m_view->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (m_view->columnWidth(c) > 420) m_view->setColumnWidth(c, 420);
    QJsonObject state = context()->pageState(id());
    state["view"] = index;
    context()->setPageState(id(), state);
}

void CheckpointsPage::showCheckpoint(size_t index)
{
    const core::checkpoint::CheckpointRead& c = m_analysis->checkpoints[index];
    const core::checkpoint::CheckpointFile& f = c.file;
    QStringList facts;
    facts << tr("<b>%1</b> (%2 container, %n tensor(s))", "", static_cast<int>(f.tensors.size()))
                 .arg(qs(f.path).toHtmlEscaped(), qs(f.container));
    if (!f.modelKey.empty()) facts << tr("Model under the key '%1'.").arg(qs(f.modelKey).toHtmlEscaped());
    QStringList meta;
    for (const auto& [k, v] : f.metadata) meta << (qs(k) + " = " + qs(v)).toHtmlEscaped();
    if (!meta.isEmpty())
        facts << meta.mid(0, 12).join(QStringLiteral(" · ")) + (meta.size() > 12 ? " …" : "");
    if (!f.dangerous.empty()) {
        QStringList names;
        for (const std::string& d : f.dangerous) names << qs(d).toHtmlEscaped();
        facts << "<span style='color:#b42318'><b>" + tr("Security:") + "</b> " +
                     tr("the pickle names %1; torch.load would run it. QAT Doctor did not.")
                         .arg(names.join(", ")) +
                     "</span>";
    }
    if (!f.refusedGlobals.empty()) {
        QStringList names;
        for (const std::string& d : f.refusedGlobals) names << qs(d).toHtmlEscaped();
        facts << "<span style='color:#b54708'>" +
                     tr("A weights_only load refuses %1; a full torch.load imports their modules.")
                         .arg(names.mid(0, 8).join(", ") + (names.size() > 8 ? " …" : "")) +
                     "</span>";
    }
    if (c.bitWidthsMissing())
        facts << tr(
            "Bit widths are not saved in this checkpoint (quant_min / quant_max are attributes, kept only "
            "when the whole model is saved); scales and zero points are.");
    m_facts->setText(facts.join("<br>"));

    const std::set<std::string> flagged = flaggedNames(*m_analysis, f.path);
    if (!c.quantized()) {
        m_model->setHorizontalHeaderLabels({tr("Tensor"), tr("dtype"), tr("Shape")});
        for (const core::checkpoint::TensorInfo& t : f.tensors) {
            QStringList dims;
            for (int64_t d : t.shape) dims << QString::number(d);
            QList<QStandardItem*> row{cell(qs(t.name)), cell(qs(t.dtype)),
                                      cell("(" + dims.join(", ") + ")", static_cast<double>(t.numel()))};
            row[0]->setData(qs(t.name), kNameRole);
            m_model->appendRow(row);
        }
        return;
    }
    m_model->setHorizontalHeaderLabels({tr("Module"), tr("Op"), tr("dtype (weight / output)"),
                                        tr("Weight scale"), tr("Output scale"), tr("Zero point"),
                                        tr("Observed range"), tr("Fake quant (weight / output)"),
                                        tr("Observer (weight / output)"), tr("Flags")});
    for (const core::model::Layer& l : c.table.layers) {
        if (!l.weightQuant && !l.outputQuant) continue;
        const auto firstScale =
            [](const std::optional<core::model::QuantParams>& q) -> std::optional<double> {
            if (!q || q->scales.empty()) return std::nullopt;
            return q->scales.front();
        };
        QStringList flags;
        for (const std::string& fl : l.flags) flags << qs(fl);
        QList<QStandardItem*> row{
            cell(qs(l.name)),
            cell(qs(l.op)),
            cell(qs(core::model::quantDtypesText(l))),
            cell(qs(core::model::scalesText(l.weightQuant)), firstScale(l.weightQuant)),
            cell(qs(core::model::scalesText(l.outputQuant)), firstScale(l.outputQuant)),
            cell(qs(core::model::zeroPointText(l.outputQuant))),
            cell(qs(core::model::observedRangeText(l.outputQuant))),
            cell(switchText(l.weightQuant, l.outputQuant, &core::model::QuantParams::fakeQuantEnabled)),
            cell(switchText(l.weightQuant, l.outputQuant, &core::model::QuantParams::observerEnabled)),
            cell(flags.join(", "))};
        row[0]->setData(qs(l.name), kNameRole);
        row[2]->setToolTip(settingsTip(l));
        row[3]->setToolTip(qs(l.weightQuant ? l.weightQuant->scaleSource : std::string{}));
        row[4]->setToolTip(qs(l.outputQuant ? l.outputQuant->scaleSource : std::string{}));
        if (flagged.count(l.name))
            for (QStandardItem* item : row) item->setBackground(kFlaggedColour);
        m_model->appendRow(row);
    }
}

void CheckpointsPage::showDiff(size_t index)
{
    const core::checkpoint::CheckpointDiff& d = m_analysis->checkpointDiffs[index];
    const core::Lang lang = context()->lang();
    m_facts->setText(tr("<b>A</b> %1<br><b>B</b> %2<br>%3")
                         .arg(qs(d.pathA).toHtmlEscaped(), qs(d.pathB).toHtmlEscaped(),
                              qs(core::checkpoint::diffSummary(d).in(lang)).toHtmlEscaped()));
    m_model->setHorizontalHeaderLabels(
        {tr("Tensor"), tr("Kind"), tr("Change"), tr("Relative L2"), tr("Max abs"), tr("Elements")});
    const QString roles[] = {tr("weight"), tr("quantizer"), tr("running statistic")};
    const std::set<std::string> flagged = flaggedNames(*m_analysis, d.pathB);
    for (const core::checkpoint::TensorChange& t : d.tensors) {
        const bool measured = t.kind == ChangeKind::Changed;
        QList<QStandardItem*> row{
            cell(qs(t.name)),
            cell(roles[static_cast<size_t>(t.role)]),
            cell(qs(core::checkpoint::changeKindText(t.kind).in(lang))),
            cell(measured ? qs(core::checkpoint::relativeChangeText(t.relL2, lang)) : QStringLiteral("-"),
                 core::checkpoint::changeOrder(t)),
            cell(measured ? qs(core::shortNumber(t.maxAbs)) : QStringLiteral("-"),
                 measured ? t.maxAbs : -1.0),
            cell(QString::number(t.numel), static_cast<double>(t.numel))};
        row[0]->setData(qs(t.name), kNameRole);
        row[0]->setData(t.kind != ChangeKind::Same, kChangedRole);
        if (!t.problem.empty()) row[2]->setToolTip(qs(t.problem));
        const bool structural =
            t.kind == ChangeKind::Added || t.kind == ChangeKind::Removed || t.kind == ChangeKind::Reshaped;
        // a finding names modules; of a module's tensors, the weights are what it is about
        const bool named = t.role == core::checkpoint::TensorRole::Weight &&
                           flagged.count(t.name.substr(0, t.name.rfind('.'))) > 0;
        if (structural || named)
            for (QStandardItem* item : row)
                item->setBackground(structural ? kStructureColour : kFlaggedColour);
        m_model->appendRow(row);
    }
    // largest change first: what the user looks for
    m_view->sortByColumn(3, Qt::DescendingOrder);
}

bool CheckpointsPage::selectRow(const QString& name)
{
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QString rowName = m_model->item(r, 0)->data(kNameRole).toString();
        if (rowName != name && !rowName.startsWith(name + '.')) continue;
        const QModelIndex idx = m_proxy->mapFromSource(m_model->index(r, 0));
        if (!idx.isValid()) return false;
        m_view->selectRow(idx.row());
        m_view->scrollTo(idx);
        return true;
    }
    return false;
}

void CheckpointsPage::focusOn(const NavigationTarget& target)
{
    if (!m_analysis) return;
    const std::string file = target.file.toStdString();
    int view = -1;
    for (size_t i = 0; i < m_analysis->checkpoints.size(); ++i)
        if (m_analysis->checkpoints[i].file.path == file) view = static_cast<int>(i);
    // evidence of a comparison names B: show the comparison, not B alone
    for (size_t i = 0; i < m_analysis->checkpointDiffs.size(); ++i)
        if (m_analysis->checkpointDiffs[i].pathB == file &&
            (target.findingId == QLatin1String("qat.not_learning") ||
             target.findingId == QLatin1String("checkpoint.keys_changed")))
            view = static_cast<int>(m_analysis->checkpoints.size() + i);
    if (view >= 0 && view != m_chooser->currentIndex()) m_chooser->setCurrentIndex(view);
    if (!target.layer.isEmpty()) selectRow(target.layer);
}

}  // namespace qatdoctor::ui
