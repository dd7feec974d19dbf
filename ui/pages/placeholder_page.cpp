#include "ui/pages/placeholder_page.h"

#include <QLabel>
#include <QVBoxLayout>

namespace qatdoctor::ui {

PlaceholderPage::PlaceholderPage(AppContext* context, QString id, QString title, QString explanation,
                                 QWidget* parent)
    : Page(context, parent), m_id(std::move(id)), m_title(std::move(title))
{
    auto* layout = new QVBoxLayout(this);
    auto* heading = new QLabel(QStringLiteral("<h2>%1</h2>").arg(m_title.toHtmlEscaped()), this);
    auto* body = new QLabel(explanation, this);
    body->setWordWrap(true);
    layout->addWidget(heading);
    layout->addWidget(body);
    layout->addStretch();
}

}  // namespace qatdoctor::ui
