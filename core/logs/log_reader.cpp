#include "core/logs/log_reader.h"

#include <filesystem>

#include "core/common/file_io.h"
#include "core/logs/line_parser.h"

namespace qatdoctor::core::logs {
namespace fs = std::filesystem;

namespace {

constexpr size_t kBlockBytes = 64u << 20;  // progress/cancel granularity; each block uses all threads

}  // namespace

Result<ParsedLog> parseBlocks(const LogFormat& format, std::string_view bytes, const std::string& path,
                              ParseState& state, const ProgressFn& progress, unsigned threads, bool atEnd)
{
    ParseState work = state;  // committed only on success: a cancelled parse changes nothing
    const uint64_t base = work.offset;
    std::vector<ParsedLog> parts;
    size_t pos = 0;
    while (pos < bytes.size()) {
        if (!reportProgress(progress, static_cast<double>(pos) / static_cast<double>(bytes.size()),
                            "reading " + path))
            return makeError(kCancelledCode, "cancelled while reading " + path, path);
        const size_t len = std::min(kBlockBytes, bytes.size() - pos);
        const bool last = pos + len >= bytes.size();
        format.load(bytes.substr(pos, len), path, work, atEnd && last, threads, parts);
        const size_t consumed = static_cast<size_t>(work.offset - base) - pos;
        if (consumed == 0) {
            if (last) break;
            // No complete line in a whole block: a gigantic line. Skip to its end.
            const size_t nl = bytes.find('\n', pos + len);
            const size_t skip = (nl == std::string_view::npos ? bytes.size() : nl + 1) - pos;
            if (nl == std::string_view::npos && !atEnd) break;
            parts.emplace_back().warnings.push_back(makeError("logs.long_line",
                                             "line of " +
                                                 std::to_string(skip) + " bytes skipped",
                                             path, static_cast<int64_t>(work.line + 1),
                                             static_cast<int64_t>(base + pos)));
            work.line += 1;
            work.offset += skip;
            pos += skip;
            continue;
        }
        pos += consumed;
        if (last && pos < bytes.size() && !atEnd) break;  // a partial line waits for more bytes
    }
    state = std::move(work);
    return concatParsed(std::move(parts));
}

Result<ParsedLog> parseLogBytes(const LogFormat& format, std::string_view bytes, const std::string& path,
                                const ProgressFn& progress, unsigned threads, bool atEnd)
{
    ParseState state;
    auto r = parseBlocks(format, bytes, path, state, progress, threads, atEnd);
    if (r) flushWarningCounts(*r, state, path);
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

int probeLogFolder(const std::string& path)
{
    std::error_code ec;
    int files = 0;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end && files < 200; it.increment(ec)) {
        if (it.depth() > 4) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(ec)) continue;
        ++files;
        const std::string name = it->path().filename().string();
        std::string lower = name;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find("tfevents") != std::string::npos) return 60;
        if (lower.ends_with(".log") || lower.ends_with(".jsonl") || lower.ends_with(".csv") || lower.ends_with(".txt") ||
            lower.ends_with(".tsv") || lower.ends_with(".out")) {
            auto head = readFileHead(it->path().string(), 16 * 1024);
            if (!head) continue;
            int score = 0;
            probeLogFormat(name, *head, &score);
            if (score >= 30) return 50;
        }
    }
    return 0;
}

int probeLogFile(const std::string& path, std::string_view head)
{
    const std::string name = fs::path(path).filename().string();
    int score = 0;
    const LogFormat* f = probeLogFormat(name, head, &score);
    if (!f) return 0;
    // Generic .txt text stays low: printed models and toolchain tables claim .txt more surely.
    if (std::string_view(f->id) == "text" && name.ends_with(".txt")) return std::min(score, 20);
    return std::min(score, 90);
}

}  // namespace qatdoctor::core::logs
