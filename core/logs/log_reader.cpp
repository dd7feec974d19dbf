#include "core/logs/log_reader.h"

#include <cctype>
#include <filesystem>

#include "core/common/file_io.h"
#include "core/common/folder_walk.h"
#include "core/logs/line_parser.h"
#include "core/logs/role_guess.h"
#include "core/logs/text_decoding.h"

namespace qatdoctor::core::logs {
namespace fs = std::filesystem;

Result<ParsedLog> parseBlocks(const LogFormat& format, std::string_view bytes, const std::string& path,
                              ParseState& state, const ProgressFn& progress, unsigned threads, bool atEnd)
{
    ParseState work = state;  // committed only on success: a cancelled parse changes nothing
    std::vector<ParsedLog> parts;
    LoadOptions options;
    options.atEnd = atEnd;
    options.threads = threads;
    options.progress = &progress;
    if (!format.load(bytes, path, work, options, parts))
        return makeError(kCancelledCode, "cancelled while reading " + path, path);
    state = std::move(work);
    return concatParsed(std::move(parts));
}

Result<ParsedLog> parseLogBytes(const LogFormat& format, std::string_view bytes, const std::string& path,
                                const ProgressFn& progress, unsigned threads, bool atEnd)
{
    ParseState state;
    auto r = parseBlocks(format, bytes, path, state, progress, threads, atEnd);
    if (r) {
        flushWarningCounts(*r, state, path);
        settleStages({&*r});  // named as the reader names a one-file run
    }
    return r;
}

Result<LogSet> readLogFolder(const std::string& path, const ProgressFn& progress, ReadOptions options)
{
    options.live = false;
    LogTailer tailer(path, options);
    auto r = tailer.poll(progress);
    if (!r) return r.error();
    LogSet set = tailer.takeLogSet();
    if (set.runs.empty())
        return makeError("logs.none", "no training log files (text, CSV, JSONL or TensorBoard events) found",
                         path);
    return set;
}

Result<LogSet> readLogFile(const std::string& path, const ProgressFn& progress, ReadOptions options)
{
    std::error_code ec;
    if (fs::is_directory(path, ec)) return makeError("logs.format", "a folder, not a log file", path);
    return readLogFolder(path, progress, options);
}

bool isLogFileName(std::string_view name)
{
    if (name.find("tfevents") != std::string_view::npos) return true;
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const LogFormat& f : logFormats())
        for (const char* ext : f.extensions)
            if (*ext && (lower.ends_with(ext) || lower.find(std::string(ext) + ".") != std::string::npos))
                return true;
    return false;
}

int probeLogFolder(const FolderScan& scan)
{
    // the folder walk every reader shares; at most kMaxProbeReads heads are read
    constexpr int kMaxProbeReads = 200;
    int reads = 0;
    for (const FolderEntry& e : scan.walk().entries) {
        if (e.kind != FolderEntry::Kind::File || !isLogFileName(e.name)) continue;
        if (e.name.find("tfevents") != std::string::npos) return 60;
        if (++reads > kMaxProbeReads) break;
        const auto& head = scan.head(e.path);
        if (!head) continue;
        const std::optional<std::string> decoded = decodeLogText(*head);
        int score = 0;
        probeLogFormat(e.name, decoded ? std::string_view(*decoded) : std::string_view(*head), &score);
        if (score >= kMinFolderLogScore) return 50;
    }
    return 0;
}

int probeLogFile(const std::string& path, std::string_view head)
{
    const std::string name = fs::path(path).filename().string();
    int score = 0;
    const std::optional<std::string> decoded = decodeLogText(head);  // UTF-16, CR-only (text_decoding.h)
    const LogFormat* f = probeLogFormat(name, decoded ? std::string_view(*decoded) : head, &score);
    if (!f) return 0;
    // Generic .txt text stays low: printed models and toolchain tables claim .txt more surely.
    if (std::string_view(f->id) == "text" && name.ends_with(".txt")) return std::min(score, 20);
    return std::min(score, 90);
}

}  // namespace qatdoctor::core::logs
