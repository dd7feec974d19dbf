#include "core/logs/text_log_parser.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

#include "core/common/number_text.h"
#include "core/logs/console_table.h"
#include "core/logs/line_parser.h"
#include "core/logs/log_layouts.h"
#include "core/logs/metric_names.h"
#include "core/logs/number_layout.h"
#include "core/logs/parameter_fingerprint.h"
#include "core/logs/run_config.h"
#include "core/logs/run_end_lines.h"
#include "core/logs/scan_util.h"
#include "core/logs/stage_header.h"
#include "core/logs/stage_words.h"

namespace qatdoctor::core::logs {
namespace {

// Byte classes, looked up once per byte: the scan below is the hot loop of text parsing.
enum : uint8_t { kKeyStart = 1, kKeyChar = 2, kSuspicious = 4 };

constexpr std::array<uint8_t, 256> makeClasses()
{
    std::array<uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        const bool digit = c >= '0' && c <= '9';
        uint8_t v = 0;
        if (alpha || c == '_') v |= kKeyStart;
        if (alpha || digit || c == '_' || c == '.' || c == '/' || c == '-' || c == '@') v |= kKeyChar;
        if ((c < 0x20 && c != '\t' && c != '\r') || c >= 0x80) v |= kSuspicious;
        t[static_cast<size_t>(c)] = v;
    }
    return t;
}
constexpr auto kClasses = makeClasses();

inline uint8_t classOf(char c)
{
    return kClasses[static_cast<unsigned char>(c)];
}
bool isKeyStart(char c)
{
    return classOf(c) & kKeyStart;
}

// One `key <sep> value` found on a line.
struct Field {
    std::string_view key;
    std::string_view raw;  // the value's text (quotes stripped), for metadata
    double number = 0;
    double total = 0;  // `[3/90]`: 90
    bool isNumber = false;
    bool hasTotal = false;
    // mmdet/mmengine counters: "Epoch [1][50/7330]", "Epoch(train) [1][ 50/1221]" count epochs
    // and iterations from 1 (the iteration's "[i/N]" follows the epoch's "]" directly; torchvision's
    // "Epoch: [0]  [ 120/5004]", spaced, counts both from 0).
    bool adjacent = false;
    bool evalMode = false;  // "Epoch(val)", "Iter(test)": the line is an evaluation's
    bool spaceSep = false;  // "Epoch 1/3": a word and its number, no separator
    bool hasUnit = false;   // "0.233s": the number is followed by a unit
    double avg = 0;         // "5.0359 (5.1047)": the running average after the value
    bool hasAvg = false;
    const char* avgBegin = nullptr;
    const char* avgEnd = nullptr;
    char sep = 0;  // '[', ':', '='
    // where the number and the total are on the line (for the line template)
    const char* numBegin = nullptr;
    const char* numEnd = nullptr;
    const char* totalBegin = nullptr;
    const char* totalEnd = nullptr;
};

constexpr size_t kMaxFields = 48;
constexpr size_t kMaxNumbers = 2 * kMaxFields + 2;  // a number and a total per field, the bare step

bool looksLikeMetric(std::string_view key);

// A metric's whole name, as "Loss 0.5" or torchvision's "Acc@1 0.5" print it without a separator
// (a word that merely contains one, "CUDA Runtime 11.3", is prose).
bool isMetricWord(std::string_view key)
{
    for (std::string_view w : {"loss", "acc", "accuracy", "acc@1", "acc@5", "acc1", "acc5", "top1", "top5",
                               "map", "miou", "iou", "f1", "lr", "precision", "recall", "psnr", "ppl"})
        if (equalsNoCase(key, w)) return true;
    return false;
}

// "Val Loss: 0.3", "Test Acc: 0.9": a split word and the metric's name, one key.
bool isSplitWord(std::string_view w)
{
    for (std::string_view s : {"val", "valid", "validation", "test", "train", "eval"})
        if (equalsNoCase(w, s)) return true;
    return false;
}

// "val loss: 0.38 acc: 93.7%": a split word leading a key names the keys after it too, up to a
// '|' or ';' or a key with a split of its own ("train loss: 0.57 | val loss: 0.38 acc: 93.7").
class SplitScope {
public:
    // The name of the key, the scope's split before it when it has none of its own.
    std::string_view name(std::string_view key, const char* lineBegin)
    {
        const size_t space = key.find(' ');
        if (space != std::string_view::npos && isSplitWord(key.substr(0, space))) {
            m_split = key.substr(0, space);
            m_end = key.data() + key.size();
            return key;
        }
        if (m_split.empty() || isLearningRateKey(key)) return key;
        for (const char* c = std::max(m_end, lineBegin); c < key.data(); ++c)
            if (*c == '|' || *c == ';') {
                m_split = {};
                return key;
            }
        m_name.assign(m_split).append(" ").append(key);
        m_end = key.data() + key.size();
        return m_name;
    }

private:
    std::string_view m_split;
    const char* m_end = nullptr;
    std::string m_name;
};

bool counterWithMode(std::string_view key)
{
    return equalsNoCase(key, "epoch") || equalsNoCase(key, "iter") || equalsNoCase(key, "iteration");
}

std::string_view rawValue(const char* p, const char* e)
{
    const char* b = p;
    char quote = 0;
    if (b < e && (*b == '\'' || *b == '"')) quote = *b++;
    const char* q = b;
    while (q < e && (quote ? *q != quote
                           : (*q != ' ' && *q != ',' && *q != ')' && *q != ']' && *q != '}' && *q != ';')))
        ++q;
    return {b, static_cast<size_t>(q - b)};
}

// Keras' progress line, "  4/16 [======>....]" or "16/16 ━━━━━━": batches done of the epoch, then
// its bar.
bool progressFraction(const char* p, const char* e, double& n, double& total)
{
    while (p < e && *p == ' ') ++p;
    const char* a = parseNumber(p, e, n);
    if (!a || a >= e || *a != '/') return false;
    const char* b = parseNumber(a + 1, e, total);
    if (!b || b >= e || *b != ' ') return false;
    while (b < e && *b == ' ') ++b;
    return b < e && (*b == '[' || std::string_view(b, static_cast<size_t>(e - b)).starts_with("\u2501"));
}

// "4/16": a number and its total, as a counter writes them.
bool fraction(const char* r, const char* e)
{
    double v, t;
    const char* a = parseNumber(r, e, v);
    return a && a < e && *a == '/' && parseNumber(a + 1, e, t);
}

// "[ 5/10]", "[120/5004]": a counter and its total in brackets.
bool isProgressBracket(const char* r, const char* e)
{
    const char* q = r + 1;
    while (q < e && *q == ' ') ++q;
    double v, t;
    const char* a = parseNumber(q, e, v);
    if (!a || a >= e || *a != '/') return false;
    const char* b = parseNumber(a + 1, e, t);
    return b && b < e && *b == ']';
}

// Finds the fields of a line. Returns how many; p is advanced over everything.
// suspicious: a control byte or a byte >= 0x80 outside keys and numbers (then the line gets the
// full binary / UTF-8 check; clean lines never pay for it).
size_t scanFields(const char* p, const char* e, std::array<Field, kMaxFields>& out, bool& bareStep,
                  Field& bare, bool& suspicious)
{
    const char* const lineBegin = p;
    size_t n = 0;
    bareStep = false;
    uint8_t seen = 0;
    while (p < e && n < kMaxFields) {
        const char c = *p;
        const uint8_t cls = classOf(c);
        if (!(cls & kKeyStart) && c != '[') {
            seen |= cls;
            ++p;
            continue;
        }
        if (c == '[' && !bareStep && p + 1 < e && (isDigit(p[1]) || p[1] == ' ')) {
            // a bare "[ 120/5004]" after "Epoch: [0]" (torchvision's MetricLogger)
            const char* q = p + 1;
            while (q < e && *q == ' ') ++q;
            double v;
            const char* r = parseNumber(q, e, v);
            if (r && r < e && *r == '/') {
                double t;
                const char* r2 = parseNumber(r + 1, e, t);
                // timm's "[  50/62 ( 82%)]": the share done in parentheses before the bracket closes
                const char* close = r2;
                if (close && close < e && *close == ' ') {
                    const char* a = close;
                    while (a < e && *a == ' ') ++a;
                    if (a < e && *a == '(') {
                        const char* b = static_cast<const char*>(
                            std::memchr(a, ')', static_cast<size_t>(std::min<ptrdiff_t>(e - a, 12))));
                        if (b && b + 1 < e && b[1] == ']') close = b + 1;
                    }
                }
                if (r2 && close < e && *close == ']') {
                    bare = Field{};
                    bare.adjacent = p > lineBegin && p[-1] == ']';
                    bare.number = v;
                    bare.total = t;
                    bare.numBegin = q;
                    bare.numEnd = r;
                    bare.totalBegin = r + 1;
                    bare.totalEnd = r2;
                    bare.hasTotal = true;
                    bare.isNumber = true;
                    bareStep = true;
                    p = close + 1;
                    continue;
                }
            }
            ++p;
            continue;
        }
        if (c == '[') {
            ++p;
            continue;
        }
        const char* ks = p;
        while (p < e && (classOf(*p) & kKeyChar)) ++p;
        if (p + 1 < e && *p == ' ' && isKeyStart(p[1]) &&
            isSplitWord(std::string_view(ks, static_cast<size_t>(p - ks)))) {
            const char* w = p + 1;
            while (w < e && (classOf(*w) & kKeyChar)) ++w;
            if (w < e && (*w == ':' || *w == '=')) p = w;  // "Val Loss:" is one key
        }
        const char* ke = p;
        while (ke > ks && (ke[-1] == '.' || ke[-1] == '-' || ke[-1] == '/')) --ke;  // "loss." / "lr-"
        const char* q = p;
        bool evalMode = false;
        if (q < e && *q == '(' && counterWithMode(std::string_view(ks, static_cast<size_t>(ke - ks)))) {
            // mmengine's "Epoch(train)", "Iter(val)": the mode in parentheses
            const char* close = static_cast<const char*>(
                std::memchr(q, ')', static_cast<size_t>(std::min<ptrdiff_t>(e - q, 16))));
            if (close) {
                evalMode = isValidationWord(std::string_view(q + 1, static_cast<size_t>(close - q - 1)));
                q = close + 1;
                p = q;
            }
        }
        // "accuracy (fake-quant): 0.99", "Acc (int8) = 0.9": a qualifier between a metric and
        // its value (its words are the line label's, see lineStageOf)
        if (!evalMode && isKeyStart(*ks)) {
            const char* r = q;
            while (r < e && *r == ' ') ++r;
            if (r < e && *r == '(' && looksLikeMetric(std::string_view(ks, static_cast<size_t>(ke - ks)))) {
                const char* close = static_cast<const char*>(
                    std::memchr(r, ')', static_cast<size_t>(std::min<ptrdiff_t>(e - r, 48))));
                const char* a = close ? close + 1 : e;
                while (a < e && *a == ' ') ++a;
                if (close && a < e && (*a == ':' || *a == '=')) q = p = a;
            }
        }
        if (q < e && (*q == '\'' || *q == '"')) ++q;
        bool spaceSep = false;
        if (q < e && *q == ' ') {  // "Epoch [1]", "Epoch(train)  [1]", "loss : 0.5"
            const char* r = q;
            while (r < e && *r == ' ') ++r;
            // "Test: QAT  [5/10]": a word, then a progress counter (the bare step), no metric
            if (r < e && *r == '[' &&
                classifyKey(std::string_view(ks, static_cast<size_t>(ke - ks))) == KeyKind::Metric &&
                isProgressBracket(r, e)) {
                p = r;
                continue;
            }
            if (r < e && (*r == '[' || ((*r == ':' || *r == '=') && r == q + 1))) q = r;
            // "Epoch 1/3", "step 400/1354", torchvision's "Acc@1 0.500": a counter and one space,
            // or a metric word and any spaces ("Acc@1   0.00 (  0.00)"), then a number
            else if (r < e && (isDigit(*r) || (*r == '-' && r + 1 < e && isDigit(r[1])))) {
                const std::string_view k(ks, static_cast<size_t>(ke - ks));
                const KeyKind kind = classifyKey(k);
                // ("world_size 4" in "init distributed: rank 0, world_size 4": a setting's name
                // and its value)
                spaceSep =
                    kind == KeyKind::Metric
                        ? isMetricWord(k) || (countsWithTotal(k) && fraction(r, e)) ||
                              (r == q + 1 && k.find('_') != std::string_view::npos && isHyperParameter(k))
                        : r == q + 1 && kind != KeyKind::System;
            }
        }
        if (q >= e) break;
        const char sep = spaceSep ? ':' : *q;
        if (sep != '[' && sep != ':' && sep != '=') continue;
        if (sep == '=' && q + 1 < e && q[1] == '=') {  // "==== config ====", "a == b": not a setting
            p = q + 1;
            while (p < e && *p == '=') ++p;
            continue;
        }
        // "[train.py:42]": Python logging's filename:lineno, not a metric
        if (sep == ':' && ke - ks > 3 && std::string_view(ke - 3, 3) == ".py") {
            p = q + 1;
            while (p < e && isDigit(*p)) ++p;
            continue;
        }
        Field& f = out[n];
        f = Field{};
        f.key = std::string_view(ks, static_cast<size_t>(ke - ks));
        f.sep = sep;
        f.evalMode = evalMode;
        f.spaceSep = spaceSep;
        ++q;
        while (q < e && *q == ' ') ++q;
        if (sep == ':' && q < e && *q == '[') {  // "Epoch: [0]" (a counter; "Test: [0/10]" is a prefix)
            if (classifyKey(f.key) == KeyKind::Metric) {
                f.raw = std::string_view(q, 0);
                p = q;
                ++n;
                continue;
            }
            ++q;
            f.sep = '[';
        }
        const bool quoted = q < e && (*q == '\'' || *q == '"') && sep != '[';
        // HAT prints a tensor metric as its repr: "MeanIOU[tensor(0.4762, device='cuda:0')]"
        if (sep == '[' && e - q > 7 && std::string_view(q, 7) == "tensor(") q += 7;
        double v;
        // a quoted value is text, whatever it spells ('INFO', '1e-3' in a config dump)
        const char* r = quoted ? nullptr : parseNumber(q, e, v);
        // "eta: 0:10:22" is a time, not a value
        if (r && !(r < e && *r == ':' && sep == ':')) {
            f.isNumber = true;
            // "elapsed: 11s", "time: 0.233s", "GPU_mem 3.2G" carry a unit: a measurement of the
            // job, never a metric (still a number, so the line's template holds)
            f.hasUnit = r < e && isAlpha(*r);
            f.number = v;
            f.numBegin = q;
            f.numEnd = r;
            if (r < e && *r == '/') {
                double t;
                const char* r2 = parseNumber(r + 1, e, t);
                if (r2) {
                    f.total = t;
                    f.hasTotal = true;
                    f.totalBegin = r + 1;
                    f.totalEnd = r2;
                    r = r2;
                }
            }
            f.raw = std::string_view(q, static_cast<size_t>(r - q));
            p = r;
            // "Loss 5.0359 (5.1047)", "loss: 2.39 (2.41)": the value, then its running average
            if (r + 1 < e && *r == ' ' && r[1] == '(') {
                const char* a = r + 2;
                while (a < e && *a == ' ') ++a;
                double avg;
                const char* ae = parseNumber(a, e, avg);
                if (ae && ae < e && *ae == ')') {
                    f.avg = avg;
                    f.hasAvg = true;
                    f.avgBegin = a;
                    f.avgEnd = ae;
                    p = ae + 1;
                }
            }
        } else {
            f.raw = rawValue(q, e);
            // past a quoted value: "device='cuda:0'" holds no "cuda: 0" field
            p = quoted ? std::min(e, f.raw.data() + f.raw.size() + 1) : q;
        }
        ++n;
    }
    if (p < e) {  // stopped at the field limit: check the rest too
        for (; p < e; ++p) seen |= classOf(*p);
    }
    suspicious = seen & kSuspicious;
    return n;
}

// Epoch counters: "[3/90]" and mmdet's "[3][i/N]" count from 1, torchvision's "Epoch: [0]" and
// HAT's from 0. The epoch as counted from 0. (A step within an epoch is the number of iterations
// done, as logged: the global step is epoch_from_0 * N + i, torchvision's 0-based i included.)
inline double fromZero(double counter, bool countsFromOne)
{
    return countsFromOne && counter >= 1 ? counter - 1 : counter;
}

// A line that states a metric's value in words the field scan did not take ("Final accuracy of
// the int8 model is 91.2%", "Top-1 acc (converted) -> 0.90"): a metric word, then within a few
// words a number. Such a line, read as nothing, leaves the reading incomplete (coverage).
bool metricBearing(std::string_view t)
{
    static constexpr std::string_view kWords[] = {"acc",    "accuracy", "loss", "top1", "top-1",
                                                  "map",    "miou",     "f1",   "auc",  "precision",
                                                  "recall", "error",    "err"};
    auto inName = [](char c) { return isAlpha(c) || isDigit(c) || c == '_' || c == '/' || c == '.'; };
    const size_t first = t.find_first_not_of(" \t");
    if (first != std::string_view::npos && (t[first] == '|' || t[first] == '+'))
        return false;  // a table's row
    for (size_t i = 0; i < t.size(); ++i) {
        if (!isAlpha(t[i]) || (i > 0 && inName(t[i - 1]))) continue;
        size_t w = i;
        while (w < t.size() && (isAlpha(t[w]) || isDigit(t[w]) || t[w] == '-' || t[w] == '@')) ++w;
        if (w < t.size() && (t[w] == '_' || t[w] == '/')) continue;  // part of a longer name
        const std::string_view word = t.substr(i, w - i);
        bool metric = false;
        for (std::string_view k : kWords) metric = metric || equalsNoCase(word, k);
        if (!metric) continue;
        // a number within 40 bytes, words and punctuation between ("is", "of the model", "->"),
        // not a measurement with a unit ("0.0ms")
        for (size_t j = w; j < t.size() && j < w + 40; ++j) {
            if (!isDigit(t[j]) || isAlpha(t[j - 1])) continue;
            size_t k = j;
            while (k < t.size() && (isDigit(t[k]) || t[k] == '.')) ++k;
            if (k >= t.size() || !isAlpha(t[k])) return true;
            j = k;
        }
    }
    return false;
}

bool looksLikeMetric(std::string_view key)
{
    for (std::string_view w : {"loss", "acc", "top", "map", "iou", "err", "psnr", "f1", "auc", "grad", "time",
                               "prec", "recall", "score", "ppl", "perplexity", "sim"})
        if (containsNoCase(key, w)) return true;
    return false;
}

class TextLineParser final : public LineParser {
public:
    TextLineParser(ParsedLog& out, ParseState& state, const std::string& path) : LineParser(out, state, path)
    {
        const LogLayout* layout = findLayout(state.layout);
        m_tablesOnly = layout && layout->tablesOnly;
        if (state.openTraceback) {  // the last read ended inside it
            m_inTraceback = true;
            m_traceback = std::move(*state.openTraceback);
            state.openTraceback.reset();
        }
    }

