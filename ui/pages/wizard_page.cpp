#include "ui/pages/wizard_page.h"

#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/faq/auto_check.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "core/faq/wizard_session_json.h"
#include "ui/pages/wizard/auto_answer_panel.h"
#include "ui/pages/wizard/question_view.h"
#include "ui/pages/wizard/result_view.h"
#include "ui/pages/wizard/symptom_picker.h"

namespace qatdoctor::ui {
namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

}  // namespace

WizardPage::WizardPage(AppContext* context, QWidget* parent) : Page(context, parent)
{
    buildUi();
    loadFaq();
    restoreState();
    showFindingTopics();
    render();
    connect(context, &AppContext::langChanged, this, [this] {
        m_picker->setLang(this->context()->lang());
        showFindingTopics();
        render();
    });
    connect(context, &AppContext::analysisChanged, this, [this] {
        showFindingTopics();
        recheckAutomaticAnswers();
        render();
        saveState();
    });
    connect(context, &AppContext::pageStateChanged, this, [this](const QString& pageId) {
        if (pageId != id() || m_saving) return;
        restoreState();
        render();
    });
}

WizardPage::~WizardPage() = default;

void WizardPage::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_symptoms = new QPushButton(tr("All symptoms"), this);
    m_symptoms->setObjectName("wizardSymptoms");
    m_back = new QPushButton(tr("Back"), this);
    m_back->setObjectName("wizardBack");
    m_back->setToolTip(tr("Back one answer (Backspace, Alt+Left)"));
    m_restart = new QPushButton(tr("Restart"), this);
    m_restart->setObjectName("wizardRestart");
    m_restart->setToolTip(tr("Start this symptom again from its first question"));
    m_breadcrumb = new QLabel(this);
    m_breadcrumb->setObjectName("wizardBreadcrumb");
    m_breadcrumb->setWordWrap(true);
    m_breadcrumb->setTextFormat(Qt::RichText);
    bar->addWidget(m_symptoms);
    bar->addWidget(m_back);
    bar->addWidget(m_restart);
    bar->addSpacing(8);
    bar->addWidget(m_breadcrumb, 1);
    layout->addLayout(bar);
    m_faqProblems = new QLabel(this);
    m_faqProblems->setObjectName("wizardFaqProblems");
    m_faqProblems->setWordWrap(true);
    m_faqProblems->setStyleSheet("color: #b00020;");
    m_faqProblems->hide();
    layout->addWidget(m_faqProblems);

    m_screens = new QStackedWidget(this);
    m_picker = new SymptomPicker(m_screens);
    m_screens->addWidget(m_picker);
    auto* walk = new QWidget(m_screens);
    auto* walkLayout = new QVBoxLayout(walk);
    walkLayout->setContentsMargins(0, 0, 0, 0);
    m_autoPanel = new AutoAnswerPanel(walk);
    m_nodeViews = new QStackedWidget(walk);
    m_question = new QuestionView(m_nodeViews);
    m_result = new ResultView(m_nodeViews);
    m_nodeViews->addWidget(m_question);
    m_nodeViews->addWidget(m_result);
    walkLayout->addWidget(m_autoPanel);
    walkLayout->addWidget(m_nodeViews, 1);
    m_screens->addWidget(walk);
    layout->addWidget(m_screens, 1);

    // Back keys only while the walk has focus: Backspace must keep editing the search box.
    for (const QKeySequence& key : {QKeySequence(Qt::Key_Backspace), QKeySequence(Qt::ALT | Qt::Key_Left)}) {
        auto* sc = new QShortcut(key, walk, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(sc, &QShortcut::activated, this, &WizardPage::goBack);
    }
    connect(m_symptoms, &QPushButton::clicked, this, &WizardPage::showPicker);
    connect(m_back, &QPushButton::clicked, this, &WizardPage::goBack);
    connect(m_restart, &QPushButton::clicked, this, &WizardPage::restart);
    connect(m_breadcrumb, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == "picker")
            showPicker();
        else if (link.startsWith("step:"))
            goBackTo(link.mid(5).toULongLong());
    });
    connect(m_picker, &SymptomPicker::topicChosen, this, [this](const QString& t) { openTopic(t, false); });
    connect(m_picker, &SymptomPicker::searchChanged, this, [this] { saveState(); });
    connect(m_question, &QuestionView::answered, this, &WizardPage::answer);
    connect(m_result, &ResultView::topicLinkActivated, this,
            [this](const QString& t) { openTopic(t, true); });
    connect(m_result, &ResultView::addToReportRequested, this, &WizardPage::addToReport);
    connect(m_autoPanel, &AutoAnswerPanel::overrideRequested, this, &WizardPage::overrideStep);
    connect(m_autoPanel, &AutoAnswerPanel::evidenceActivated, this, &WizardPage::showEvidence);
}

