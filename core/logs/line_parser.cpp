#include "core/logs/line_parser.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <utility>

#include "core/logs/mapped_file.h"
#include "core/logs/metric_names.h"
#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {

uint32_t ParsedLog::seriesIndex(std::string_view name)
{
    if (m_indexedNames != names.size()) {
        m_nameIndex.clear();
        for (size_t i = 0; i < names.size(); ++i) m_nameIndex.emplace(names[i], static_cast<uint32_t>(i));
        m_indexedNames = names.size();
    }
    const std::string key(name);
    if (auto it = m_nameIndex.find(key); it != m_nameIndex.end()) return it->second;
    names.push_back(key);
    series.emplace_back();
    const auto index = static_cast<uint32_t>(names.size() - 1);
    m_nameIndex.emplace(key, index);
    m_indexedNames = names.size();
    return index;
}

uint64_t ParsedLog::points() const
{
    uint64_t n = 0;
    for (const Series& s : series) n += s.size();
    return n;
}

void LineParser::partialLastLine(std::string_view text, uint64_t lineNo, uint64_t offset)
{
    warn("partial_line",
         "the file ends in the middle of a line (no newline); "
         "the incomplete last line was not read",
         lineNo, static_cast<int64_t>(offset));
}

void LineParser::finish()
{
    flushPending();
    for (size_t i = 0; i < m_out.series.size() && i < m_lastWall.size(); ++i)
        if (!std::isnan(m_lastWall[i])) m_out.series[i].markLastWallTime(m_lastWall[i]);
    for (size_t i = 0; i < m_out.names.size(); ++i)
        m_state.orderCount[m_out.names[i]] += m_out.series[i].size();
}

void LineParser::reserveFor(double scale)
{
    flushPending();  // the sizes the estimate scales must be complete
    for (Series& s : m_out.series) {
        const auto n = static_cast<size_t>(static_cast<double>(s.size()) * scale) + 64;
        reserveColumn(s.step, n);
        reserveColumn(s.value, n);
        reserveColumn(s.line, n);
    }
}

std::string LineParser::slotKey(std::string_view key, bool validation, int stage, std::string_view deployStep)
{
    std::string k(key);
    k += '\x1f';
    k += validation ? 'v' : 't';
    k += static_cast<char>('0' + stage + 1);
    k += deployStep;
    return k;
}

uint32_t LineParser::slot(std::string_view key, bool validation, size_t position)
{
    const std::optional<RunRole> stageOfName = m_lineStage ? m_lineStage : m_state.stage;
    const int stage = stageOfName ? static_cast<int>(*stageOfName) : -1;
    if (position < m_byPosition.size()) {
        const Slot& s = m_slots[m_byPosition[position]];
        if (s.validation == validation && s.stage == stage && s.deployStep == m_lineDeployStep &&
            sameKey(s.key, key))
            return m_byPosition[position];
    }
    uint32_t found = UINT32_MAX;
    std::string indexKey = slotKey(key, validation, stage, m_lineDeployStep);
    if (auto it = m_slotIndex.find(indexKey); it != m_slotIndex.end()) found = it->second;
    if (found == UINT32_MAX) {
        Slot s;
        s.key = std::string(key);
        s.validation = validation;
        s.stage = stage;
        s.deployStep = m_lineDeployStep;
        bool keyStage = false;
        const std::string name = stagedSeriesName(key, validation, stageOfName, m_lineDeployStep, &keyStage);
        s.series = m_out.seriesIndex(name);
        // why the series is that stage's, for --explain: the key itself, else the line or scope
        if (name.find('/') != std::string::npos && !m_out.stageReasons.count(name)) {
            std::string why = keyStage      ? "the key '" + std::string(key) + "'"
                              : m_lineStage ? m_lineStageReason
                                            : m_state.stageReason;
            if (!why.empty()) m_out.stageReasons.emplace(name, std::move(why));
        }
        if (m_lastWall.size() <= s.series) {
            m_lastWall.resize(s.series + 1, NAN);
            m_wallChecked.resize(s.series + 1, NAN);
        }
        if (m_state.stepKnown) {
            auto it = m_state.orderCount.find(name);
            s.orderBase = it == m_state.orderCount.end() ? 0 : it->second;
        }
        // The metrics that appear together (a CSV's columns, the keys of one line) share their
        // steps and lines while those agree (see Column).
        if (!m_slots.empty()) m_out.series[s.series].shareRowsOf(m_out.series[m_slots.back().series]);
        m_slots.push_back(std::move(s));
        found = static_cast<uint32_t>(m_slots.size() - 1);
        m_slotIndex.emplace(std::move(indexKey), found);
    }
    if (position < 64) {
        if (m_byPosition.size() <= position) m_byPosition.resize(position + 1, found);
        m_byPosition[position] = found;
    }
    return found;
}

