#include "ui/pages/artifacts_page.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/artifacts/artifact_checks.h"
#include "core/artifacts/text_lines.h"
#include "core/artifacts/toolchain_files.h"
#include "ui/pages/artifacts/data_table_model.h"
#include "ui/pages/compare/comparison_view.h"
#include "ui/plots/similarity_plot.h"

namespace qatdoctor::ui {
namespace {

bool isComparison(const core::DataTable& t)
{
    return t.kind == core::artifacts::kTableComparePerLayer || t.kind == core::artifacts::kTableSimilarity;
}

QString tableKey(const core::DataTable& t)
{
    return QString::fromStdString(t.kind + "|" + t.sourcePath);
}

int layerColumn(const core::DataTable& t)
{
    for (const char* n : {"mod_name", "module name", "op_name", "op name", "name", "weight name"})
        if (int c = t.column(n); c >= 0) return c;
    return -1;
}

}  // namespace

ArtifactsPage::ArtifactsPage(AppContext* context, QWidget* parent)
    : Page(context, parent),
      m_chooser(new QComboBox(this)),
      m_filter(new QLineEdit(this)),
      m_empty(new QLabel(this)),
      m_warnings(new QLabel(this)),
      m_splitter(new QSplitter(Qt::Vertical, this)),
      m_tabs(new QTabWidget(this)),
      m_compare(new ComparisonView(this)),
      m_view(new QTableView(this)),
      m_plot(new SimilarityPlot(this)),
      m_model(new DataTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Table:"), this));
    top->addWidget(m_chooser, 1);
    m_filter->setPlaceholderText(tr("Filter rows…"));
    m_filter->setClearButtonEnabled(true);
    top->addWidget(m_filter);
    layout->addLayout(top);

    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setText(
        tr("No toolchain debug files are loaded.\n\nOpen or drop model_check_result.txt, "
           "compare_per_layer_out.txt / .csv, *_sensitive_ops.txt, statistic.txt, similarity.txt, "
           "weight_comparison.txt or deploy_device.txt."));
    layout->addWidget(m_empty, 1);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(DataTableModel::kSortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);  // source order until the user sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->verticalHeader()->setToolTip(tr("Line in the source file"));
    m_splitter->addWidget(m_plot);
    m_splitter->addWidget(m_view);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_tabs->addTab(m_splitter, tr("Tables"));
    layout->addWidget(m_tabs, 3);

    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setStyleSheet("color: #9a6700;");
    layout->addWidget(m_warnings);

    connect(m_chooser, &QComboBox::currentIndexChanged, this,
            [this](int i) { showTable(m_chooser->itemData(i).toInt()); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_plot, &SimilarityPlot::rowClicked, this, [this](int row) {
        const QModelIndex src = m_model->index(row, 0);
        const QModelIndex idx = m_proxy->mapFromSource(src);
        if (idx.isValid()) {
            m_view->selectRow(idx.row());
            m_view->scrollTo(idx);
        }
    });
    connect(context, &AppContext::analysisChanged, this, [this] { rebuild(); });
    connect(context, &AppContext::comparisonChanged, this, [this] { updateComparison(); });
    connect(context, &AppContext::langChanged, this, [this] { updateComparison(); });
    rebuild();
}

void ArtifactsPage::updateComparison()
{
    const ComparisonPtr c = context()->comparison();
    m_compare->showIn(m_tabs, c != nullptr);
    // the tabs show while either side has something: A's tables, or a comparison
    const bool any = m_chooser->count() > 0;
    m_empty->setVisible(!any && !c);
    m_tabs->setVisible(any || c);
    if (!c) return;
    const core::Lang lang = context()->lang();
    std::vector<core::compare::DiffTable> tables;
    for (const core::compare::DataTableDiff& d : c->comparison.tables)
        tables.push_back(core::compare::dataTableDiffTable(d, lang));
    m_compare->setTables(ComparisonView::header(*c, lang), std::move(tables),
                         tr("A and B have no debug table of one kind (per-layer comparison, sensitivity, "
                            "statistics…) to compare row by row."));
}

void ArtifactsPage::rebuild()
{
    m_analysis = context()->analysis();
    const QString wanted = context()->pageState(id()).value("table").toString();
    QSignalBlocker block(m_chooser);
    m_chooser->clear();
    int select = -1;
    if (m_analysis) {
        for (size_t i = 0; i < m_analysis->tables.size(); ++i) {
            const core::DataTable& t = m_analysis->tables[i];
            const QString label = QStringLiteral("%1 — %2 (%3)")
                                      .arg(QString::fromStdString(t.title),
                                           QFileInfo(QString::fromStdString(t.sourcePath)).fileName())
                                      .arg(t.rows.size());
            m_chooser->addItem(label, static_cast<int>(i));
            if (tableKey(t) == wanted || (select < 0 && wanted.isEmpty() && isComparison(t)))
                select = m_chooser->count() - 1;
        }
    }
    const bool any = m_chooser->count() > 0;
    updateComparison();
    m_filter->setEnabled(any);
    if (!any) {
        m_model->setTable(nullptr, -1);
        m_plot->clear();
        m_warnings->clear();
        return;
    }
    if (select < 0) select = 0;
    m_chooser->setCurrentIndex(select);
    showTable(m_chooser->itemData(select).toInt());
}

std::optional<int> ArtifactsPage::firstBadRow(const core::DataTable& table) const
{
    // The finding is the truth the CLI and report also show; fall back to the same rule.
    for (const core::Finding& f : m_analysis->findings)
        if (f.id == "consistency.similarity_drop" && !f.evidence.empty() &&
            f.evidence.front().file == table.sourcePath)
            for (size_t r = 0; r < table.rowLines.size(); ++r)
                if (table.rowLines[r] == f.evidence.front().line) return static_cast<int>(r);
    return std::nullopt;
}

void ArtifactsPage::showTable(int index)
{
    if (!m_analysis || index < 0 || index >= static_cast<int>(m_analysis->tables.size())) return;
    const core::DataTable& t = m_analysis->tables[static_cast<size_t>(index)];
    m_model->setTable(m_analysis, index);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->resizeColumnsToContents();
    m_view->scrollToTop();
    m_view->horizontalScrollBar()->setValue(0);
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (m_view->columnWidth(c) > 420) m_view->setColumnWidth(c, 420);
    const std::optional<int> bad = isComparison(t) ? firstBadRow(t) : std::nullopt;
    m_model->setHighlightRow(bad.value_or(-1));
    const bool plotted = isComparison(t) && m_plot->setTable(t, bad);
    if (!plotted) m_plot->clear();
    m_plot->setVisible(plotted);

    QStringList lines;
    for (const core::Warning& w : m_analysis->warnings)
        if (w.file == t.sourcePath) lines << QString::fromStdString(w.message);
    m_warnings->setText(lines.isEmpty()
                            ? QString()
                            : tr("%n warning(s) while reading this file:", "", lines.size()) + "\n" +
                                  lines.mid(0, 8).join('\n') + (lines.size() > 8 ? "\n…" : ""));
    m_warnings->setVisible(!lines.isEmpty());

    QJsonObject state = context()->pageState(id());
    state["table"] = tableKey(t);
    context()->setPageState(id(), state);
}

bool ArtifactsPage::selectLayer(const QString& layer)
{
    const core::DataTable* t = m_model->table();
    if (!t) return false;
    const int col = layerColumn(*t);
    if (col < 0) return false;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        if (QString::fromStdString(t->rows[static_cast<size_t>(r)][static_cast<size_t>(col)]) != layer)
            continue;
        const QModelIndex idx = m_proxy->mapFromSource(m_model->index(r, col));
        if (!idx.isValid()) return false;
        m_view->selectRow(idx.row());
        m_view->scrollTo(idx);
        return true;
    }
    return false;
}

void ArtifactsPage::focusOn(const NavigationTarget& target)
{
    if (target.layer.isEmpty() || !m_analysis) return;
    m_filter->clear();
    if (selectLayer(target.layer)) return;
    for (int i = 0; i < m_chooser->count(); ++i) {
        m_chooser->setCurrentIndex(i);
        if (selectLayer(target.layer)) return;
    }
}

}  // namespace qatdoctor::ui
