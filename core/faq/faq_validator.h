// Cross-reference checks over a whole FAQ base, after each file parsed on its own.
#pragma once

#include <vector>

#include "core/common/result.h"
#include "core/faq/faq_base.h"

namespace qatdoctor::core::faq {

// Every problem as Error{code, "<JSON pointer>: <what>", file}. Codes:
//   faq.duplicate_id   topic id twice (any file), node id twice in a topic, answer id twice
//                      in a question, category id or order twice
//   faq.dangling       next -> no such node, "topic:" / related / references.topic -> no such
//                      topic, start -> no such node
//   faq.unreachable    a node not reachable from the topic's start
//   faq.cycle          an answer leading back to a node already on the way (trees are acyclic)
//   faq.no_advice      a result without advice
//   faq.unknown_check  an "auto" id not in knownCheckIds()
//   faq.auto_answers   an auto question without exactly one found and one clear answer, or
//                      marks on a question that has no auto check
std::vector<Error> validateFaq(const FaqBase& base);

}  // namespace qatdoctor::core::faq
