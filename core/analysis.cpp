#include "core/analysis.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/artifacts/printed_layers.h"
#include "core/common/error_codes.h"
#include "core/common/file_io.h"
#include "core/common/folder_walk.h"
#include "core/model/expected_dtypes.h"

namespace qatdoctor::core {
namespace fs = std::filesystem;

const char* inputKindName(InputKind k)
{
    switch (k) {
        case InputKind::LogFolder:
            return "log_folder";
        case InputKind::LogFile:
            return "log_file";
        case InputKind::Model:
            return "model";
        case InputKind::Artifact:
            return "artifact";
        case InputKind::Unknown:
            break;
    }
    return "unknown";
}

namespace {

constexpr size_t kProbeBytes = 64 * 1024;

// The row with the highest score for a file (scan null) or a folder (its scan).
const InputLoader* pickLoader(const std::string& path, std::string_view head, const FolderScan* scan)
{
    const InputLoader* best = nullptr;
    int bestScore = 0;
    for (const InputLoader& loader : inputLoaders()) {
        const int score = scan ? (loader.probeFolder ? loader.probeFolder(*scan) : 0)
                               : (loader.probe ? loader.probe(path, head) : 0);
        if (score > bestScore) {
            bestScore = score;
            best = &loader;
        }
    }
    return best;
}

// "; permission denied on 2 folders, e.g. run/qat": why a folder may hold nothing readable.
std::string unlistableNote(const FolderWalk& walk)
{
    size_t count = 0;
    std::string first;
    for (const FolderEntry& e : walk.entries)
        if (e.kind == FolderEntry::Kind::Folder && !e.listable && count++ == 0) first = e.path;
    if (count == 0) return {};
    return "; permission denied on " + std::to_string(count) +
           (count == 1 ? " folder: " : " folders, e.g. ") + first;
}

Result<void> loadExpectations(const std::string& path, Analysis& into)
{
    auto expected = model::readExpectedDtypes(path);
    if (!expected) return expected.error();
    for (auto& [name, dtype] : *expected) into.expectedDtypes[name] = std::move(dtype);
    return Ok{};
}

}  // namespace

Result<Analysis> analyze(const AnalyzeOptions& options, const ProgressFn& progress)
{
    Analysis analysis;
    analysis.maxMemory = options.maxMemory;  // the loaders read it
    const double share = options.paths.empty() ? 1.0 : 0.9 / static_cast<double>(options.paths.size());
    for (size_t i = 0; i < options.paths.size(); ++i) {
        const std::string& path = options.paths[i];
        std::error_code ec;
        const fs::file_status st = fs::status(path, ec);
        if (ec || !fs::exists(st)) return makeError("io.open", "no such file or folder: " + path, path);
        const bool isFolder = fs::is_directory(st);
        std::string head;
        std::optional<FolderScan> scan;  // a folder is walked once: the probes and the load share it
        if (isFolder) {
            scan.emplace(path);
        } else {
            auto h = readFileHead(path, kProbeBytes);
            if (!h) return h.error();
            head = std::move(*h);
        }
        if (scan && !scan->walk().rootListable)
            return makeError(codes::kIoOpen, path + ": permission denied: the folder cannot be listed", path);
        const InputLoader* loader = pickLoader(path, head, scan ? &*scan : nullptr);
        if (!loader)
            return makeError("input.unknown_format",
                             path +
                                 ": not a format QAT Doctor reads (log folder, training log, ONNX "
                                 "model, printed model or toolchain debug text)" +
                                 (scan ? unlistableNote(scan->walk()) : std::string()),
                             path);
        const double base = static_cast<double>(i) * share;
        ProgressFn scaled = [&](double f, std::string_view stage) {
            return reportProgress(progress, base + f * share, stage);
        };
        if (!reportProgress(progress, base, "loading " + path))
            return makeError(kCancelledCode, "cancelled", path);
        Result<void> loaded =
            scan ? loader->loadFolder(*scan, analysis, scaled) : loader->load(path, analysis, scaled);
        if (!loaded) return loaded.error();
        InputItem item{path, loader->kind, loader->id, 0};
        if (!isFolder) item.size = fs::file_size(path, ec);
        analysis.inputs.push_back(std::move(item));
    }
    for (auto& run : analysis.logs.runs) {
        auto it = options.roleOverrides.find(run.name);
        if (it == options.roleOverrides.end()) continue;
        if (auto role = logs::parseRole(it->second)) {
            run.role = *role;
            run.roleReason = "set by the user";
        }
    }
    analysis.thresholdsPath = options.thresholdsPath;
    if (!options.expectPath.empty()) {
        Result<void> r = loadExpectations(options.expectPath, analysis);
        if (!r) return r.error();
    }
    if (!reportProgress(progress, 0.9, "running checks")) return makeError(kCancelledCode, "cancelled");
    runChecks(analysis);
    reportProgress(progress, 1.0, "done");
    return analysis;
}

void runChecks(Analysis& analysis)
{
    analysis.findings.clear();
    analysis.checksRun.clear();
    analysis.checksSkipped.clear();
    for (const Check& check : checks()) check.run(analysis);
    sortFindings(analysis.findings);
}

Result<Analysis> analyzePrintedText(std::string_view text, const std::string& label)
{
    auto table = artifacts::readPrintedModel(text, label);
    if (!table) return table.error();
    Analysis analysis;
    analysis.inputs.push_back({label, InputKind::Model, artifacts::kFormatPrinted, text.size()});
    analysis.models.push_back(std::move(*table));
    runChecks(analysis);
    return analysis;
}

}  // namespace qatdoctor::core
