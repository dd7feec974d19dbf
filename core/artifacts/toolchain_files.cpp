#include "core/artifacts/toolchain_files.h"

#include <filesystem>

#include "core/artifacts/csv_table.h"
#include "core/artifacts/toolchain_tables.h"
#include "core/common/file_io.h"

namespace qatdoctor::core::artifacts {
namespace {

constexpr uint64_t kReadLimit = 512ull << 20;

std::string fileName(const std::string& path)
{
    return toLower(std::filesystem::path(path).filename().string());
}

bool any(const std::string& low, std::initializer_list<std::string_view> parts)
{
    for (std::string_view p : parts)
        if (low.find(p) != std::string::npos) return true;
    return false;
}

bool nameMatches(ToolchainKind kind, const std::string& name)
{
    switch (kind) {
        case ToolchainKind::ModelCheckResult:
            return any(name, {"model_check_result", "qconfig_info"});
        case ToolchainKind::ComparePerLayer:
            return any(name, {"compare_per_layer"});
        case ToolchainKind::Sensitivity:
            return any(name, {"sensitive_ops", "sensitivity"});
        case ToolchainKind::Statistic:
            return any(name, {"statistic"});
        case ToolchainKind::Similarity:
            return any(name, {"similarity"}) && !any(name, {"weight"});
        case ToolchainKind::WeightComparison:
            return any(name, {"weight_comparison", "weight_comparsion"});
        case ToolchainKind::DeployDevice:
            return any(name, {"deploy_device"});
    }
    return false;
}

bool contentMatches(ToolchainKind kind, const std::string& low)
{
    switch (kind) {
        case ToolchainKind::ModelCheckResult:
            return any(low, {"all fusable modules are fused", "fusable modules are listed below",
                             "each layer out qconfig", "modules in the model run exactly once",
                             "please check if these ops qconfigs", "modules below are used multi times"});
        case ToolchainKind::ComparePerLayer:
            return any(low, {"mod_name"}) && any(low, {"analy_op_type", "base_model_min", "max_qscale_diff"});
        case ToolchainKind::Sensitivity:
            return any(low, {"sensitive_type"}) && any(low, {"op_name"});
        case ToolchainKind::Statistic:
            return any(low, {"input/output/attr"}) ||
                   (any(low, {"op name"}) && any(low, {"mod name"}) && any(low, {"attr"}));
        case ToolchainKind::Similarity:
            return any(low, {"op error with same", "acc error", "this layer is identity in"});
        case ToolchainKind::WeightComparison:
            return any(low, {"weight name"}) && any(low, {"similarity"});
        case ToolchainKind::DeployDevice:
            return any(low, {"deploy device"});
    }
    return false;
}

const char* tableKind(ToolchainKind kind)
{
    switch (kind) {
        case ToolchainKind::ComparePerLayer:
            return kTableComparePerLayer;
        case ToolchainKind::Sensitivity:
            return kTableSensitivity;
        case ToolchainKind::Statistic:
            return kTableStatistic;
        case ToolchainKind::Similarity:
            return kTableSimilarity;
        case ToolchainKind::WeightComparison:
            return kTableWeightComparison;
        case ToolchainKind::DeployDevice:
            return kTableDeployDevice;
        case ToolchainKind::ModelCheckResult:
            break;
    }
    return "model_check";
}

const char* tableTitle(ToolchainKind kind)
{
    switch (kind) {
        case ToolchainKind::ComparePerLayer:
            return "Per-layer comparison";
        case ToolchainKind::Sensitivity:
            return "Sensitive ops";
        case ToolchainKind::Statistic:
            return "Per-layer statistics";
        case ToolchainKind::Similarity:
            return "Feature map similarity";
        case ToolchainKind::WeightComparison:
            return "Weight comparison";
        case ToolchainKind::DeployDevice:
            return "Deploy device";
        case ToolchainKind::ModelCheckResult:
            break;
    }
    return "Model check result";
}

// The columns that identify a table of this kind (any one of each group must be present).
std::vector<std::vector<std::string_view>> keyColumns(ToolchainKind kind)
{
    switch (kind) {
        case ToolchainKind::ComparePerLayer:
            return {{"mod_name"}};
        case ToolchainKind::Sensitivity:
            return {{"op_name"}, {"sensitive_type"}};
        case ToolchainKind::Statistic:
            return {{"op name", "module name"}, {"attr", "input/output/attr"}};
        case ToolchainKind::Similarity:
            return {{"module name"}, {"similarity"}};
        case ToolchainKind::WeightComparison:
            return {{"weight name"}};
        case ToolchainKind::DeployDevice:
            return {{"name"}, {"deploy device"}};
        case ToolchainKind::ModelCheckResult:
            break;
    }
    return {};
}

bool hasColumns(const TextTable& t, const std::vector<std::vector<std::string_view>>& groups)
{
    for (const auto& g : groups) {
        bool found = false;
        for (std::string_view name : g)
            if (t.column({name}) >= 0) found = true;
        if (!found) return false;
    }
    return true;
}

std::string expectedColumns(ToolchainKind kind)
{
    std::string out;
    for (const auto& g : keyColumns(kind)) {
        if (!out.empty()) out += ", ";
        out += "'" + std::string(g.front()) + "'";
    }
    return out;
}

// Metric columns the checks use; a missing one is worth a warning, not an error.
void warnMissing(const TextTable& t, ToolchainKind kind, const std::string& path, ToolchainRead& out)
{
    std::vector<std::vector<std::string_view>> wanted;
    if (kind == ToolchainKind::ComparePerLayer)
        wanted = {
            {"cosine"}, {"base_model_min"}, {"analy_model_min"}, {"base_model_max"}, {"analy_model_max"}};
    for (const auto& g : wanted)
        if (t.column({g.front()}) < 0)
            out.warnings.push_back(makeError("table.missing_column",
                                             path + ":" + std::to_string(t.firstLine) + ": column '" +
                                                 std::string(g.front()) +
                                                 "' not found; checks that need it are skipped",
                                             path, t.firstLine));
}

}  // namespace

const char* toolchainKindId(ToolchainKind kind)
{
    switch (kind) {
        case ToolchainKind::ModelCheckResult:
            return "model_check_result";
        case ToolchainKind::ComparePerLayer:
            return "compare_per_layer";
        case ToolchainKind::Sensitivity:
            return "sensitive_ops";
        case ToolchainKind::Statistic:
            return "statistic";
        case ToolchainKind::Similarity:
            return "similarity";
        case ToolchainKind::WeightComparison:
            return "weight_comparison";
        case ToolchainKind::DeployDevice:
            return "deploy_device";
    }
    return "unknown";
}

int probeToolchainFile(ToolchainKind kind, const std::string& path, std::string_view head)
{
    const std::string name = fileName(path);
    const bool textName =
        name.size() > 4 && (name.ends_with(".txt") || name.ends_with(".csv") || name.ends_with(".log"));
    const bool byName = textName && nameMatches(kind, name);
    const bool byContent =
        contentMatches(kind, toLower(head.substr(0, std::min<size_t>(head.size(), 64 * 1024))));
    if (byName && byContent) return 90;
    if (byContent) return 80;
    if (byName) return 55;
    return 0;
}

DataTable toDataTable(const TextTable& t, const std::string& kind, const std::string& title,
                      const std::string& path)
{
    DataTable d;
    d.kind = kind;
    d.title = title;
    d.sourcePath = path;
    d.columns = t.columns;
    for (size_t c = 0; c < d.columns.size(); ++c)
        if (d.columns[c].empty()) d.columns[c] = c == 0 ? "index" : "column " + std::to_string(c + 1);
    d.rows = t.rows;
    d.rowLines = t.rowLines;
    return d;
}

Result<ToolchainRead> readToolchainText(ToolchainKind kind, std::string_view text, const std::string& path)
{
    if (trim(text).empty()) return makeError("artifact.empty", path + ": the file is empty", path);
    if (auto off = binaryOffset(text))
        return makeError(
            "artifact.binary",
            path + ": binary data at byte " + std::to_string(*off) + ", not a toolchain text file", path, 0,
            static_cast<int64_t>(*off));
    const std::vector<TextLine> lines = splitLines(text);
    const bool csv = toLower(path).ends_with(".csv");
    TableScan scan = csv ? readCsvTable(text, path) : readTables(lines, path);
    if (kind == ToolchainKind::ModelCheckResult) {
        ToolchainRead read = readModelCheckResult(lines, std::move(scan), path);
        if (read.tables.empty())
            return makeError(
                "artifact.no_table",
                path +
                    ": no model_check_result sections found (expected 'Each layer out qconfig:', "
                    "dtype statistics or the fusion/sharing sentences)",
                path);
        return read;
    }
    ToolchainRead out;
    out.warnings = std::move(scan.warnings);
    const auto keys = keyColumns(kind);
    int n = 0;
    for (const TextTable& t : scan.tables) {
        if (!hasColumns(t, keys)) continue;
        warnMissing(t, kind, path, out);
        std::string title = tableTitle(kind);
        if (++n > 1 || !t.title.empty())
            title += t.title.empty() ? " (" + std::to_string(n) + ")" : ": " + t.title;
        out.tables.push_back(toDataTable(t, tableKind(kind), title, path));
    }
    if (out.tables.empty())
        return makeError("artifact.no_table",
                         path + ": no " + std::string(toolchainKindId(kind)) +
                             " table found (expected columns " + expectedColumns(kind) + ")",
                         path);
    return out;
}

Result<ToolchainRead> readToolchainFile(ToolchainKind kind, const std::string& path,
                                        const ProgressFn& progress)
{
    if (!reportProgress(progress, 0.0, "reading " + path))
        return makeError(kCancelledCode, "cancelled", path);
    auto text = readFile(path, kReadLimit);
    if (!text) return text.error();
    auto read = readToolchainText(kind, *text, path);
    if (read) reportProgress(progress, 1.0, "read " + path);
    return read;
}

}  // namespace qatdoctor::core::artifacts
