// The one table of training-log formats. A new dialect is a new row (and its parser file).
#include "core/logs/csv_log_parser.h"
#include "core/logs/json_history_parser.h"
#include "core/logs/jsonl_log_parser.h"
#include "core/logs/parsed_log.h"
#include "core/logs/stage_words.h"
#include "core/logs/text_log_parser.h"
#include "core/logs/tfevents_parser.h"

namespace qatdoctor::core::logs {

const std::vector<LogFormat>& logFormats()
{
    static const std::vector<LogFormat> kFormats = {
        {"tfevents", {""}, probeTfEvents, parseTfEvents},
        {"json_history", {".json"}, probeJsonHistory, parseJsonHistory},
        {"jsonl", {".jsonl", ".ndjson", ".json"}, probeJsonlLog, parseJsonlLog},
        {"csv", {".csv", ".tsv"}, probeCsvLog, parseCsvLog},
        {"text", {".log", ".txt", ".out"}, probeTextLog, parseTextLog},
    };
    return kFormats;
}

const LogFormat* findLogFormat(std::string_view id)
{
    for (const LogFormat& f : logFormats())
        if (id == f.id) return &f;
    return nullptr;
}

const LogFormat* probeLogFormat(std::string_view name, std::string_view head, int* score)
{
    const LogFormat* best = nullptr;
    int bestScore = 0;
    for (const LogFormat& f : logFormats()) {
        const int s = f.probe(name, head);
        if (s > bestScore) {
            bestScore = s;
            best = &f;
        }
    }
    if (score) *score = bestScore;
    return best;
}

bool hasLogName(std::string_view name)
{
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.ends_with(".log") || lower.ends_with(".out") || lower.find(".log.") != std::string::npos ||
           firstStageMention(name, kInPath).has_value();
}

}  // namespace qatdoctor::core::logs
