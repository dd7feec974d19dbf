#include "core/logs/console_table.h"

#include <algorithm>
#include <cstdlib>
#include <span>

#include "core/logs/metric_names.h"
#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

struct Token {
    std::string_view text;
    size_t begin = 0;
    size_t end = 0;
};

// Whitespace-separated tokens with their positions; stops at the first token ending in ':'
// (YOLO's "640:" / "mAP50-95):" before its progress bar), which is kept without the ':'.
std::vector<Token> tokens(std::string_view s)
{
    std::vector<Token> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const size_t b = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i == b) break;
        std::string_view t = s.substr(b, i - b);
        const bool last = t.size() > 1 && t.back() == ':';
        if (last) t.remove_suffix(1);
        out.push_back({t, b, b + t.size()});
        if (last || out.size() > 64) break;
    }
    return out;
}

std::optional<double> numberOf(std::string_view t)
{
    double v = 0;
    const char* r = t.empty() ? nullptr : parseNumber(t.data(), t.data() + t.size(), v);
    if (r != t.data() + t.size()) return std::nullopt;
    return v;
}

// "3/100" (YOLO's epoch of epochs) or "3"
std::optional<double> epochOf(std::string_view t)
{
    const size_t slash = t.find('/');
    return numberOf(slash == std::string_view::npos ? t : t.substr(0, slash));
}

// The evaluation table's short names as YOLO's results.csv spells them (so that a run folder
// holding both gives one series per quantity): YOLOv5 "mAP50" = "mAP_0.5"; Ultralytics adds the
// task suffix, "mAP50(B)".
std::string evaluationName(std::string_view column, const std::string& suffix)
{
    static const std::pair<std::string_view, std::string_view> kV5[] = {
        {"P", "precision"}, {"R", "recall"}, {"mAP50", "mAP_0.5"}, {"mAP50-95", "mAP_0.5:0.95"}};
    static const std::pair<std::string_view, std::string_view> kV8[] = {
        {"P", "precision"}, {"R", "recall"}, {"mAP50", "mAP50"}, {"mAP50-95", "mAP50-95"}};
    for (const auto& [shortName, name] : suffix.empty() ? std::span(kV5) : std::span(kV8))
        if (column == shortName) return std::string(name) + suffix;
    return std::string(column) + suffix;
}

// Whether the tokens sit under the table's columns: every token up to the last column ends where
// a column ends (right-aligned cells), and at least three do (or every column of a smaller table).
bool alignedUnder(const std::vector<Token>& t, const std::vector<size_t>& ends)
{
    size_t matched = 0;
    for (const Token& k : t) {
        if (k.begin >= ends.back()) break;  // past the table: a progress bar, a comment
        bool under = false;
        for (size_t e : ends) under = under || e == k.end;
        if (!under) return false;
        ++matched;
    }
    return matched >= std::min<size_t>(3, ends.size());
}

}  // namespace

bool hasConsoleCodes(std::string_view line)
{
    const size_t cr = line.find('\r');
    return line.find('\x1b') != std::string_view::npos || line.find('\b') != std::string_view::npos ||
           (cr != std::string_view::npos && cr + 1 < line.size());
}

std::string_view consoleText(std::string_view line, std::string& buffer)
{
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const size_t cr = line.rfind('\r'); cr != std::string_view::npos) line = line.substr(cr + 1);
    if (line.find('\x1b') == std::string_view::npos && line.find('\b') == std::string_view::npos) return line;
    // drawn as a terminal would: a backspace moves the cursor one character back (Keras' progress
    // bar in a terminal or a notebook redraws itself with them), what follows overwrites
    std::vector<std::string_view> cells;
    size_t cursor = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\b') {
            cursor = cursor > 0 ? cursor - 1 : 0;
            continue;
        }
        if (c == '\x1b') {
            // ESC [ parameters final-letter (CSI); anything else: drop the ESC alone
            if (i + 1 < line.size() && line[i + 1] == '[') {
                size_t j = i + 2;
                while (j < line.size() && !isAlpha(line[j])) ++j;
                i = j;
            }
            continue;
        }
        size_t n = 1;  // one character: a UTF-8 sequence whole
        while (i + n < line.size() && (static_cast<unsigned char>(line[i + n]) & 0xC0) == 0x80) ++n;
        const std::string_view ch = line.substr(i, n);
        i += n - 1;
        if (cursor < cells.size())
            cells[cursor] = ch;
        else
            cells.push_back(ch);
        ++cursor;
    }
    buffer.clear();
    for (std::string_view ch : cells) buffer += ch;
    return buffer;
}