    void line(std::string_view text, uint64_t lineNo, uint64_t offset) override
    {
        if (m_inTraceback) {
            if (continueTraceback(text)) return;
        }
        if (text.empty()) return;
        if (text.size() > kMaxLineBytes && rejectDamaged(text, lineNo, offset)) return;

        const char* p = text.data();
        const char* e = p + text.size();
        std::optional<double> wall;
        size_t used = 0;
        if (isDigit(*p) || *p == '[') {
            // Consecutive lines mostly share the timestamp's second: reuse it.
            constexpr size_t kSecondPrefix = 20;  // "[YYYY-MM-DD HH:MM:SS"
            if (m_tsValid && text.size() > kSecondPrefix &&
                sameBytes(text.data(), m_tsPrefix.data(), kSecondPrefix)) {
                wall = parseTimestamp(text, &used, &m_tsBase, true);
            } else {
                wall = parseTimestamp(text, &used, &m_tsBase);
                m_tsValid = wall && text.size() > kSecondPrefix;
                if (m_tsValid) std::memcpy(m_tsPrefix.data(), text.data(), kSecondPrefix);
            }
            if (wall) p += used;
        }
        if (!m_sawMetricLine && m_state.stepKnown && !m_state.lastStep &&
            (parameterLine(text, lineNo) || configLine(text, lineNo, wall.has_value())))
            return;
        bool bareStep = false, suspicious = false;
        size_t n;
        double values[kMaxNumbers];
        const bool templated = m_template.valid && m_template.layout.match(p, e, values, m_readableEnd);
        bool validationWord = false;
        if (templated && m_template.plan.fast) {
            plannedLine(values, lineNo, wall);
            return;
        }
        if (templated)
            for (size_t k = 0; k < m_template.targets.size(); ++k) *m_template.targets[k] = values[k];
        // the fields of this line: the template's (numbers just parsed) or a full scan's
        const std::array<Field, kMaxFields>& fields = templated ? m_template.fieldsOf : m_fields;
        const Field& bare = templated ? m_template.bare : m_bare;
        if (templated) {
            n = m_template.fields;
            bareStep = m_template.bareStep;
        } else {
            // progress bars redraw with '\r', colours come as ESC codes: read the line as drawn;
            // counters written in Chinese ("第1/12轮 迭代 20/62"): read in the words parsers know
            if (!m_cleaning && hasConsoleCodes(text)) {
                m_cleaning = true;
                line(consoleText(text, m_consoleBuffer), lineNo, offset);
                m_cleaning = false;
                return;
            }
            if (!m_cleaning && rewriteChineseCounters(text, m_consoleBuffer)) {
                m_cleaning = true;
                line(m_consoleBuffer, lineNo, offset);
                m_cleaning = false;
                return;
            }
            const std::string_view rest(p, static_cast<size_t>(e - p));
            bool tableLine = false;
            if (auto row = m_tables.line(rest, tableLine)) return tableRow(*row, lineNo);
            if (tableLine) return;
            // pycocotools' summary table repeats the bbox_mAP line's results as a table
            if (rest.find("@[ IoU=") != std::string_view::npos) return;
            if (runEndFramework(rest)) return finishedLine(text, lineNo);
            n = scanFields(p, e, m_fields, bareStep, m_bare, suspicious);
            // HAT's "Epoch[0] Validation <task>: acc[0.7]": the word before the prefix
            validationWord = rest.find(" Validation ") != std::string_view::npos;
            if (suspicious && rejectDamaged(text, lineNo, offset)) return;
        }

        // counters and the evaluation marker
        std::optional<double> global, step, stepTotal, epoch, epochTotal;
        bool validation = (templated && m_template.validation) || validationWord;
        bool hyper = false;
        bool proseCounters = true;  // every counter on the line was a "word number" pair
        size_t metrics = 0;
        for (size_t i = 0; i < n; ++i) {
            const Field& f = fields[i];
            validation |= f.evalMode;
            if (!f.isNumber) {
                if (!templated && f.sep == ':' && !f.key.empty()) validation |= prefixWord(f.key);
                if (!templated && f.sep != '[') stageSetting(f, lineNo);
                continue;
            }
            switch (m_kinds[i] = templated ? m_template.kinds[i] : fieldKind(f, i, bareStep)) {
                case KeyKind::GlobalStep:
                    global = f.number;
                    break;
                case KeyKind::Step:
                    step = f.number;
                    if (f.hasTotal) stepTotal = f.total;
                    break;
                case KeyKind::Epoch:
                    epoch = f.number;
                    if (f.hasTotal) epochTotal = f.total;
                    break;
                case KeyKind::WallTime:
                    wall = f.number;
                    break;
                case KeyKind::Metric:
                    if (m_tablesOnly)
                        m_kinds[i] = KeyKind::System;  // prose around the tables
                    else
                        ++metrics;
                    break;
                case KeyKind::System:
                    break;
            }
            if (m_kinds[i] != KeyKind::Metric && m_kinds[i] != KeyKind::System &&
                m_kinds[i] != KeyKind::WallTime)
                proseCounters = proseCounters && f.spaceSep;
        }
        // Counters written as words ("Epoch 1/3", "from epoch 0") make a metric line only with
        // metric words: "Start loop from epoch 0, num_epochs=1" is prose.
        if (!templated && proseCounters && (global || step || epoch))
            for (size_t i = 0; i < n; ++i)
                if (fields[i].isNumber && m_kinds[i] == KeyKind::Metric && !looksLikeMetric(fields[i].key) &&
                    !isLearningRateKey(fields[i].key)) {
                    m_kinds[i] = KeyKind::System;
                    --metrics;
                }
        const bool mmCounters = bareStep && bare.adjacent;
        if (bareStep && !step) {  // torchvision's "[ 120/5004]" counts from 0, mmdet's "[1][50/7330]" from 1
            step = bare.number;
            stepTotal = bare.total;
        }
        // Keras: "Epoch 12/150" alone, then "4/4 [=====] - 0s 3ms/step - loss: 0.41 - ...": the
        // batches of the epoch the line before announced
        if (!global && !step && !epoch && metrics > 0 && m_state.lastEpoch) {
            double n = 0, total = 0;
            if (progressFraction(p, e, n, total)) {
                // another count of batches than the epoch's, with no "Epoch" line before it: a
                // model.evaluate() over the test set after training
                if (m_progressTotal > 0 && total != m_progressTotal) {
                    validation = true;
                } else {
                    m_progressTotal = total;
                    step = n;
                    stepTotal = total;
                    epoch = *m_state.lastEpoch;
                }
            }
        }
        if (!templated && metrics == 0 && epoch && !step && !global) {
            m_state.lastEpoch = static_cast<float>(fromZero(*epoch, epochTotal.has_value()));
            m_progressTotal = 0;
        }
        const bool counters = global || step || epoch;
        if (!templated && metrics == 0 && !counters)
            stageHeader(std::string_view(p, static_cast<size_t>(e - p)), lineNo);
        // A warning or error before the first counter line is an event, not configuration: the
        // "CUDA is not available" warning comes before the config block in real logs.
        if (!counters && isEventLine(text)) {
            event(text, lineNo);
            return;
        }
        if (!counters && parameterLine(text, lineNo)) return;
        // (a line of metrics and the lr, without counters, is no settings line: timm's "Train: 0
        // [ 0/62 (0%)] Loss: 0.54 ... LR: 5.0e-03")
        if (!counters) {
            bool metricLike = false;
            for (size_t i = 0; i < n; ++i)
                metricLike = metricLike ||
                             (fields[i].isNumber && fields[i].sep != '=' && looksLikeMetric(fields[i].key));
            for (size_t i = 0; i < n && !hyper && !metricLike; ++i) hyper = isHyperParameter(fields[i].key);
        }
        // Before the first counter line, `key: number` lines are the run's configuration, unless
        // the key names a metric (a log of bare "loss: 0.5" lines has no counters at all).
        bool header = false;
        if (!counters && m_state.stepKnown && !m_state.lastStep && !m_sawMetricLine) {
            header = true;
            for (size_t i = 0; i < n && header; ++i)
                if (fields[i].isNumber && looksLikeMetric(fields[i].key)) header = false;
        }
        if (!counters && (hyper || header)) {
            for (size_t i = 0; i < n; ++i) {
                const Field& f = fields[i];
                if (f.raw.empty() || f.sep == '[' || (f.sep != '=' && !header && !isHyperParameter(f.key)))
                    continue;
                // "PyTorch: 1.6.0", "NVCC: Cuda compilation tools, release 11.6": a lone "key: value"
                // line's value is the rest of the line; a version number keeps its tail ("1.6.0")
                std::string value = n == 1 && f.sep == ':' && !f.isNumber ? restOfLine(f.raw, e)
                                    : f.isNumber ? std::string(rawValue(f.numBegin, e))
                                                 : std::string(f.raw);
                // "GPU number: 8", "Distributed launcher: pytorch": a lone setting named by words
                const std::string_view key = n == 1 && f.sep == ':' ? settingName(p, f.key) : f.key;
                m_out.metadata.emplace(metadataKey(key), std::move(value));
            }
            return;
        }
        // "Accuracy of the network on the 1000 test images: 84.5%" (DeiT): the value's key names
        // what was counted, the metric word before it names the metric
        if (!templated && metrics > 0) nameByMetricWord(p, n);
        // which stage the line's metrics are (templated lines: the template's slots know)
        bool fromContext = false;  // validation or stage taken from the lines before
        std::optional<ParseState::StageTag> lineTag;
        if (templated)
            lineTag = m_template.tag;
        else if (metrics > 0)
            lineTag = lineStageOf(p, n, counters, validation, fromContext, lineNo);
        std::optional<float> epochValue;
        const bool epochFromOne = epochTotal.has_value() || mmCounters;
        if (epoch) epochValue = static_cast<float>(fromZero(*epoch, epochFromOne));
        double x = 0;
        StepFrom from = StepFrom::Counter;
        if (global) {
            x = *global;
        } else if (validation && !m_state.lastStep && m_state.stepKnown && epoch) {
            x = *epoch;  // an evaluation-only log (mmcls Epoch(val) [e][n]): the epoch as logged
        } else if (validation) {
            from = StepFrom::LastStep;  // an evaluation's own batch counter is not a training step
        } else if (step && stepTotal && epoch) {
            x = fromZero(*epoch, epochFromOne) * *stepTotal + *step;
            // "Epoch [1/3] Step [5/90]": an epoch has 90 steps (a setting a run stopped early is
            // measured against)
            if (!m_stepsPerEpochNoted) {
                m_stepsPerEpochNoted = true;
                m_out.metadata.emplace(metadataKey("steps_per_epoch"), numberText(*stepTotal, 10));
            }
        } else if (step) {
            x = *step;
        } else {
            from = StepFrom::LastStep;
        }
        if (from == StepFrom::Counter && !validation)
            m_state.lastStep = x;  // evaluations set no training step
        if (metrics == 0) {
            // (a warning or an error is read, as an event)
            if (!templated && !isEventLine(text) &&
                metricBearing(std::string_view(p, static_cast<size_t>(e - p))))
                unread(lineNo);
            event(text, lineNo);
            return;
        }
        m_sawMetricLine = true;
        m_anyMetricLine = true;
        size_t position = 0;
        if (lineTag) {
            m_lineStage = lineTag->role;
            m_lineDeployStep = lineTag->deployStep;
            m_lineStageReason = lineTag->reason;
        }
        SplitScope scope;
        for (size_t i = 0; i < n; ++i) {
            const Field& f = fields[i];
            if (!f.isNumber || m_kinds[i] != KeyKind::Metric) continue;
            if (validation && isLearningRateKey(f.key)) continue;  // the training lr, repeated
            const uint32_t s = templated ? m_template.slots[i]
                                         : (m_slotOf[i] = slot(scope.name(f.key, p), validation, position++));
            // an evaluation printed batch by batch ("Validate: [56/56] ... Acc@1 0.00 (11.51)"): its
            // result is the running average, and its last line at the step is the one that counts
            // (a summary line without counters states its value first: timm's "* Acc@1 84.4 (15.6)"
            // puts the error in the parentheses)
            const float value = static_cast<float>(validation && f.hasAvg && counters ? f.avg : f.number);
            if (validation && from == StepFrom::LastStep && m_state.lastStep &&
                replaceLast(s, *m_state.lastStep, value, lineNo))
                continue;
            point(s, x, from, value, static_cast<uint32_t>(lineNo), epochValue, wall);
        }
        m_lineStage.reset();
        m_lineDeployStep = {};
        m_lineStageReason.clear();
        followEvaluation(validation, counters, lineTag);
        // a line read in the context of the lines before it is no template for lines like it
        if (!templated && !fromContext) buildTemplate(p, e, n, bareStep, validation, lineTag);
    }

private:
    struct Span {
        NumberSpan at;
        double* target;
    };

