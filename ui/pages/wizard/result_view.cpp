#include "ui/pages/wizard/result_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "core/faq/faq_base.h"
#include "ui/pages/wizard/code_block_view.h"

namespace qatdoctor::ui {
namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QLabel* wrapped(const QString& text, Qt::TextFormat format = Qt::PlainText)
{
    auto* l = new QLabel(text);
    l->setWordWrap(true);
    l->setTextFormat(format);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                               Qt::LinksAccessibleByKeyboard);
    return l;
}
}  // namespace

ResultView::ResultView(QWidget* parent) : QWidget(parent), m_content(new QVBoxLayout), m_title(new QLabel)
{
    setFocusPolicy(Qt::StrongFocus);  // so Backspace / Alt+Left reach the wizard from a result
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* header = new QHBoxLayout;
    m_title->setObjectName("resultTitle");
    m_title->setWordWrap(true);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.45);
    big.setBold(true);
    m_title->setFont(big);
    m_addToReport = new QPushButton(tr("Add to report"));
    m_addToReport->setObjectName("addToReport");
    header->addWidget(m_title, 1);
    header->addWidget(m_addToReport, 0, Qt::AlignTop);
    outer->addLayout(header);

    auto* scroll = new QScrollArea(this);
    scroll->setObjectName("resultScroll");
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget;
    inner->setLayout(m_content);
    scroll->setWidget(inner);
    outer->addWidget(scroll, 1);
    connect(m_addToReport, &QPushButton::clicked, this, &ResultView::addToReportRequested);
}

void ResultView::clear()
{
    while (QLayoutItem* item = m_content->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            w->hide();
            w->deleteLater();
        }
        delete item;
    }
}

void ResultView::addSection(const QString& heading, const std::vector<core::Text>& items, core::Lang lang,
                            const QString& objectName)
{
    if (items.empty()) return;
    m_content->addWidget(wrapped("<h3>" + heading.toHtmlEscaped() + "</h3>", Qt::RichText));
    for (size_t i = 0; i < items.size(); ++i) {
        QLabel* l = wrapped(QString("%1. %2").arg(i + 1).arg(qs(items[i].in(lang))));
        l->setObjectName(objectName);
        l->setContentsMargins(12, 0, 0, 2);
        m_content->addWidget(l);
    }
}

void ResultView::showResult(const core::faq::FaqBase& base, const core::faq::Node& result, core::Lang lang,
                            bool inReport)
{
    clear();
    m_title->setText(qs(result.title.in(lang)));
    addSection(tr("Possible causes"), result.causes, lang, "causeText");
    addSection(tr("Check first"), result.checks, lang, "checkText");
    addSection(tr("What to do"), result.advice, lang, "adviceText");
    if (!result.code.empty()) {
        m_content->addWidget(wrapped("<h3>" + tr("Code").toHtmlEscaped() + "</h3>", Qt::RichText));
        for (const core::faq::CodeBlock& c : result.code)
            m_content->addWidget(new CodeBlockView(qs(c.title.in(lang)), qs(c.text)));
    }
    QStringList links;
    for (const std::string& id : result.related)
        if (const core::faq::Topic* t = base.topic(id))
            links << QString("<a href=\"%1\">%2</a>")
                         .arg(qs(id).toHtmlEscaped(), qs(t->title.in(lang)).toHtmlEscaped());
    if (!links.isEmpty()) {
        m_content->addWidget(wrapped("<h3>" + tr("See also").toHtmlEscaped() + "</h3>", Qt::RichText));
        QLabel* l = wrapped(links.join("<br>"), Qt::RichText);
        l->setObjectName("relatedLinks");
        connect(l, &QLabel::linkActivated, this, &ResultView::topicLinkActivated);
        m_content->addWidget(l);
    }
    QStringList refs;
    for (const core::faq::Reference& r : result.references) {
        const QString name = qs(r.name.in(lang)).toHtmlEscaped();
        refs << (r.topic.empty() || !base.topic(r.topic)
                     ? name
                     : QString("<a href=\"%1\">%2</a>").arg(qs(r.topic), name));
    }
    if (!refs.isEmpty()) {
        m_content->addWidget(wrapped("<h3>" + tr("References").toHtmlEscaped() + "</h3>", Qt::RichText));
        QLabel* l = wrapped(refs.join("<br>"), Qt::RichText);
        l->setObjectName("referenceLinks");
        connect(l, &QLabel::linkActivated, this, &ResultView::topicLinkActivated);
        m_content->addWidget(l);
    }
    m_content->addStretch(1);
    setInReport(inReport);
}

void ResultView::setInReport(bool inReport)
{
    m_addToReport->setEnabled(!inReport);
    m_addToReport->setText(inReport ? tr("In the report") : tr("Add to report"));
}

}  // namespace qatdoctor::ui