void LineParser::enterStage(RunRole stage)
{
    if (m_state.stage == stage) return;
    m_state.stage = stage;
    m_slots.clear();
    m_slotIndex.clear();
    m_byPosition.clear();
}

double LineParser::resolveStep(const Slot& sl, const Series& s, StepFrom from)
{
    double step = 0;
    if (from == StepFrom::LastStep) {
        if (m_state.lastStep) {
            step = *m_state.lastStep;
            from = StepFrom::Counter;
        } else if (m_state.stepKnown) {
            from = StepFrom::Order;
        }
    }
    if (from == StepFrom::Order && m_state.stepKnown) {
        step = static_cast<double>(sl.orderBase + s.size());
        from = StepFrom::Counter;
    }
    if (from != StepFrom::Counter) {
        m_out.pending.push_back(
            {sl.series, static_cast<uint32_t>(s.size()),
             from == StepFrom::Order ? PendingStep::Kind::Order : PendingStep::Kind::LastStep});
        step = static_cast<double>(s.size());  // the local order; fixed when stitched
    }
    return step;
}

void LineParser::warn(const char* kind, std::string message, uint64_t line, int64_t offset)
{
    if (m_state.warningCounts[kind]++ >= kWarningsPerKind) return;
    m_out.warnings.push_back(makeError(std::string("logs.") + kind, std::move(message), m_path,
                                       static_cast<int64_t>(line), offset));
}

bool LineParser::rejectDamaged(std::string_view text, uint64_t lineNo, uint64_t offset)
{
    const std::string where;
    if (text.size() > kMaxLineBytes) {
        warn("long_line",
             where + "line of " + std::to_string(text.size()) + " bytes skipped (limit " +
                 std::to_string(kMaxLineBytes) + ")",
             lineNo, static_cast<int64_t>(offset));
        return true;
    }
    const LineCheck c = checkLine(text);
    if (c.binary) {
        warn("binary", where + "binary data (control bytes) skipped", lineNo, static_cast<int64_t>(offset));
        return true;
    }
    if (c.invalidUtf8)
        warn("invalid_utf8", where + "invalid UTF-8; the line was read as bytes", lineNo,
             static_cast<int64_t>(offset));
    return false;
}