bool ConsoleTables::isHeader(std::string_view text)
{
    const std::vector<Token> t = tokens(text);
    // a console line with counters and values ("Epoch [1/3] Step [5/90] loss: 0.5", "epoch=2")
    // is no table's header: headers name columns only (up to YOLO's "mAP50-95):" and its bar)
    if (!t.empty() && text.substr(0, t.back().end).find_first_of("[=") != std::string_view::npos)
        return false;
    if (t.size() < 3) return false;
    const bool epochs = equalsNoCase(t[0].text, "epoch");
    const bool eval = t[0].text == "Class";
    if (!epochs && !eval) return false;
    for (const Token& k : t)
        if (numberOf(k.text) || epochOf(k.text)) return false;
    return true;
}

std::vector<size_t> ConsoleTables::ends(const Table& table)
{
    std::vector<size_t> out;
    for (const Column& c : table.columns) out.push_back(c.end);
    return out;
}

bool ConsoleTables::mayBeHeader(std::string_view text)
{
    size_t i = 0;
    while (i < text.size() && text[i] == ' ') ++i;
    const std::string_view w = text.substr(i, 5);
    return equalsNoCase(w, "epoch") || w == "Class";
}

namespace {

// "a,b,c" split at commas; empty when any item is empty or holds a space.
std::vector<std::string_view> commaItems(std::string_view tail)
{
    std::vector<std::string_view> items;
    size_t b = 0;
    for (size_t i = 0; i <= tail.size(); ++i) {
        if (i < tail.size() && tail[i] != ',') continue;
        const std::string_view item = tail.substr(b, i - b);
        if (item.empty() || item.find(' ') != std::string_view::npos) return {};
        items.push_back(item);
        b = i + 1;
    }
    return items;
}

bool isNumberText(std::string_view s)
{
    char* end = nullptr;
    const std::string copy(s);
    std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && !copy.empty();
}

}  // namespace

std::optional<ConsoleTables::Row> ConsoleTables::commaTableLine(std::string_view text, bool& consumed)
{
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
    const size_t colon = text.rfind(": ");
    if (colon == std::string_view::npos) return std::nullopt;
    const std::string_view tail = text.substr(colon + 2);
    std::string_view before = text.substr(0, colon);
    const size_t space = before.find_last_of(" ]");
    const std::string_view word = space == std::string_view::npos ? before : before.substr(space + 1);
    if (word == "Task") {  // "copypaste: Task: bbox"
        before = before.substr(0, before.size() - word.size());
        while (!before.empty() && (before.back() == ' ' || before.back() == ':')) before.remove_suffix(1);
        const size_t s2 = before.find_last_of(" ]");
        m_comma = {std::string(s2 == std::string_view::npos ? before : before.substr(s2 + 1)),
                   std::string(tail),
                   {}};
        consumed = true;
        return std::nullopt;
    }
    const std::vector<std::string_view> items = commaItems(tail);
    if (items.size() < 2) return std::nullopt;
    const bool numbers = std::all_of(items.begin(), items.end(), isNumberText);
    if (!numbers) {
        if (std::any_of(items.begin(), items.end(), isNumberText)) return std::nullopt;
        if (m_comma.prefix != word) m_comma.task.clear();
        m_comma.prefix = std::string(word);
        m_comma.names.assign(items.begin(), items.end());
        consumed = true;
        return std::nullopt;
    }
    if (m_comma.names.size() != items.size() || m_comma.prefix != word) return std::nullopt;
    consumed = true;
    Row row;
    row.evaluation = true;
    row.atLastStep = true;
    for (size_t i = 0; i < items.size(); ++i)
        row.cells.emplace_back(
            m_comma.task.empty() ? m_comma.names[i] : m_comma.task + "/" + m_comma.names[i],
            std::strtod(std::string(items[i]).c_str(), nullptr));
    m_comma = {};
    return row;
}

