#include "core/logs/csv_log_parser.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "core/logs/line_parser.h"
#include "core/logs/line_shape.h"
#include "core/logs/metric_names.h"
#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

char detectDelimiter(std::string_view header)
{
    char best = ',';
    size_t bestCount = 0;
    for (char d : {',', '\t', ';', '|'}) {
        size_t n = 0;
        for (char c : header) n += c == d;
        if (n > bestCount) {
            bestCount = n;
            best = d;
        }
    }
    return best;
}

std::string_view trimField(std::string_view f)
{
    while (!f.empty() && (f.front() == ' ' || f.front() == '"' || f.front() == '\'')) f.remove_prefix(1);
    while (!f.empty() && (f.back() == ' ' || f.back() == '"' || f.back() == '\'' || f.back() == '\r'))
        f.remove_suffix(1);
    return f;
}

class CsvLineParser final : public LineParser {
public:
    CsvLineParser(ParsedLog& out, ParseState& state, const std::string& path) : LineParser(out, state, path)
    {
        if (m_state.headerDone) setupColumns();
    }

    void line(std::string_view text, uint64_t lineNo, uint64_t offset) override
    {
        if (text.empty() || text[0] == '#') return;
        if (!m_state.headerDone) {
            if (rejectDamaged(text, lineNo, offset)) return;
            m_state.delimiter = detectDelimiter(text);
            size_t b = 0;
            for (size_t i = 0; i <= text.size(); ++i) {
                if (i == text.size() || text[i] == m_state.delimiter) {
                    m_state.columns.emplace_back(trimField(text.substr(b, i - b)));
                    b = i + 1;
                }
            }
            m_state.headerDone = true;
            setupColumns();
            return;
        }
        if (text.size() > kMaxLineBytes) {
            rejectDamaged(text, lineNo, offset);
            return;
        }
        if (!plainRow(text, lineNo)) {
            flushPending();  // the rows before it go first
            parseRow(text, lineNo, offset, false);
        }
    }

    // Rows of the last plain row's exact shape, straight into the batch: the shape's length
    // says where the row ends, so only that byte is checked for the newline.
    const char* lineRun(const char* b, const char* end, const char* stopAt, uint64_t& lineNo,
                        uint64_t maxLines) override
    {
        if (!m_state.headerDone || !m_shape.valid() || m_cells.empty()) return b;
        const size_t length = m_shape.length();
        for (uint64_t n = 0; n < maxLines && b < stopAt; ++n) {
            const char* le = b + length;
            if (le >= end) break;
            const char* nl = *le == '\r' ? le + 1 : le;  // CRLF rows have the '\r' after the shape
            if (nl >= end || *nl != '\n' || !LineShape::readable(le, m_readableEnd) ||
                !m_shape.match(b, le, nextRow()))
                break;
            keepRow(++lineNo);
            b = nl + 1;
        }
        return b;
    }

    void partialLastLine(std::string_view text, uint64_t lineNo, uint64_t offset) override
    {
        flushPending();
        // A hand-written CSV often lacks the final newline: keep the row when it is complete.
        if (m_state.headerDone && !text.empty() && text.size() <= kMaxLineBytes &&
            parseRow(text, lineNo, offset, true))
            return;
        LineParser::partialLastLine(text, lineNo, offset);
    }

private:
    void setupColumns()
    {
        m_kinds.clear();
        for (const std::string& c : m_state.columns) m_kinds.push_back(classifyKey(c));
        m_cells.resize(m_state.columns.size());
        m_batch.assign(kBatchRows * m_cells.size(), 0.0);
        m_rows = 0;
        m_have.resize(m_state.columns.size());
        m_colSlot.assign(m_state.columns.size(), UINT32_MAX);
        m_metricCols.clear();
        m_counterCols.clear();
        for (size_t i = 0; i < m_kinds.size(); ++i)
            (m_kinds[i] == KeyKind::Metric ? m_metricCols : m_counterCols)
                .push_back(static_cast<uint32_t>(i));
        // Which column gives the step, the epoch and the time of a row with every cell filled
        // (what parseRow's counter loop picks then: the last global step, else the first step).
        m_stepCol = m_epochCol = m_wallCol = -1;
        int firstStep = -1;
        for (const uint32_t i : m_counterCols) {
            const int c = static_cast<int>(i);
            switch (m_kinds[i]) {
                case KeyKind::GlobalStep:
                    m_stepCol = c;
                    break;
                case KeyKind::Step:
                    if (firstStep < 0) firstStep = c;
                    break;
                case KeyKind::Epoch:
                    m_epochCol = c;
                    break;
                case KeyKind::WallTime:
                    m_wallCol = c;
                    break;
                case KeyKind::Metric:
                    break;
                case KeyKind::System:
                    break;
            }
        }
        if (m_stepCol < 0) m_stepCol = firstStep;
        // A per-epoch file (no step column): its epoch is the step.
        m_stepIsEpoch = m_stepCol < 0 && m_epochCol >= 0 && m_state.epochIsStep;
        if (m_stepIsEpoch) m_stepCol = m_epochCol;
    }

