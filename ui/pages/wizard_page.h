// The symptom wizard: pick a symptom (search or browse), answer questions (the loaded data
// answers what it can, with evidence and an Override), reach a result with causes, checks,
// advice and code, and add it to the report.
//
// Page state (AppContext::pageState("wizard"), saved in the session file; the report reads it):
//   {"version": 1,
//    "view": "picker" | "walk",            // which screen is shown
//    "search": "<picker search text>",
//    "session": <wizard walk, core/faq/wizard_session_json.h>,   // absent before the first topic
//    "reportItems": [{"topic": "<topic id>", "node": "<result node id>",
//                     "topicTitle": {"zh","en"}, "title": {"zh","en"},
//                     "causes": [Text], "checks": [Text], "advice": [Text],
//                     "session": <the walk that led there, same form as "session">}]}
// "Add to report" appends (or replaces, for the same topic + node) one reportItems entry.
#pragma once

#include <QJsonArray>
#include <memory>

#include "ui/pages/page.h"

class QLabel;
class QPushButton;
class QStackedWidget;

namespace qatdoctor::core::faq {
struct FaqLoad;
class WizardSession;
}  // namespace qatdoctor::core::faq

namespace qatdoctor::ui {

class SymptomPicker;
class QuestionView;
class ResultView;
class AutoAnswerPanel;

class WizardPage : public Page {
    Q_OBJECT
public:
    explicit WizardPage(AppContext* context, QWidget* parent = nullptr);
    ~WizardPage() override;

    QString id() const override { return "wizard"; }
    QString title() const override { return tr("Symptom wizard"); }
    void focusOn(const NavigationTarget& target) override;

    const core::faq::WizardSession& session() const { return *m_session; }
    bool isWalking() const { return m_walking; }

private:
    void buildUi();
    void loadFaq();
    void openTopic(const QString& topicId, bool fromLink);
    void answer(const QString& answerId);
    void goBack();
    void goBackTo(size_t pathSize);
    void restart();
    void showPicker();
    void overrideStep(int stepIndex);
    void showEvidence(int stepIndex, int evidenceIndex);
    void addToReport();
    bool currentInReport() const;
    void autoAdvance();
    void showFindingTopics();
    void recheckAutomaticAnswers();
    void render();
    void renderBreadcrumb();
    void saveState();
    void restoreState();

    std::unique_ptr<core::faq::FaqLoad> m_faq;
    std::unique_ptr<core::faq::WizardSession> m_session;
    bool m_walking = false;
    bool m_saving = false;
    QJsonArray m_reportItems;

    QLabel* m_breadcrumb = nullptr;
    QLabel* m_faqProblems = nullptr;
    QPushButton* m_symptoms = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_restart = nullptr;
    QStackedWidget* m_screens = nullptr;    // picker | walk
    QStackedWidget* m_nodeViews = nullptr;  // question | result
    SymptomPicker* m_picker = nullptr;
    AutoAnswerPanel* m_autoPanel = nullptr;
    QuestionView* m_question = nullptr;
    ResultView* m_result = nullptr;
};

}  // namespace qatdoctor::ui
