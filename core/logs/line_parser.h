// The machinery every line-based format shares: splitting bytes into complete lines, parsing
// two halves of a file on two threads and stitching them (line numbers, steps that depend on
// the first half), series lookup by key, step resolution and rate-limited warnings.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

inline constexpr size_t kMaxLineBytes = 1u << 20;  // longer lines are skipped with a warning
inline constexpr uint64_t kWarningsPerKind = 5;    // then one "N more" summary per kind
inline constexpr size_t kUnreadSample = 5;         // unread lines kept by number (ParsedLog)

// How a point's step was found.
enum class StepFrom { Counter, LastStep, Order };

class LineParser {
public:
    LineParser(ParsedLog& out, ParseState& state, const std::string& path)
        : m_out(out), m_state(state), m_path(path)
    {
    }
    virtual ~LineParser() = default;

    // One complete line (without '\n'); lineNo is 1-based within what this parser has seen
    // (absolute when state.stepKnown), offset the byte offset of the line's start.
    virtual void line(std::string_view text, uint64_t lineNo, uint64_t offset) = 0;
    // The bytes after the last '\n' at the end of a file. Default: a warning, not parsed.
    virtual void partialLastLine(std::string_view text, uint64_t lineNo, uint64_t offset);
    // Called once after the last line of the chunk.
    virtual void finish();
    // Writes points a parser holds back (to write them a batch at a time) to the series.
    virtual void flushPending() {}
    // Reads a run of complete lines starting at b itself (a parser whose lines mostly repeat one
    // shape reads them without a search for each line's end and a call per line): at most
    // maxLines, none starting at or past stopAt, all ending before end. Advances lineNo; returns
    // where the run ended (b: no line read, then line() gets the next one).
    virtual const char* lineRun(const char* b, const char* /*end*/, const char* /*stopAt*/,
                                uint64_t& /*lineNo*/, uint64_t /*maxLines*/)
    {
        return b;
    }
    // The chunk is `scale` times what was read so far: reserve the columns once for all of it
    // (pages past the real end are never touched, so an over-estimate costs no memory).
    void reserveFor(double scale);
    // Where the bytes the lines come from end: a line ending LineShape::kReadPast bytes or more
    // before it may be read a word at a time (see LineShape). nullptr = unknown.
    void setReadableEnd(const char* end) { m_readableEnd = end; }

protected:
    // Series index for a raw key (+ validation flag), cached by the key's position on the line.
    uint32_t slot(std::string_view key, bool validation, size_t position);
    // The log entered another stage: series names change from here on, so cached slots go.
    void enterStage(RunRole stage);
    // The stage the current line names itself ("calib_val: acc[0.64]" in a QAT log), over the
    // log's stage for that line's series; reset for every line by the parser.
    std::optional<RunRole> m_lineStage;
    // The deployment step the current line's prefix names ("pre_export", "board"; see
    // deployStepOfWord), put before its series names; reset for every line by the parser.
    std::string_view m_lineDeployStep;
    // What made m_lineStage the line's stage ("line 12: label 'int8 (qnnpack)'"), for --explain.
    std::string m_lineStageReason;
    // Inline: called for every point; the rare step kinds go through resolveStep().
    [[gnu::always_inline]] void point(uint32_t slotIndex, double step, StepFrom from, float value,
                                      uint32_t line, const std::optional<float>& epoch,
                                      const std::optional<double>& wallTime)
    {
        const Slot& sl = m_slots[slotIndex];
        Series& s = m_out.series[sl.series];
        if (from != StepFrom::Counter) [[unlikely]]
            step = resolveStep(sl, s, from);
        else
            m_out.counted = true;
        if (epoch) s.markEpoch(*epoch);
        if (wallTime) {
            // Series::markWallTime at most once per second of log time per series: lines a
            // millisecond apart would otherwise each weigh stride and pace for nothing.
            double& checked = m_wallChecked[sl.series];
            if (!(*wallTime - checked < 1.0 && *wallTime - checked > -1.0)) {
                s.markWallTime(*wallTime);
                checked = *wallTime;
            }
            m_lastWall[sl.series] = *wallTime;
        }
        s.push(step, value, line);
    }
    // The series a slot's points go to (for parsers that append a batch of points at once;
    // valid until the next slot() call).
    Series& seriesOf(uint32_t slotIndex) { return m_out.series[m_slots[slotIndex].series]; }
    void warn(const char* kind, std::string message, uint64_t line, int64_t offset = -1);
    // A line with a number beside a metric word that became nothing (coverage, ParsedLog).
    void unread(uint64_t line)
    {
        ++m_out.unreadLines;
        if (m_out.unreadSample.size() < kUnreadSample)
            m_out.unreadSample.push_back(static_cast<uint32_t>(line));
    }
    // Warns about a gigantic, binary or invalid UTF-8 line; true = skip the line.
    bool rejectDamaged(std::string_view text, uint64_t lineNo, uint64_t offset);

    ParsedLog& m_out;
    ParseState& m_state;
    const std::string& m_path;
    const char* m_readableEnd = nullptr;

private:
    struct Slot {
        std::string key;
        bool validation = false;
        int stage = -1;               // the RunRole its name was prefixed with, -1 none
        std::string_view deployStep;  // and the deployment step (a literal of deployStepOfWord)
        uint32_t series = 0;
        uint64_t orderBase = 0;
    };
    double resolveStep(const Slot& sl, const Series& s, StepFrom from);
    // (key, validation, stage) -> slot: a log of many distinct names stays linear
    static std::string slotKey(std::string_view key, bool validation, int stage, std::string_view deployStep);
    std::vector<Slot> m_slots;
    std::unordered_map<std::string, uint32_t> m_slotIndex;
    std::vector<uint32_t> m_byPosition;
    std::vector<double> m_lastWall;     // per series: the last wall time seen (for the tail mark)
    std::vector<double> m_wallChecked;  // per series: the wall time markWallTime last saw
};

using LineParserFactory =
    std::function<std::unique_ptr<LineParser>(ParsedLog&, ParseState&, const std::string&)>;

// Parses the complete lines of bytes (which start at file offset state.offset). With two threads
// and enough bytes, the calling thread parses the first half and a worker the second, each in
// one pass: two pieces (lines absolute) go to parts, the first with its columns reserved for
// both halves so that concatParsed appends the second in place. With options.atEnd, a trailing
// partial line goes to partialLastLine(). Advances state; false = cancelled (progress is
// reported from the calling thread every few MiB and covers both halves).
bool parseLines(std::string_view bytes, const std::string& path, ParseState& state,
                const LoadOptions& options, const LineParserFactory& factory, std::vector<ParsedLog>& parts);

// Appends b's series, events, warnings, metadata and hints to a (b parsed after a, absolute
// lines).
void appendParsed(ParsedLog& a, ParsedLog&& b);

// Adds the "... and N more" warnings for kinds that hit the per-kind limit, then resets them.
void flushWarningCounts(ParsedLog& out, ParseState& state, const std::string& path);

}  // namespace qatdoctor::core::logs
