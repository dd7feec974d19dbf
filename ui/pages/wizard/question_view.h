// A question of the wizard: the text, the help, and one large button per answer (keys 1..9
// answer too). When the question could be answered from data that is not loaded, says so.
#pragma once

#include <QWidget>
#include <vector>

#include "core/common/text.h"

class QLabel;
class QVBoxLayout;
class QPushButton;

namespace qatdoctor::core::faq {
struct Node;
}

namespace qatdoctor::ui {

class QuestionView : public QWidget {
    Q_OBJECT
public:
    explicit QuestionView(QWidget* parent = nullptr);

    // notChecked: why the loaded data could not answer it (the check's "not checked: needs ..."),
    // empty when nothing says.
    void showQuestion(const core::faq::Node& question, core::Lang lang, bool overridden,
                      const QString& notChecked = {});
    void focusFirstAnswer();

signals:
    void answered(const QString& answerId);

private:
    QLabel* m_text;
    QLabel* m_help;
    QLabel* m_autoHint;
    QVBoxLayout* m_answers;
    std::vector<QPushButton*> m_buttons;
};

}  // namespace qatdoctor::ui