    // The last metric line's layout (see NumberLayout) with its fields: a line with the same
    // text around its numbers has the same fields (keys, separators, counters), so only its
    // numbers are parsed. Anything else takes the full scan.
    struct LineTemplate {
        bool valid = false;
        size_t fields = 0;
        bool bareStep = false;
        std::array<Field, kMaxFields> fieldsOf;  // the fields of the line it was made from
        Field bare;
        std::array<KeyKind, kMaxFields> kinds{};  // what those fields were found to be
        std::array<uint32_t, kMaxFields> slots{};
        bool validation = false;
        std::optional<ParseState::StageTag> tag;  // the stage the line's label named
        NumberLayout layout;
        std::vector<double*> targets;  // where each number goes (fieldsOf / bare)
        // Where the counters are among the numbers (indices in line order, -1 = absent), for
        // lines that have a step and metrics and are no evaluation (the bulk of a log).
        struct Plan {
            bool fast = false;
            int global = -1, step = -1, stepTotal = -1, epoch = -1, epochTotal = -1, wall = -1;
            bool mmCounters = false;                        // "[e][i/N]": epoch and iteration count from 1
            std::vector<std::pair<int, uint32_t>> metrics;  // number index, series slot
        } plan;
    };

    void buildTemplate(const char* p, const char* e, size_t n, bool bareStep, bool validation,
                       const std::optional<ParseState::StageTag>& tag)
    {
        LineTemplate& t = m_template;
        t.valid = false;
        t.tag = tag;
        t.layout.clear();
        t.targets.clear();
        // A line read as drawn (progress bars, colours) lives in m_consoleBuffer, which the next
        // such line overwrites or reallocates; the layout's literals point into its line, so it
        // would read freed memory. Such lines are never a template.
        if (m_cleaning || n >= kMaxFields) return;
        std::copy(m_fields.begin(), m_fields.begin() + static_cast<long>(n), t.fieldsOf.begin());
        t.bare = m_bare;
        t.kinds = m_kinds;
        t.slots = m_slotOf;
        t.validation = validation;
        std::vector<Span>& spans = m_spans;
        spans.clear();
        for (size_t i = 0; i < n; ++i) {
            Field& f = t.fieldsOf[i];
            if (!f.isNumber) continue;
            spans.push_back({{f.numBegin, f.numEnd, false}, &f.number});
            if (f.hasTotal) spans.push_back({{f.totalBegin, f.totalEnd, false}, &f.total});
            if (f.hasAvg) spans.push_back({{f.avgBegin, f.avgEnd, false}, &f.avg});
        }
        if (bareStep) {
            spans.push_back({{t.bare.numBegin, t.bare.numEnd, true}, &t.bare.number});
            spans.push_back({{t.bare.totalBegin, t.bare.totalEnd, true}, &t.bare.total});
        }
        if (spans.size() > kMaxNumbers) return;
        std::sort(spans.begin(), spans.end(),
                  [](const Span& a, const Span& b) { return a.at.begin < b.at.begin; });
        m_numberSpans.clear();
        for (const Span& s : spans) {
            m_numberSpans.push_back(s.at);
            t.targets.push_back(s.target);
        }
        if (!t.layout.build(p, e, m_numberSpans)) return;  // overlapping or unknown: no template
        t.fields = n;
        t.bareStep = bareStep;
        t.valid = true;
        buildPlan(t);
    }

