// The Overview page: what was loaded (inputs; runs with an editable role), the one-sentence
// verdict computed in core (core/rules/verdict.h, the same sentence the CLI and report show),
// and the findings sorted by severity with their evidence. Activating a finding or an evidence
// row navigates (curves zoomed to the step, or the model page at the layer); "Open in wizard"
// opens the finding's FAQ topic.
#pragma once

#include "core/live_watch.h"
#include "ui/pages/page.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTreeView;

namespace qatdoctor::ui {

class ComparisonView;
class FindingsModel;
class LadderStrip;
class InputsModel;
class RunsModel;

class OverviewPage : public Page {
    Q_OBJECT
public:
    explicit OverviewPage(AppContext* context, QWidget* parent = nullptr);

    QString id() const override { return QStringLiteral("overview"); }
    QString title() const override { return tr("Overview"); }
    void focusOn(const NavigationTarget& target) override;

    // For tests and the report: the parts the page is made of.
    FindingsModel* findingsModel() const { return m_findingsModel; }
    RunsModel* runsModel() const { return m_runsModel; }
    InputsModel* inputsModel() const { return m_inputsModel; }
    QTreeView* findingsView() const { return m_findingsView; }
    QTabWidget* tabs() const { return m_tabs; }
    ComparisonView* comparisonView() const { return m_compare; }
    LadderStrip* ladderStrip() const { return m_ladder; }
    QString answersText() const;  // the A | B tab's "did the changes take effect", as plain text
    QString verdictText() const;
    QString detailsText() const;
    QCheckBox* watchBox() const { return m_watch; }
    QString liveText() const;  // the Watch mode banner, as plain text

    // Navigate to the evidence of the finding / evidence row at index (as a double-click does).
    void showEvidence(const QModelIndex& index);
    // Open the FAQ topic of the selected finding in the wizard.
    void openInWizard();
    // Lists the checks that could not run, with what each needed, in the details pane (the
    // summary line's "not checked" link).
    void showSkippedChecks();
    // Asks to drop the input of the inputs table's row (its context menu, or Delete).
    void removeInputAt(int row);

private:
    void buildUi();
    void setAnalysis(AnalysisPtr analysis);
    void retranslate();
    void updateVerdict();
    void updateDetails();
    void updateComparison();  // the A | B tab: the answers, the findings and runs of A against B
    void updateLiveBanner();  // Watch mode: what is followed, and what it found since
    void addLiveFindings(const std::vector<core::WatchedFinding>& fired);

    QLabel* m_verdict = nullptr;
    QLabel* m_summary = nullptr;
    QCheckBox* m_watch = nullptr;
    QLabel* m_liveBanner = nullptr;
    LadderStrip* m_ladder = nullptr;
    QTableView* m_inputsView = nullptr;
    QTableView* m_runsView = nullptr;
    QTreeView* m_findingsView = nullptr;
    QTextBrowser* m_details = nullptr;
    QTabWidget* m_tabs = nullptr;
    QSplitter* m_comparePane = nullptr;
    QTextBrowser* m_answers = nullptr;
    ComparisonView* m_compare = nullptr;
    QPushButton* m_showButton = nullptr;
    QPushButton* m_wizardButton = nullptr;
    FindingsModel* m_findingsModel = nullptr;
    InputsModel* m_inputsModel = nullptr;
    RunsModel* m_runsModel = nullptr;
};

}  // namespace qatdoctor::ui
