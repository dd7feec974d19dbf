#include "ui/pages/wizard/question_view.h"

#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "core/faq/faq_types.h"

namespace qatdoctor::ui {

QuestionView::QuestionView(QWidget* parent)
    : QWidget(parent),
      m_text(new QLabel(this)),
      m_help(new QLabel(this)),
      m_autoHint(new QLabel(this)),
      m_answers(new QVBoxLayout)
{
    auto* layout = new QVBoxLayout(this);
    m_text->setObjectName("questionText");
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    QFont big = m_text->font();
    big.setPointSizeF(big.pointSizeF() * 1.45);
    big.setBold(true);
    m_text->setFont(big);
    m_help->setObjectName("questionHelp");
    m_help->setWordWrap(true);
    m_help->setTextFormat(Qt::PlainText);
    m_help->setStyleSheet("color: #555;");
    m_autoHint->setObjectName("questionAutoHint");
    m_autoHint->setWordWrap(true);
    m_autoHint->setStyleSheet("color: #6a5acd;");
    layout->addWidget(m_text);
    layout->addWidget(m_help);
    layout->addWidget(m_autoHint);
    layout->addSpacing(12);
    layout->addLayout(m_answers);
    layout->addStretch(1);

    // Number keys answer while the question has focus (not while typing in the search box).
    for (int i = 1; i <= 9; ++i) {
        auto* sc = new QShortcut(QKeySequence(Qt::Key_0 + i), this, nullptr, nullptr,
                                 Qt::WidgetWithChildrenShortcut);
        connect(sc, &QShortcut::activated, this, [this, i] {
            if (static_cast<size_t>(i) <= m_buttons.size()) m_buttons[static_cast<size_t>(i - 1)]->click();
        });
    }
}

void QuestionView::showQuestion(const core::faq::Node& question, core::Lang lang, bool overridden,
                                const QString& notChecked)
{
    m_text->setText(QString::fromStdString(question.text.in(lang)));
    m_help->setText(QString::fromStdString(question.help.in(lang)));
    m_help->setVisible(!question.help.in(lang).empty());
    if (question.autoCheck.empty()) {
        m_autoHint->hide();
    } else {
        const QString check = QString::fromStdString(question.autoCheck);
        if (overridden)
            m_autoHint->setText(tr("You chose to answer this yourself (automatic check: %1).").arg(check));
        else if (!notChecked.isEmpty())
            m_autoHint->setText(
                tr("Unknown from your data, %1 (automatic check: %2). Load it, or answer by hand.")
                    .arg(notChecked, check));
        else
            m_autoHint->setText(tr("Your loaded data cannot answer this yet (automatic check: %1). "
                                   "Load the logs or model it needs, or answer by hand.")
                                    .arg(check));
        m_autoHint->show();
    }
    // deleteLater: this may run inside the clicked() of one of these buttons.
    for (QPushButton* b : m_buttons) {
        m_answers->removeWidget(b);
        b->hide();
        b->deleteLater();
    }
    m_buttons.clear();
    for (size_t i = 0; i < question.answers.size(); ++i) {
        const core::faq::Answer& a = question.answers[i];
        const QString label = QString::fromStdString(a.label.in(lang));
        auto* b = new QPushButton(i < 9 ? QString("%1   %2").arg(i + 1).arg(label) : label, this);
        b->setObjectName("answer_" + QString::fromStdString(a.id));
        b->setMinimumHeight(52);
        b->setStyleSheet("QPushButton { text-align: left; padding: 8px 16px; font-size: 12pt; }");
        b->setToolTip(i < 9 ? tr("Press %1").arg(i + 1) : QString());
        const QString id = QString::fromStdString(a.id);
        connect(b, &QPushButton::clicked, this, [this, id] { emit answered(id); });
        m_answers->addWidget(b);
        b->show();  // now, not at the next event loop turn: focusFirstAnswer() needs it visible
        m_buttons.push_back(b);
    }
}

void QuestionView::focusFirstAnswer()
{
    if (!m_buttons.empty()) m_buttons.front()->setFocus();
}

}  // namespace qatdoctor::ui
