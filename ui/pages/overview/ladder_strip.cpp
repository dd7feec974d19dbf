#include "ui/pages/overview/ladder_strip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLayoutItem>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>

namespace qatdoctor::ui {
namespace {

// Tints of the states a stage can be in: the same amber / red the verdict banner uses.
QString styleFor(bool bad, bool firstBad)
{
    const char* background = firstBad ? "#f8d7da" : bad ? "#fff3cd" : "#eef3f8";
    const char* border = firstBad ? "#c0392b" : bad ? "#d4a017" : "#b8c7d9";
    return QStringLiteral(
               "QToolButton { background: %1; border: %2px solid %3; border-radius: 4px; "
               "padding: 3px 8px; color: #1b1f24; }")
        .arg(QLatin1String(background))
        .arg(firstBad ? 2 : 1)
        .arg(QLatin1String(border));
}

}  // namespace

LadderStrip::LadderStrip(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("ladderStrip"));
    // more stages than the page is wide scroll sideways rather than squeeze into each other
    m_scroll = new QScrollArea(this);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* boxes = new QWidget(m_scroll);
    m_scroll->setWidget(boxes);
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_scroll);
    m_row = new QHBoxLayout(boxes);
    m_row->setContentsMargins(0, 2, 0, 2);
    m_row->setSpacing(4);
    hide();
}

void LadderStrip::setLadder(const core::StageLadder& ladder, core::Lang lang)
{
    while (QLayoutItem* item = m_row->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_buttons.clear();
    m_sources.clear();
    m_firstBad = -1;
    setVisible(!ladder.empty());
    if (ladder.empty()) return;
    const std::vector<core::LadderRow> rows = core::ladderRows(ladder, lang);
    for (size_t i = 0; i < rows.size(); ++i) {
        const core::LadderRow& r = rows[i];
        if (i > 0) {
            // an arrow joins the stages of one chain; the simulated chain and the checks stand apart
            const bool joined = r.joined;
            auto* arrow =
                new QLabel(joined ? QStringLiteral("→") : QStringLiteral("  |  "), m_row->parentWidget());
            if (joined) arrow->setToolTip(QString::fromStdString(r.judgement));
            m_row->addWidget(arrow);
        }
        auto* b = new QToolButton(m_row->parentWidget());
        b->setAutoRaise(false);
        b->setCursor(Qt::PointingHandCursor);
        const bool bad = r.bad;
        // one fact a line, so a box stays narrow enough for nine of them across the page
        QString text = QString::fromStdString(r.name) + QLatin1Char('\n') + QString::fromStdString(r.value);
        if (!r.change.empty()) text += QLatin1Char('\n') + QString::fromStdString(r.change);
        if (!r.interval.empty())
            text += QLatin1Char('\n') + tr("95%: %1").arg(QString::fromStdString(r.interval));
        b->setText(text);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setStyleSheet(styleFor(bad, r.firstBad));
        // the style's border and padding are not in the size hint: room for them, so no digit is cut
        b->setMinimumWidth(b->sizeHint().width() + 16);
        QString tip = QString::fromStdString(r.source);
        if (!r.judgement.empty()) tip = QString::fromStdString(r.judgement) + QLatin1Char('\n') + tip;
        b->setToolTip(tip);
        if (r.firstBad) m_firstBad = static_cast<int>(i);
        const int index = static_cast<int>(i);
        connect(b, &QToolButton::clicked, this, [this, index] { clickStage(index); });
        m_row->addWidget(b);
        m_buttons.push_back(b);
        m_sources.push_back(r.evidence);
    }
    m_row->addStretch(1);
    // tall enough for the boxes and, when they overflow, the scroll bar below them
    m_scroll->setFixedHeight(m_row->parentWidget()->sizeHint().height() +
                             m_scroll->horizontalScrollBar()->sizeHint().height());
}

QString LadderStrip::stageText(int index) const
{
    return index >= 0 && index < stageCount() ? m_buttons[static_cast<size_t>(index)]->text() : QString();
}

void LadderStrip::clickStage(int index)
{
    if (index >= 0 && index < stageCount()) emit evidenceRequested(m_sources[static_cast<size_t>(index)]);
}

}  // namespace qatdoctor::ui
