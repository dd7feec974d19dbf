// WizardPage: what it keeps in the session file, and "Add to report" (format in wizard_page.h).
#include <QJsonDocument>

#include "core/common/json_text.h"
#include "core/faq/faq_base.h"
#include "core/faq/wizard_session.h"
#include "core/faq/wizard_session_json.h"
#include "ui/pages/wizard/result_view.h"
#include "ui/pages/wizard/symptom_picker.h"
#include "ui/pages/wizard_page.h"

namespace qatdoctor::ui {
namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Qt and core speak different JSON libraries; the session form is small, so text is the bridge.
QJsonObject toQt(const nlohmann::json& j)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(core::jsonText(j, -1))).object();
}
nlohmann::json fromQt(const QJsonObject& o)
{
    return nlohmann::json::parse(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString(), nullptr,
                                 false);
}
QJsonObject textToQt(const core::Text& t)
{
    return QJsonObject{{"zh", qs(t.zh)}, {"en", qs(t.en)}};
}
QJsonArray textsToQt(const std::vector<core::Text>& texts)
{
    QJsonArray a;
    for (const core::Text& t : texts) a.append(textToQt(t));
    return a;
}
}  // namespace

void WizardPage::saveState()
{
    QJsonObject state{{"version", 1},
                      {"view", m_walking ? "walk" : "picker"},
                      {"search", m_picker->searchText()},
                      {"reportItems", m_reportItems}};
    if (m_session->started())
        state.insert("session", toQt(core::faq::sessionToJson(*m_session, m_faq->base)));
    m_saving = true;  // our own write must not trigger a restore
    context()->setPageState(id(), state);
    m_saving = false;
}

void WizardPage::restoreState()
{
    const QJsonObject state = context()->pageState(id());
    m_reportItems = state.value("reportItems").toArray();
    {
        const QSignalBlocker block(m_picker);  // restoring is not an edit: no save round trip
        m_picker->setSearchText(state.value("search").toString());
    }
    m_walking = false;
    m_session = std::make_unique<core::faq::WizardSession>(&m_faq->base);
    if (state.contains("session")) {
        auto restored = core::faq::sessionFromJson(fromQt(state.value("session").toObject()), &m_faq->base);
        if (restored) {
            *m_session = std::move(restored).value();
            m_walking = state.value("view").toString() == "walk";
        }
    }
}

bool WizardPage::currentInReport() const
{
    const core::faq::Node* node = m_session->current();
    if (!node) return false;
    const QString topic = qs(m_session->topic()->id), nodeId = qs(node->id);
    for (const QJsonValue& v : m_reportItems) {
        const QJsonObject o = v.toObject();
        if (o.value("topic").toString() == topic && o.value("node").toString() == nodeId) return true;
    }
    return false;
}

void WizardPage::addToReport()
{
    const core::faq::Node* node = m_session->current();
    if (!node || !node->isResult()) return;
    const core::faq::Topic* topic = m_session->topic();
    QJsonObject item{{"topic", qs(topic->id)},
                     {"node", qs(node->id)},
                     {"topicTitle", textToQt(topic->title)},
                     {"title", textToQt(node->title)},
                     {"causes", textsToQt(node->causes)},
                     {"checks", textsToQt(node->checks)},
                     {"advice", textsToQt(node->advice)},
                     {"session", toQt(core::faq::sessionToJson(*m_session, m_faq->base))}};
    for (int i = 0; i < m_reportItems.size(); ++i) {
        const QJsonObject o = m_reportItems[i].toObject();
        if (o.value("topic") == item.value("topic") && o.value("node") == item.value("node")) {
            m_reportItems[i] = item;
            saveState();
            m_result->setInReport(true);
            return;
        }
    }
    m_reportItems.append(item);
    saveState();
    m_result->setInReport(true);
}

}  // namespace qatdoctor::ui