void WizardPage::loadFaq()
{
    m_faq = std::make_unique<core::faq::FaqLoad>(
        core::faq::FaqBase::loadDirectory(context()->faqDir().toStdString()));
    m_session = std::make_unique<core::faq::WizardSession>(&m_faq->base);
    if (!m_faq->errors.empty()) {
        QStringList lines;
        for (size_t i = 0; i < m_faq->errors.size() && i < 5; ++i)
            lines << qs(m_faq->errors[i].toString()).toHtmlEscaped();
        m_faqProblems->setText(tr("The FAQ folder %1 has %n problem(s); the wizard shows what loaded.",
                                  nullptr, static_cast<int>(m_faq->errors.size()))
                                   .arg(context()->faqDir()) +
                               "<br>" + lines.join("<br>"));
        m_faqProblems->show();
    }
    m_picker->setBase(&m_faq->base, context()->lang());
}

void WizardPage::focusOn(const NavigationTarget& target)
{
    if (!target.faqTopic.isEmpty()) openTopic(target.faqTopic, false);
}

void WizardPage::openTopic(const QString& topicId, bool fromLink)
{
    const std::string id = topicId.toStdString();
    const bool ok = fromLink && m_session->started() ? m_session->jumpTo(id).ok() : m_session->start(id).ok();
    if (!ok) return;
    m_walking = true;
    autoAdvance();
    render();
    saveState();
}

void WizardPage::answer(const QString& answerId)
{
    if (!m_session->answer(answerId.toStdString())) return;
    autoAdvance();
    render();
    saveState();
}

void WizardPage::goBack()
{
    if (!m_walking) return;
    if (!m_session->back()) {
        showPicker();
        return;
    }
    render();
    saveState();
}

void WizardPage::goBackTo(size_t pathSize)
{
    while (m_session->path().size() > pathSize && m_session->back()) {
    }
    render();
    saveState();
}

void WizardPage::restart()
{
    if (!m_session->started()) return;
    m_session->restart();
    m_walking = true;
    autoAdvance();
    render();
    saveState();
}

void WizardPage::showPicker()
{
    m_walking = false;
    render();
    saveState();
    m_picker->focusSearch();
}

void WizardPage::overrideStep(int stepIndex)
{
    if (stepIndex < 0 || !m_session->overrideStep(static_cast<size_t>(stepIndex))) return;
    render();
    saveState();
}

void WizardPage::showEvidence(int stepIndex, int evidenceIndex)
{
    const auto& path = m_session->path();
    if (stepIndex < 0 || static_cast<size_t>(stepIndex) >= path.size()) return;
    const core::faq::PathStep& step = path[static_cast<size_t>(stepIndex)];
    if (evidenceIndex < 0 || static_cast<size_t>(evidenceIndex) >= step.evidence.size()) return;
    const core::Evidence& e = step.evidence[static_cast<size_t>(evidenceIndex)];
    NavigationTarget t;
    if (!e.layer.empty()) {
        t.page = "model";
        t.layer = qs(e.layer);
    } else if (!e.run.empty() || e.step) {
        t.page = "curves";
        t.run = qs(e.run);
        t.metric = qs(e.metric);
        t.step = e.step;
    } else {
        t.page = "overview";  // a file/line finding: the overview lists it with its source
    }
    t.findingId = qs(step.check);
    context()->navigate(t);
}

// The symptom list starts with the topics the findings name (most severe first), each with the
// titles of its findings, so the wizard opens where the data already points.
void WizardPage::showFindingTopics()
{
    std::vector<SymptomPicker::FindingTopic> topics;
    const AnalysisPtr analysis = context()->analysis();
    if (analysis) {
        std::vector<const core::Finding*> findings;
        for (const core::Finding& f : analysis->findings)
            if (!f.faq.empty()) findings.push_back(&f);
        std::stable_sort(findings.begin(), findings.end(),
                         [](const core::Finding* a, const core::Finding* b) {
                             return static_cast<int>(a->severity) > static_cast<int>(b->severity);
                         });
        for (const core::Finding* f : findings) {
            const QString topic = qs(f->faq);
            auto it =
                std::find_if(topics.begin(), topics.end(), [&](const auto& t) { return t.topicId == topic; });
            if (it == topics.end()) it = topics.insert(topics.end(), {topic, {}});
            it->findingTitles << qs(f->title.in(context()->lang()));
        }
    }
    m_picker->setFindingTopics(std::move(topics));
}

