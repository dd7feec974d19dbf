// What one parser produces from the bytes of one file (or a chunk of it): the series of that
// file alone (file index 0), its metadata, events, warnings and role hints. The reader merges
// the ParsedLogs of a folder's files into Runs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/logs/run.h"

namespace qatdoctor::core::logs {

// Evidence for a run's role found inside a file (a header line, a log prefix).
struct RoleHint {
    RunRole role = RunRole::Unknown;
    std::string reason;  // "header line 'training_step: qat' (train.log:3)"
};

// Everything a parser carries from one piece of a file to the next, so that appended bytes
// (live tailing) or the second half of a split file continue where the previous one stopped.
struct ParseState {
    uint64_t line = 0;               // lines consumed so far
    uint64_t offset = 0;             // bytes consumed so far (complete lines / records only)
    bool stepKnown = true;           // false: a chunk whose predecessor is parsed in parallel
    std::optional<double> lastStep;  // the last step seen (epoch-end and counter-less lines)
    std::optional<float> lastEpoch;
    // The stage the log says it is in ("BEGIN QAT STAGE", "--stage calibration"): the series
    // read from then on are named "<stage>/<name>" until the next stage (the reader strips the
    // prefix of the run's own stage, see settleStages).
    std::optional<RunRole> stage;
    std::string stageReason;  // the line that named it ("line 3: stage marker 'Stage qat: ...'")
    // The stage of an evaluation being read: after an evaluation header ("Evaluate Quantized
    // model") its evaluation lines are that stage's until a training line or a stage marker
    // (evalScope); a result line without counters right after an evaluation line continues it
    // (lastEvaluation: torchvision's " * Acc@1 ..." after its "Test: QAT [..]" lines).
    struct StageTag {
        std::optional<RunRole> role;
        std::string deployStep;
        std::string reason;
    };
    std::optional<StageTag> evalScope;
    std::optional<StageTag> lastEvaluation;
    std::optional<double> lastWallTime;
    std::map<std::string, uint64_t> orderCount;  // points per series (the "line order" step)
    // The layout family (log_layouts.h) the file's first bytes showed, for parsers whose reading
    // depends on it (text: tablesOnly).
    std::string layout;
    // CSV: the header, read once.
    std::vector<std::string> columns;
    char delimiter = ',';
    bool headerDone = false;
    // CSV without a step column whose rows are one per epoch (the first two rows' epochs follow
    // each other): the epoch column is the step, plus epochStepOffset (1 when the file counts
    // epochs from 0, as YOLOv5's results.csv does, so that its steps agree with the console's).
    bool epochIsStep = false;
    double epochStepOffset = 0;
    // JSON lines with (epoch, iter) counters (mmdet): the epoch being read, the steps of the
    // epochs before it and its largest iteration so far (see the JSONL parser's inEpochStep).
    std::optional<float> iterEpoch;
    double iterEpochBase = 0;
    double iterEpochMax = 0;
    bool stepsEstimated = false;  // a step was formed from an estimated epoch length
    // Text: no counter or metric line yet, so `key: value` lines are still the run's settings.
    // A chunk parsed apart from the lines before it cannot know this; when the lines before it
    // end with this still true, the chunk is parsed again after them (parseLines).
    bool settingsOpen = false;
    // Warning counters (a damaged file yields one warning per kind plus a count, not millions).
    std::map<std::string, uint64_t> warningCounts;
    // A live tail (LogTailer with ReadOptions::live): a traceback still open when a read ends is
    // kept here instead of being emitted cut (its exception line, written a moment later, comes
    // with the next read and the event is whole).
    bool holdOpenTraceback = false;
    std::optional<RunEvent> openTraceback;
};

// A point whose step depends on the part of the file before its chunk.
struct PendingStep {
    enum class Kind : uint8_t { Order, LastStep };
    uint32_t series = 0;
    uint32_t index = 0;
    Kind kind = Kind::Order;
};

struct ParsedLog {
    std::vector<std::string> names;  // parallel to series
    std::vector<Series> series;
    std::map<std::string, std::string> metadata;
    std::vector<RunEvent> events;  // file index 0, line relative to the parse start
    std::vector<Warning> warnings;
    std::vector<RoleHint> roleHints;
    // Why a series is a stage's ("calibration/val/acc" -> "line 3: label 'Calibration accuracy'"):
    // the evidence --explain shows for a stage point.
    std::map<std::string, std::string> stageReasons;
    std::vector<PendingStep> pending;  // only for chunks parsed with stepKnown = false
    uint64_t skippedRecords = 0;       // tfevents: records dropped by CRC
    // Coverage: lines that carry a number beside a metric word but became no point, event or
    // setting (the reader did not understand them), and the first of them (line numbers). A
    // check that claims an absence needs none (finding_catalogue.h: qat.no_quantized_eval).
    uint64_t unreadLines = 0;
    std::vector<uint32_t> unreadSample;
    // Some point's step came from a counter the file wrote (a step, an epoch, an iteration): the
    // file has a training axis, even when it holds one evaluation (log_tailer.cpp: what is a log).
    bool counted = false;

