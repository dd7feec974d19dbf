#include "core/faq/wizard_session.h"

namespace qatdoctor::core::faq {
namespace {
std::string key(const std::string& topic, const std::string& node)
{
    return topic + "/" + node;
}
}  // namespace

Result<void> WizardSession::start(const std::string& topicId)
{
    const Topic* t = m_base->topic(topicId);
    if (!t || !t->node(t->start)) return makeError("faq.unknown_topic", "no FAQ topic '" + topicId + "'");
    m_startTopic = topicId;
    m_topic = topicId;
    m_node = t->start;
    m_path.clear();
    m_overridden.clear();
    return Ok{};
}

const Topic* WizardSession::topic() const
{
    return m_base->topic(m_topic);
}

const Node* WizardSession::current() const
{
    return started() ? m_base->node(m_topic, m_node) : nullptr;
}

Result<void> WizardSession::moveTo(const std::string& target, PathStep step)
{
    std::string topic = m_topic, node = target;
    if (target.rfind("topic:", 0) == 0) {
        const Topic* t = m_base->topic(target.substr(6));
        if (!t) return makeError("faq.dangling", "answer leads to unknown topic '" + target.substr(6) + "'");
        topic = t->id;
        node = t->start;
    }
    if (!m_base->node(topic, node))
        return makeError("faq.dangling", "no node '" + node + "' in topic '" + topic + "'");
    m_path.push_back(std::move(step));
    m_topic = topic;
    m_node = node;
    return Ok{};
}

Result<void> WizardSession::answer(const std::string& answerId)
{
    const Node* n = current();
    if (!n || n->isResult()) return makeError("faq.not_a_question", "the wizard is not at a question");
    const Answer* a = n->answer(answerId);
    if (!a)
        return makeError("faq.unknown_answer", "question '" + n->id + "' has no answer '" + answerId + "'");
    PathStep step;
    step.topic = m_topic;
    step.node = m_node;
    step.answer = a->id;
    step.check = n->autoCheck;
    return moveTo(a->next, std::move(step));
}

int WizardSession::autoAdvance(const CheckResults& analysis)
{
    int answered = 0;
    // Trees are acyclic, so this ends; the bound guards a base that skipped validation.
    for (int guard = 0; guard < 1000; ++guard) {
        const Node* n = current();
        if (!n || n->isResult() || isOverridden(m_topic, m_node)) break;
        AutoAnswer a = autoAnswerFor(*n, analysis);
        if (!a.answer) break;
        PathStep step{m_topic,
                      m_node,
                      a.answer->id,
                      {},
                      true,
                      a.check,
                      a.outcome,
                      std::move(a.evidence),
                      std::move(a.standards)};
        if (!moveTo(a.answer->next, std::move(step))) break;
        ++answered;
    }
    return answered;
}

int WizardSession::recheck(const CheckResults& analysis)
{
    // The first automatic step whose answer the new data gives differently (or no longer gives):
    // the walk from there on rested on the old data, so it is undone and walked again.
    for (size_t i = 0; i < m_path.size(); ++i) {
        const PathStep& step = m_path[i];
        if (!step.automatic) continue;
        const Node* node = m_base->node(step.topic, step.node);
        const AutoAnswer now = node ? autoAnswerFor(*node, analysis) : AutoAnswer{};
        if (now.answer && now.answer->id == step.answer && now.outcome == step.outcome) continue;
        m_topic = step.topic;
        m_node = step.node;
        m_path.resize(i);
        autoAdvance(analysis);
        return 1;
    }
    return autoAdvance(analysis) > 0 ? 1 : 0;
}

bool WizardSession::back()
{
    if (m_path.empty()) return false;
    const PathStep last = m_path.back();
    m_path.pop_back();
    m_topic = last.topic;
    m_node = last.node;
    if (last.automatic) m_overridden.insert(key(last.topic, last.node));
    return true;
}

bool WizardSession::overrideStep(size_t stepIndex)
{
    if (stepIndex >= m_path.size()) return false;
    // An override is one answer: the later steps are undone, not overridden, so their automatic
    // answers come back once this question is answered by hand.
    m_path.resize(stepIndex + 1);
    const PathStep step = m_path.back();
    m_path.pop_back();
    m_topic = step.topic;
    m_node = step.node;
    m_overridden.insert(key(step.topic, step.node));
    return true;
}

bool WizardSession::isOverridden(const std::string& topicId, const std::string& nodeId) const
{
    return m_overridden.count(key(topicId, nodeId)) > 0;
}

void WizardSession::restart()
{
    if (started()) (void)start(m_startTopic);
}

Result<void> WizardSession::jumpTo(const std::string& topicId)
{
    if (!started()) return start(topicId);
    if (!m_base->topic(topicId)) return makeError("faq.unknown_topic", "no FAQ topic '" + topicId + "'");
    PathStep step;
    step.topic = m_topic;
    step.node = m_node;
    step.jumpTopic = topicId;
    return moveTo("topic:" + topicId, std::move(step));
}

}  // namespace qatdoctor::core::faq