    // The same choices as line()'s counter loop, made once, as indices into the numbers.
    static void buildPlan(LineTemplate& t)
    {
        LineTemplate::Plan& plan = t.plan;
        plan = {};
        auto indexOf = [&](const double* target) {
            for (size_t k = 0; k < t.targets.size(); ++k)
                if (t.targets[k] == target) return static_cast<int>(k);
            return -1;
        };
        for (size_t i = 0; i < t.fields; ++i) {
            const Field& f = t.fieldsOf[i];
            if (!f.isNumber) continue;
            switch (t.kinds[i]) {
                case KeyKind::GlobalStep:
                    plan.global = indexOf(&f.number);
                    break;
                case KeyKind::Step:
                    plan.step = indexOf(&f.number);
                    if (f.hasTotal) plan.stepTotal = indexOf(&f.total);
                    break;
                case KeyKind::Epoch:
                    plan.epoch = indexOf(&f.number);
                    if (f.hasTotal) plan.epochTotal = indexOf(&f.total);
                    break;
                case KeyKind::WallTime:
                    plan.wall = indexOf(&f.number);
                    break;
                case KeyKind::Metric:
                    plan.metrics.emplace_back(indexOf(&f.number), t.slots[i]);
                    break;
                case KeyKind::System:
                    break;
            }
        }
        plan.mmCounters = t.bareStep && t.bare.adjacent;
        if (t.bareStep && plan.step < 0) {
            plan.step = indexOf(&t.bare.number);
            plan.stepTotal = indexOf(&t.bare.total);
        }
        bool found = true;
        for (const auto& m : plan.metrics) found &= m.first >= 0;
        plan.fast = !t.validation && (plan.global >= 0 || plan.step >= 0) && !plan.metrics.empty() && found &&
                    !(plan.stepTotal >= 0 && plan.epoch >= 0 && plan.step < 0);
    }