    // Index of the series called name, created when missing. A hash index keeps it constant
    // time (a log of a million metric names was quadratic); it is rebuilt when names grew or
    // shrank behind its back. Code that renames entries of names in place calls
    // invalidateNameIndex().
    uint32_t seriesIndex(std::string_view name);
    void invalidateNameIndex()
    {
        m_nameIndex.clear();
        m_indexedNames = 0;
    }
    uint64_t points() const;

private:
    std::unordered_map<std::string, uint32_t> m_nameIndex;
    size_t m_indexedNames = 0;
};

// How one load call runs: whether the bytes end the file, how many threads it may use, and where
// it reports progress (bytes done of the bytes given; called on the calling thread only).
struct LoadOptions {
    bool atEnd = true;
    unsigned threads = 1;
    const ProgressFn* progress = nullptr;  // none: not reported, never cancelled
    // The stage (ParseState::stage) the second half of a file parsed on two threads starts in:
    // what the head of the file says. When the first half ends in another stage or inside an
    // evaluation, the second half is read again after it.
    std::optional<RunRole> secondHalfStage;
};

// One row of the format table: how a file is recognised and read. Adding a format is adding a
// row in log_formats.cpp.
struct LogFormat {
    const char* id;                       // "text", "csv", "jsonl", "tfevents"
    std::vector<const char*> extensions;  // lower-case, with the dot; "" = by probe only
    // name = file name (no folder); head = first bytes. 0 = not this format, higher = surer.
    int (*probe)(std::string_view name, std::string_view head);
    // Parses complete lines/records of bytes (a partial tail is left for the next call: state.offset
    // says how far it got). path names the file in warnings. Runs on up to options.threads
    // threads. Appends one ParsedLog per piece (in file order) to parts: the caller concatenates
    // the pieces of a file once (concatParsed). Returns false when cancelled through
    // options.progress; state and parts are then to be dropped.
    bool (*load)(std::string_view bytes, const std::string& path, ParseState& state,
                 const LoadOptions& options, std::vector<ParsedLog>& parts);
};

// The pieces of one file (in order, lines already absolute) as one ParsedLog whose columns are
// allocated once at their exact size.
ParsedLog concatParsed(std::vector<ParsedLog>&& parts);

const std::vector<LogFormat>& logFormats();
const LogFormat* findLogFormat(std::string_view id);
// The best format for a file, or nullptr when nothing claims it (score > 0).
const LogFormat* probeLogFormat(std::string_view name, std::string_view head, int* score = nullptr);
// A file name that says the file is a training log: a log's extension (".log", ".out", "x.log.1")
// or a pipeline stage ("4_int8测试.txt", "calib_eval.txt"). Such a file may hold a single metric
// line (an evaluation-only run) and still be one.
bool hasLogName(std::string_view name);

}  // namespace qatdoctor::core::logs
