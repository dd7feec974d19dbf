// What a training log folder is read into: runs (float, calibration, QAT, quantized evaluation),
// each with metadata, events and columnar metric series. Rules, the curves page, the CLI's
// `logs` command and the report read only these types.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/logs/column.h"

namespace qatdoctor::core::logs {

enum class RunRole { Unknown, Float, Calibration, Qat, Quantized };

const char* roleName(RunRole r);  // "unknown" | "float" | "calibration" | "qat" | "quantized"
std::optional<RunRole> parseRole(const std::string& name);

// Where one point came from: a file (index into Run::files) and a 1-based line, or a record
// number for binary formats (TensorBoard events).
struct PointSource {
    uint32_t file = 0;
    uint32_t lineOrRecord = 0;
};

// One metric over time, stored as parallel columns so ten million points stay compact
// (16 bytes per point: step 8 + value 4 + line 4, and 4 + the shares of the step and line when
// the metrics of one line share them, see Column; file, epoch and wall time are run-length
// marks because they change rarely).
// Series names: the metric key as logged ("loss", "acc", "lr"); evaluation metrics get a "val/"
// prefix ("val/acc", "val/loss") when the log marks them as validation (HAT prefixes *_val,
// eval, test, validation). Values may be NaN or +/-Inf: they are data, never dropped.
struct Series {
    // A value that holds from point `begin` until the next mark.
    template <class T>
    struct Mark {
        uint32_t begin = 0;
        T value{};
    };

    Column<double> step;  // x: logged global step, else epoch*stepsPerEpoch+step, else order
    Column<float> value;
    Column<uint32_t> line;                // 1-based line, or record number for binary formats
    std::vector<Mark<uint32_t>> files;    // index into Run::files, from point `begin` on
    std::vector<Mark<float>> epochs;      // empty when the log has no epochs
    std::vector<Mark<double>> wallTimes;  // seconds since 1970, sparse marks (see markWallTime)

    size_t size() const { return step.size(); }
    bool empty() const { return step.empty(); }
    bool hasEpoch() const { return !epochs.empty(); }
    bool hasWallTime() const { return !wallTimes.empty(); }

    PointSource sourceAt(size_t i) const;
    std::optional<float> epochAt(size_t i) const;      // nullopt before the first epoch mark
    std::optional<double> wallTimeAt(size_t i) const;  // interpolated; nullopt before the first mark