    // A templated metric line whose counters are known from the template (plan.fast): what
    // line() would do with its fields, read straight from the numbers.
    void plannedLine(const double* v, uint64_t lineNo, std::optional<double> wall)
    {
        const LineTemplate::Plan& plan = m_template.plan;
        // a training line ends an evaluation and its header's scope (followEvaluation)
        if (m_state.lastEvaluation || m_state.evalScope) [[unlikely]] {
            m_state.lastEvaluation.reset();
            m_state.evalScope.reset();
        }
        double x;
        const bool epochFromOne = plan.epochTotal >= 0 || plan.mmCounters;
        if (plan.global >= 0) {
            x = v[plan.global];
        } else if (plan.stepTotal >= 0 && plan.epoch >= 0) {
            x = fromZero(v[plan.epoch], epochFromOne) * v[plan.stepTotal] + v[plan.step];
        } else {
            x = v[plan.step];
        }
        std::optional<float> epochValue;
        if (plan.epoch >= 0) epochValue = static_cast<float>(fromZero(v[plan.epoch], epochFromOne));
        if (plan.wall >= 0) wall = v[plan.wall];
        m_state.lastStep = x;
        for (const auto& [index, slotIndex] : plan.metrics)
            point(slotIndex, x, StepFrom::Counter, static_cast<float>(v[index]),
                  static_cast<uint32_t>(lineNo), epochValue, wall);
    }

    // What a numeric field of a scanned line is: a measurement with a unit is the job's; "batch
    // 4/16" counts steps; timm's "Train: 3 [ 50/62 (82%)]" names the epoch before the batch counter;
    // else its key's kind.
    KeyKind fieldKind(const Field& f, size_t i, bool bareStep)
    {
        if (f.hasUnit) return KeyKind::System;
        if (f.hasTotal && countsWithTotal(f.key)) return KeyKind::Step;
        if (bareStep && isSplitWord(f.key) && f.number == std::floor(f.number)) return KeyKind::Epoch;
        return kindOf(f.key, i);
    }

    // classifyKey, cached by the field's position on the line (lines repeat their layout).
    KeyKind kindOf(std::string_view key, size_t i)
    {
        if (i < m_kindCache.size() && sameKey(m_kindCache[i].first, key)) return m_kindCache[i].second;
        const KeyKind k = classifyKey(key);
        if (i >= m_kindCache.size()) m_kindCache.resize(i + 1);
        m_kindCache[i] = {std::string(key), k};
        return k;
    }

