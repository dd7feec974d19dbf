// qatdoctor-cli diff A B [--json] [--lang] [--fail-on] [--all] [--report FILE]: two attempts
// compared (A before a change, B after it), each a file or a project folder: did each change
// take effect, which layers changed, how the per-layer debug tables moved, which findings were
// resolved or are new, and how the runs' final figures moved.
#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/report_option.h"
#include "app/cli/text_output.h"
#include "core/analysis_json.h"
#include "core/analysis_simulation.h"
#include "core/artifacts/text_lines.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/compare/diff_tables.h"

namespace qatdoctor::cli {
namespace {

namespace cmp = core::compare;

constexpr const char* kUsage =
    "Usage: qatdoctor-cli diff A B [--json] [--lang zh|en] [--fail-on SEV] [--all] [--report FILE "
    "[--force]]\n\n"
    "Compares two attempts: A before a change, B after it. Each is a file (an ONNX export, a printed\n"
    "model, a checkpoint, a toolchain debug file such as compare_per_layer_out.txt or\n"
    "*_sensitive_ops.txt) or a project folder (logs, models and debug files together). Says whether\n"
    "each change took effect (a layer set to int16 is int16 now, or fell back; the output is high\n"
    "precision now; a shared quantizer is split; the bad layer's similarity improved; the changed\n"
    "ops' sensitivity dropped), lists the layers whose configuration changed (matched by module\n"
    "name, else by position), the per-layer debug tables' movement, the findings resolved and new,\n"
    "and the runs' final accuracy and loss.\n"
    "  --json          {\"comparison\": {...}} (README: the comparison object)\n"
    "  --lang zh|en    language of titles and messages (default en)\n"
    "  --fail-on SEV   exit 1 when a regression at or above SEV exists: a change that did not take\n"
    "                  effect or made things worse, or a new finding (default warning)\n"
    "  --all           list every layer and table row, not only the changed ones\n"
    "  --report FILE   B's report with a \"What changed\" section (.pdf, .html or .json); --force\n"
    "                  overwrites\n"
    "  --simulate      also run the fixed-point simulation of both ONNX models on the same inputs\n"
    "                  and compare them: output SQNR and each layer's fake-quant vs integer cosine\n"
    "  --seed N        random input seed for --simulate (default 0)\n"
    "  --sim-input FILE  a real input for --simulate instead (.npy or .pb; once per graph input)\n"
    "Exit codes: 0 = compared, no regression at --fail-on; 1 = regressions; 2 = unreadable, or\n"
    "nothing of one kind on both sides.\n";

void printAnswers(std::ostream& out, const cmp::Comparison& c, core::Lang lang)
{
    out << (lang == core::Lang::Zh ? "\n修改是否生效：\n" : "\nDid the changes take effect:\n");
    if (c.answers.empty()) {
        out << (lang == core::Lang::Zh ? "  没有可判断的配置修改。\n"
                                       : "  No configuration change the comparison can judge.\n");
        return;
    }
    printFindings(out, c.answers, lang);
}

// Columns padded by display width (module names may be Chinese); the last column runs free.
void printDiffTable(std::ostream& out, const cmp::DiffTable& t, bool all)
{
    out << "\n" << t.title << (t.caption.empty() ? "" : "  (" + t.caption + ")") << "\n";
    std::vector<size_t> shown;
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (all || t.changed[r]) shown.push_back(r);
    if (shown.empty()) return;
    std::vector<std::vector<std::string>> rows{t.columns};
    for (size_t r : shown) rows.push_back(t.rows[r]);
    printColumns(out, rows, "  ");
}

bool nothingToCompare(const cmp::Comparison& c)
{
    return c.models.empty() && c.checkpoints.empty() && c.tables.empty() && c.runs.empty() && !c.simulation;
}

int runDiff(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"lang", "fail-on", "report", "seed", "sim-input"}, {"json", "all", "force", "simulate"});
    if (!args.ok() || args.positionals().size() != 2) {
        io.err << "diff: " << (args.ok() ? "give two paths, A and B" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    const auto failOn = core::parseSeverity(args.value("fail-on").value_or("warning"));
    if (!failOn) {
        io.err << "diff: --fail-on wants error, warning or info\n";
        return kExitUsage;
    }
    const core::Lang lang = core::parseLang(args.value("lang").value_or("en"));
    const std::string reportPath = args.value("report").value_or("");
    if (!reportPath.empty())
        if (int rc = checkReportOption(reportPath, args.has("force"), io); rc != kExitOk) return rc;
    if (!args.has("simulate") && (args.value("seed") || args.value("sim-input"))) {
        io.err << "diff: --seed and --sim-input go with --simulate\n";
        return kExitUsage;
    }
    core::fixedpoint::InputSpec simInput;
    try {
        simInput.seed = std::stoull(args.value("seed").value_or("0"));
    } catch (...) {
        io.err << "diff: --seed wants a number\n";
        return kExitUsage;
    }
    simInput.files = args.values("sim-input");
    core::Analysis sides[2];
    for (size_t k = 0; k < 2; ++k) {
        core::AnalyzeOptions options;
        options.paths = {args.positionals()[k]};
        core::Result<core::Analysis> a = core::analyze(options);
        if (!a) {
            io.err << "diff: " << (k == 0 ? "A: " : "B: ") << a.error().toString() << "\n";
            return kExitUsage;
        }
        sides[k] = std::move(*a);
        if (!args.has("simulate")) continue;
        // one input for both sides: the figures then differ by the models alone
        core::Result<void> ran = core::simulateAnalysisModel(sides[k], {}, simInput);
        if (!ran)
            io.err << "diff: --simulate skipped for " << (k == 0 ? "A: " : "B: ") << ran.error().toString()
                   << "\n";
    }
    const cmp::Comparison c = cmp::compareAnalyses(sides[0], sides[1]);
    if (nothingToCompare(c)) {
        io.err
            << "diff: " << args.positionals()[0] << " and " << args.positionals()[1]
            << " hold nothing of one kind to compare (a model, a checkpoint, a debug table or a run on both "
               "sides)\n";
        return kExitUsage;
    }
    if (args.has("json")) {
        io.out << core::jsonText(nlohmann::json{{"comparison", cmp::comparisonToJson(c, lang)}}) << "\n";
    } else {
        io.out << "A: " << args.positionals()[0] << "\nB: " << args.positionals()[1] << "\n\n"
               << cmp::comparisonSummary(c, lang) << "\n";
        printAnswers(io.out, c, lang);
        for (const cmp::LayerTableDiff& d : c.models)
            printDiffTable(io.out, cmp::layerDiffTable(d, lang), args.has("all"));
        for (const cmp::LayerTableDiff& d : c.checkpoints)
            printDiffTable(io.out, cmp::layerDiffTable(d, lang), args.has("all"));
        for (const cmp::DataTableDiff& d : c.tables)
            printDiffTable(io.out, cmp::dataTableDiffTable(d, lang), args.has("all"));
        printDiffTable(io.out, cmp::findingsDiffTable(c, lang), args.has("all"));
        if (!c.runs.empty()) printDiffTable(io.out, cmp::runsDiffTable(c, lang), true);
        for (const core::Analysis& side : sides)
            if (!side.warnings.empty()) {
                io.out << "\n";
                printWarnings(io.out, side.warnings);
            }
    }
    if (!reportPath.empty())
        if (int rc = writeReportOption(sides[1], reportPath, lang, args.has("force"), io, {}, &c);
            rc != kExitOk)
            return rc;
    return c.regressions(*failOn).empty() ? kExitOk : kExitFindings;
}

}  // namespace

Command diffCommand()
{
    return {"diff", "two attempts compared: did the change take effect, what changed", kUsage, runDiff};
}

}  // namespace qatdoctor::cli
