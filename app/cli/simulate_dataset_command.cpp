// qatdoctor-cli simulate MODEL --dataset ... : the simulated deployment accuracy over an
// evaluation set (core/fixedpoint/dataset_eval.h), a whole run or one shard of it; and
// qatdoctor-cli merge-sim PART... : shards merged into the whole run.
#include <unistd.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/image_decoder.h"
#include "app/cli/sim_mode_option.h"
#include "app/cli/text_output.h"
#include "core/common/file_io.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/fixedpoint/dataset_eval_json.h"
#include "core/fixedpoint/dataset_eval_table.h"
#include "core/model/onnx_file.h"

namespace qatdoctor::cli {

namespace {

namespace fp = core::fixedpoint;

constexpr const char* kMergeUsage =
    "Usage: qatdoctor-cli merge-sim PART... [--out FILE] [--json] [--force]\n\n"
    "Merges the partial results of `simulate MODEL --dataset ... --shard K/N --out PART` into the\n"
    "result of the whole run: counts add exactly, output agreements merge their sums, the worst\n"
    "samples are merged. Every shard 0..N-1 must be given once (a missing one is an error naming it).\n"
    "  --out FILE  write the merged result (JSON; atomic, --force replaces an existing file)\n"
    "  --json      print the merged result as JSON instead of the table\n"
    "Exit codes: 0 = merged; 2 = a part unreadable, of another run, or shards missing.\n";

void printEvaluation(std::ostream& out, const fp::DatasetEvaluation& e)
{
    out << "Model: " << e.modelPath << "\nDataset:";
    for (const std::string& s : e.sources) out << " " << s;
    out << "  (" << e.datasetSize << " samples"
        << (e.labelled() ? ", labels " + e.labelsPath : std::string(", no labels")) << ")\n";
    if (!e.complete()) {
        out << "Shard";
        for (uint32_t s : e.shards) out << " " << s;
        out << " of " << e.shardCount << ": " << e.samples
            << " samples (partial; merge-sim adds the others)\n";
    }
    const fp::EvaluationTable t = fp::evaluationTable(e, core::Lang::En);
    out << "\n";
    std::vector<std::vector<std::string>> rows{t.columns};
    rows.insert(rows.end(), t.rows.begin(), t.rows.end());
    printColumns(out, rows, "");
    if (!t.fakeVsInt.empty()) out << "\n" << t.fakeVsInt << "\n";
    if (!e.worst.empty()) {
        out << "Worst samples:\n";
        for (const fp::WorstSample& w : e.worst) {
            out << "  " << w.where << "  cosine " << core::fixedText(w.cosine, 5);
            if (e.classification) {
                if (w.label >= 0) out << "  label " << w.label;
                out << "  fake " << w.fakeClass << "  int " << w.intClass;
            }
            out << "\n";
        }
    }
    out << "\n"
        << e.samples << " samples in " << core::fixedText(e.seconds, 2) << " s ("
        << core::fixedText(e.seconds > 0 ? double(e.samples) / e.seconds : 0.0, 0) << " samples/s, "
        << e.threads << " thread" << (e.threads > 1 ? "s" : "") << ")\n";
}

// The result to --out (atomic), or printed as JSON or text.
int emit(const fp::DatasetEvaluation& e, const Args& args, CommandIo io, const char* command)
{
    if (auto out = args.value("out")) {
        auto w =
            core::writeFileAtomic(*out, core::jsonText(fp::evaluationToJson(e)) + "\n", args.has("force"));
        if (!w) {
            io.err << command << ": " << w.error().toString()
                   << (w.error().code == "io.exists" ? " (--force replaces it)" : "") << "\n";
            return kExitUsage;
        }
    }
    if (args.has("json"))
        io.out << core::jsonText(fp::evaluationToJson(e)) << "\n";
    else
        printEvaluation(io.out, e);
    return kExitOk;
}

bool parseShard(const std::string& text, uint32_t& index, uint32_t& count)
{
    const size_t slash = text.find('/');
    if (slash == std::string::npos) return false;
    try {
        size_t used = 0;
        const unsigned long k = std::stoul(text.substr(0, slash), &used);
        if (used != slash) return false;
        const std::string rest = text.substr(slash + 1);
        const unsigned long n = std::stoul(rest, &used);
        if (used != rest.size() || n == 0 || k >= n || n > core::fixedpoint::kMaxShards) return false;
        index = static_cast<uint32_t>(k);
        count = static_cast<uint32_t>(n);
        return true;
    } catch (...) {
        return false;
    }
}

int runMergeSim(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"out"}, {"json", "force"});
    if (!args.ok() || args.positionals().empty()) {
        io.err << "merge-sim: " << (args.ok() ? "give the partial results to merge" : args.error()) << "\n"
               << kMergeUsage;
        return kExitUsage;
    }
    std::vector<fp::DatasetEvaluation> parts;
    for (const std::string& path : args.positionals()) {
        auto text = core::readFile(path, uint64_t{64} << 20);
        auto part =
            text ? fp::evaluationFromJson(*text, path) : core::Result<fp::DatasetEvaluation>(text.error());
        if (!part) {
            io.err << "merge-sim: " << part.error().toString() << "\n";
            return kExitUsage;
        }
        parts.push_back(std::move(*part));
    }
    auto merged = fp::mergeEvaluations(parts);
    if (!merged) {
        io.err << "merge-sim: " << merged.error().toString() << "\n";
        return kExitUsage;
    }
    if (!merged->complete()) {
        std::string missing;
        for (uint32_t s = 0; s < merged->shardCount; ++s)
            if (std::find(merged->shards.begin(), merged->shards.end(), s) == merged->shards.end())
                missing += (missing.empty() ? "" : ", ") + std::to_string(s);
        io.err << "merge-sim: shards missing: " << missing << " of " << merged->shardCount << "\n";
        return kExitUsage;
    }
    return emit(*merged, args, io, "merge-sim");
}

}  // namespace