    // The common row: a plain number in every cell, no spaces or quotes. Returns false for
    // anything else (parseRow then reads it, with its warnings), before touching any series.
    // Its cells go to the batch; flushPending() writes the batch to the series.
    bool plainRow(std::string_view text, uint64_t lineNo)
    {
        const size_t ncol = m_cells.size();
        if (ncol == 0) return false;
        const char d = m_state.delimiter;
        const char* p = text.data();
        const char* e = p + text.size();
        double* cells = nextRow();
        // Rows mostly keep the widths of the row before: then a word-wise shape check reads them.
        const bool wordsReadable = LineShape::readable(e, m_readableEnd);
        if (!(wordsReadable && m_shape.valid() && m_shape.match(p, e, cells))) {
            m_spans.clear();
            for (size_t col = 0;; ++col) {
                const char* r = parseNumber(p, e, cells[col]);
                if (!r) return false;
                m_spans.push_back({p, r, false});
                if (col + 1 == ncol) {
                    if (r != e) return false;
                    break;
                }
                if (r == e || *r != d) return false;
                p = r + 1;
            }
            if (wordsReadable) m_shape.learn(text.data(), e, m_spans);
        }
        // (the state's last step is set when the batch is written: reading a cell back now
        // would wait for match()'s vector store)
        keepRow(lineNo);
        return true;
    }

    // The batch row the next plain row's cells go to; keepRow() takes it (a full batch is
    // written to the series).
    double* nextRow() { return m_batch.data() + m_rows * m_cells.size(); }
    void keepRow(uint64_t lineNo)
    {
        m_batchLines[m_rows] = static_cast<uint32_t>(lineNo);
        if (++m_rows == kBatchRows) flushPending();
    }

    void flushPending() override
    {
        const size_t rows = m_rows;
        if (rows == 0) return;
        m_rows = 0;
        const size_t ncol = m_cells.size();
        if (m_stepCol >= 0)
            m_state.lastStep = m_batch[(rows - 1) * ncol + static_cast<size_t>(m_stepCol)] + stepOffset();
        for (size_t pos = 0; pos < m_metricCols.size(); ++pos) {
            const uint32_t i = m_metricCols[pos];
            if (m_colSlot[i] == UINT32_MAX) m_colSlot[i] = slot(m_state.columns[i], false, pos);
        }
        if (m_metricCols.empty()) return;  // counters only: no points
        if (m_stepCol < 0 || m_wallCol >= 0) {
            // steps by order, or wall-time marks: point by point
            for (size_t r = 0; r < rows; ++r) pointsOfRow(m_batch.data() + r * ncol, m_batchLines[r]);
            return;
        }
        // Column by column, in runs of rows with one epoch (a mark, then the run's points).
        for (size_t begin = 0; begin < rows;) {
            size_t end = begin + 1;
            if (m_epochCol >= 0) {
                // equal cells: one run (unequal cells that round to one float, or NaNs, only
                // split it: markEpoch adds no mark for an unchanged epoch)
                const double* cell = m_batch.data() + static_cast<size_t>(m_epochCol);
                const double first = cell[begin * ncol];
                while (end < rows && cell[end * ncol] == first) ++end;
            } else {
                end = rows;
            }
            // The run's steps and lines are written once, for the first metric; the others
            // share them (Column::appendFrom) or copy them when they no longer share.
            const Series& first = seriesOf(m_colSlot[m_metricCols.front()]);
            const size_t firstBase = first.size();
            for (const uint32_t i : m_metricCols) {
                Series& s = seriesOf(m_colSlot[i]);
                if (m_epochCol >= 0) s.markEpoch(epochOfRow(begin));
                if (&s == &first) {
                    appendRowSteps(s, begin, end);
                } else {
                    s.step.appendFrom(first.step, firstBase, end - begin);
                    s.line.appendFrom(first.line, firstBase, end - begin);
                }
                appendRowValues(s, begin, end, i);
            }
            begin = end;
        }
    }

