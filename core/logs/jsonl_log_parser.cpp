#include "core/logs/jsonl_log_parser.h"

#include <algorithm>
#include <vector>

#include "core/common/number_text.h"
#include "core/logs/line_parser.h"
#include "core/logs/metric_names.h"
#include "core/logs/number_layout.h"
#include "core/logs/run_config.h"
#include "core/logs/scan_util.h"
#include "core/logs/stage_words.h"

namespace qatdoctor::core::logs {
namespace {

// A small, allocation-free-after-warm-up reader for one JSON object per line.
class JsonObjectReader {
public:
    struct Entry {
        uint32_t keyBegin, keyLen;  // into keys(), or at keyPtr
        double number;
        std::string_view text;  // string values
        bool isNumber;
        const char* keyPtr = nullptr;    // a top-level key: in the line itself (no copy)
        const char* numBegin = nullptr;  // a number's text in the line
        const char* numEnd = nullptr;
    };

    // false on a syntax error (errorAt = column)
    bool read(std::string_view line)
    {
        m_entries.clear();
        m_keys.clear();
        m_cur.clear();
        m_p = line.data();
        m_b = m_p;
        m_e = m_p + line.size();
        ws();
        if (!object(0)) return false;
        ws();
        return m_p == m_e;
    }
    size_t errorColumn() const { return static_cast<size_t>(m_p - m_b) + 1; }
    const std::vector<Entry>& entries() const { return m_entries; }
    std::string_view key(const Entry& en) const
    {
        return en.keyPtr ? std::string_view(en.keyPtr, en.keyLen)
                         : std::string_view(m_keys).substr(en.keyBegin, en.keyLen);
    }

private:
    void ws()
    {
        while (m_p < m_e && (*m_p == ' ' || *m_p == '\t' || *m_p == '\r')) ++m_p;
    }

    bool string(std::string_view& out)
    {
        if (m_p >= m_e || *m_p != '"') return false;
        const char* b = ++m_p;
        while (m_p < m_e && *m_p != '"') {
            if (*m_p == '\\') ++m_p;
            ++m_p;
        }
        if (m_p >= m_e) return false;
        out = std::string_view(b, static_cast<size_t>(m_p - b));
        ++m_p;
        return true;
    }

    bool skipArray(int depth)
    {
        ++m_p;  // '['
        ws();
        if (m_p < m_e && *m_p == ']') {
            ++m_p;
            return true;
        }
        while (m_p < m_e) {
            if (!value(depth + 1, false)) return false;
            ws();
            if (m_p < m_e && *m_p == ',') {
                ++m_p;
                ws();
                continue;
            }
            if (m_p < m_e && *m_p == ']') {
                ++m_p;
                return true;
            }
            return false;
        }
        return false;
    }