    // A "word:" with a non-numeric value (HAT's log prefix "float_val:", "Test:"): whether it
    // marks an evaluation line. Cached: the same prefix repeats. (Its stage words are the line
    // label's, see lineStageOf.)
    bool prefixWord(std::string_view key)
    {
        if (sameKey(key, m_lastPrefix)) return m_lastPrefixIsVal;
        m_lastPrefix.assign(key);
        m_lastPrefixIsVal = isValidationWord(key);
        return m_lastPrefixIsVal;
    }

    // The stage a metric line's metrics belong to, and whether they are an evaluation's:
    // - its label, the words before its first metric ("Epoch[0] calib_val:", "int8 (qnnpack)",
    //   "Float model test", "Test: QAT [5/10]"): that stage; a line without counters labelled
    //   with a stage that only evaluates (calibration, the quantized model) is an evaluation;
    // - else an evaluation line inside an evaluation header's scope: the header's stage;
    // - else a result line without counters right after an evaluation line (torchvision's
    //   " * Acc@1 ...") or inside the scope: that evaluation's, and an evaluation.
    // fromContext: the lines before decided (such a line is no template).
    std::optional<ParseState::StageTag> lineStageOf(const char* p, size_t n, bool counters, bool& validation,
                                                    bool& fromContext, uint64_t lineNo)
    {
        // up to the first metric's value: its key and qualifier are words of the label too
        // ("int8_acc: 0.9", "accuracy (fake-quant): 0.99")
        const char* firstMetric = nullptr;
        for (size_t i = 0; i < n && !firstMetric; ++i)
            if (m_fields[i].isNumber && m_kinds[i] == KeyKind::Metric) firstMetric = m_fields[i].numBegin;
        if (firstMetric && firstMetric > p) {
            const std::string label = labelText(std::string_view(p, static_cast<size_t>(firstMetric - p)));
            // "[val] epoch 1 loss: ...", "[val-int8] ...": a label naming an evaluation
            for (const WordSpan& w : wordsOf(label))
                if (w.begin + w.word.size() < label.size() && isValidationWord(w.word)) validation = true;
            for (const char* zh : {"验证", "评测", "测试"})
                if (label.find(zh) != std::string::npos) validation = true;
            if (const auto m = firstStageMention(label, kInText | kInKey)) {
                if (!counters &&
                    stageOnlyEvaluates(m->role != RunRole::Unknown ? std::optional(m->role) : std::nullopt,
                                       m->deployStep))
                    validation = true;
                return ParseState::StageTag{
                    m->role != RunRole::Unknown ? std::optional(m->role) : std::nullopt,
                    std::string(m->deployStep),
                    "label '" + trimmedText(std::string_view(p, static_cast<size_t>(firstMetric - p))) +
                        "' (line " + std::to_string(lineNo) + ")"};
            }
        }
        if (validation && m_state.evalScope) {
            fromContext = true;
            return m_state.evalScope;
        }
        if (!validation && !counters && (m_state.lastEvaluation || m_state.evalScope)) {
            fromContext = true;
            validation = true;
            const ParseState::StageTag& tag =
                m_state.lastEvaluation ? *m_state.lastEvaluation : *m_state.evalScope;
            if (tag.role || !tag.deployStep.empty()) return tag;
        }
        return std::nullopt;
    }

    // After a metric line: an evaluation line is what a result line after it continues; a
    // training line (counters, no evaluation) ends the evaluation and its header's scope.
    void followEvaluation(bool validation, bool counters, const std::optional<ParseState::StageTag>& tag)
    {
        if (validation) {
            m_state.lastEvaluation = tag.value_or(ParseState::StageTag{});
            return;
        }
        m_state.lastEvaluation.reset();
        if (counters && m_state.evalScope) {
            m_state.evalScope.reset();
            m_template.valid = false;  // it may hold the scope's names
        }
    }

    // The first metric field, when its key is no metric word and the words before it hold one,
    // is named by that word.
    void nameByMetricWord(const char* p, size_t n)
    {
        for (size_t i = 0; i < n; ++i) {
            Field& f = m_fields[i];
            if (!f.isNumber || m_kinds[i] != KeyKind::Metric) continue;
            if (looksLikeMetric(f.key) || isLearningRateKey(f.key)) return;
            const std::string_view before(p, static_cast<size_t>(f.key.data() - p));
            for (const WordSpan& w : wordsOf(before))
                if (isMetricWord(w.word) && !equalsNoCase(w.word, "lr")) {
                    f.key = w.word;
                    return;
                }
            return;
        }
    }

    // A line without metrics that names a stage (stage_header.h): a pipeline marker switches the
    // log's stage from here on (before any metric line it is also a hint of the run's role); an
    // evaluation header opens a scope for the evaluation lines after it.
    void stageHeader(std::string_view rest, uint64_t lineNo)
    {
        const std::optional<StageHeader> h = readStageHeader(rest);
        if (!h) return;
        const std::string reason =
            (h->kind == StageHeader::Kind::Pipeline ? "stage marker '" : "evaluation header '") +
            trimmedText(rest) + "' (line " + std::to_string(lineNo) + ")";
        m_template.valid = false;  // its slots name the previous stage's series
        m_state.lastEvaluation.reset();
        if (h->kind == StageHeader::Kind::Evaluation) {
            m_state.evalScope = ParseState::StageTag{
                h->stage.role != RunRole::Unknown ? std::optional(h->stage.role) : std::nullopt,
                std::string(h->stage.deployStep), reason};
            return;
        }
        enterPipelineStage(h->stage.role, reason);
    }

    // "training_step: qat", "HAT_TRAINING_STEP=float", "stage=calibration": a setting that names
    // the stage the log is in, a pipeline marker.
    void stageSetting(const Field& f, uint64_t lineNo) { stageSetting(f.key, f.raw, f.sep, lineNo); }
    void stageSetting(std::string_view key, std::string_view value, char sep, uint64_t lineNo)
    {
        if (!isStageField(key)) return;
        const std::optional<StageMention> m = firstStageMention(value, kInText | kInKey);
        if (!m || m->role == RunRole::Unknown) return;
        enterPipelineStage(m->role, "setting '" + std::string(key) + std::string(1, sep) +
                                        std::string(value.substr(0, 40)) + "' (line " +
                                        std::to_string(lineNo) + ")");
    }

    // Settings a config line assigned: a stage among them first (its settings are that stage's),
    // then each under its name.
    void readSettings(const std::map<std::string, std::string>& assigned, char sep, uint64_t lineNo)
    {
        for (const auto& [k, v] : assigned) stageSetting(k, v, sep, lineNo);
        for (const auto& [k, v] : assigned) m_out.metadata.emplace(metadataKey(k), v);
    }

    // The log is in stage from here on (before any metric line this is a hint of the run's role).
    void enterPipelineStage(RunRole stage, const std::string& reason)
    {
        m_state.evalScope.reset();
        m_state.lastEvaluation.reset();
        if (!m_anyMetricLine && m_out.roleHints.size() < 8) m_out.roleHints.push_back({stage, reason});
        if (m_state.stage == stage) return;
        m_template.valid = false;
        enterStage(stage);
        m_state.stageReason = reason;
        // a new stage is a new script: its settings block comes before its training lines again
        m_sawMetricLine = false;
        m_state.lastStep.reset();
        m_inConfig = false;
    }

    static std::string trimmedText(std::string_view t)
    {
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
        while (!t.empty() && (t.back() == ' ' || t.back() == '\r' || t.back() == ':')) t.remove_suffix(1);
        return std::string(t.substr(0, 80));
    }

    // The words before a lone setting's key, with it, when they are only words (at most four):
    // mmengine's environment block names settings by phrases ("GPU number: 8").
    static std::string_view settingName(const char* lineBegin, std::string_view key)
    {
        const char* b = lineBegin;
        while (b < key.data() && (*b == ' ' || *b == '\t')) ++b;
        int words = 1;
        for (const char* c = b; c < key.data(); ++c) {
            if (*c == ' ' && c + 1 < key.data() && c[1] != ' ') ++words;
            if (!(isAlpha(*c) || isDigit(*c) || *c == ' ' || *c == '_')) return key;
        }
        if (words > 4) return key;
        return {b, static_cast<size_t>(key.data() + key.size() - b)};
    }

