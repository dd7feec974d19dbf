// "Answered from your data": the questions the wizard just answered automatically, each with
// the answer, the evidence (file, line, step, value, layer; click to go there) and an Override
// button that takes the user back to answer it by hand.
#pragma once

#include <QWidget>
#include <vector>

#include "core/common/finding.h"

class QVBoxLayout;

namespace qatdoctor::core::faq {
class FaqBase;
struct PathStep;
}  // namespace qatdoctor::core::faq

namespace qatdoctor::ui {

class AutoAnswerPanel : public QWidget {
    Q_OBJECT
public:
    explicit AutoAnswerPanel(QWidget* parent = nullptr);

    // Shows the trailing automatic steps of path (those after the last manual one); hides
    // itself when there are none.
    void showSteps(const core::faq::FaqBase& base, const std::vector<core::faq::PathStep>& path,
                   core::Lang lang);

signals:
    void overrideRequested(int stepIndex);
    void evidenceActivated(int stepIndex, int evidenceIndex);

private:
    QVBoxLayout* m_rows;
};

}  // namespace qatdoctor::ui
