#include "ui/pages/wizard/auto_answer_panel.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "core/common/finding.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "ui/pages/overview/findings_model.h"

namespace qatdoctor::ui {
namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
}  // namespace

AutoAnswerPanel::AutoAnswerPanel(QWidget* parent) : QWidget(parent), m_rows(new QVBoxLayout)
{
    setObjectName("autoAnswerPanel");
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* frame = new QFrame(this);
    frame->setObjectName("autoFrame");
    frame->setStyleSheet(
        "QFrame#autoFrame { background: #eef4ff; border: 1px solid #b6ccf2; border-radius: 4px; }");
    frame->setLayout(m_rows);
    outer->addWidget(frame);
    hide();
}

void AutoAnswerPanel::showSteps(const core::faq::FaqBase& base, const std::vector<core::faq::PathStep>& path,
                                core::Lang lang)
{
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            w->hide();
            w->deleteLater();
        }
        delete item;
    }
    size_t first = path.size();
    while (first > 0 && path[first - 1].automatic) --first;
    setVisible(first < path.size());
    if (first == path.size()) return;

    auto* title = new QLabel("<b>" + tr("Answered from your data").toHtmlEscaped() + "</b>");
    m_rows->addWidget(title);
    for (size_t i = first; i < path.size(); ++i) {
        const core::faq::PathStep& step = path[i];
        const core::faq::Node* q = base.node(step.topic, step.node);
        const core::faq::Answer* a = q ? q->answer(step.answer) : nullptr;
        if (!q || !a) continue;
        auto* row = new QWidget;
        auto* rowLayout = new QVBoxLayout(row);
        rowLayout->setContentsMargins(0, 2, 0, 2);
        auto* head = new QHBoxLayout;
        auto* text = new QLabel(
            QString("%1  \u2192  <b>%2</b>  <span style='color:#666'>(%3: %4)</span>")
                .arg(qs(q->text.in(lang)).toHtmlEscaped(), qs(a->label.in(lang)).toHtmlEscaped(),
                     qs(step.check),
                     step.outcome == core::faq::AutoOutcome::Found ? tr("found") : tr("nothing found")));
        text->setWordWrap(true);
        text->setObjectName("autoAnswerText");
        auto* override = new QPushButton(tr("Override"));
        override->setObjectName("overrideAuto");
        override->setToolTip(tr("Go back to this question and answer it yourself"));
        const int index = static_cast<int>(i);
        connect(override, &QPushButton::clicked, this, [this, index] { emit overrideRequested(index); });
        head->addWidget(text, 1);
        head->addWidget(override, 0, Qt::AlignTop);
        rowLayout->addLayout(head);
        for (const core::Text& standard : step.standards) {
            auto* met = new QLabel(qs(standard.in(lang)));
            met->setObjectName("autoStandard");
            met->setWordWrap(true);
            met->setStyleSheet("color:#555");
            rowLayout->addWidget(met);
        }
        if (!step.evidence.empty()) {
            auto* list = new QListWidget;
            list->setObjectName("autoEvidence");
            for (const core::Evidence& e : step.evidence) {
                auto* item = new QListWidgetItem(FindingsModel::evidenceText(e, lang), list);
                item->setToolTip(qs(e.file));
            }
            list->setMaximumHeight(std::min<int>(static_cast<int>(step.evidence.size()), 4) * 24 + 6);
            list->setToolTip(tr("Double-click (or Enter) to show this place"));
            connect(list, &QListWidget::itemActivated, this, [this, list, index](QListWidgetItem* item) {
                emit evidenceActivated(index, list->row(item));
            });
            rowLayout->addWidget(list);
        }
        m_rows->addWidget(row);
    }
}

}  // namespace qatdoctor::ui
