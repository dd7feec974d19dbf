// A result of the wizard: the causes, the checks in the FAQ's order, the advice, code snippets
// (highlighted, with Copy), related topics and references as links, and "Add to report".
#pragma once

#include <QWidget>

#include "core/common/text.h"

class QVBoxLayout;
class QPushButton;
class QLabel;

namespace qatdoctor::core::faq {
class FaqBase;
struct Node;
}  // namespace qatdoctor::core::faq

namespace qatdoctor::ui {

class ResultView : public QWidget {
    Q_OBJECT
public:
    explicit ResultView(QWidget* parent = nullptr);

    void showResult(const core::faq::FaqBase& base, const core::faq::Node& result, core::Lang lang,
                    bool inReport);
    void setInReport(bool inReport);

signals:
    void topicLinkActivated(const QString& topicId);
    void addToReportRequested();

private:
    void clear();
    void addSection(const QString& heading, const std::vector<core::Text>& items, core::Lang lang,
                    const QString& objectName);

    QVBoxLayout* m_content;
    QLabel* m_title;
    QPushButton* m_addToReport;
};

}  // namespace qatdoctor::ui
