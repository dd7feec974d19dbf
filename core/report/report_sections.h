// Internal to core/report: one function per section, and the small formatting helpers they share.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/number_text.h"
#include "core/report/report_builder.h"

namespace qatdoctor::core::report::detail {

struct BuildContext {
    const Analysis& analysis;
    const ReportOptions& options;
    Lang lang;
    std::set<std::string> flaggedLayers;  // layers named by a finding's evidence
    std::set<std::string> flaggedRuns;    // runs named by a finding's evidence
    std::set<std::string> faqTopics;      // topics referenced anywhere (for the appendix)
    std::vector<std::string> notes;       // problems met while building (appendix)
    std::string date;                     // resolved report date
};

// The English or the Chinese text, by the report's language.
inline std::string tr(const BuildContext& c, std::string_view en, std::string_view zh)
{
    return std::string(c.lang == Lang::Zh ? zh : en);
}

std::string formatBytes(uint64_t bytes);  // "1.2 MB"

// The stage ladder as a table, the first bad step marked (on the title page; in the summary when
// the report has none).
Block ladderTable(const BuildContext& c);
// "a, b, c" (sep between the items; "" for none).
inline std::string joined(const std::vector<std::string>& items, const char* sep = ", ")
{
    std::string s;
    for (const std::string& x : items) s += (s.empty() ? "" : sep) + x;
    return s;
}
inline std::string joined(const std::set<std::string>& items)
{
    return joined(std::vector<std::string>(items.begin(), items.end()));
}
std::string evidenceLine(const Evidence& e, Lang lang);
// A finding as the report lists it: evidence lines (at most 8), strength, the FAQ topic's advice.
FindingItem findingItem(BuildContext& c, const Finding& f);
std::string severityLabel(Severity s, Lang lang);
std::string stageLabel(Stage s, Lang lang);

// options.projectName, else the inputs' common folder name (core/common/input_set_name.h).
std::string projectName(const Analysis& analysis, const ReportOptions& options);

Result<Section> titleSection(BuildContext& c, const ProgressFn& progress);
Section summarySection(BuildContext& c);
Section changesSection(BuildContext& c);
Section trainingSection(BuildContext& c);
Section wizardSection(BuildContext& c);
Section modelSection(BuildContext& c);
Section checkpointSection(BuildContext& c);
Section fixedPointSection(BuildContext& c);
Section appendixSection(BuildContext& c);

}  // namespace qatdoctor::core::report::detail
