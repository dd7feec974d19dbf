// One walk through the FAQ trees: where the user is, how they got there (which answers, which
// of them the data gave automatically and on what evidence), with back / restart / topic jumps.
// Serialises to the JSON the wizard page keeps in the session file and the report prints
// (wizard_session_json.h).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/faq/auto_check.h"
#include "core/faq/faq_base.h"

namespace qatdoctor::core::faq {

// One step taken: an answer to a question, or a link followed from a result (answer empty).
struct PathStep {
    std::string topic;
    std::string node;
    std::string answer;      // answer id; "" for a link jump
    std::string jumpTopic;   // link jump: the topic opened
    bool automatic = false;  // answered from the data, not by the user
    std::string check;       // the question's auto check id ("" = manual question)
    AutoOutcome outcome = AutoOutcome::Unknown;
    std::vector<Evidence> evidence;
    std::vector<Text> standards;  // the evidence standard the findings behind it met
};

class WizardSession {
public:
    // base must outlive the session.
    explicit WizardSession(const FaqBase* base) : m_base(base) {}

    // Begins at a topic's start node and clears the path. Error "faq.unknown_topic".
    Result<void> start(const std::string& topicId);
    bool started() const { return !m_startTopic.empty(); }

    const std::string& startTopicId() const { return m_startTopic; }
    const Topic* topic() const;   // current topic
    const Node* current() const;  // current node (null before start)
    bool atResult() const { return current() && current()->isResult(); }
    const std::vector<PathStep>& path() const { return m_path; }

    // Answers the current question by hand. Errors "faq.not_a_question", "faq.unknown_answer",
    // "faq.dangling" (the answer's target does not exist).
    Result<void> answer(const std::string& answerId);

    // Answers automatically, one question after the other, while the current question has an
    // auto check that the analysis decides (found / clear) and the user has not overridden it.
    // Returns how many questions were answered.
    int autoAdvance(const CheckResults& analysis);

    // New data: every automatic answer of the walk is checked again; from the first one the data
    // now answers otherwise (or leaves unknown), the walk is undone and continued automatically.
    // Returns 1 when the walk changed, 0 when it stands.
    int recheck(const CheckResults& analysis);

    // Undoes the last step. Going back onto an auto question marks it overridden, so the user
    // answers it by hand. False when already at the start.
    bool back();

    // Undoes steps until the given step index (0-based) and makes that one question manual; the
    // later automatic questions stay automatic.
    bool overrideStep(size_t stepIndex);
    bool isOverridden(const std::string& topicId, const std::string& nodeId) const;

    // Back to the start topic's first question, with an empty path and no overrides.
    void restart();

    // Follows a link (related topic, reference, or the picker) to another topic's start,
    // recorded as a step so back() returns. Error "faq.unknown_topic".
    Result<void> jumpTo(const std::string& topicId);

private:
    friend struct WizardSessionAccess;
    Result<void> moveTo(const std::string& target, PathStep step);

    const FaqBase* m_base;
    std::string m_startTopic;
    std::string m_topic;
    std::string m_node;
    std::vector<PathStep> m_path;
    std::set<std::string> m_overridden;  // "topic/node"
};

}  // namespace qatdoctor::core::faq
