// qatdoctor-cli checkpoint FILE [FILE2...] [--json] [--lang] [--fail-on]: what torch.save
// checkpoints hold, read without Python and without running their pickles: the numbers and
// strings kept beside the weights, each module's quantizers (scales, zero points, observed
// ranges, switches), the checkpoint findings, and what changed from each file to the next.
#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/text_output.h"
#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/checkpoint/checkpoint_file.h"
#include "core/common/file_io.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"

namespace qatdoctor::cli {
namespace {

using core::checkpoint::ChangeKind;

constexpr const char* kUsage =
    "Usage: qatdoctor-cli checkpoint FILE [FILE2...] [--json] [--lang zh|en] [--fail-on SEV]\n"
    "                            [--max-memory SIZE]\n\n"
    "Reads checkpoints torch.save wrote (.pt, .pth, .ckpt, .bin; the zip container, the legacy\n"
    "stream or the oldest tar form, recognised by content) and torch.jit.save's TorchScript archives\n"
    "without Python and without running their pickles or code: a bare state_dict, a training\n"
    "checkpoint (epoch, optimizer, ... shown as metadata) or a whole pickled module, before or after\n"
    "convert / quantize_dynamic. Prints each module's quantizers (scale, zero point, observed range,\n"
    "fake quant and observer switches; a converted module's weight scales per channel, its output\n"
    "scale, dynamic or weight-only) and the findings: never calibrated, default or broken scales,\n"
    "fake quant off, NaN / Inf weights, and a pickle naming os.system, eval, subprocess... (never\n"
    "run). With two or more files, each is compared with the next: per tensor byte-identical or\n"
    "changed (max abs, relative L2), keys gained or lost; no weight changed between two QAT\n"
    "checkpoints is qat.not_learning. Files whose names all say their stage (float, calib, qat,\n"
    "quantized) are compared in stage order; otherwise in the order given.\n"
    "  --json          {\"checkpoints\": [...], \"diffs\": [...], \"findings\": [...], \"warnings\": "
    "[...]};\n"
    "                  each tensor with its figures (min, max, mean, first values, NaN / Inf counts;\n"
    "                  a quantized one dequantized), read one at a time within --max-memory\n"
    "  --lang zh|en    language of titles and messages (default en)\n"
    "  --fail-on SEV   exit 1 when a finding at or above SEV exists (default error)\n"
    "  --max-memory SIZE  what reading a file may hold of what it claims: its pickle, its quantizer\n"
    "                  buffers, a weight pair compared (default: a quarter of physical memory);\n"
    "                  past it a message names the piece, e.g. 2G\n"
    "Exit codes: 0 = read, nothing at --fail-on; 1 = findings (an unsafe pickle is an error);\n"
    "2 = unreadable.\n";

constexpr const char* kCheckpointFormats =
    "torch.save files: the zip archive of torch >= 1.6, the legacy stream of torch 0.4-1.5, the tar "
    "of torch < 0.4; torch.jit.save TorchScript archives";

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string s = "(";
    for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
    return s + ")";
}

// Rows of cells, each column as wide as its widest cell and two spaces from the next: a long
// name or a per-channel range never runs into the next column.
template <size_t N>
void printColumns(std::ostream& out, const std::vector<std::array<std::string, N>>& rows)
{
    std::array<size_t, N> width{};
    for (const auto& r : rows)
        for (size_t k = 0; k < N; ++k) width[k] = std::max(width[k], r[k].size());
    for (const auto& r : rows) {
        std::string line = " ";
        for (size_t k = 0; k < N; ++k)
            line += " " + r[k] + (k + 1 < N ? std::string(width[k] - r[k].size() + 1, ' ') : "");
        while (line.ends_with(' ')) line.pop_back();
        out << line << "\n";
    }
}

void printCheckpoint(std::ostream& out, const core::checkpoint::CheckpointRead& c)
{
    const core::checkpoint::CheckpointFile& f = c.file;
    out << "Checkpoint: " << f.path << "  (" << f.container << ", " << f.tensors.size() << " tensors"
        << (f.modelKey.empty() ? "" : ", model under '" + f.modelKey + "'") << ")\n";
    for (const std::string& d : f.dangerous)
        out << "SECURITY: the pickle names " << d
            << ": loading this file with torch.load would run it (here it was not run)\n";
    for (const std::string& n : f.walkNotes) out << "note: " << n << "\n";
    if (!f.refusedGlobals.empty()) {
        out << "Classes a weights_only load refuses (a full torch.load imports their modules):";
        for (const std::string& d : f.refusedGlobals) out << " " << d;
        out << "\n";
    }
    for (const auto& [k, v] : f.metadata) out << "  " << k << " = " << v << "\n";
    if (!c.quantized()) {
        std::vector<std::array<std::string, 3>> rows;
        for (const auto& t : f.tensors) rows.push_back({t.name, t.dtype, shapeText(t.shape)});
        printColumns(out, rows);
        return;
    }
    out << "  quantizers" << (c.bitWidthsMissing() ? " (bit widths are not saved in this checkpoint)" : "")
        << (c.dynamic() ? " (dynamic quantization: activations are quantized at run time)" : "") << ":\n";
    std::vector<std::array<std::string, 8>> rows{
        {"module", "op", "dtype w / out", "weight scale", "out scale", "zp", "observed range", "flags"}};
    for (const core::model::Layer& l : c.table.layers) {
        if (!l.weightQuant && !l.outputQuant) continue;
        std::string flags;
        for (const auto& fl : l.flags) flags += (flags.empty() ? "" : ",") + fl;
        rows.push_back({l.name, l.op, core::model::quantDtypesText(l), core::model::scalesText(l.weightQuant),
                        core::model::scalesText(l.outputQuant), core::model::zeroPointText(l.outputQuant),
                        core::model::observedRangeText(l.outputQuant), flags});
    }
    printColumns(out, rows);
}

void printDiff(std::ostream& out, const core::checkpoint::CheckpointDiff& d, core::Lang lang)
{
    out << "\nFrom " << d.pathA << "\n  to " << d.pathB << ":\n  "
        << core::checkpoint::diffSummary(d).in(lang) << "\n";
    std::vector<const core::checkpoint::TensorChange*> changed;
    for (const auto& t : d.tensors)
        if (t.kind == ChangeKind::Changed) changed.push_back(&t);
    std::stable_sort(changed.begin(), changed.end(), [](const auto* x, const auto* y) {
        return core::checkpoint::changeOrder(*x) > core::checkpoint::changeOrder(*y);
    });
    if (changed.empty()) return;
    const size_t shown = std::min<size_t>(changed.size(), 10);
    int width = 8;
    for (size_t k = 0; k < shown; ++k) width = std::max(width, static_cast<int>(changed[k]->name.size()) + 2);
    out << "  " << std::left << std::setw(width) << "tensor" << std::setw(12) << "rel L2"
        << "max abs\n";
    for (size_t k = 0; k < shown; ++k)
        out << "  " << std::setw(width) << changed[k]->name << std::setw(12)
            << core::checkpoint::relativeChangeText(changed[k]->relL2, lang)
            << core::shortNumber(changed[k]->maxAbs) << "\n";
}

int runCheckpoint(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"lang", "fail-on", "max-memory"}, {"json"});
    if (!args.ok() || args.positionals().empty()) {
        io.err << "checkpoint: " << (args.ok() ? "give at least one FILE" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    const auto failOn = core::parseSeverity(args.value("fail-on").value_or("error"));
    if (!failOn) {
        io.err << "checkpoint: --fail-on wants error, warning or info\n";
        return kExitUsage;
    }
    const core::Lang lang = core::parseLang(args.value("lang").value_or("en"));
    core::AnalyzeOptions options;
    options.paths = args.positionals();
    if (auto m = args.value("max-memory")) {
        const std::optional<uint64_t> bytes = parseByteSize(*m);
        if (!bytes) {
            io.err << "checkpoint: --max-memory wants a size such as 512M or 2G\n";
            return kExitUsage;
        }
        options.maxMemory = *bytes;
    }
    for (const std::string& path : options.paths) {
        // a file no checkpoint reader accepts: say which files this command reads
        const core::Result<std::string> head = core::readFileHead(path, size_t{64} << 10);
        if (head && core::checkpoint::probeCheckpoint(*head) == 0) {
            io.err << "checkpoint: " << path << ": not a checkpoint this command reads ("
                   << kCheckpointFormats << ")\n";
            return kExitUsage;
        }
    }
    core::Result<core::Analysis> analysis = core::analyze(options);
    if (!analysis) {
        io.err << "checkpoint: " << analysis.error().toString() << "\n";
        return kExitUsage;
    }
    if (analysis->checkpoints.size() != options.paths.size()) {
        io.err << "checkpoint: not every FILE is a torch.save checkpoint (" << analysis->checkpoints.size()
               << " of " << options.paths.size() << " are)\n";
        return kExitUsage;
    }
    if (args.has("json")) {
        nlohmann::json j;
        j["checkpoints"] = nlohmann::json::array();
        for (const auto& c : analysis->checkpoints) {
            // every tensor's figures, one tensor in memory at a time within the budget
            core::MemoryBudget budget(options.maxMemory);
            const std::vector<core::checkpoint::TensorStats> stats =
                core::checkpoint::readTensorStats(c.file, budget);
            j["checkpoints"].push_back(core::checkpointToJson(c, &stats));
        }
        j["diffs"] = nlohmann::json::array();
        for (const auto& d : analysis->checkpointDiffs) j["diffs"].push_back(core::checkpointDiffToJson(d));
        j["findings"] = nlohmann::json::array();
        for (const auto& f : analysis->findings) j["findings"].push_back(core::findingToJson(f, lang));
        j["checks_run"] = analysis->checksRun;
        // what could not be read (a weight whose bytes are missing, a budget passed), as the text says
        j["warnings"] = nlohmann::json::array();
        for (const auto& w : analysis->warnings) j["warnings"].push_back(core::warningToJson(w));
        io.out << core::jsonText(j) << "\n";
    } else {
        for (size_t k = 0; k < analysis->checkpoints.size(); ++k) {
            if (k) io.out << "\n";
            printCheckpoint(io.out, analysis->checkpoints[k]);
        }
        for (const auto& d : analysis->checkpointDiffs) printDiff(io.out, d, lang);
        io.out << "\nFindings:\n";
        printFindings(io.out, analysis->findings, lang);
        if (!analysis->warnings.empty()) {
            io.out << "\n";
            printWarnings(io.out, analysis->warnings);
        }
    }
    return exitCodeFor(analysis->findings, *failOn);
}

}  // namespace

Command checkpointCommand()
{
    return {"checkpoint", "torch.save checkpoints: quantizers, findings, what changed (never run)", kUsage,
            runCheckpoint};
}

}  // namespace qatdoctor::cli