    bool value(int depth, bool record)
    {
        if (m_p >= m_e || depth > 32) return false;
        const char c = *m_p;
        if (c == '{') return record ? object(depth + 1) : skipObject(depth + 1);
        if (c == '[') return skipArray(depth);
        if (c == '"') {
            std::string_view s;
            if (!string(s)) return false;
            if (record) push(0, s, false);
            return true;
        }
        if (c == 't' || c == 'f' || c == 'n') {
            for (std::string_view lit :
                 {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
                if (static_cast<size_t>(m_e - m_p) >= lit.size() &&
                    std::string_view(m_p, lit.size()) == lit) {
                    m_p += lit.size();
                    return true;
                }
            }
        }
        double v;
        const char* r = parseNumber(m_p, m_e, v);
        if (!r) return false;
        if (record) {
            push(v, {}, true);
            m_entries.back().numBegin = m_p;
            m_entries.back().numEnd = r;
        }
        m_p = r;
        return true;
    }

    bool skipObject(int depth)
    {
        const size_t keep = m_entries.size();
        const size_t keysKeep = m_keys.size();
        const bool ok = object(depth);
        m_entries.resize(keep);
        m_keys.resize(keysKeep);
        return ok;
    }

    bool object(int depth)
    {
        if (m_p >= m_e || *m_p != '{' || depth > 32) return false;
        ++m_p;
        ws();
        if (m_p < m_e && *m_p == '}') {
            ++m_p;
            return true;
        }
        while (m_p < m_e) {
            std::string_view k;
            if (!string(k)) return false;
            ws();
            if (m_p >= m_e || *m_p != ':') return false;
            ++m_p;
            ws();
            const size_t old = m_cur.size();
            bool ok;
            if (old == 0 && m_p < m_e && *m_p != '{') {
                // a flat top-level key (the common line): the entry points into the line
                m_direct = k;
                m_isDirect = true;
                ok = value(depth, true);
                m_isDirect = false;
            } else {
                if (old) m_cur += '/';
                m_cur += k;
                ok = value(depth, true);
                m_cur.resize(old);
            }
            if (!ok) return false;
            ws();
            if (m_p < m_e && *m_p == ',') {
                ++m_p;
                ws();
                continue;
            }
            if (m_p < m_e && *m_p == '}') {
                ++m_p;
                return true;
            }
            return false;
        }
        return false;
    }

    void push(double v, std::string_view text, bool isNumber)
    {
        if (m_isDirect) {
            m_entries.push_back(
                {0, static_cast<uint32_t>(m_direct.size()), v, text, isNumber, m_direct.data()});
            return;
        }
        const auto b = static_cast<uint32_t>(m_keys.size());
        m_keys += m_cur;
        m_entries.push_back({b, static_cast<uint32_t>(m_cur.size()), v, text, isNumber});
    }

    const char* m_p = nullptr;
    const char* m_b = nullptr;
    const char* m_e = nullptr;
    std::string m_cur;
    std::string m_keys;
    std::string_view m_direct;
    bool m_isDirect = false;
    std::vector<Entry> m_entries;
};

class JsonlLineParser final : public LineParser {
public:
    using LineParser::LineParser;

    void line(std::string_view text, uint64_t lineNo, uint64_t offset) override
    {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
        if (text.empty()) return;
        if (text.size() > kMaxLineBytes && rejectDamaged(text, lineNo, offset)) return;
        if (m_layout.valid() &&
            m_layout.match(text.data(), text.data() + text.size(), m_values.data(), m_readableEnd)) {
            plannedLine(lineNo);
            return;
        }
        if (!m_reader.read(text)) {
            if (rejectDamaged(text, lineNo, offset)) return;  // binary junk rather than bad JSON
            warn("jsonl_syntax",
                 "not a JSON object (error at column " + std::to_string(m_reader.errorColumn()) +
                     "); line skipped",
                 lineNo, static_cast<int64_t>(offset));
            return;
        }
        use(lineNo);
        // an evaluation row's step is not its own (it sits at the last training step): such rows
        // always take use(), never the layout's straight read
        if (!m_lastRowWasEvaluation)
            buildLayout(text);
        else
            m_layout.clear();
    }

