// qatdoctor-cli analyze PATH... : the whole pipeline, as text or as the one JSON document.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/report_option.h"
#include "app/cli/text_output.h"
#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/analysis_simulation.h"
#include "core/common/error_codes.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/report/wizard_input.h"
#include "core/rules/thresholds.h"
#include "core/rules/verdict.h"

namespace qatdoctor::cli {
namespace {

constexpr const char* kUsage =
    "Usage: qatdoctor-cli analyze PATH... [--model FILE] [--expect FILE] [--role RUN=ROLE]...\n"
    "                             [--json] [--lang zh|en] [--fail-on error|warning|info]\n"
    "                             [--simulate [--seed N] [--sim-input FILE]... [--sensitivity] [--max-memory "
    "SIZE]]\n"
    "                             [--report FILE [--wizard FILE] [--force]]\n\n"
    "PATH may be a training log folder, a log file, an ONNX model, a printed model (.txt)\n"
    "or a toolchain debug text file (model_check_result.txt, compare_per_layer_out.txt, ...).\n"
    "  --model FILE      an exported model (same as giving it as a PATH)\n"
    "  --expect FILE     JSON {module name: dtype} of the dtypes you configured (int16 checks)\n"
    "  --role RUN=ROLE   override a run's guessed role (float|calibration|qat|quantized)\n"
    "  --thresholds FILE JSON overriding rule thresholds (same shape as resources/thresholds.json)\n"
    "  --json            print one JSON document (schema in README.md)\n"
    "  --lang zh|en      language of titles and messages (default en)\n"
    "  --fail-on SEV     exit 1 when a finding at or above SEV exists (default error)\n"
    "  --report FILE     also write a report: FILE.pdf, FILE.html or FILE.json (--lang applies)\n"
    "  --wizard FILE     the symptom wizard walk to print in the report: a .qatdoctor session file,\n"
    "                    or a wizard session JSON (the wizard page's state or a saved walk)\n"
    "  --force           replace an existing report file\n"
    "  --simulate        also run the fixed-point simulation of the ONNX model (float / fake-quant /\n"
    "                    integer, layer by layer): its results join the JSON (\"simulation\"), the\n"
    "                    findings and the report's Fixed-point section\n"
    "  --seed N          random input seed for --simulate (default 0)\n"
    "  --sim-input FILE  a real input for --simulate instead (.npy or .pb; once per graph input)\n"
    "  --sensitivity     with --simulate: rank layers by the output gain of int16 (one run per layer)\n"
    "  --max-memory SIZE what reading one file may hold of what it claims (a checkpoint's pickle and\n"
    "                    quantizer buffers, two weights compared at once), and with --simulate the\n"
    "                    largest tensor; e.g. 2G (default: a quarter of physical memory)\n";

// One accuracy per stage, the step into it, and where the first bad step is.
void printLadder(std::ostream& out, const core::StageLadder& ladder, core::Lang lang)
{
    if (ladder.empty()) return;
    std::vector<std::vector<std::string>> rows;
    for (const core::LadderRow& r : core::ladderRows(ladder, lang))
        rows.push_back({r.name, r.value + (r.interval.empty() ? "" : " (" + r.interval + ")"),
                        r.change.empty() ? "-" : r.change, r.source, r.judgement});
    out << (lang == core::Lang::Zh ? "\n阶段阶梯（各阶段精度）：\n"
                                   : "\nStage ladder (accuracy per stage):\n");
    printColumns(out, rows, "  ");
}

void printSummary(std::ostream& out, const core::Analysis& a, core::Lang lang)
{
    out << "Inputs:\n";
    for (const core::InputItem& in : a.inputs)
        out << "  " << in.path << "  [" << core::inputKindName(in.kind) << ", " << in.format << "]\n";
    if (!a.logs.runs.empty()) {
        out << "Runs:\n";
        for (const core::logs::Run& r : a.logs.runs) {
            out << "  " << r.name << "  role=" << core::logs::roleName(r.role)
                << "  series=" << r.series.size() << "  files=" << r.files.size() << "\n";
        }
    }
    for (const auto& m : a.models)
        out << "Model: " << m.sourcePath << "  (" << m.format << ", " << m.layers.size() << " layers)\n";
    if (const auto& sim = a.simulation) {
        out << "Simulation: " << sim->layers.size() << " layers compared (" << sim->inputs.size()
            << " input(s): ";
        for (size_t i = 0; i < sim->inputs.size(); ++i) out << (i ? ", " : "") << sim->inputs[i];
        out << "); "
            << (sim->firstBadLayer.empty()
                    ? "fake-quant and integer agree on every layer"
                    : "first layer where fake-quant and integer part: " + sim->firstBadLayer);
        if (auto sq = sim->outputSqnrDb(); sq && std::isfinite(*sq))
            out << "; output SQNR int vs float " << core::fixedText(*sq, 2) << " dB";
        out << "\n";
    }
    printLadder(out, a.ladder, lang);
    out << "\nVerdict: " << core::verdictOf(a).text.in(lang) << "\n";
    out << "\nFindings:\n";
    printFindings(out, a.findings, lang);
    if (!a.checksSkipped.empty()) {
        out << (lang == core::Lang::Zh ? "\n未检查（结果未知，并非通过）：\n"
                                       : "\nNot checked (unknown, not clear):\n");
        for (const core::Analysis::SkippedCheck& s : a.checksSkipped) {
            out << "  " << s.id << ": " << s.reason.in(lang) << "\n";
            for (const core::Evidence& e : s.evidence) out << "    - " << evidenceLine(e, lang) << "\n";
        }
    }
    std::vector<core::Warning> warnings = a.logs.warnings;
    warnings.insert(warnings.end(), a.warnings.begin(), a.warnings.end());
    for (const auto& m : a.models) warnings.insert(warnings.end(), m.warnings.begin(), m.warnings.end());
    if (!warnings.empty()) {
        out << "\n";
        printWarnings(out, warnings);
    }
}

// What the user must fix (no model given, a --sim-input that cannot be read) stops the command;
// a model the simulator cannot run does not.
bool isSimulationUsageError(const std::string& code)
{
    namespace codes = core::codes;
    return code == codes::kSimulateNoModel || code == codes::kSimulateInput || code == codes::kSimulateNpy ||
           code == codes::kSimulatePb || code == codes::kSimulateRaw || code.starts_with("io.");
}

int runAnalyze(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv,
              {"model", "expect", "role", "lang", "fail-on", "report", "thresholds", "wizard", "seed",
               "sim-input", "max-memory"},
              {"json", "force", "simulate", "sensitivity"});
    if (!args.ok()) {
        io.err << "analyze: " << args.error() << "\n" << kUsage;
        return kExitUsage;
    }
    core::AnalyzeOptions options;
    options.paths = args.positionals();
    if (auto m = args.value("model")) options.paths.push_back(*m);
    if (options.paths.empty()) {
        io.err << "analyze: no PATH given\n" << kUsage;
        return kExitUsage;
    }
    options.expectPath = args.value("expect").value_or("");
    options.thresholdsPath = args.value("thresholds").value_or("");
    if (!options.thresholdsPath.empty()) {
        // Checked here so a bad file is a usage error (exit 2), not a silent fallback.
        auto t = core::rules::loadThresholds(options.thresholdsPath);
        if (!t) {
            io.err << "analyze: " << t.error().toString() << "\n";
            return kExitUsage;
        }
    }
    for (const std::string& r : args.values("role")) {
        const auto eq = r.find('=');
        if (eq == std::string::npos || !core::logs::parseRole(r.substr(eq + 1))) {
            io.err << "analyze: --role wants RUN=float|calibration|qat|quantized, got '" << r << "'\n";
            return kExitUsage;
        }
        options.roleOverrides[r.substr(0, eq)] = r.substr(eq + 1);
    }
    const core::Lang lang = core::parseLang(args.value("lang").value_or("en"));
    const auto failOn = core::parseSeverity(args.value("fail-on").value_or("error"));
    if (!failOn) {
        io.err << "analyze: --fail-on wants error, warning or info\n";
        return kExitUsage;
    }
    if (auto report = args.value("report"))  // fail before the analysis, not after it
        if (int rc = checkReportOption(*report, args.has("force"), io); rc != kExitOk) return rc;
    std::string wizardJson;
    if (auto wizard = args.value("wizard")) {
        if (!args.value("report")) {
            io.err << "analyze: --wizard goes with --report (it adds the wizard walk to the report)\n";
            return kExitUsage;
        }
        core::Result<std::string> state = core::report::readWizardState(*wizard);
        if (!state) {
            io.err << "analyze: " << state.error().message << "\n";
            return kExitUsage;
        }
        wizardJson = std::move(state).value();
    }
    const bool simulate = args.has("simulate");
    core::fixedpoint::InputSpec simInput;
    if (!simulate && (args.has("sensitivity") || args.value("seed") || args.value("sim-input"))) {
        io.err << "analyze: --seed, --sim-input and --sensitivity go with --simulate\n";
        return kExitUsage;
    }
    std::optional<uint64_t> maxMemory;
    if (auto m = args.value("max-memory"); m && !(maxMemory = parseByteSize(*m))) {
        io.err << "analyze: --max-memory wants a size such as 512M or 2G\n";
        return kExitUsage;
    }
    try {
        simInput.seed = std::stoull(args.value("seed").value_or("0"));
    } catch (...) {
        io.err << "analyze: --seed wants a number\n";
        return kExitUsage;
    }
    simInput.files = args.values("sim-input");
    options.maxMemory = maxMemory.value_or(0);
    core::Result<core::Analysis> analysis = core::analyze(options);
    if (!analysis) {
        io.err << "analyze: " << analysis.error().toString() << "\n";
        return kExitUsage;
    }
    if (simulate) {
        core::fixedpoint::SimulationOptions simOptions;
        simOptions.sensitivity = args.has("sensitivity");
        simOptions.maxTensorBytes = maxMemory.value_or(0);
        core::Result<void> ran = core::simulateAnalysisModel(*analysis, simOptions, simInput);
        if (!ran && isSimulationUsageError(ran.error().code)) {
            io.err << "analyze: --simulate: " << ran.error().toString() << "\n";
            return kExitUsage;
        }
        if (!ran) {
            // A model the simulator cannot run (a Horizon-form export, an unsupported op) still
            // gets every other check: the reason joins the warnings, the analysis goes on.
            io.err << "analyze: --simulate skipped: " << ran.error().toString() << "\n";
            core::Warning skipped = ran.error();
            const std::string place = skipped.file + ": ";
            if (!skipped.file.empty() && skipped.message.starts_with(place))
                skipped.message.erase(0, place.size());
            skipped.message = "fixed-point simulation skipped: " + skipped.message;
            analysis->warnings.push_back(std::move(skipped));
        }
    }
    if (auto report = args.value("report")) {
        if (int rc = writeReportOption(*analysis, *report, lang, args.has("force"), io, wizardJson);
            rc != kExitOk)
            return rc;
    }
    if (args.has("json"))
        io.out << core::jsonText(core::analysisToJson(*analysis, lang)) << "\n";
    else
        printSummary(io.out, *analysis, lang);
    return exitCodeFor(analysis->findings, *failOn);
}

}  // namespace

Command analyzeCommand()
{
    return {"analyze", "load logs, models and toolchain files; print findings", kUsage, runAnalyze};
}

}  // namespace qatdoctor::cli