namespace {

// Calls back every kTickBytes of a run with the bytes done so far; false = stop.
using Tick = std::function<bool(size_t done)>;
constexpr size_t kTickBytes = 4u << 20;

struct RunResult {
    uint64_t lines = 0;
    bool stopped = false;
};

// Feeds the complete lines of bytes to p. The columns are sized once from the first lines for
// `sizeFor` bytes of this layout (the first half of a split reserves for both halves, so the
// second is appended in place): no growth copies, no page touched twice.
RunResult runLines(LineParser& p, std::string_view bytes, uint64_t firstLine, uint64_t baseOffset,
                   size_t sizeFor, const Tick& tick)
{
    const char* b = bytes.data();
    const char* e = b + bytes.size();
    p.setReadableEnd(e);
    const char* nextTick = bytes.size() > kTickBytes ? b + kTickBytes : e;
    uint64_t lineNo = firstLine;
    constexpr uint64_t kSizingLines = 2048;
    const uint64_t sizeAt = firstLine + kSizingLines;
    while (b < e) {
        if (lineNo == sizeAt && bytes.size() > (4u << 20))
            p.reserveFor(1.08 * static_cast<double>(sizeFor) / static_cast<double>(b - bytes.data()));
        if (b >= nextTick) [[unlikely]] {
            if (!tick(static_cast<size_t>(b - bytes.data()))) return {lineNo - firstLine, true};
            nextTick = static_cast<size_t>(e - b) > kTickBytes ? b + kTickBytes : e;
        }
        const uint64_t maxLines = lineNo < sizeAt ? sizeAt - lineNo : UINT64_MAX;  // stop for the sizing
        if (const char* r = p.lineRun(b, e, nextTick, lineNo, maxLines); r != b) {
            b = r;
            continue;
        }
        const char* nl = static_cast<const char*>(std::memchr(b, '\n', static_cast<size_t>(e - b)));
        const char* le = nl ? nl : e;
        const char* te = (le > b && le[-1] == '\r') ? le - 1 : le;
        p.line(std::string_view(b, static_cast<size_t>(te - b)), ++lineNo,
               baseOffset + static_cast<uint64_t>(b - bytes.data()));
        b = le + 1;
    }
    p.setReadableEnd(nullptr);
    return {lineNo - firstLine, false};
}

// Makes b (a second half parsed without knowing the first, state sb) continue a (state sa):
// absolute lines and offsets, steps that needed the first half; then merges the states.
void stitch(ParsedLog& b, const ParseState& sa, ParseState& sb)
{
    for (const PendingStep& p : b.pending) {
        Series& s = b.series[p.series];
        if (p.kind == PendingStep::Kind::LastStep && sa.lastStep) {
            s.step.set(p.index, *sa.lastStep);
        } else {
            auto it = sa.orderCount.find(b.names[p.series]);
            s.step.set(p.index,
                       s.step[p.index] + (it == sa.orderCount.end() ? 0.0 : static_cast<double>(it->second)));
        }
    }
    b.pending.clear();
    // Each line buffer once: the series of one line share theirs. A set of the buffers done keeps
    // this linear in the series (a log of 100k metric names was quadratic here).
    const auto lineShift = static_cast<uint32_t>(sa.line);
    std::unordered_set<const void*> shifted;
    for (Series& s : b.series) {
        const void* buffer = s.line.bufferIdentity();
        if (buffer && shifted.insert(buffer).second)
            s.line.updateBuffer([&](uint32_t& l) { l += lineShift; });
    }
    if (sb.openTraceback) sb.openTraceback->line += static_cast<int64_t>(sa.line);
    for (uint32_t& l : b.unreadSample) l += lineShift;
    for (RunEvent& e : b.events) {
        e.line += static_cast<int64_t>(sa.line);
        if (!e.step) e.step = sa.lastStep;
    }
    for (Warning& w : b.warnings) {
        if (w.line > 0) {
            // the message starts with "path:line:"; rewrite it with the absolute line
            const std::string oldPrefix = w.file + ":" + std::to_string(w.line) + ":";
            w.line += static_cast<int64_t>(sa.line);
            if (w.message.rfind(oldPrefix, 0) == 0)
                w.message = w.file + ":" + std::to_string(w.line) + ":" + w.message.substr(oldPrefix.size());
        }
        if (w.offset >= 0) w.offset += static_cast<int64_t>(sa.offset);
    }
}

void mergeStates(ParseState& sa, const ParseState& sb)
{
    for (auto& [k, v] : sb.orderCount) sa.orderCount[k] += v;
    for (auto& [k, v] : sb.warningCounts) sa.warningCounts[k] += v;
    if (sb.lastStep) sa.lastStep = sb.lastStep;
    if (sb.lastEpoch) sa.lastEpoch = sb.lastEpoch;
    if (sb.lastWallTime) sa.lastWallTime = sb.lastWallTime;
    sa.openTraceback = sb.openTraceback;
    // the second half started in the first's stage (parseLines checked): where it ends is the file's
    sa.stage = sb.stage;
    if (!sb.stageReason.empty()) sa.stageReason = sb.stageReason;
    sa.evalScope = sb.evalScope;
    sa.lastEvaluation = sb.lastEvaluation;
    sa.line += sb.line;
    sa.offset += sb.offset;
}

void runTail(ParsedLog& out, ParseState& state, const std::string& path, std::string_view tail,
             const LineParserFactory& factory)
{
    auto p = factory(out, state, path);
    if (tail.size() > kMaxLineBytes) tail = tail.substr(0, kMaxLineBytes + 1);
    p->partialLastLine(tail, state.line + 1, state.offset);
    p->finish();
}

}  // namespace

