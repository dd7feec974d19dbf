#include "core/artifacts/toolchain_files.h"

#include <filesystem>

#include "core/artifacts/csv_table.h"
#include "core/artifacts/fixed_width_table.h"
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

// Everything that differs between the kinds, one row each: the registry id, the DataTable kind
// and caption, the file-name parts and the content that identify a file, the columns that
// identify its table (any one name of each group), and whether its tables are fixed-width
// (horizon_nn's printer) rather than tabulate's.
struct KindSpec {
    ToolchainKind kind;
    const char* id;
    const char* tableKind;
    const char* title;
    std::vector<std::string_view> names;     // any of these in the file name
    std::vector<std::string_view> notNames;  // and none of these
    bool (*content)(const std::string& low);
    std::vector<std::vector<std::string_view>> keys;
    bool fixedWidth = false;
    Result<ToolchainRead> (*read)(std::string_view text, const std::string& path) = nullptr;  // own reader
};

// A second table some files of a kind hold beside their main one: hb_mapper's makertbin log
// prints the quantized model's output cosines after its node table.
struct CompanionTable {
    ToolchainKind kind;
    std::vector<std::vector<std::string_view>> keys;
    const char* tableKind;
    const char* title;
};

const std::vector<CompanionTable>& companionTables()
{
    static const std::vector<CompanionTable> kTables = {
        {ToolchainKind::MapperNodes,
         {{"output"}, {"cosine similarity"}},
         kTableMapperOutput,
         "hb_mapper quantized model output"},
    };
    return kTables;
}

const std::vector<KindSpec>& kindSpecs()
{
    static const std::vector<KindSpec> kSpecs = {
        {ToolchainKind::ModelCheckResult,
         "model_check_result",
         "model_check",
         "Model check result",
         {"model_check_result", "qconfig_info"},
         {},
         [](const std::string& low) {
             return any(low, {"all fusable modules are fused", "fusable modules are listed below",
                              "each layer out qconfig", "modules in the model run exactly once",
                              "please check if these ops qconfigs", "modules below are used multi times"});
         },
         {}},
        {ToolchainKind::ComparePerLayer,
         "compare_per_layer",
         kTableComparePerLayer,
         "Per-layer comparison",
         {"compare_per_layer"},
         {},
         [](const std::string& low) {
             return any(low, {"mod_name"}) &&
                    any(low, {"analy_op_type", "base_model_min", "max_qscale_diff"});
         },
         {{"mod_name"}}},
        {ToolchainKind::Sensitivity,
         "sensitive_ops",
         kTableSensitivity,
         "Sensitive ops",
         {"sensitive_ops", "sensitivity"},
         {"sensitivity_of_"},
         [](const std::string& low) { return any(low, {"sensitive_type"}) && any(low, {"op_name"}); },
         {{"op_name"}, {"sensitive_type"}}},
        {ToolchainKind::Statistic,
         "statistic",
         kTableStatistic,
         "Per-layer statistics",
         {"statistic"},
         {},
         [](const std::string& low) {
             return any(low, {"input/output/attr"}) ||
                    (any(low, {"op name"}) && any(low, {"mod name"}) && any(low, {"attr"}));
         },
         {{"op name", "module name"}, {"attr", "input/output/attr"}}},
        {ToolchainKind::Similarity,
         "similarity",
         kTableSimilarity,
         "Feature map similarity",
         {"similarity"},
         {"weight"},
         [](const std::string& low) {
             return any(low, {"op error with same", "acc error", "this layer is identity in"});
         },
         {{"module name"}, {"similarity"}}},
        {ToolchainKind::WeightComparison,
         "weight_comparison",
         kTableWeightComparison,
         "Weight comparison",
         {"weight_comparison", "weight_comparsion"},
         {},
         [](const std::string& low) { return any(low, {"weight name"}) && any(low, {"similarity"}); },
         {{"weight name"}}},
        {ToolchainKind::DeployDevice,
         "deploy_device",
         kTableDeployDevice,
         "Deploy device",
         {"deploy_device"},
         {},
         [](const std::string& low) { return any(low, {"deploy device"}); },
         {{"name"}, {"deploy device"}}},
        {ToolchainKind::MapperNodes,
         "hb_mapper_nodes",
         kTableMapperNodes,
         "hb_mapper node placement",
         {"hb_mapper", "checker", "makertbin"},
         {},
         [](const std::string& low) {
             return any(low, {"node information:"}) || (any(low, {"subgraph"}) && any(low, {"hb_mapper"}));
         },
         {{"node"}, {"on"}, {"subgraph"}},
         true},
        {ToolchainKind::NodeSensitivity,
         "node_sensitivity",
         kTableNodeSensitivity,
         "Node sensitivity (PTQ debugger)",
         {"sensitivity_of_", "node_sensitivity"},
         {},
         [](const std::string& low) {
             return any(low, {"cosine-similarity", "node sensitivity"}) && any(low, {"======"});
         },
         {{"node", "weight", "activation"}},
         true},
        {ToolchainKind::QconfigDtypes,
         "qconfig_dtypes",
         "qconfig_dtypes",
         "Configured dtypes",
         {"qconfig_dtypes"},
         {},
         [](const std::string& low) {
             return any(low, {"qint8", "qint16"}) && any(low, {"{"}) &&
                    any(low, {"\"weight\"", "'weight'", "output"});
         },
         {},
         false,
         readQconfigDtypes},
        {ToolchainKind::QconfigChangelog,
         "qconfig_changelog",
         kTableQconfigChangelog,
         "qconfig changes",
         {"qconfig_changelog"},
         {},
         [](const std::string& low) {
             return any(low, {"qint16 -> qint8", "qint16->qint8", "qint16 => qint8"});
         },
         {},
         false,
         readQconfigChangelog},
        // hb_verifier's result table (OE 3.x): bc vs hbm compares outputs element by element...
        {ToolchainKind::VerifierConsistency,
         "hb_verifier_consistency",
         kTableVerifierConsistency,
         "hb_verifier output consistency",
         {"verifier"},
         {},
         [](const std::string& low) {
             return any(low, {"mismatched elements"}) && any(low, {"consistency"});
         },
         {{"outputname"}, {"consistency"}}},
        // ...onnx / bc pairs by cosine ("Consine" is the tool's own spelling)
        {ToolchainKind::VerifierCosine,
         "hb_verifier_cosine",
         kTableVerifierCosine,
         "hb_verifier cosine similarity",
         {"verifier"},
         {},
         [](const std::string& low) {
             return any(low, {"consinesimilarity", "cosinesimilarity"}) && any(low, {"tensorname"});
         },
         {{"tensorname"}, {"consinesimilarity", "cosinesimilarity"}}},
    };
    return kSpecs;
}

