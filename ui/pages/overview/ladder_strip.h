// The stage ladder at the top of the Overview: one compact box per stage (its accuracy, the
// change from the stage before), arrows between the stages of one chain, the first bad step
// red and other steps out of range amber. Clicking a stage asks to show where its value came
// from (the curve at the evaluation, or the result file of a dataset evaluation).
#pragma once

#include <QWidget>
#include <vector>

#include "core/common/finding.h"
#include "core/stage_ladder.h"

class QHBoxLayout;
class QScrollArea;
class QToolButton;

namespace qatdoctor::ui {

class LadderStrip : public QWidget {
    Q_OBJECT
public:
    explicit LadderStrip(QWidget* parent = nullptr);

    // Rebuilds the boxes (hidden when the ladder is empty).
    void setLadder(const core::StageLadder& ladder, core::Lang lang);

    // For tests: the boxes in order, and which one is marked the first bad step (-1 = none).
    int stageCount() const { return static_cast<int>(m_buttons.size()); }
    QString stageText(int index) const;
    int firstBadIndex() const { return m_firstBad; }
    void clickStage(int index);

signals:
    void evidenceRequested(const core::Evidence& evidence);

private:
    QScrollArea* m_scroll = nullptr;
    QHBoxLayout* m_row = nullptr;
    std::vector<QToolButton*> m_buttons;
    std::vector<core::Evidence> m_sources;
    int m_firstBad = -1;
};

}  // namespace qatdoctor::ui