int runSimulateDataset(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv,
              {"dataset", "labels", "mode", "requant", "threads", "shard", "out", "color", "pixel-scale",
               "max-memory", "worst"},
              {"json", "force", "quiet"});
    if (!args.ok() || args.positionals().size() != 1) {
        io.err << "simulate: " << (args.ok() ? "give exactly one MODEL" : args.error()) << "\n";
        return kExitUsage;
    }
    fp::DatasetEvalOptions opt;
    const std::string mode = args.value("mode").value_or("all");
    const auto modes = parseSimModes(mode);
    if (!modes) {
        io.err << "simulate: --mode wants all, float, fake or int\n";
        return kExitUsage;
    }
    opt.modes = *modes;
    const std::string requant = args.value("requant").value_or("float");
    if (requant != "float" && requant != "fixed") {
        io.err << "simulate: --requant wants float or fixed\n";
        return kExitUsage;
    }
    if (requant == "fixed") opt.requant = fp::RequantMode::fixedPoint(fp::RoundMode::HalfToEven);
    try {
        opt.threads = std::stoi(args.value("threads").value_or("1"));
        opt.worstCount = static_cast<size_t>(std::stoul(args.value("worst").value_or("10")));
    } catch (...) {
        io.err << "simulate: --threads and --worst want numbers\n";
        return kExitUsage;
    }
    if (opt.threads < 1 || opt.threads > 256 || opt.worstCount > 10000) {
        io.err << "simulate: --threads wants 1..256 and --worst 0..10000\n";
        return kExitUsage;
    }
    if (auto s = args.value("shard"); s && !parseShard(*s, opt.shardIndex, opt.shardCount)) {
        io.err << "simulate: --shard wants K/N with 0 <= K < N (e.g. 0/4)\n";
        return kExitUsage;
    }
    if (auto m = args.value("max-memory")) {
        const auto bytes = parseByteSize(*m);
        if (!bytes) {
            io.err << "simulate: --max-memory wants a size such as 512M or 2G\n";
            return kExitUsage;
        }
        opt.maxTensorBytes = *bytes;
    }
    fp::DatasetSpec spec;
    spec.paths = args.values("dataset");
    spec.labelsPath = args.value("labels").value_or("");
    spec.decode = installedImageDecoder();
    if (auto c = args.value("color")) {
        auto f = fp::parseColourFormat(*c);
        if (!f) {
            io.err << "simulate: --color wants rgb, bgr or yuv444\n";
            return kExitUsage;
        }
        spec.colour = *f;
    }
    if (auto s = args.value("pixel-scale")) {
        char* end = nullptr;
        spec.pixelScale = std::strtof(s->c_str(), &end);
        if (end == s->c_str() || *end || !(spec.pixelScale > 0) || !std::isfinite(spec.pixelScale)) {
            io.err << "simulate: --pixel-scale wants a positive number\n";
            return kExitUsage;
        }
    }
    // an existing --out is refused before the evaluation, not after it ran for an hour
    if (auto out = args.value("out"); out && !args.has("force") && std::filesystem::exists(*out)) {
        io.err << "simulate: " << *out << " exists (--force replaces it)\n";
        return kExitUsage;
    }
    auto model = core::model::readOnnxFile(args.positionals()[0]);
    if (!model) {
        io.err << "simulate: " << model.error().toString() << "\n";
        return kExitUsage;
    }
    auto graph = core::model::ModelGraph::build(*model);
    auto interp = graph ? fp::interpreterFor(*graph, nullptr)
                        : core::Result<std::shared_ptr<const fp::Interpreter>>(graph.error());
    if (!interp) {
        io.err << "simulate: " << interp.error().toString() << "\n";
        return kExitUsage;
    }
    auto data = fp::DatasetSource::open(**interp, spec);
    if (!data) {
        io.err << "simulate: " << data.error().toString() << "\n";
        return kExitUsage;
    }
    // progress on a terminal only: a CI log gets the result, not a hundred carriage returns
    const bool showProgress = !args.has("quiet") && ::isatty(STDERR_FILENO) == 1;
    auto progress = [&](double fraction, std::string_view stage) {
        if (showProgress)
            std::cerr << "\r" << core::fixedText(100 * fraction, 0) << "%  " << stage << "   " << std::flush;
        return true;
    };
    auto e = fp::evaluateDataset(**interp, *data, opt, progress);
    if (showProgress) std::cerr << "\n";
    if (!e) {
        io.err << "simulate: " << e.error().toString() << "\n";
        return kExitUsage;
    }
    return emit(*e, args, io, "simulate");
}

Command mergeSimCommand()
{
    return {"merge-sim", "merge the shards of a dataset evaluation (simulate --dataset --shard K/N)",
            kMergeUsage, runMergeSim};
}

}  // namespace qatdoctor::cli
