// Tables that training scripts print to a console, one row per epoch, values right-aligned under
// a header of column names: skorch's PrintLog ("  epoch    train_loss    valid_acc ..."), YOLOv5's
// and Ultralytics' progress table ("      Epoch    GPU_mem   box_loss ...", rows "  1/8  2.31G
// 1.346 ...: 100%|...") and their evaluation table ("  Class  Images  Instances  Box(P  R  mAP50
// mAP50-95)", row "  all  60  211  0.41  0.62 ..."). Cells are matched to columns by where they
// end, so an empty cell (skorch's "cp") shifts nothing. Also the two-line comma tables an
// evaluator prints for copying into a spreadsheet (detectron2's "copypaste: Task: bbox",
// "copypaste: AP,AP50,AP75", "copypaste: 40.1,60.2,43.0"): the names line, then the values line
// under the same prefix, an evaluation at the last training step. Lines are given cleaned
// (consoleText).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qatdoctor::core::logs {

// A console line as it was last drawn: the text after the last '\r' (progress bars redraw in
// place), colour codes (ESC [ ... letter) removed. buffer holds the result when it differs.
std::string_view consoleText(std::string_view line, std::string& buffer);

// Whether the line holds bytes consoleText removes (ESC or an inner '\r').
bool hasConsoleCodes(std::string_view line);

class ConsoleTables {
public:
    struct Row {
        double step = 0;                                    // the epoch, counted from 1
        bool evaluation = false;                            // a row of the evaluation table
        bool atLastStep = false;                            // no epoch of its own: the last step's
        std::vector<std::pair<std::string, double>> cells;  // metric key as logged -> value
    };

    // Reads a cleaned line. Returns a row of metrics, or nothing; `consumed` says whether the
    // line belonged to a table (a header, a row, a per-class row) and needs no other reading.
    std::optional<Row> line(std::string_view text, bool& consumed);

    // Whether the text is a table header (for the format probe).
    static bool isHeader(std::string_view text);

private:
    struct Column {
        std::string name;
        size_t end = 0;  // one past the name's last character: where right-aligned cells end
    };
    struct Table {
        std::vector<Column> columns;
        bool evaluation = false;
        std::string suffix;  // Ultralytics' "Box(P ..." columns are the box metrics: "(B)"
    };
    struct CommaTable {
        std::string prefix;  // the word before the names: "copypaste"
        std::string task;    // "Task: bbox" before the names: the metrics are "bbox/AP"
        std::vector<std::string> names;
    };
    std::optional<Row> commaTableLine(std::string_view text, bool& consumed);
    std::optional<Row> epochRow(std::string_view text);
    std::optional<Row> evaluationRow(std::string_view text, bool& consumed);
    // The first word, cheaply: most lines are no table line and must cost next to nothing.
    static bool mayBeHeader(std::string_view text);
    static std::vector<size_t> ends(const Table& table);

    CommaTable m_comma;
    Table m_epochs;
    Table m_eval;
    bool m_inEpochs = false;            // the last table header seen was the epoch table's
    std::optional<double> m_epochBase;  // 1 when the first epoch row was 0
    std::optional<double> m_lastEpoch;  // step of the last epoch row
    bool m_evalTaken =
        true;  // the evaluation of m_lastEpoch was read (a later "all" row is the final re-validation)
};

}  // namespace qatdoctor::core::logs