// New data (another folder, a model added, a simulation done): every automatic answer of the
// walk is checked again, so no answer stands on data that is gone.
void WizardPage::recheckAutomaticAnswers()
{
    if (!m_session->started()) return;
    const AnalysisPtr analysis = context()->analysis();
    m_session->recheck(analysis ? static_cast<const core::CheckResults&>(*analysis) : core::CheckResults{});
}

void WizardPage::autoAdvance()
{
    if (!m_walking || !m_session->started()) return;
    if (const AnalysisPtr analysis = context()->analysis()) m_session->autoAdvance(*analysis);
}

void WizardPage::render()
{
    const core::Lang lang = context()->lang();
    const core::faq::Node* node = m_walking ? m_session->current() : nullptr;
    m_screens->setCurrentIndex(node ? 1 : 0);
    m_back->setEnabled(node != nullptr);
    m_restart->setEnabled(node != nullptr && !m_session->path().empty());
    m_symptoms->setEnabled(node != nullptr);
    renderBreadcrumb();
    if (!node) {
        m_autoPanel->hide();
        return;
    }
    m_autoPanel->showSteps(m_faq->base, m_session->path(), lang);
    if (node->isResult()) {
        m_result->showResult(m_faq->base, *node, lang, currentInReport());
        m_nodeViews->setCurrentWidget(m_result);
        m_result->setFocus();
    } else {
        QString notChecked;
        if (const AnalysisPtr analysis = context()->analysis(); analysis && !node->autoCheck.empty())
            if (const auto reason = core::faq::evaluateCheck(*analysis, node->autoCheck).notChecked)
                notChecked = QString::fromStdString(reason->in(lang));
        m_question->showQuestion(*node, lang, m_session->isOverridden(m_session->topic()->id, node->id),
                                 notChecked);
        m_nodeViews->setCurrentWidget(m_question);
        m_question->focusFirstAnswer();
    }
}

void WizardPage::renderBreadcrumb()
{
    if (!m_walking || !m_session->current()) {
        m_breadcrumb->setText("<b>" + tr("Symptoms").toHtmlEscaped() + "</b>");
        return;
    }
    const core::Lang lang = context()->lang();
    const auto& base = m_faq->base;
    const auto& path = m_session->path();
    const QString sep = QString::fromUtf8(" \u203a ");
    auto crumb = [&](const QString& text, size_t pathSize) {
        // The last crumb is where the user is: plain text, not a link.
        return pathSize == path.size()
                   ? "<b>" + text.toHtmlEscaped() + "</b>"
                   : QString("<a href=\"step:%1\">%2</a>").arg(pathSize).arg(text.toHtmlEscaped());
    };
    QStringList parts{QString("<a href=\"picker\">%1</a>").arg(tr("Symptoms").toHtmlEscaped())};
    if (const core::faq::Topic* start = base.topic(m_session->startTopicId()))
        parts << crumb(qs(start->symptom.in(lang)), 0);
    for (size_t i = 0; i < path.size(); ++i) {
        const core::faq::PathStep& s = path[i];
        QString label;
        if (!s.jumpTopic.empty()) {
            const core::faq::Topic* t = base.topic(s.jumpTopic);
            label = QString::fromUtf8("\u2192 ") + (t ? qs(t->symptom.in(lang)) : qs(s.jumpTopic));
        } else {
            const core::faq::Node* q = base.node(s.topic, s.node);
            const core::faq::Answer* a = q ? q->answer(s.answer) : nullptr;
            label = a ? qs(a->label.in(lang)) : qs(s.answer);
            // An answer that moves to another topic: name where it went.
            if (a && a->jumpsToTopic())
                if (const core::faq::Topic* t = base.topic(a->targetTopic()))
                    label += QString::fromUtf8(" \u2192 ") + qs(t->symptom.in(lang));
        }
        if (s.automatic) label += " " + tr("(auto)");
        parts << crumb(label, i + 1);
    }
    m_breadcrumb->setText(parts.join(sep));
}

}  // namespace qatdoctor::ui
