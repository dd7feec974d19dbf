#include "core/folder_input.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/common/error_codes.h"
#include "core/common/file_io.h"
#include "core/common/folder_walk.h"
#include "core/logs/log_input.h"
#include "core/logs/log_reader.h"

namespace qatdoctor::core {
namespace fs = std::filesystem;

namespace {

constexpr size_t kProbeBytes = 64 * 1024;  // what analyze() hands every probe
constexpr int kSureScore = 50;

bool isOtherReader(const InputLoader& loader)
{
    return loader.kind == InputKind::Model || loader.kind == InputKind::Artifact;
}

}  // namespace

const InputLoader* claimingLoader(const std::string& path, std::string_view head)
{
    const InputLoader* best = nullptr;
    int bestScore = kSureScore - 1;
    for (const InputLoader& loader : inputLoaders()) {
        if (!isOtherReader(loader)) continue;
        const int score = loader.probe ? loader.probe(path, head) : 0;
        if (score > bestScore) {
            bestScore = score;
            best = &loader;
        }
    }
    return best;
}

bool claimedByOtherReader(const std::string& path)
{
    auto head = readFileHead(path, kProbeBytes);
    return head && claimingLoader(path, *head) != nullptr;
}

std::vector<ClaimedFile> findClaimedFiles(const FolderScan& scan, std::vector<Warning>* capped)
{
    const std::string& folder = scan.root();
    std::vector<ClaimedFile> out;
    const FolderWalkLimits& limits = scan.limits();
    const FolderWalk& walk = scan.walk();
    if (walk.capped && capped)
        capped->push_back(makeError(codes::kFolderCapped,
                                    folder + ": the search for models and toolchain files stopped after " +
                                        std::to_string(limits.maxEntries) +
                                        " entries; files beyond them were not looked at",
                                    folder));
    for (const FolderEntry& e : walk.entries) {
        if (e.kind != FolderEntry::Kind::File) continue;
        const auto& head = scan.head(e.path);
        if (!head) continue;
        if (const InputLoader* loader = claimingLoader(e.path, *head)) out.push_back({e.path, loader});
    }
    // Directory order is the file system's; a stable order keeps models[0] and reports stable.
    std::sort(out.begin(), out.end(),
              [](const ClaimedFile& a, const ClaimedFile& b) { return a.path < b.path; });
    return out;
}

int probeProjectFolder(const FolderScan& scan)
{
    if (const int logs = logs::probeLogFolder(scan)) return logs;
    return findClaimedFiles(scan).empty() ? 0 : 40;
}

Result<void> loadProjectFolder(const FolderScan& scan, Analysis& into, const ProgressFn& progress)
{
    const std::string& path = scan.root();
    const std::vector<ClaimedFile> claimed = findClaimedFiles(scan, &into.warnings);
    std::set<std::string> skip;
    for (const ClaimedFile& c : claimed) skip.insert(c.path);

    logs::ReadOptions options;
    options.skipFile = [&skip](const std::string& file) { return skip.count(file) > 0; };
    options.scan = &scan;  // the log reader's first scan is this one: no second walk, no head read twice
    const double logShare = claimed.empty() ? 1.0 : 0.7;
    ProgressFn logProgress = [&](double f, std::string_view stage) {
        return reportProgress(progress, f * logShare, stage);
    };
    Result<logs::LogSet> logsRead = logs::readLogFolder(path, logProgress, options);
    if (logsRead)
        logs::appendLogSet(into.logs, std::move(*logsRead));
    else if (logsRead.error().code != codes::kLogsNone || claimed.empty())
        return logsRead.error();

    for (size_t i = 0; i < claimed.size(); ++i) {
        const ClaimedFile& c = claimed[i];
        const double base =
            logShare + (1.0 - logShare) * static_cast<double>(i) / static_cast<double>(claimed.size());
        if (!reportProgress(progress, base, "loading " + c.path))
            return makeError(kCancelledCode, "cancelled", c.path);
        Result<void> loaded = c.loader->load(c.path, into, {});
        if (!loaded) {
            if (loaded.error().code == kCancelledCode) return loaded.error();
            // One damaged model among the logs must not hide the logs: keep it as a warning.
            into.warnings.push_back(loaded.error());
            continue;
        }
        std::error_code ec;
        into.inputs.push_back({c.path, c.loader->kind, c.loader->id, fs::file_size(c.path, ec)});
    }
    return Ok{};
}

}  // namespace qatdoctor::core
