// The one catalogue of finding ids: per id its default severity, the stage it points at, its FAQ
// topic, what it means, and its evidence standard (what evidence proves it, what only suggests
// it). Every check produces findings through makeFinding, which refuses an id without a row (an
// assertion in checked builds; tests/common/finding_catalogue_test.cpp scans the sources too),
// and a finding says which level of its standard its evidence met: the JSON, the report, the
// wizard and the CLI show it beside the evidence.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/finding.h"
#include "core/common/text.h"

namespace qatdoctor::core {

struct FindingRow {
    std::string_view id;
    Severity severity;  // with decisive evidence
    Stage stage;
    std::string_view faq;  // FAQ topic ("" = none)
    Text meaning;          // what the finding says, in one sentence
    Text decisive;         // the evidence that proves it
    Text suggestive;       // evidence that only suggests it ("" = none is ever used)
};

const std::vector<FindingRow>& findingCatalogue();
const FindingRow* findingRow(std::string_view id);

// The level of a row's standard a finding's evidence met, and the severity it allows at most:
// decisive evidence the row's own; two independent suggestive signals at most a warning; one
// suggestive signal alone only an info note.
const char* evidenceLevelName(EvidenceLevel level);  // "decisive" | "corroborated" | "suggestive"
Text evidenceLevelText(EvidenceLevel level);
Severity severityAllowed(EvidenceLevel level, Severity wanted);

// Sets the finding's level and lowers its severity to what the level allows.
void meetStandard(Finding& f, EvidenceLevel level);

// "decisive: identical weight fingerprints ... | suggestive: ..." for people, in their language.
std::string standardText(const Finding& f, Lang lang);

}  // namespace qatdoctor::core
