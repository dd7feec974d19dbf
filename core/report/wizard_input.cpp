#include "core/report/wizard_input.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/common/file_io.h"
#include "core/common/json_depth.h"
#include "core/common/json_text.h"

namespace qatdoctor::core::report {
namespace {

using nlohmann::json;

// A walk is a few dozen levels deep at most; anything far deeper is not one.
constexpr int kMaxDepth = 64;

bool isWizardState(const json& j)
{
    return j.is_object() && (j.contains("session") || j.contains("reportItems"));
}

bool isBareWalk(const json& j)
{
    return j.is_object() && j.contains("start") && j.contains("path");
}

Error wizardError(const std::string& path, const std::string& what)
{
    return makeError("report.wizard", path + ": " + what, path);
}

}  // namespace

Result<std::string> wizardStateFromJson(std::string_view bytes, const std::string& path)
{
    if (jsonNestingDepth(bytes) > kMaxDepth)
        return wizardError(path, "JSON nested too deeply for a wizard session");
    json j;
    try {
        j = json::parse(bytes.begin(), bytes.end());
    } catch (const json::parse_error& e) {
        const size_t at = std::min(e.byte, bytes.size());
        const auto line =
            1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n');
        Error err = wizardError(path, "not valid JSON (line " + std::to_string(line) + "): " + e.what());
        err.line = static_cast<int64_t>(line);
        err.offset = static_cast<int64_t>(at);
        return err;
    }
    if (j.is_object() && j.value("format", json()) == "qatdoctor-session") {
        const json pages = j.value("pages", json::object());
        const json wizard = pages.is_object() ? pages.value("wizard", json()) : json();
        if (!isWizardState(wizard) && !isBareWalk(wizard))
            return wizardError(
                path, "this session has no symptom wizard walk (open the Symptom wizard page, answer, save)");
        return jsonText(wizard, -1);
    }
    if (isWizardState(j) || isBareWalk(j)) return jsonText(j, -1);
    return wizardError(path,
                       "not a wizard session: expected a .qatdoctor session file, the wizard page's state "
                       "({\"session\": ...}) or a walk ({\"start\", \"path\", ...})");
}

Result<std::string> readWizardState(const std::string& path)
{
    Result<std::string> bytes = readFile(path, 64u << 20);
    if (!bytes) return bytes.error();
    return wizardStateFromJson(*bytes, path);
}

}  // namespace qatdoctor::core::report