bool parseLines(std::string_view bytes, const std::string& path, ParseState& state,
                const LoadOptions& options, const LineParserFactory& factory, std::vector<ParsedLog>& parts)
{
    const size_t lastNl = bytes.rfind('\n');
    const size_t complete = lastNl == std::string_view::npos ? 0 : lastNl + 1;
    const std::string_view body = bytes.substr(0, complete);
    const std::string stage = "reading " + path;
    auto report = [&](size_t done) {
        return !options.progress ||
               reportProgress(*options.progress,
                              static_cast<double>(done) / static_cast<double>(bytes.size()), stage);
    };
    if (!report(0)) return false;
    ParsedLog out;

    constexpr size_t kMinSplit = 1u << 20;
    size_t split = complete;
    if (options.threads >= 2 && complete >= kMinSplit) {
        const size_t nl = bytes.find('\n', complete / 2);
        split = (nl == std::string_view::npos || nl + 1 >= complete) ? complete : nl + 1;
    }
    if (split < complete) {
        // What the worker writes for every line lives on its own cache lines, away from this
        // thread's stack (its state is written for every line too).
        struct alignas(64) SecondHalf {
            ParsedLog parsed;
            ParseState state;
        };
        const auto half = std::make_unique<SecondHalf>();
        ParsedLog& second = half->parsed;
        ParseState& s2 = half->state;
        s2.stepKnown = false;
        s2.columns = state.columns;
        s2.delimiter = state.delimiter;
        s2.headerDone = state.headerDone;
        s2.epochIsStep = state.epochIsStep;
        s2.epochStepOffset = state.epochStepOffset;
        s2.layout = state.layout;
        s2.stage = options.secondHalfStage;
        // only the end of the whole read can hold a traceback open for the next one (a traceback
        // open where the first half stops continues in the second half, read apart: cut)
        s2.holdOpenTraceback = state.holdOpenTraceback;
        const bool hold = std::exchange(state.holdOpenTraceback, false);
        std::atomic<size_t> secondDone{0};
        std::atomic<bool> stop{false};
        std::mutex mutex;
        std::condition_variable finished;
        bool workerDone = false;
        std::thread worker([&] {
            auto p = factory(second, s2, path);
            const RunResult r = runLines(*p, body.substr(split), 0, 0, complete - split, [&](size_t done) {
                secondDone.store(done, std::memory_order_relaxed);
                return !stop.load(std::memory_order_relaxed);
            });
            s2.line = r.lines;
            p->finish();
            const std::lock_guard lock(mutex);
            workerDone = true;
            finished.notify_one();
        });
        {
            auto p = factory(out, state, path);
            const RunResult r =
                runLines(*p, body.substr(0, split), state.line, state.offset, complete, [&](size_t done) {
                    if (report(done + secondDone.load(std::memory_order_relaxed))) return true;
                    stop = true;
                    return false;
                });
            state.line += r.lines;
            p->finish();
        }
        // The halves rarely end together: keep reporting (and listening for cancel) while waiting,
        // but never again once the caller has said stop (the worker may take a tick to notice).
        {
            std::unique_lock lock(mutex);
            while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return workerDone; }))
                if (!stop && !report(split + secondDone.load(std::memory_order_relaxed))) stop = true;
        }
        worker.join();
        state.holdOpenTraceback = hold;
        if (stop) return false;
        if (state.settingsOpen || state.stage != options.secondHalfStage || state.evalScope ||
            state.lastEvaluation) {
            // The first half ended still reading settings, in another stage than the second half
            // assumed, or inside an evaluation, which the second half could not know: its lines
            // are read again after the first's (rare: a settings block over half the file, a
            // one-file pipeline whose stages change past its head).
            state.offset += split;
            ParsedLog again;
            auto p = factory(again, state, path);
            const RunResult r =
                runLines(*p, body.substr(split), state.line, state.offset, complete - split, report);
            if (r.stopped) return false;
            state.line += r.lines;
            state.offset += complete - split;
            p->finish();
            parts.push_back(std::move(out));
            out = std::move(again);
        } else {
            state.offset += split;
            s2.offset = complete - split;
            stitch(second, state, s2);
            parts.push_back(std::move(out));
            out = std::move(second);
            mergeStates(state, s2);
        }
    } else {
        auto p = factory(out, state, path);
        const RunResult r = runLines(*p, body, state.line, state.offset, complete, report);
        if (r.stopped) return false;
        state.line += r.lines;
        state.offset += complete;
        p->finish();
    }
    if (options.atEnd && complete < bytes.size()) {
        runTail(out, state, path, bytes.substr(complete), factory);
        state.line += 1;
        state.offset += bytes.size() - complete;
    }
    parts.push_back(std::move(out));
    return true;
}

