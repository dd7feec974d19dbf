#include "core/artifacts/csv_table.h"

namespace qatdoctor::core::artifacts {

TableScan readCsvTable(std::string_view text, const std::string& path)
{
    TableScan scan;
    TextTable table;
    table.style = "csv";
    std::vector<std::string> record;
    std::string cell;
    bool quoted = false;
    int64_t line = 1;
    int64_t recordLine = 1;
    auto endRecord = [&]() {
        record.push_back(std::move(cell));
        cell.clear();
        const bool blank = record.size() == 1 && trim(record.front()).empty();
        if (!blank) {
            if (table.columns.empty()) {
                table.columns = std::move(record);
                table.firstLine = recordLine;
            } else {
                if (record.size() != table.columns.size()) {
                    scan.warnings.push_back(makeError("table.ragged_row",
                                                      path + ":" + std::to_string(recordLine) + ": row has " +
                                                          std::to_string(record.size()) +
                                                          " cells, the header has " +
                                                          std::to_string(table.columns.size()),
                                                      path, recordLine));
                    record.resize(table.columns.size());
                }
                table.rows.push_back(std::move(record));
                table.rowLines.push_back(recordLine);
            }
        }
        record.clear();
        recordLine = line;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    cell += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n') ++line;
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.push_back(std::move(cell));
            cell.clear();
        } else if (c == '\n') {
            ++line;
            if (!cell.empty() && cell.back() == '\r') cell.pop_back();
            endRecord();
        } else {
            cell += c;
        }
    }
    if (quoted)
        scan.warnings.push_back(makeError(
            "table.truncated",
            path + ":" + std::to_string(recordLine) + ": a quoted cell is not closed (file truncated?)", path,
            recordLine));
    if (!cell.empty() || !record.empty()) endRecord();
    for (auto& c : table.columns) c = std::string(trim(c));
    if (!table.columns.empty()) {
        table.lastLine = line;
        scan.tables.push_back(std::move(table));
    }
    return scan;
}

}  // namespace qatdoctor::core::artifacts
