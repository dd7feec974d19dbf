// The fixed-width tables horizon_nn prints into hb_mapper logs and its PTQ debugger output
// (print_info_dict / save_node_sensitivity): a '=' line (with the table's title centred in it,
// or none), a header whose columns start 2+ spaces apart (a name may hold one space: "Cosine
// Similarity"), one unbroken '-' rule, then rows sliced at the header's column starts. Cells
// can be blank, so rows are cut by position, never split on spaces. The table ends at an empty
// line, a '=' line or a log line (the next message's timestamp).
#pragma once

#include <string>
#include <vector>

#include "core/artifacts/tabulate_reader.h"

namespace qatdoctor::core::artifacts {

TableScan readFixedWidthTables(const std::vector<TextLine>& lines, const std::string& path);

}  // namespace qatdoctor::core::artifacts
