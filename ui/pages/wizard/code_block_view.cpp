#include "ui/pages/wizard/code_block_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/pages/wizard/python_highlighter.h"

namespace qatdoctor::ui {

CodeBlockView::CodeBlockView(const QString& title, const QString& code, QWidget* parent)
    : QWidget(parent), m_code(code)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 4);
    auto* header = new QHBoxLayout;
    auto* caption = new QLabel("<b>" + title.toHtmlEscaped() + "</b>", this);
    auto* copy = new QPushButton(tr("Copy"), this);
    copy->setObjectName("copyCode");
    copy->setToolTip(tr("Copy the code to the clipboard"));
    header->addWidget(caption, 1);
    header->addWidget(copy);
    layout->addLayout(header);

    auto* view = new QPlainTextEdit(this);
    view->setObjectName("codeView");
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setStyleSheet("QPlainTextEdit { background: #f6f8fa; border: 1px solid #d0d7de; }");
    view->setPlainText(code);
    new PythonHighlighter(view->document());
    // Show the whole snippet without an inner scroll bar (snippets are at most a few dozen lines).
    const int lines = static_cast<int>(code.count('\n')) + 1;
    view->setFixedHeight(QFontMetrics(view->font()).lineSpacing() * std::min(lines, 30) + 16);
    layout->addWidget(view);

    connect(copy, &QPushButton::clicked, this, [this, copy] {
        QApplication::clipboard()->setText(m_code);
        copy->setText(tr("Copied"));
        QTimer::singleShot(1500, copy, [copy] { copy->setText(tr("Copy")); });
    });
}

}  // namespace qatdoctor::ui