    void partialLastLine(std::string_view text, uint64_t lineNo, uint64_t offset) override
    {
        // A complete object without the final newline is fine; a cut one is a partial line.
        if (text.size() <= kMaxLineBytes && m_reader.read(text)) {
            use(lineNo);
            return;
        }
        LineParser::partialLastLine(text, lineNo, offset);
    }

private:
    void use(uint64_t lineNo)
    {
        std::optional<double> step, global, wall;
        std::optional<float> epoch;
        size_t metrics = 0;
        bool hyper = false, validation = false, iterInEpoch = false;
        std::optional<ParseState::StageTag> recordStage;
        size_t idx = 0;
        const auto& entries = m_reader.entries();
        if (m_entryKinds.size() < entries.size() + 1) m_entryKinds.resize(entries.size() + 1);
        for (const auto& en : entries) {
            const std::string_view k = m_reader.key(en);
            ++idx;
            if (!en.isNumber) {
                if (isHyperParameter(k)) hyper = true;
                // mmdet's .log.json: {"mode": "val", "epoch": 1, "iter": 625, "bbox_mAP": ..}
                if (k == "mode" && isValidationWord(en.text)) validation = true;
                // {"event": "calibration", "test_acc": ..}, {"stage": "qat", ...}: the record's stage
                if (isStageField(k))
                    if (auto m = firstStageMention(en.text, kInText | kInKey); m && !recordStage) {
                        recordStage = ParseState::StageTag{
                            m->role != RunRole::Unknown ? std::optional(m->role) : std::nullopt,
                            std::string(m->deployStep),
                            "record field '" + std::string(k) + "': '" + std::string(en.text.substr(0, 60)) +
                                "' (line " + std::to_string(lineNo) + ")"};
                    }
                continue;
            }
            switch (m_entryKinds[idx] = kindOf(k, idx)) {
                case KeyKind::GlobalStep:
                    global = en.number;
                    break;
                case KeyKind::Step:
                    // "iter" beside "epoch" counts within the epoch (mmdet); "step" is global
                    if (!step || !equalsNoCase(k, "step")) iterInEpoch = !equalsNoCase(k, "step");
                    if (!step || equalsNoCase(k, "step")) step = en.number;
                    break;
                case KeyKind::Epoch:
                    epoch = static_cast<float>(en.number);
                    break;
                case KeyKind::WallTime:
                    wall = en.number;
                    break;
                case KeyKind::Metric:
                    ++metrics;
                    break;
                case KeyKind::System:
                    break;
            }
        }
        if (global) {
            step = global;
        } else if (step && epoch && iterInEpoch) {
            step = inEpochStep(*epoch, *step, validation);
        }
        // mmengine's scalars.json writes its evaluation rows at "step": <epoch>; a row of only
        // evaluation results under a plain "step" is an evaluation, placed like one
        if (!validation && step && !global && !iterInEpoch && metrics > 0 && m_state.lastStep) {
            bool allEval = true;
            for (const auto& en : entries)
                if (en.isNumber && classifyKey(m_reader.key(en)) == KeyKind::Metric)
                    allEval = allEval && isEvaluationName(seriesName(m_reader.key(en), false));
            validation = allEval;
        }
        m_lastRowWasEvaluation = validation;
        // an evaluation sits at the last training step; in an evaluation-only log (mmcls's
        // {"mode": "val", "epoch": 3, ...}), at its epoch
        if (validation)
            step = !m_state.lastStep && m_state.stepKnown && epoch ? std::optional<double>(*epoch)
                                                                   : std::nullopt;
        if (!step && !epoch) {
            for (const auto& en : m_reader.entries()) hyper = hyper || isHyperParameter(m_reader.key(en));
            if (hyper) {
                for (const auto& en : m_reader.entries()) {
                    const std::string_view k = m_reader.key(en);
                    // mmdet's first line carries the whole Python config as one string
                    if (!en.isNumber && k == "config" && en.text.find("\\n") != std::string_view::npos) {
                        readPythonAssignments(unescapeNewlines(en.text), m_out.metadata);
                        continue;
                    }
                    m_out.metadata.emplace(std::string(k),
                                           en.isNumber ? numberText(en.number, 10) : std::string(en.text));
                }
                return;
            }
        }
        if (metrics == 0) return;
        // a record of a stage that only evaluates (a calibration or int8 result) is an evaluation
        if (recordStage && stageOnlyEvaluates(recordStage->role, recordStage->deployStep) && !validation) {
            validation = true;
            if (!global)
                step = !m_state.lastStep && m_state.stepKnown && epoch ? std::optional<double>(*epoch)
                                                                       : std::nullopt;
        }
        if (recordStage) {
            m_lineStage = recordStage->role;
            m_lineDeployStep = recordStage->deployStep;
            m_lineStageReason = recordStage->reason;
            m_layout.clear();
            m_lastRowWasEvaluation = true;  // no layout from a staged record
        }
        if (step && !validation) m_state.lastStep = step;
        size_t position = 0;
        idx = 0;
        for (const auto& en : entries) {
            ++idx;
            if (!en.isNumber || m_entryKinds[idx] != KeyKind::Metric) continue;  // kinds from the first pass
            const std::string_view k = m_reader.key(en);
            if (validation && isLearningRateKey(k)) continue;  // the training lr, repeated on the eval line
            const uint32_t s = slot(k, validation, position++);
            point(s, step.value_or(0), step ? StepFrom::Counter : StepFrom::LastStep,
                  static_cast<float>(en.number), static_cast<uint32_t>(lineNo), epoch, wall);
        }
        m_lineStage.reset();
        m_lineDeployStep = {};
        m_lineStageReason.clear();
    }

