#include "ui/pages/compare/comparison_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/pages/compare/diff_table_model.h"

namespace qatdoctor::ui {

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent),
      m_header(new QLabel(this)),
      m_changedOnly(new QCheckBox(tr("Changed only"), this)),
      m_body(new QWidget(this)),
      m_bodyLayout(new QVBoxLayout(m_body))
{
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_changedOnly->setChecked(true);
    m_changedOnly->setToolTip(
        tr("Only rows whose configuration changed, whose metric moved, or that one side lacks"));
    connect(m_changedOnly, &QCheckBox::toggled, this, [this](bool on) {
        for (ChangedOnlyFilter* f : m_filters) f->setChangedOnly(on);
    });
    auto* top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(m_changedOnly, 0, Qt::AlignTop);
    m_bodyLayout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_body);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(scroll, 1);
}

void ComparisonView::setTables(const QString& header, std::vector<core::compare::DiffTable> tables,
                               const QString& emptyText)
{
    m_header->setText(header);
    while (QLayoutItem* item = m_bodyLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_views.clear();
    m_filters.clear();
    if (tables.empty()) {
        auto* empty = new QLabel(emptyText, m_body);
        empty->setWordWrap(true);
        m_bodyLayout->addWidget(empty);
        m_bodyLayout->addStretch();
        return;
    }
    for (core::compare::DiffTable& t : tables) {
        auto* title = new QLabel(m_body);
        title->setTextFormat(Qt::RichText);
        title->setWordWrap(true);
        title->setText(QStringLiteral("<b>%1</b><br><small>%2</small>")
                           .arg(QString::fromStdString(t.title).toHtmlEscaped(),
                                QString::fromStdString(t.caption).toHtmlEscaped()));
        auto* view = new QTableView(m_body);
        auto* model = new DiffTableModel(view);  // goes with its view when the tables are rebuilt
        model->setTable(std::move(t));
        auto* filter = new ChangedOnlyFilter(model);
        filter->setSourceModel(model);
        filter->setChangedOnly(m_changedOnly->isChecked());
        view->setModel(filter);
        view->setSortingEnabled(true);
        view->sortByColumn(-1, Qt::AscendingOrder);  // the diff's order until the user sorts
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->verticalHeader()->hide();
        view->horizontalHeader()->setStretchLastSection(true);
        view->setWordWrap(false);
        view->resizeColumnsToContents();
        view->setMinimumHeight(160);
        m_bodyLayout->addWidget(title);
        m_bodyLayout->addWidget(view, 1);
        m_views.push_back(view);
        m_filters.push_back(filter);
    }
}

void ComparisonView::setChangedOnly(bool on)
{
    m_changedOnly->setChecked(on);
}

void ComparisonView::showIn(QTabWidget* tabs, bool shown, QWidget* page)
{
    QWidget* tab = page ? page : this;
    const int at = tabs->indexOf(tab);
    if (shown && at < 0) tabs->addTab(tab, tr("A | B"));
    if (!shown && at >= 0) {
        tabs->removeTab(at);
        tab->hide();  // still the stack's child: it must not draw over the page
    }
}

QString ComparisonView::header(const ComparisonState& state, core::Lang lang)
{
    return tr("<b>A</b> (open): %1 &nbsp;→&nbsp; <b>B</b> (compared with): %2<br>%3")
        .arg(
            QString::fromStdString(state.comparison.nameA).toHtmlEscaped(),
            QString::fromStdString(state.comparison.nameB).toHtmlEscaped(),
            QString::fromStdString(core::compare::comparisonSummary(state.comparison, lang)).toHtmlEscaped());
}

int ComparisonView::visibleRows(int table) const
{
    return m_filters.at(static_cast<size_t>(table))->rowCount();
}

}  // namespace qatdoctor::ui
