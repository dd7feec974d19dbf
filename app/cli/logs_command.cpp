// qatdoctor-cli logs PATH [--json] : what was read from a training log folder or file.
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/text_output.h"
#include "core/analysis_json.h"
#include "core/common/finding_json.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/logs/explain.h"
#include "core/logs/log_reader.h"
#include "core/logs/series_stats.h"

namespace qatdoctor::cli {
namespace {

constexpr const char* kUsage =
    "Usage: qatdoctor-cli logs PATH [--json] [--explain] [--role RUN=ROLE]...\n\n"
    "Reads a training log folder (recursively; a folder = a run) or one log file (HAT/Python\n"
    "text logs, CSV/TSV, JSON lines, TensorBoard events) and prints the runs, their guessed\n"
    "roles, formats, metadata, per-series point counts, first/last/min/max values and the\n"
    "first non-finite step, and warnings with file and line.\n"
    "  --json            print {\"runs\": [...], \"warnings\": [...]} (schema in README.md)\n"
    "  --explain         per series: the layout family and file that produced it and the source\n"
    "                    lines (file:line) of its first and last points; with --json, an\n"
    "                    \"explain\" array per run\n"
    "  --role RUN=ROLE   override a run's guessed role (float|calibration|qat|quantized)\n";

std::string pad(std::string s, size_t w)
{
    if (s.size() < w) s.resize(w, ' ');
    return s;
}

void printRun(std::ostream& out, const core::logs::Run& r)
{
    out << "Run " << r.name << "  role=" << core::logs::roleName(r.role) << "  (" << r.roleReason << ")\n";
    for (const auto& f : r.files) {
        out << "  file " << f.path << "  [" << f.layout << ", " << f.size << " bytes]\n";
        if (f.unreadLines > 0) {
            out << "    " << f.unreadLines << " line" << (f.unreadLines > 1 ? "s" : "")
                << " with metrics not understood, first at line";
            for (uint32_t l : f.unreadSample) out << " " << l;
            out << "\n";
        }
    }
    if (!r.metadata.empty()) {
        out << "  metadata:";
        for (const auto& [k, v] : r.metadata) out << " " << k << "=" << v;
        out << "\n";
    }
    if (!r.series.empty()) {
        out << "  " << pad("series", 22) << pad("points", 9) << pad("first", 11) << pad("last", 11)
            << pad("min", 11) << pad("max", 11) << "first non-finite\n";
        for (const auto& [name, s] : r.series) {
            const auto st = core::logs::seriesStats(s);
            std::string nf = "-";
            if (st.firstNonFinite) {
                const size_t i = *st.firstNonFinite;
                const auto src = s.sourceAt(i);
                nf = core::fullNumber(s.value[i]) + " at step " + core::fullNumber(s.step[i]);
                if (src.file < r.files.size())
                    nf += " (" + std::filesystem::path(r.files[src.file].path).filename().string() + ":" +
                          std::to_string(src.lineOrRecord) + ")";
            }
            out << "  " << pad(name, 22) << pad(std::to_string(st.points), 9)
                << pad(s.empty() ? "-" : core::fullNumber(s.value.front()), 11)
                << pad(s.empty() ? "-" : core::fullNumber(s.value.back()), 11)
                << pad(st.min ? core::fullNumber(*st.min) : "-", 11)
                << pad(st.max ? core::fullNumber(*st.max) : "-", 11) << nf << "\n";
        }
    }
    for (const auto& e : r.events) {
        std::string text = e.text.substr(0, e.text.find('\n'));
        if (text.size() > 100) text = text.substr(0, 100) + "...";
        out << "  event " << core::logs::eventKindName(e.kind) << " "
            << (e.file < r.files.size() ? std::filesystem::path(r.files[e.file].path).filename().string()
                                        : "?")
            << ":" << e.line << ": " << text << "\n";
    }
}

nlohmann::json explanationJson(const core::logs::Run& r)
{
    nlohmann::json out = nlohmann::json::array();
    for (const core::logs::SeriesExplanation& e : core::logs::explainRun(r)) {
        nlohmann::json samples = nlohmann::json::array();
        for (const core::logs::SourceLine& l : e.samples)
            samples.push_back({{"file", l.file}, {"line", l.line}, {"text", l.text}});
        out.push_back({{"series", e.series},
                       {"layout", e.layout},
                       {"framework", e.framework},
                       {"points", e.points},
                       {"first_step", core::jsonCount(e.firstStep)},
                       {"last_step", core::jsonCount(e.lastStep)},
                       {"samples", samples},
                       {"stage", e.stage},
                       {"stage_reason", e.stageReason}});
    }
    return out;
}

int runLogs(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"role"}, {"json", "explain"});
    if (!args.ok() || args.positionals().size() != 1) {
        io.err << "logs: " << (args.ok() ? "give exactly one PATH" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    const std::string path = args.positionals().front();
    std::error_code ec;
    auto set = std::filesystem::is_directory(path, ec) ? core::logs::readLogFolder(path)
                                                       : core::logs::readLogFile(path);
    if (!set) {
        io.err << "logs: " << set.error().toString() << "\n";
        return kExitUsage;
    }
    for (const std::string& r : args.values("role")) {
        const auto eq = r.find('=');
        const auto role = eq == std::string::npos ? std::nullopt : core::logs::parseRole(r.substr(eq + 1));
        if (!role) {
            io.err << "logs: --role wants RUN=float|calibration|qat|quantized, got '" << r << "'\n";
            return kExitUsage;
        }
        for (auto& run : set->runs)
            if (run.name == r.substr(0, eq)) {
                run.role = *role;
                run.roleReason = "set by the user";
            }
    }
    if (args.has("json")) {
        nlohmann::json j = core::logSetToJson(*set);
        if (args.has("explain"))
            for (size_t i = 0; i < set->runs.size() && i < j["runs"].size(); ++i)
                j["runs"][i]["explain"] = explanationJson(set->runs[i]);
        io.out << core::jsonText(j) << "\n";
        return kExitOk;
    }
    for (const auto& run : set->runs) {
        if (args.has("explain"))
            io.out << core::logs::explanationText(run);
        else
            printRun(io.out, run);
        io.out << "\n";
    }
    printWarnings(io.out, set->warnings);
    return kExitOk;
}

}  // namespace

Command logsCommand()
{
    return {"logs", "read training logs; print runs, roles, series summaries, warnings", kUsage, runLogs};
}

}  // namespace qatdoctor::cli
