// The symptom wizard's walk for a report made outside the app (`analyze --report --wizard FILE`):
// FILE may be a .qatdoctor session (its "pages" -> "wizard" state), the wizard page's state
// ({"session", "reportItems"}) or a bare walk as core/faq/wizard_session_json.h writes it.
#pragma once

#include <string>
#include <string_view>

#include "core/common/result.h"

namespace qatdoctor::core::report {

// The JSON text for ReportOptions::wizardJson. Errors ("report.wizard") name the file: not JSON
// (with the line), nested too deep, a session file without a wizard walk, an object of another kind.
Result<std::string> wizardStateFromJson(std::string_view bytes, const std::string& pathForMessages);

// Reads the file (up to 64 MiB) and calls wizardStateFromJson.
Result<std::string> readWizardState(const std::string& path);

}  // namespace qatdoctor::core::report