    float epochOfRow(size_t r) const
    {
        return static_cast<float>(m_batch[r * m_cells.size() + static_cast<size_t>(m_epochCol)]);
    }

    // Appends the steps (from m_stepCol) and lines of rows [begin, end) of the batch to s.
    void appendRowSteps(Series& s, size_t begin, size_t end)
    {
        const size_t ncol = m_cells.size(), n = end - begin;
        const double* row = m_batch.data() + begin * ncol + static_cast<size_t>(m_stepCol);
        double* step = s.step.grow(n);
        const double offset = stepOffset();
        for (size_t r = 0; r < n; ++r, row += ncol) step[r] = *row + offset;
        std::copy(m_batchLines + begin, m_batchLines + end, s.line.grow(n));
    }

    // Appends rows [begin, end) of the batch's column `col` to s's values.
    void appendRowValues(Series& s, size_t begin, size_t end, uint32_t col)
    {
        const size_t ncol = m_cells.size(), n = end - begin;
        const double* row = m_batch.data() + begin * ncol + col;
        float* value = s.value.grow(n);
        for (size_t r = 0; r < n; ++r, row += ncol) value[r] = static_cast<float>(*row);
    }

    // One row's points through LineParser::point (what step resolution and time marks need).
    void pointsOfRow(const double* cells, uint32_t lineNo)
    {
        std::optional<float> epoch;
        std::optional<double> wall;
        if (m_epochCol >= 0) epoch = static_cast<float>(cells[m_epochCol]);
        if (m_wallCol >= 0) wall = cells[m_wallCol];
        const bool hasStep = m_stepCol >= 0;
        const double step = hasStep ? cells[m_stepCol] + stepOffset() : 0.0;
        for (const uint32_t i : m_metricCols)
            point(m_colSlot[i], step, hasStep ? StepFrom::Counter : StepFrom::Order,
                  static_cast<float>(cells[i]), lineNo, epoch, wall);
    }

