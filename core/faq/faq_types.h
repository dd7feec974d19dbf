// The FAQ knowledge base in memory: categories of topics, each topic a small decision tree of
// question and result nodes. The format is documented in faq/README.md (schema faq/schema.json).
#pragma once

#include <string>
#include <vector>

#include "core/common/text.h"

namespace qatdoctor::core::faq {

// Which outcome of a question's automatic check selects an answer.
enum class AutoMark { None, Found, Clear };

struct Answer {
    std::string id;
    Text label;
    std::string next;  // node id of the same topic, or "topic:<topic id>"
    AutoMark autoMark = AutoMark::None;

    bool jumpsToTopic() const { return next.rfind("topic:", 0) == 0; }
    std::string targetTopic() const { return jumpsToTopic() ? next.substr(6) : std::string(); }
};

struct CodeBlock {
    std::string language;  // "python"
    Text title;
    std::string text;  // verbatim from the seed
};

struct Reference {
    Text name;          // the document the FAQ names
    std::string topic;  // our topic covering it, "" = none
};

enum class NodeType { Question, Result };

struct Node {
    std::string id;
    NodeType type = NodeType::Question;
    std::string pointer;  // JSON pointer of this node in its file (for messages)

    // Question
    Text text;
    Text help;              // may be empty
    std::string autoCheck;  // check id, "" = manual only
    std::vector<Answer> answers;

    // Result
    Text title;
    std::vector<Text> causes;  // 可能原因
    std::vector<Text> checks;  // 优先排查, in the FAQ's order
    std::vector<Text> advice;  // 处理建议 (non-empty in a valid base)
    std::vector<CodeBlock> code;
    std::vector<std::string> related;
    std::vector<Reference> references;

    bool isResult() const { return type == NodeType::Result; }
    const Answer* answer(const std::string& answerId) const;
};

struct SeedRef {
    std::string file;
    std::string heading;  // verbatim
};

struct Topic {
    std::string id;
    std::string categoryId;
    std::string file;     // tree file path as loaded
    std::string pointer;  // "/topics/<i>"
    SeedRef source;
    std::vector<SeedRef> also;
    Text title;
    Text symptom;
    int popularity = 1;  // 1..10, 10 = most common
    std::vector<std::string> keywords;
    std::string start;
    std::vector<Node> nodes;

    const Node* node(const std::string& nodeId) const;
};

struct Category {
    std::string id;
    int order = 0;
    Text title;
    std::string file;
    std::vector<std::string> topicIds;  // in file order
};

}  // namespace qatdoctor::core::faq
