#include "ui/pages/wizard/symptom_picker.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <functional>

#include "core/faq/faq_base.h"
#include "core/faq/faq_search.h"

namespace qatdoctor::ui {
namespace {
constexpr int kTopicRole = Qt::UserRole;
constexpr int kMostCommonCount = 6;
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Enter/Down in the search box moves into the results, so the keyboard alone picks a symptom.
class SearchKeys : public QObject {
public:
    SearchKeys(QTreeWidget* tree, std::function<void()> choose, QObject* parent)
        : QObject(parent), m_tree(tree), m_choose(std::move(choose))
    {
    }
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::KeyPress) return QObject::eventFilter(watched, event);
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Down) {
            m_tree->setFocus();
            return true;
        }
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_choose();
            return true;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QTreeWidget* m_tree;
    std::function<void()> m_choose;
};
}  // namespace

SymptomPicker::SymptomPicker(QWidget* parent)
    : QWidget(parent),
      m_search(new QLineEdit(this)),
      m_tree(new QTreeWidget(this)),
      m_status(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel("<h2>" + tr("What do you see?").toHtmlEscaped() + "</h2>", this);
    layout->addWidget(heading);
    m_search->setObjectName("wizardSearch");
    m_search->setClearButtonEnabled(true);
    m_search->setPlaceholderText(tr("Search symptoms, causes and advice (e.g. NaN, int16, 高精度)"));
    m_search->setMinimumHeight(34);
    layout->addWidget(m_search);
    m_status->setObjectName("wizardSearchStatus");
    m_status->setStyleSheet("color: palette(mid);");
    layout->addWidget(m_status);
    m_tree->setObjectName("wizardPicker");
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Symptom"), tr("Question")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setStyleSheet("QTreeWidget::item { padding: 4px 2px; }");
    layout->addWidget(m_tree, 1);

    m_search->installEventFilter(new SearchKeys(
        m_tree,
        [this] {
            if (!m_tree->currentItem()) m_tree->setCurrentItem(m_tree->topLevelItem(0));
            chooseCurrent();
        },
        this));
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        rebuild();
        emit searchChanged(text);
    });
    // One click selects; double-click or Enter opens the topic.
    connect(m_tree, &QTreeWidget::itemActivated, this, [this] { chooseCurrent(); });
}

void SymptomPicker::setBase(const core::faq::FaqBase* base, core::Lang lang)
{
    m_base = base;
    m_lang = lang;
    rebuild();
}

void SymptomPicker::setFindingTopics(std::vector<FindingTopic> topics)
{
    m_findingTopics = std::move(topics);
    rebuild();
}

void SymptomPicker::setLang(core::Lang lang)
{
    m_lang = lang;
    rebuild();
}

QString SymptomPicker::searchText() const
{
    return m_search->text();
}
void SymptomPicker::setSearchText(const QString& text)
{
    m_search->setText(text);
}
void SymptomPicker::focusSearch()
{
    m_search->setFocus();
}

void SymptomPicker::chooseCurrent()
{
    QTreeWidgetItem* item = m_tree->currentItem();
    if (!item) return;
    const QString id = item->data(0, kTopicRole).toString();
    if (!id.isEmpty()) emit topicChosen(id);
}

QTreeWidgetItem* SymptomPicker::topicItem(QTreeWidgetItem* parent, const QString& id, const QString& symptom,
                                          const QString& detail, int popularity)
{
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_tree);
    item->setText(0, symptom);
    item->setText(1, detail);
    item->setToolTip(1, detail);
    item->setData(0, kTopicRole, id);
    item->setToolTip(0, tr("Topic %1, commonness %2/10").arg(id).arg(popularity));
    return item;
}

void SymptomPicker::rebuild()
{
    m_tree->clear();
    if (!m_base) return;
    const QString query = m_search->text().trimmed();
    if (query.isEmpty())
        showBrowse();
    else
        showSearch(query);
}

void SymptomPicker::showBrowse()
{
    m_status->setText(tr("%n topic(s); the most common symptoms first.", nullptr,
                         static_cast<int>(m_base->topics().size())));
    QTreeWidgetItem* fromData = nullptr;
    if (!m_findingTopics.empty()) {
        // The topics the findings name, first: where the data already points.
        fromData = new QTreeWidgetItem(m_tree, {tr("Named by your findings")});
        QFont bold = fromData->font(0);
        bold.setBold(true);
        fromData->setFont(0, bold);
        for (const FindingTopic& ft : m_findingTopics) {
            const core::faq::Topic* t = m_base->topic(ft.topicId.toStdString());
            if (!t) continue;
            QTreeWidgetItem* item = topicItem(fromData, qs(t->id), qs(t->symptom.in(m_lang)),
                                              ft.findingTitles.join(QStringLiteral("; ")), t->popularity);
            item->setToolTip(1, ft.findingTitles.join(QLatin1Char('\n')));
        }
    }
    auto* common = new QTreeWidgetItem(m_tree, {tr("Most common")});
    QFont bold = common->font(0);
    bold.setBold(true);
    common->setFont(0, bold);
    const auto popular = m_base->topicsByPopularity();
    for (size_t i = 0; i < popular.size() && i < kMostCommonCount; ++i) {
        const core::faq::Topic* t = popular[i];
        topicItem(common, qs(t->id), qs(t->symptom.in(m_lang)), qs(t->title.in(m_lang)), t->popularity);
    }
    for (const core::faq::Category& c : m_base->categories()) {
        auto* cat = new QTreeWidgetItem(m_tree, {qs(c.title.in(m_lang))});
        cat->setFont(0, bold);
        for (const core::faq::Topic* t : m_base->topicsOf(c))
            topicItem(cat, qs(t->id), qs(t->symptom.in(m_lang)), qs(t->title.in(m_lang)), t->popularity);
    }
    m_tree->expandAll();
    m_tree->setCurrentItem(fromData && fromData->childCount() ? fromData->child(0) : common->child(0));
}

void SymptomPicker::showSearch(const QString& query)
{
    const auto hits = core::faq::searchFaq(*m_base, query.toStdString(), m_lang);
    m_status->setText(hits.empty()
                          ? tr("No topic matches \u201c%1\u201d.").arg(query)
                          : tr("%n matching topic(s), best first.", nullptr, static_cast<int>(hits.size())));
    for (const core::faq::SearchHit& h : hits) {
        QString detail = qs(h.topic->title.in(m_lang));
        if (!h.titleHit && h.field != "symptom") detail += "  \u2014  " + qs(h.snippet);
        topicItem(nullptr, qs(h.topic->id), qs(h.topic->symptom.in(m_lang)), detail, h.topic->popularity);
    }
    if (m_tree->topLevelItemCount() > 0) m_tree->setCurrentItem(m_tree->topLevelItem(0));
}

}  // namespace qatdoctor::ui