    // false when the row is unusable (then a warning was given unless quiet)
    bool parseRow(std::string_view text, uint64_t lineNo, uint64_t offset, bool quiet)
    {
        const char d = m_state.delimiter;
        const char* p = text.data();
        const char* e = p + text.size();
        const size_t ncol = m_kinds.size();
        size_t col = 0;
        bool bad = false;
        while (true) {
            // fast path: the number ends right at the delimiter (no second scan of the field)
            const char* q = p;
            while (q < e && *q == ' ') ++q;
            double v;
            const char* r = (q < e && *q != d) ? parseNumber(q, e, v) : nullptr;
            const char* fe = r;
            if (r) {
                while (fe < e && *fe == ' ') ++fe;
                if (fe < e && *fe != d) r = nullptr;
            }
            if (!r) {
                fe = q;
                while (fe < e && *fe != d) ++fe;
                const char* t = q;
                while (t < fe && (*t == ' ' || *t == '"')) ++t;
                r = t < fe ? parseNumber(t, fe, v) : nullptr;
                if (!r && t < fe && col < ncol) bad = true;  // a non-numeric cell is not a point
            }
            if (col < ncol) {
                m_have[col] = r != nullptr;
                if (r) m_cells[col] = v;
            }
            ++col;
            if (fe >= e) break;
            p = fe + 1;
        }
        if (col != ncol) {
            if (quiet) return false;
            warn("csv_columns",
                 "row has " + std::to_string(col) + " fields, the header has " + std::to_string(ncol) +
                     "; row skipped",
                 lineNo, static_cast<int64_t>(offset));
            return false;
        }
        if (bad && rejectDamaged(text, lineNo, offset)) return false;
        std::optional<double> step, wall;
        std::optional<float> epoch;
        for (const uint32_t i : m_counterCols) {
            if (!m_have[i]) continue;
            switch (m_kinds[i]) {
                case KeyKind::GlobalStep:
                    step = m_cells[i];
                    break;
                case KeyKind::Step:
                    if (!step) step = m_cells[i];
                    break;
                case KeyKind::Epoch:
                    epoch = static_cast<float>(m_cells[i]);
                    break;
                case KeyKind::WallTime:
                    wall = m_cells[i];
                    break;
                case KeyKind::Metric:
                    break;
                case KeyKind::System:
                    break;
            }
        }
        if (!step && epoch && m_stepIsEpoch) step = *epoch + m_state.epochStepOffset;
        if (step) m_state.lastStep = step;
        for (size_t pos = 0; pos < m_metricCols.size(); ++pos) {
            const uint32_t i = m_metricCols[pos];
            if (!m_have[i]) continue;
            if (m_colSlot[i] == UINT32_MAX) m_colSlot[i] = slot(m_state.columns[i], false, pos);
            const uint32_t s = m_colSlot[i];
            point(s, step.value_or(0), step ? StepFrom::Counter : StepFrom::Order,
                  static_cast<float>(m_cells[i]), static_cast<uint32_t>(lineNo), epoch, wall);
        }
        return true;
    }

    double stepOffset() const { return m_stepIsEpoch ? m_state.epochStepOffset : 0.0; }

    std::vector<KeyKind> m_kinds;
    bool m_stepIsEpoch = false;
    std::vector<double> m_cells;
    std::vector<char> m_have;
    std::vector<uint32_t> m_colSlot;                      // series slot per column, looked up once
    std::vector<uint32_t> m_metricCols, m_counterCols;    // columns by use, in order
    int m_stepCol = -1, m_epochCol = -1, m_wallCol = -1;  // for plainRow; -1 = none
    LineShape m_shape;                                    // of the last plain row
    std::vector<NumberSpan> m_spans;
    // Plain rows not yet written to the series: their cells, row by row, and line numbers.
    static constexpr size_t kBatchRows = 256;
    std::vector<double> m_batch;
    uint32_t m_batchLines[kBatchRows] = {};
    size_t m_rows = 0;
};

}  // namespace

int probeCsvLog(std::string_view name, std::string_view head)
{
    const bool csvName = name.ends_with(".csv") || name.ends_with(".tsv");
    const size_t nl = head.find('\n');
    if (nl == std::string_view::npos) return 0;
    const std::string_view header = head.substr(0, nl);
    const char d = detectDelimiter(header);
    size_t cols = 1;
    for (char c : header) cols += c == d;
    if (cols < 2) return 0;
    // The second line should have as many fields, mostly numbers.
    const size_t nl2 = head.find('\n', nl + 1);
    const std::string_view row =
        head.substr(nl + 1, nl2 == std::string_view::npos ? std::string_view::npos : nl2 - nl - 1);
    size_t rowCols = 1;
    for (char c : row) rowCols += c == d;
    bool counter = false;
    size_t b = 0;
    for (size_t i = 0; i <= header.size(); ++i) {
        if (i == header.size() || header[i] == d) {
            const KeyKind k = classifyKey(trimField(header.substr(b, i - b)));
            counter |= k == KeyKind::Step || k == KeyKind::GlobalStep || k == KeyKind::Epoch;
            b = i + 1;
        }
    }
    if (rowCols != cols) return csvName ? 10 : 0;
    if (csvName) return counter ? 70 : 45;
    return counter ? 35 : 0;
}