    // A JSON string's "\n" escapes as line breaks and "\'" / "\"" as quotes (enough for a config dump).
    static std::string unescapeNewlines(std::string_view s)
    {
        std::string out;
        out.reserve(s.size());
        for (size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '\\' && i + 1 < s.size()) {
                const char c = s[++i];
                out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
            } else {
                out += s[i];
            }
        }
        return out;
    }

    static bool isEvaluationName(std::string_view name)
    {
        return name.starts_with("val/") || name.starts_with("test/");
    }

    // mmdet's (epoch, iter) lines: iterations restart every epoch, and the log does not say how
    // many an epoch has; the largest iteration logged in each earlier epoch stands for it (at most
    // one logging interval short), so the steps keep growing across epochs.
    double inEpochStep(float epoch, double iter, bool validation)
    {
        ParseState& st = m_state;
        if (!st.iterEpoch || epoch != *st.iterEpoch) {
            if (st.iterEpoch && epoch > *st.iterEpoch) {
                st.iterEpochBase += st.iterEpochMax;
                st.stepsEstimated = true;  // the largest logged iteration may fall short of the epoch
            }
            st.iterEpoch = epoch;
            st.iterEpochMax = 0;
        }
        if (!validation) st.iterEpochMax = std::max(st.iterEpochMax, iter);
        return st.iterEpochBase + iter;
    }

    // After a full read: when the line is all numbers with a step and metrics, keep its layout
    // and what each number is, so that the next lines like it only have their numbers parsed.
    void buildLayout(std::string_view text)
    {
        m_layout.clear();
        m_plan = {};
        const auto& entries = m_reader.entries();
        if (entries.size() > kMaxLayoutNumbers) return;
        m_spans.clear();
        int global = -1, step = -1;
        size_t position = 0;
        for (size_t i = 0; i < entries.size(); ++i) {
            const auto& en = entries[i];
            if (!en.isNumber || !en.numBegin) return;
            const int index = static_cast<int>(i);
            switch (m_entryKinds[i + 1]) {
                case KeyKind::GlobalStep:
                    global = index;
                    break;
                case KeyKind::Step:
                    step = index;
                    break;
                case KeyKind::Epoch:
                    m_plan.epoch = index;
                    break;
                case KeyKind::WallTime:
                    m_plan.wall = index;
                    break;
                case KeyKind::Metric:
                    m_plan.metrics.emplace_back(index, slot(m_reader.key(en), false, position++));
                    break;
                case KeyKind::System:
                    break;
            }
            m_spans.push_back({en.numBegin, en.numEnd, false});
        }
        m_plan.step = global >= 0 ? global : step;
        if (m_plan.step < 0 || m_plan.metrics.empty()) return;
        // (epoch, iter) steps depend on the epochs before: those lines take use()
        if (global < 0 && m_plan.epoch >= 0 &&
            !equalsNoCase(m_reader.key(entries[static_cast<size_t>(step)]), "step"))
            return;
        if (!m_layout.build(text.data(), text.data() + text.size(), m_spans)) return;
        m_values.resize(entries.size());
    }

