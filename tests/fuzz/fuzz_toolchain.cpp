// The toolchain's debug text files: the first byte picks the kind (model_check_result,
// compare_per_layer, sensitive_ops, statistic, similarity, weight_comparison, deploy_device);
// the table readers (tabulate psql/simple and CSV) run on every input too, and each table read is
// compared with itself and with its rows reversed (the comparison's row pairing and metrics).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/artifacts/csv_table.h"
#include "core/artifacts/tabulate_reader.h"
#include "core/artifacts/text_lines.h"
#include "core/artifacts/toolchain_files.h"
#include "core/compare/layer_diff.h"
#include "core/compare/table_diff.h"

using namespace qatdoctor::core::artifacts;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) return 0;
    constexpr int kKinds = 7;
    const auto kind = static_cast<ToolchainKind>(data[0] % kKinds);
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    probeToolchainFile(kind, "fuzz.txt", text);
    if (auto read = readToolchainText(kind, text, "fuzz.txt")) {
        for (const qatdoctor::core::DataTable& t : read->tables) {
            qatdoctor::core::DataTable reversed = t;
            std::reverse(reversed.rows.begin(), reversed.rows.end());
            std::reverse(reversed.rowLines.begin(), reversed.rowLines.end());
            (void)qatdoctor::core::compare::diffDataTables(t, t);
            (void)qatdoctor::core::compare::diffDataTables(t, reversed);
        }
        if (read->layers) (void)qatdoctor::core::compare::diffLayerTables(*read->layers, *read->layers);
    }
    (void)readTables(splitLines(text), "fuzz.txt");
    (void)readCsvTable(text, "fuzz.csv");
    return 0;
}