bool csvIsResultTable(std::string_view head)
{
    const size_t nl = head.find('\n');
    if (nl == std::string_view::npos) return false;
    std::string_view header = head.substr(0, nl);
    if (!header.empty() && header.back() == '\r') header.remove_suffix(1);
    const char d = detectDelimiter(header);
    for (size_t b = 0, i = 0; i <= header.size(); ++i) {
        if (i < header.size() && header[i] != d) continue;
        const KeyKind k = classifyKey(trimField(header.substr(b, i - b)));
        if (k == KeyKind::Step || k == KeyKind::GlobalStep || k == KeyKind::Epoch) return false;
        b = i + 1;
    }
    const size_t nl2 = head.find('\n', nl + 1);
    std::string_view row =
        head.substr(nl + 1, nl2 == std::string_view::npos ? std::string_view::npos : nl2 - nl - 1);
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    for (size_t b = 0, i = 0; i <= row.size(); ++i) {
        if (i < row.size() && row[i] != d) continue;
        const std::string_view cell = trimField(row.substr(b, i - b));
        b = i + 1;
        double v = 0;
        if (!cell.empty() &&
            parseNumber(cell.data(), cell.data() + cell.size(), v) != cell.data() + cell.size())
            return true;  // a text cell names the row
    }
    return false;
}

namespace {

// Whether the rows are one per epoch (the first two data rows' epoch cells are e and e + 1, in a
// file with no step column), and then the epoch the file starts from. Decided before the rows are
// split between threads: every row needs the answer.
std::optional<double> firstEpochOfPerEpochRows(std::string_view rows, const ParseState& state)
{
    int epochCol = -1;
    for (size_t i = 0; i < state.columns.size(); ++i) {
        const KeyKind k = classifyKey(state.columns[i]);
        if (k == KeyKind::Step || k == KeyKind::GlobalStep) return std::nullopt;
        if (k == KeyKind::Epoch && epochCol < 0) epochCol = static_cast<int>(i);
    }
    if (epochCol < 0) return std::nullopt;
    std::vector<double> epochs;
    for (size_t b = 0; b < rows.size() && epochs.size() < 2;) {
        const size_t nl = std::min(rows.find('\n', b), rows.size());
        const std::string_view row = rows.substr(b, nl - b);
        b = nl + 1;
        if (row.empty() || row[0] == '#') continue;
        size_t col = 0, f = 0;
        for (size_t i = 0; i <= row.size(); ++i) {
            if (i < row.size() && row[i] != state.delimiter) continue;
            if (col++ == static_cast<size_t>(epochCol)) {
                const std::string_view cell = trimField(row.substr(f, i - f));
                double v = 0;
                const char* r =
                    cell.empty() ? nullptr : parseNumber(cell.data(), cell.data() + cell.size(), v);
                if (r != cell.data() + cell.size()) return std::nullopt;
                epochs.push_back(v);
                break;
            }
            f = i + 1;
        }
    }
    if (epochs.size() < 2 || epochs[1] != epochs[0] + 1) return std::nullopt;
    return epochs[0];
}

}  // namespace

bool parseCsvLog(std::string_view bytes, const std::string& path, ParseState& state,
                 const LoadOptions& options, std::vector<ParsedLog>& parts)
{
    const LineParserFactory factory = [](ParsedLog& out, ParseState& st, const std::string& p) {
        return std::make_unique<CsvLineParser>(out, st, p);
    };
    // The header must be known before the bytes are split between threads.
    if (!state.headerDone) {
        size_t start = 0;
        ParsedLog& head = parts.emplace_back();
        while (!state.headerDone) {
            const size_t nl = bytes.find('\n', start);
            if (nl == std::string_view::npos) break;
            CsvLineParser p(head, state, path);
            std::string_view l = bytes.substr(start, nl - start);
            if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
            p.line(l, ++state.line, state.offset);
            state.offset += nl + 1 - start;
            start = nl + 1;
        }
        if (!state.headerDone) return true;
        if (const auto first = firstEpochOfPerEpochRows(bytes.substr(start), state)) {
            state.epochIsStep = true;
            state.epochStepOffset = *first == 0 ? 1.0 : 0.0;
        }
        return parseLines(bytes.substr(start), path, state, options, factory, parts);
    }
    return parseLines(bytes, path, state, options, factory, parts);
}

}  // namespace qatdoctor::core::logs
