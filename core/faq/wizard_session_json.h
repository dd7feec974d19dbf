// The JSON form of a wizard walk, kept in the session file and read by the report:
//
// {"version": 1, "start": "<topic id>",
//  "current": {"topic", "node", "type": "question"|"result", "title": Text},  // title = question text or
//  result title "overridden": ["<topic>/<node>", ...], "path": [{"topic", "node", "question": Text,
//            "answer": "<answer id>", "label": Text,                 // an answer ...
//            "jump": "<topic id>", "label": Text,                    // ... or a link followed (no "answer")
//            "automatic": bool, "check": "<check id>", "outcome": "found"|"clear"|"unknown",
//            "evidence": [{"run","file","line","step","metric","value","layer","detail"}]}]}
//
// Texts are copied in so a report can print the walk without loading the FAQ. Evidence numbers
// that are not finite are written as the strings "nan", "inf", "-inf".
#pragma once

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/faq/wizard_session.h"

namespace qatdoctor::core::faq {

nlohmann::json sessionToJson(const WizardSession& session, const FaqBase& base);

// Replays the walk on base. Steps that no longer fit the FAQ (changed data) end the replay
// there: the session keeps the valid prefix. Errors: "faq.session" (not a wizard object),
// "faq.unknown_topic" (start topic gone).
Result<WizardSession> sessionFromJson(const nlohmann::json& json, const FaqBase* base);

}  // namespace qatdoctor::core::faq