const KindSpec& specOf(ToolchainKind kind)
{
    for (const KindSpec& k : kindSpecs())
        if (k.kind == kind) return k;
    return kindSpecs().front();
}

bool nameMatches(const KindSpec& k, const std::string& name)
{
    for (std::string_view n : k.notNames)
        if (name.find(n) != std::string::npos) return false;
    for (std::string_view n : k.names)
        if (name.find(n) != std::string::npos) return true;
    return false;
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
    for (const auto& g : specOf(kind).keys) {
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
    return specOf(kind).id;
}

int probeToolchainFile(ToolchainKind kind, const std::string& path, std::string_view head)
{
    const std::string name = fileName(path);
    const bool textName = name.size() > 4 && (name.ends_with(".txt") || name.ends_with(".csv") ||
                                              name.ends_with(".log") || name.ends_with(".py"));
    const KindSpec& spec = specOf(kind);
    const bool byName = textName && nameMatches(spec, name);
    // A NUL byte near the start is a binary file (an ONNX model, a checkpoint): its content is no
    // toolchain text, and lower-casing 64 KiB of it once per kind is wasted. (Its name may still
    // say what it should have been: the reader then names the binary data.)
    const bool binary =
        head.substr(0, std::min<size_t>(head.size(), 4096)).find('\0') != std::string_view::npos;
    const bool byContent =
        !binary && spec.content(toLower(head.substr(0, std::min<size_t>(head.size(), 64 * 1024))));
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
    const KindSpec& spec = specOf(kind);
    if (spec.read) return spec.read(text, path);
    const std::vector<TextLine> lines = splitLines(text);
    const bool csv = toLower(path).ends_with(".csv");
    TableScan scan = csv               ? readCsvTable(text, path)
                     : spec.fixedWidth ? readFixedWidthTables(lines, path)
                                       : readTables(lines, path);
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
    const auto& keys = spec.keys;
    int n = 0;
    for (const TextTable& t : scan.tables) {
        for (const CompanionTable& c : companionTables())
            if (c.kind == kind && hasColumns(t, c.keys))
                out.tables.push_back(toDataTable(t, c.tableKind, c.title, path));
        if (!hasColumns(t, keys)) continue;
        warnMissing(t, kind, path, out);
        std::string title = spec.title;
        if (++n > 1 || !t.title.empty())
            title += t.title.empty() ? " (" + std::to_string(n) + ")" : ": " + t.title;
        out.tables.push_back(toDataTable(t, spec.tableKind, title, path));
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