    // A line laid out like the last full one: use()'s work, read straight from the numbers.
    void plannedLine(uint64_t lineNo)
    {
        const double* v = m_values.data();
        const double step = v[m_plan.step];
        std::optional<float> epoch;
        std::optional<double> wall;
        if (m_plan.epoch >= 0) epoch = static_cast<float>(v[m_plan.epoch]);
        if (m_plan.wall >= 0) wall = v[m_plan.wall];
        m_state.lastStep = step;
        for (const auto& [index, slotIndex] : m_plan.metrics)
            point(slotIndex, step, StepFrom::Counter, static_cast<float>(v[index]),
                  static_cast<uint32_t>(lineNo), epoch, wall);
    }

    // classifyKey, cached by the key's position in the object (lines repeat their layout).
    KeyKind kindOf(std::string_view key, size_t i)
    {
        if (i < m_kindCache.size() && sameKey(m_kindCache[i].first, key)) return m_kindCache[i].second;
        const KeyKind k = classifyKey(key);
        if (i >= m_kindCache.size()) m_kindCache.resize(i + 1);
        m_kindCache[i] = {std::string(key), k};
        return k;
    }

    static constexpr size_t kMaxLayoutNumbers = 256;
    struct Plan {
        int step = -1, epoch = -1, wall = -1;           // number indices, -1 = absent
        std::vector<std::pair<int, uint32_t>> metrics;  // number index, series slot
    };
    JsonObjectReader m_reader;
    NumberLayout m_layout;
    Plan m_plan;
    std::vector<NumberSpan> m_spans;
    std::vector<double> m_values;
    std::vector<KeyKind> m_entryKinds;  // per entry of the current line (numbers only)
    bool m_lastRowWasEvaluation = false;
    std::vector<std::pair<std::string, KeyKind>> m_kindCache;
};

}  // namespace

int probeJsonlLog(std::string_view name, std::string_view head)
{
    const bool jsonlName = name.ends_with(".jsonl") || name.ends_with(".ndjson") || name.ends_with(".json");
    size_t b = 0;
    while (b < head.size() && (head[b] == ' ' || head[b] == '\n' || head[b] == '\r')) ++b;
    if (b >= head.size() || head[b] != '{') return 0;
    // The first lines must be objects; one of them must hold a number (mmdet's .log.json opens
    // with a line of strings: its environment and config).
    JsonObjectReader r;
    bool number = false;
    for (int lines = 0; lines < 8 && b < head.size() && !number; ++lines) {
        const size_t nl = head.find('\n', b);
        if (nl == std::string_view::npos) return lines == 0 ? (jsonlName ? 30 : 0) : (jsonlName ? 20 : 0);
        if (!r.read(head.substr(b, nl - b))) return lines == 0 ? (jsonlName ? 10 : 0) : (jsonlName ? 20 : 0);
        for (const auto& en : r.entries()) number |= en.isNumber;
        b = nl + 1;
    }
    if (!number) return jsonlName ? 20 : 0;
    // lines that parse as JSON objects with numbers are JSON lines whatever the file is called
    // (DeiT writes them to log.txt): above the text reader's best for such a name (45)
    return jsonlName ? 80 : 50;
}

bool parseJsonlLog(std::string_view bytes, const std::string& path, ParseState& state,
                   const LoadOptions& options, std::vector<ParsedLog>& parts)
{
    // (epoch, iter) steps depend on every line before them: such a file is read in one piece
    LoadOptions opts = options;
    const std::string_view head = bytes.substr(0, 64 * 1024);
    if (head.find("\"iter\"") != std::string_view::npos && head.find("\"epoch\"") != std::string_view::npos)
        opts.threads = 1;
    return parseLines(
        bytes, path, state, opts,
        [](ParsedLog& out, ParseState& st, const std::string& p) {
            return std::make_unique<JsonlLineParser>(out, st, p);
        },
        parts);
}

}  // namespace qatdoctor::core::logs