namespace {

// Appends part's series to out's and frees them. A big part (the second half of a split file:
// the one serial step after the parallel parse) has its value and line columns copied on a
// second thread while this one copies the steps and marks: half the bytes each.
void appendSeries(ParsedLog& out, ParsedLog& part)
{
    constexpr uint64_t kParallelPoints = 1u << 20;
    std::vector<uint32_t> into(part.names.size());
    for (size_t i = 0; i < part.names.size(); ++i)
        into[i] = out.seriesIndex(part.names[i]);  // before any thread
    if (part.points() >= kParallelPoints) {
        std::thread worker([&] {
            for (size_t i = 0; i < into.size(); ++i) out.series[into[i]].appendValuesAndLines(part.series[i]);
        });
        for (size_t i = 0; i < into.size(); ++i) out.series[into[i]].appendStepsAndMarks(part.series[i]);
        worker.join();
    } else {
        for (size_t i = 0; i < into.size(); ++i) out.series[into[i]].append(part.series[i]);
    }
    for (Series& s : part.series) s = Series{};
}

}  // namespace

void appendParsed(ParsedLog& a, ParsedLog&& b)
{
    if (a.names.empty() && a.events.empty() && a.warnings.empty() && a.metadata.empty() &&
        a.roleHints.empty() && a.stageReasons.empty()) {
        const uint64_t skipped = a.skippedRecords;
        a = std::move(b);
        a.skippedRecords += skipped;
        return;
    }
    appendSeries(a, b);
    for (RunEvent& e : b.events) a.events.push_back(std::move(e));
    for (Warning& w : b.warnings) a.warnings.push_back(std::move(w));
    for (auto& [k, v] : b.metadata) a.metadata.emplace(k, std::move(v));
    for (RoleHint& h : b.roleHints) a.roleHints.push_back(std::move(h));
    for (auto& [name, why] : b.stageReasons) a.stageReasons.emplace(name, std::move(why));
    a.skippedRecords += b.skippedRecords;
    a.unreadLines += b.unreadLines;
    a.counted = a.counted || b.counted;
    for (uint32_t l : b.unreadSample)
        if (a.unreadSample.size() < kUnreadSample) a.unreadSample.push_back(l);
}

ParsedLog concatParsed(std::vector<ParsedLog>&& parts)
{
    if (parts.empty()) return {};
    // The columns of the first piece with points are the base: parseLines reserved them for the
    // pieces after it, which are appended in place. A piece before it holds no points (a CSV
    // header): then the base's columns move into the first piece.
    size_t base = 0;
    while (base + 1 < parts.size() && parts[base].names.empty()) ++base;
    ParsedLog out = std::move(parts[0]);
    if (base > 0) {
        out.names = std::exchange(parts[base].names, {});
        out.series = std::exchange(parts[base].series, {});
        out.invalidateNameIndex();
    }
    std::vector<size_t> totals(out.series.size());
    for (size_t s = 0; s < out.series.size(); ++s) totals[s] = out.series[s].size();
    for (size_t k = 1; k < parts.size(); ++k) {
        const ParsedLog& p = parts[k];
        for (size_t i = 0; i < p.names.size(); ++i) {
            const uint32_t s = out.seriesIndex(p.names[i]);
            if (s >= totals.size()) totals.resize(s + 1, 0);
            totals[s] += p.series[i].size();
        }
    }
    for (size_t s = 0; s < out.series.size(); ++s) {
        reserveColumn(out.series[s].step, totals[s]);
        reserveColumn(out.series[s].value, totals[s]);
        reserveColumn(out.series[s].line, totals[s]);
    }
    for (size_t k = 1; k < parts.size(); ++k) appendParsed(out, std::move(parts[k]));
    parts.clear();
    return out;
}

void flushWarningCounts(ParsedLog& out, ParseState& state, const std::string& path)
{
    for (auto& [kind, n] : state.warningCounts) {
        if (n > kWarningsPerKind)
            out.warnings.push_back(makeError(
                "logs." + kind,
                std::to_string(n - kWarningsPerKind) + " more lines with the same problem (" + kind + ")",
                path));
        n = 0;
    }
}

}  // namespace qatdoctor::core::logs