    static std::string restOfLine(std::string_view raw, const char* lineEnd)
    {
        std::string_view rest(raw.data(), static_cast<size_t>(lineEnd - raw.data()));
        while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
        const char before = raw.data()[-1];  // within the line: raw follows "key: "
        if ((before == '\'' || before == '"') && !rest.empty() && rest.back() == before)
            rest.remove_suffix(1);
        return std::string(rest.substr(0, 200));
    }

    // Overwrites the series' last point when it sits at step (a later line of the same evaluation).
    bool replaceLast(uint32_t slotIndex, double step, float value, uint64_t lineNo)
    {
        Series& s = seriesOf(slotIndex);
        if (s.empty() || s.step.back() != step) return false;
        s.value.set(s.size() - 1, value);
        s.line.set(s.size() - 1, static_cast<uint32_t>(lineNo));
        return true;
    }

    // One row of a console table: its metrics at the row's epoch.
    void tableRow(const ConsoleTables::Row& row, uint64_t lineNo)
    {
        m_sawMetricLine = true;
        size_t position = 0;
        if (row.atLastStep) {  // an evaluation's table: at the training step it evaluated
            for (const auto& [key, value] : row.cells)
                point(slot(key, row.evaluation, position++), m_state.lastStep.value_or(0), StepFrom::LastStep,
                      static_cast<float>(value), static_cast<uint32_t>(lineNo), std::nullopt, std::nullopt);
            return;
        }
        m_state.lastStep = row.step;
        const std::optional<float> epoch = static_cast<float>(row.step);
        for (const auto& [key, value] : row.cells)
            point(slot(key, row.evaluation, position++), row.step, StepFrom::Counter,
                  static_cast<float>(value), static_cast<uint32_t>(lineNo), epoch, std::nullopt);
    }

    // A setting's key, named by the stage the log is in ("calibration/world_size"), as series are.
    std::string metadataKey(std::string_view key) const
    {
        return m_state.stage ? std::string(roleName(*m_state.stage)) + "/" + std::string(key)
                             : std::string(key);
    }

    // The configuration a script prints before it trains: mmdet/mmengine's "Config:" block (the
    // Python config file, many lines, until the next log record), Python assignments and dict
    // literals, an argparse Namespace(...). Its numbers are settings, never points: top-level
    // "name = value" lines become metadata, the rest is skipped. true = the line was config.
    bool configLine(std::string_view text, uint64_t lineNo, bool logRecord)
    {
        std::string_view t = text;
        while (!t.empty() && (t.back() == ' ' || t.back() == '\r')) t.remove_suffix(1);
        // a timestamped record or a training line ends the dump
        // (config lines start with a name, a bracket or indentation, never with a date)
        if (m_inConfig && (logRecord || (!t.empty() && isDigit(t[0])) || startsWithNoCase(t, "epoch") ||
                           startsWithNoCase(t, "iter"))) {
            m_inConfig = false;
            m_configBlock.clear();
        }
        if (!m_inConfig && (t.ends_with("Config:") || t.ends_with("config:"))) {
            m_inConfig = true;
            return true;
        }
        const bool python =
            t.find("dict(") != std::string_view::npos || t.find("Namespace(") != std::string_view::npos;
        if (!m_inConfig && !python && !isAssignment(t)) return false;
        // a block assigned over many lines ("train_dataloader = dict(" ... ")"): gathered, then read
        if (!m_configBlock.empty()) {
            m_configBlock += '\n';
            m_configBlock += t;
            m_configDepth += bracketBalance(t);
            if (m_configDepth <= 0 || m_configBlock.size() > 1u << 16) {
                std::map<std::string, std::string> assigned;
                readPythonAssignments(m_configBlock, assigned);
                readSettings(assigned, '=', lineNo);
                m_configBlock.clear();
            }
            return true;
        }
        if (isAssignment(t) && m_inConfig && bracketBalance(t) > 0) {
            m_configBlock.assign(t);
            m_configDepth = bracketBalance(t);
        } else if (isAssignment(t)) {
            std::map<std::string, std::string> assigned;
            readPythonAssignments(t, assigned);
            readSettings(assigned, '=', lineNo);
        } else if (python && !m_inConfig && t.find("Namespace(") != std::string_view::npos) {
            namespaceArguments(t, lineNo);
        }
        stageHeader(t, lineNo);
        return true;
    }

    // "name = value" at the start of a line (a Python assignment, as config dumps print them).
    static bool isAssignment(std::string_view t)
    {
        size_t i = 0;
        while (i < t.size() && (isAlpha(t[i]) || t[i] == '_' || (i > 0 && isDigit(t[i])))) ++i;
        return i > 0 && t.substr(i).starts_with(" = ");
    }

    // argparse's Namespace(lr=0.1, batch_size=32, ...): its keyword arguments are settings.
    void namespaceArguments(std::string_view t, uint64_t lineNo)
    {
        const size_t open = t.find("Namespace(");
        std::array<Field, kMaxFields> fields;
        bool bare = false, suspicious = false;
        Field bf;
        std::map<std::string, std::string> assigned;
        // a script's arguments run past one scan's fields (torchvision prints ~60; world_size last):
        // scanned piece by piece
        const char* from = t.data() + open + 10;
        const char* const end = t.data() + t.size();
        while (from < end) {
            const size_t n = scanFields(from, end, fields, bare, bf, suspicious);
            if (n == 0) break;
            for (size_t i = 0; i < n; ++i)
                if (fields[i].sep == '=' && !fields[i].raw.empty())
                    assigned.emplace(std::string(fields[i].key), std::string(fields[i].raw));
            if (n < kMaxFields) break;
            const Field& last = fields[n - 1];
            const char* next = last.raw.data() + last.raw.size();
            if (next <= from) break;
            from = next;
        }
        readSettings(assigned, '=', lineNo);
    }

    static bool isEventLine(std::string_view text)
    {
        return containsNoCase(text, "WARN") || containsNoCase(text, "ERROR") ||
               containsNoCase(text, "CRITICAL") || containsNoCase(text, "Traceback (most recent call last)");
    }

    // Python prints a warning, then the source line that issued it, indented:
    // "  warnings.warn("Detected call of ..." is code echoed under the warning, not an event.
    static bool isWarningSourceEcho(std::string_view text)
    {
        const size_t first = text.find_first_not_of(" \t");
        if (first == 0 || first == std::string_view::npos) return false;
        const std::string_view code = text.substr(first);
        return code.starts_with("warnings.warn(") || code.starts_with("warnings.warn_explicit(") ||
               code.starts_with("warn(");
    }

    void event(std::string_view text, uint64_t lineNo)
    {
        if (isWarningSourceEcho(text)) return;
        RunEvent::Kind kind;
        if (containsNoCase(text, "Traceback (most recent call last)")) {
            m_inTraceback = true;
            m_traceback = RunEvent{RunEvent::Kind::Traceback,    std::string(text), 0,
                                   static_cast<int64_t>(lineNo), m_state.lastStep,  m_state.stage};
            return;
        }
        if (containsNoCase(text, "ERROR") || containsNoCase(text, "CRITICAL") ||
            containsNoCase(text, "Exception") || containsNoCase(text, "out of memory") ||
            containsNoCase(text, "Killed"))
            kind = RunEvent::Kind::Error;
        else if (containsNoCase(text, "WARN"))
            kind = RunEvent::Kind::Warning;
        else if (containsNoCase(text, "checkpoint") &&
                 (containsNoCase(text, "save") || containsNoCase(text, "load")))
            kind = RunEvent::Kind::Checkpoint;
        else
            return;
        if (m_out.events.size() >= kMaxEvents) return;
        m_out.events.push_back({kind, std::string(text.substr(0, 2000)), 0, static_cast<int64_t>(lineNo),
                                m_state.lastStep, m_state.stage});
    }