    // Appends one point (file/epoch/time marks are added by the caller through the helpers).
    [[gnu::always_inline]] void push(double x, float y, uint32_t lineOrRecord)
    {
        step.push_back(x);
        value.push_back(y);
        line.push_back(lineOrRecord);
    }
    // Shares o's step and line buffers while they agree (a metric logged on the same lines as
    // o); only while this series is empty.
    void shareRowsOf(Series& o)
    {
        step.adopt(o.step);
        line.adopt(o.line);
    }
    void markFile(uint32_t file);  // from the next point on
    void markEpoch(float epoch)    // adds a mark only when the epoch changed
    {
        if (epochs.empty() || epochs.back().value != epoch) addEpochMark(epoch);
    }
    // Adds a wall-time mark when time moved >= 1 s; past 256 points at most every
    // max(kWallTimeStride, size/4) points (times in between are interpolated, so the marks cost
    // ~0.003 bytes per point on a million-point series), and at once when the time is a minute
    // or more off the pace of the last two marks (a pause, a clock jump). Parsers add a mark at
    // the last point when they finish (see LineParser::finish).
    static constexpr uint32_t kWallTimeStride = 256;
    void markWallTime(double seconds)
    {
        if (wallTimes.empty()) return addWallTimeMark(seconds);
        const double d = seconds - wallTimes.back().value;
        if (d < 1.0 && d > -1.0) return;
        const auto n = static_cast<uint32_t>(size());
        const uint32_t stride =
            n < 256 ? 1 : std::max(kWallTimeStride, n / 4);  // small series keep every second
        if (n - wallTimes.back().begin >= stride) return addWallTimeMark(seconds);
        if ((d >= 60.0 || d <= -60.0) && wallTimeOffPace(seconds, n)) [[unlikely]]
            addWallTimeMark(seconds);
    }
    // A mark at the last point (when time moved since the last mark), so the span is exact.
    void markLastWallTime(double seconds);
    // Appends other's points, its marks shifted; other's file marks are remapped by fileOffset.
    void append(const Series& other, uint32_t fileOffset = 0);
    // append() in two halves that touch different columns (two threads may run them at once).
    void appendStepsAndMarks(const Series& other, uint32_t fileOffset = 0);
    void appendValuesAndLines(const Series& other);
    void shrinkToFit();
    void addEpochMark(float epoch);
    void addWallTimeMark(double seconds);
    // Whether the time at point n is a minute or more off the pace of the last two marks (or
    // there is no pace yet). Inline and without a division: once a long stride is a minute old,
    // every point of a regular log asks this until the next mark.
    bool wallTimeOffPace(double seconds, uint32_t n) const
    {
        const size_t m = wallTimes.size();
        if (m < 2) return true;
        const Mark<double>& a = wallTimes[m - 2];
        const Mark<double>& b = wallTimes[m - 1];
        const double span = static_cast<double>(b.begin - a.begin);
        // |seconds - (b.value + pace * (n - b.begin))| >= 60 with pace = (b.value - a.value) / span
        const double off =
            (seconds - b.value) * span - (b.value - a.value) * static_cast<double>(n - b.begin);
        return !(off < 60.0 * span && off > -60.0 * span);  // NaN (a non-finite time) marks too
    }
    // Resident bytes of the columns after shrinkToFit: a big column's used pages (its unused
    // reserve was given back), a small one's capacity.
    size_t bytes() const;
};

// A notable line that is not a metric: an error, a traceback, a warning, a checkpoint saved.
struct RunEvent {
    // Parameters: a fingerprint of the weights (parameter_fingerprint.h). Finished: the line a
    // framework prints when training ends normally (run_end_lines.h), what a live watch waits for.
    enum class Kind { Info, Warning, Error, Traceback, Checkpoint, Parameters, Finished };
    Kind kind = Kind::Info;
    std::string text;              // the line (tracebacks: all lines joined with '\n')
    uint32_t file = 0;             // index into Run::files
    int64_t line = 0;              // 1-based first line
    std::optional<double> step;    // last step seen before the event
    std::optional<RunRole> stage;  // the stage the log was in (ParseState::stage), when it named one
};

// "info" | "warning" | "error" | "traceback" | "checkpoint" | "parameters" | "finished": the
// kind's name in every JSON and text output.
const char* eventKindName(RunEvent::Kind kind);

struct RunFile {
    std::string path;
    std::string format;  // format id from the registry: "text", "csv", "jsonl", "tfevents"
    uint64_t size = 0;
    std::string layout;           // layout family (log_layouts.h): "mmdet2_text", "hf_trainer_state", ...
    bool stepsEstimated = false;  // some steps rest on an estimate (ParseState::stepsEstimated)
    // Coverage (ParsedLog::unreadLines): metric-bearing lines the reader did not understand.
    uint64_t unreadLines = 0;
    std::vector<uint32_t> unreadSample;  // the first of them, 1-based line numbers
};

struct Run {
    std::string name;  // folder-relative name, e.g. "qat"
    RunRole role = RunRole::Unknown;
    std::string roleReason;  // why the role was guessed ("folder name 'qat'")
    std::vector<RunFile> files;
    std::map<std::string, std::string> metadata;  // batch_size, lr, world_size, march, epochs, ...
    std::vector<RunEvent> events;
    std::map<std::string, Series> series;
    // Why a series is another stage's than the run's own ("quantized/val/acc" -> "line 40: label
    // 'int8 (qnnpack)'"), or why the run's own stage was read from its content.
    std::map<std::string, std::string> stageReasons;

    const Series* find(const std::string& metric) const;
    std::optional<double> metadataNumber(const std::string& key) const;
};

struct TailCheckpoint;  // log_tailer.h

struct LogSet {
    std::string root;  // the folder (or file) that was opened
    std::vector<Run> runs;
    std::vector<Warning> warnings;  // file + line/offset for every damaged part skipped
    // Where each file's reading stopped (offsets, parser states): live watching continues from
    // here instead of reading the folder again (LogTailer::resume). Null when not from a reader.
    std::shared_ptr<const TailCheckpoint> checkpoint;

    const Run* firstWithRole(RunRole role) const;
};

}  // namespace qatdoctor::core::logs
