#include "app/cli/text_output.h"

#include <cmath>
#include <ostream>
#include <sstream>

#include "app/cli/cli_command.h"
#include "core/artifacts/text_lines.h"
#include "core/common/finding_catalogue.h"

namespace qatdoctor::cli {
namespace {

}  // namespace

std::string evidenceLine(const core::Evidence& e, core::Lang lang)
{
    std::ostringstream s;
    const char* sep = "";
    auto put = [&](const std::string& text) {
        s << sep << text;
        sep = ", ";
    };
    if (!e.file.empty()) put(e.line > 0 ? e.file + ":" + std::to_string(e.line) : e.file);
    if (!e.run.empty()) put("run " + e.run);
    if (!e.metric.empty()) put(e.metric);
    if (e.step) {
        std::ostringstream v;
        v << "step " << *e.step;
        put(v.str());
    }
    if (e.value) {
        std::ostringstream v;
        v << "value " << *e.value;
        put(v.str());
    }
    if (!e.layer.empty()) put("layer " + e.layer);
    if (!e.detailIn(lang).empty()) put(e.detailIn(lang));
    return s.str();
}

void printFindings(std::ostream& out, const std::vector<core::Finding>& findings, core::Lang lang)
{
    if (findings.empty()) {
        out << (lang == core::Lang::Zh ? "未发现问题。\n" : "No findings.\n");
        return;
    }
    for (const core::Finding& f : findings) {
        out << "[" << core::severityName(f.severity) << "] " << f.id << " (" << core::stageName(f.stage)
            << "): " << f.title.in(lang) << "\n";
        const bool zh = lang == core::Lang::Zh;
        if (f.strength)
            out << (zh ? "    强度：" : "    strength: ") << core::strengthText(*f.strength, lang) << "\n";
        out << "    " << core::standardText(f, lang) << "\n";
        if (f.recovered)
            out << (zh ? "    数据已自行恢复：不计入结论。\n"
                       : "    recovered by itself: not counted in the verdict\n");
        if (!f.message.in(lang).empty()) out << "    " << f.message.in(lang) << "\n";
        for (const core::Evidence& e : f.evidence) out << "    - " << evidenceLine(e, lang) << "\n";
        if (!f.faq.empty()) out << "    FAQ: " << f.faq << "\n";
    }
}

void printWarnings(std::ostream& out, const std::vector<core::Warning>& warnings)
{
    for (const core::Warning& w : warnings) out << "warning: " << w.toString() << "\n";
}

int exitCodeFor(const std::vector<core::Finding>& findings, core::Severity failOn)
{
    for (const core::Finding& f : findings)
        if (f.severity >= failOn) return kExitFindings;
    return kExitOk;
}

void printColumns(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                  const std::string& indent)
{
    std::vector<int64_t> width;
    for (const auto& cells : rows)
        for (size_t c = 0; c + 1 < cells.size(); ++c) {
            if (width.size() <= c) width.resize(c + 1, 0);
            width[c] = std::max(width[c], core::artifacts::displayWidth(cells[c]));
        }
    for (const auto& cells : rows) {
        out << indent;
        for (size_t c = 0; c < cells.size(); ++c) {
            out << cells[c];
            if (c + 1 < cells.size())
                out << std::string(
                    static_cast<size_t>(width[c] - core::artifacts::displayWidth(cells[c]) + 2), ' ');
        }
        out << "\n";
    }
}

}  // namespace qatdoctor::cli