    // The line a framework prints when training ended (run_end_lines.h): what a live watch
    // waits for.
    void finishedLine(std::string_view text, uint64_t lineNo)
    {
        if (m_out.events.size() < kMaxEvents)
            m_out.events.push_back({RunEvent::Kind::Finished, std::string(text.substr(0, 2000)), 0,
                                    static_cast<int64_t>(lineNo), m_state.lastStep, m_state.stage});
    }

    // A fingerprint of the weights ("parameters after training: norm 15.48 sha1 c9881e5e"): an
    // event the not-learning rule compares, never a setting or a series.
    bool parameterLine(std::string_view text, uint64_t lineNo)
    {
        if (!parameterFingerprint(text)) return false;
        if (m_out.events.size() < kMaxEvents)
            m_out.events.push_back({RunEvent::Kind::Parameters, std::string(text.substr(0, 2000)), 0,
                                    static_cast<int64_t>(lineNo), m_state.lastStep, m_state.stage});
        return true;
    }

    // true = the line belonged to the traceback
    bool continueTraceback(std::string_view text)
    {
        const bool indented = !text.empty() && (text[0] == ' ' || text[0] == '\t');
        if (m_traceback.text.size() < 8000) {
            m_traceback.text += '\n';
            m_traceback.text += text.substr(0, 500);
        }
        if (indented || text.empty()) return true;
        // the exception line ends the traceback
        m_inTraceback = false;
        if (m_out.events.size() < kMaxEvents) m_out.events.push_back(std::move(m_traceback));
        return true;
    }

    void finish() override
    {
        if (m_inTraceback && m_state.holdOpenTraceback)
            m_state.openTraceback = std::move(m_traceback);
        else if (m_inTraceback && m_out.events.size() < kMaxEvents)
            m_out.events.push_back(std::move(m_traceback));
        m_inTraceback = false;
        m_state.settingsOpen = !m_sawMetricLine && m_state.stepKnown && !m_state.lastStep;
        LineParser::finish();
    }

    static constexpr size_t kMaxEvents = 10000;
    std::array<Field, kMaxFields> m_fields;
    Field m_bare;
    LineTemplate m_template;
    std::vector<Span> m_spans;
    std::vector<NumberSpan> m_numberSpans;
    bool m_sawMetricLine = false;
    bool m_inConfig = false;    // inside a "Config:" dump (see configLine)
    std::string m_configBlock;  // an assignment over many lines being gathered (configLine)
    int m_configDepth = 0;      // its open brackets
    ConsoleTables m_tables;
    bool m_tablesOnly = false;    // the layout's metrics are its tables (LogLayout::tablesOnly)
    std::string m_consoleBuffer;  // a console line as drawn (consoleText)
    bool m_cleaning = false;
    bool m_tsValid = false;
    std::array<char, 20> m_tsPrefix{};  // kSecondPrefix bytes
    double m_tsBase = 0;
    std::array<KeyKind, kMaxFields> m_kinds{};
    std::array<uint32_t, kMaxFields> m_slotOf{};
    std::vector<std::pair<std::string, KeyKind>> m_kindCache;
    bool m_inTraceback = false;
    RunEvent m_traceback;
    std::string m_lastPrefix;
    bool m_lastPrefixIsVal = false;
    bool m_anyMetricLine = false;  // a metric line was read (m_sawMetricLine restarts with a stage)
    double m_progressTotal = 0;    // Keras: batches per epoch of the progress lines since "Epoch N/M"
    bool m_stepsPerEpochNoted = false;
};

}  // namespace

int probeTextLog(std::string_view name, std::string_view head)
{
    // Count lines of the head that carry a counter and a numeric metric.
    int metricLines = 0, counterLines = 0, lines = 0, binaryLines = 0;
    std::string cleaned;
    std::array<Field, kMaxFields> fields;
    ConsoleTables commaTables;
    size_t b = 0;
    while (b < head.size() && lines < 400) {
        size_t nl = head.find('\n', b);
        if (nl == std::string_view::npos) break;
        std::string_view l = head.substr(b, nl - b);
        b = nl + 1;
        ++lines;
        if (hasConsoleCodes(l)) l = consoleText(l, cleaned);
        std::string rewritten;  // "第 1/3 轮 损失: 0.6" is read as the parser reads it
        if (rewriteChineseCounters(l, rewritten)) l = rewritten;
        // a damaged line (NUL bytes of a crash, a binary blob) does not make the file binary;
        // most lines being so does
        if (checkLine(l).binary) {
            ++binaryLines;
            continue;
        }
        if (ConsoleTables::isHeader(l)) {  // skorch's / YOLO's epoch table: the rows follow
            counterLines += 2;
            continue;
        }
        bool tableLine = false;  // an evaluator's comma table ("copypaste: top1,top5" then values)
        if (commaTables.line(l, tableLine)) ++metricLines;
        if (tableLine) continue;
        bool bare = false;
        Field bf;
        const char* p = l.data();
        size_t used = 0;
        if (!l.empty() && parseTimestamp(l, &used)) p += used;
        bool suspicious = false;
        const size_t n = scanFields(p, l.data() + l.size(), fields, bare, bf, suspicious);
        bool counter = false, metric = false;
        for (size_t i = 0; i < n; ++i) {
            if (!fields[i].isNumber) continue;
            const KeyKind k = fields[i].hasUnit ? KeyKind::System : classifyKey(fields[i].key);
            if (k == KeyKind::Metric)
                metric = true;
            else if (k != KeyKind::WallTime && k != KeyKind::System)
                counter = true;
        }
        metricLines += metric;
        counterLines += counter && metric;
    }
    if (binaryLines * 2 > lines) return 0;
    // a name that says it is a log, or names a pipeline stage ("4_int8测试.txt", "calib_eval.txt"):
    // an evaluation-only file holds one metric line
    const bool logName = hasLogName(name);
    if (counterLines >= 2) return logName ? 60 : 45;
    if (counterLines >= 1 || metricLines >= 3) return logName ? 40 : 20;
    return logName && metricLines > 0 ? 15 : 0;
}

bool parseTextLog(std::string_view bytes, const std::string& path, ParseState& state,
                  const LoadOptions& options, std::vector<ParsedLog>& parts)
{
    // A log that names its stages names them for everything after: the second half of a file
    // read on two threads starts in the stage the head's markers leave (HAT's training_step at
    // the top); parseLines reads it again after the first half when that was not so.
    LoadOptions opts = options;
    const std::string_view head = bytes.substr(0, 64 * 1024);
    opts.secondHalfStage = state.stage;
    for (size_t b = 0, lines = 0; b < head.size() && lines < 4000; ++lines) {
        const size_t nl = head.find('\n', b);
        if (nl == std::string_view::npos) break;
        std::string_view l = head.substr(b, nl - b);
        b = nl + 1;
        size_t used = 0;
        if (!l.empty() && parseTimestamp(l, &used)) l.remove_prefix(used);
        if (l.find_first_of("0123456789") != std::string_view::npos &&
            labelText(l).find_first_of("0123456789") != std::string::npos)
            continue;  // a line with numbers is no marker
        if (const auto h = readStageHeader(l); h && h->kind == StageHeader::Kind::Pipeline)
            opts.secondHalfStage = h->stage.role;
    }
    if (state.offset == 0) {
        const size_t slash = path.find_last_of('/');
        state.layout =
            detectLayout("text", slash == std::string::npos ? path : path.substr(slash + 1), head).id;
    }
    // a printed table's header comes once (skorch): its rows need it, so one piece too
    if (const LogLayout* layout = findLayout(state.layout); layout && layout->tablesOnly) opts.threads = 1;
    return parseLines(
        bytes, path, state, opts,
        [](ParsedLog& out, ParseState& st, const std::string& p) {
            return std::make_unique<TextLineParser>(out, st, p);
        },
        parts);
}

}  // namespace qatdoctor::core::logs