std::optional<ConsoleTables::Row> ConsoleTables::line(std::string_view text, bool& consumed)
{
    consumed = false;
    if (text.find(',') != std::string_view::npos || !m_comma.names.empty() ||
        text.find("Task: ") != std::string_view::npos)
        if (auto row = commaTableLine(text, consumed); row || consumed) return row;
    if (m_epochs.columns.empty() && m_eval.columns.empty() && !mayBeHeader(text)) return std::nullopt;
    if (mayBeHeader(text) && isHeader(text)) {
        consumed = true;
        const std::vector<Token> t = tokens(text);
        Table table;
        table.evaluation = t[0].text == "Class";
        for (const Token& k : t) {
            std::string name(k.text);
            // "Box(P" opens Ultralytics' box metrics, "Mask(P" its mask metrics; ")" closes them
            if (const size_t open = name.find('('); open != std::string::npos && table.evaluation) {
                table.suffix = "(" + name.substr(0, 1) + ")";
                name = name.substr(open + 1);
            }
            if (!name.empty() && name.back() == ')') name.pop_back();
            table.columns.push_back({name, k.end});
        }
        m_inEpochs = !table.evaluation;
        (table.evaluation ? m_eval : m_epochs) = std::move(table);
        return std::nullopt;
    }
    if (!m_epochs.columns.empty() && m_inEpochs) {
        if (auto row = epochRow(text)) {
            consumed = true;
            return row;
        }
    }
    if (!m_eval.columns.empty() && !m_inEpochs) return evaluationRow(text, consumed);
    return std::nullopt;
}

std::optional<ConsoleTables::Row> ConsoleTables::epochRow(std::string_view text)
{
    const std::vector<Token> t = tokens(text);
    if (t.empty() || t[0].end != m_epochs.columns[0].end || !alignedUnder(t, ends(m_epochs)))
        return std::nullopt;
    const std::optional<double> epoch = epochOf(t[0].text);
    if (!epoch) return std::nullopt;
    if (!m_epochBase) m_epochBase = *epoch == 0 ? 1.0 : 0.0;
    Row row;
    row.step = *epoch + *m_epochBase;
    for (const Token& k : t) {
        for (const Column& c : m_epochs.columns) {
            if (&c == &m_epochs.columns[0] || c.end != k.end) continue;
            if (classifyKey(c.name) != KeyKind::Metric) break;  // GPU_mem, Instances, Size, dur
            if (const auto v = numberOf(k.text)) row.cells.emplace_back(c.name, *v);
            break;
        }
    }
    m_lastEpoch = row.step;
    m_evalTaken = false;
    return row;
}

std::optional<ConsoleTables::Row> ConsoleTables::evaluationRow(std::string_view text, bool& consumed)
{
    const std::vector<Token> t = tokens(text);
    if (t.size() < 3 || t[0].end != m_eval.columns[0].end || !alignedUnder(t, ends(m_eval)))
        return std::nullopt;
    consumed = true;
    // per-class rows ("helmet  60  98  0.71 ...") follow "all": part of the table, no metrics;
    // an "all" row with no epoch row since the last is the final re-validation of best.pt
    if (t[0].text != "all" || m_evalTaken || !m_lastEpoch) return std::nullopt;
    Row row;
    row.step = *m_lastEpoch;
    row.evaluation = true;
    for (const Token& k : t)
        for (const Column& c : m_eval.columns) {
            if (c.end != k.end || c.name == "Class" || c.name == "Images" || c.name == "Instances" ||
                c.name == "Labels")
                continue;
            if (const auto v = numberOf(k.text))
                row.cells.emplace_back(evaluationName(c.name, m_eval.suffix), *v);
        }
    m_evalTaken = true;
    return row;
}

}  // namespace qatdoctor::core::logs
