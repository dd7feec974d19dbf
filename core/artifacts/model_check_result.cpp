// model_check_result.txt (check_qat_model): status sentences, then tabulate tables whose meaning
// comes from the sentence above them (horizon-formats.md 1.1). Tables are assigned to the last
// section marker before them; tables without a marker are recognised by their headers.
#include <algorithm>
#include <limits>

#include "core/artifacts/toolchain_tables.h"

namespace qatdoctor::core::artifacts {
namespace {

// Numbers in a printout or table are untrusted: an out-of-range (or NaN/inf) double converted to
// an integer is undefined behaviour, so integer fields saturate (NaN -> 0).
template <class Int>
Int toInt(double v)
{
    if (!(v == v)) return 0;
    if (v >= static_cast<double>(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
    if (v <= static_cast<double>(std::numeric_limits<Int>::lowest()))
        return std::numeric_limits<Int>::lowest();
    return static_cast<Int>(v);
}

using model::DType;

struct Marker {
    std::string_view text;  // lower-case substring
    const char* section;    // DataTable kind suffix, or "" for a status sentence only
    const char* title;
};

constexpr Marker kMarkers[] = {
    {"all fusable modules are fused", "", "Fusion"},
    {"fusable modules are listed below", "unfused", "Unfused modules"},
    {"all modules in the model run exactly once", "", "Sharing"},
    {"modules below are not used", "unused", "Modules not used"},
    {"modules below are used multi times", "called_times", "Modules called several times"},
    {"each module called times", "called_times", "Module call counts"},
    {"input dtype statistics", "input_dtypes", "Input dtype statistics"},
    {"output dtype statistics", "output_dtypes", "Output dtype statistics"},
    {"each layer out qconfig", "layer_out_qconfig", "Each layer out qconfig"},
    {"weight qconfig", "weight_qconfig", "Weight qconfig"},
    {"please check if these ops qconfigs are expected", "messages", "Qconfigs to check"},
    {"graph:", "graph", "Graph"},
};

struct SeenMarker {
    int64_t line;
    const Marker* marker;
    std::string text;
};

const char* sectionByHeader(const TextTable& t)
{
    if (t.column({"called times"}) >= 0) return "called_times";
    if (t.column({"msg"}) >= 0) return "messages";
    if (t.column({"weight dtype"}) >= 0) return "weight_qconfig";
    if (t.column({"out dtype"}) >= 0) return "layer_out_qconfig";
    if (t.column({"module type"}) >= 0 && t.column({"total"}) < 0) return "input_dtypes";
    if (t.column({"opcode"}) >= 0) return "graph";
    if (t.column({"name"}) >= 0 && t.column({"type"}) >= 0) return "unfused";
    return nullptr;
}

// "['qint8', 'qint8']", "[torch.float32]", "qint8" -> dtypes.
std::vector<DType> parseDtypeList(const std::string& cell)
{
    std::vector<DType> out;
    std::string item;
    auto flush = [&] {
        if (auto t = model::parseDType(std::string(trim(item)))) out.push_back(*t);
        item.clear();
    };
    for (char c : cell) {
        if (c == '[' || c == ']' || c == '(' || c == ')') continue;
        if (c == ',')
            flush();
        else
            item += c;
    }
    flush();
    return out;
}

// "add2[add]" -> "add2"; "dequant(1)" -> "dequant".
std::string baseModuleName(const std::string& name)
{
    std::string n = name;
    const size_t bracket = n.find('[');
    if (bracket != std::string::npos) n = n.substr(0, bracket);
    if (!n.empty() && n.back() == ')') {
        const size_t open = n.rfind('(');
        if (open != std::string::npos && open + 1 < n.size() - 1 &&
            std::all_of(n.begin() + static_cast<long>(open) + 1, n.end() - 1, ::isdigit))
            n = n.substr(0, open);
    }
    return std::string(trim(n));
}

void addFlag(model::Layer& l, const char* f)
{
    if (std::find(l.flags.begin(), l.flags.end(), f) == l.flags.end()) l.flags.push_back(f);
}

model::LayerTable buildLayers(const std::vector<DataTable>& tables, const std::string& path)
{
    model::LayerTable lt;
    lt.sourcePath = path;
    lt.format = kFormatModelCheck;
    auto findOrAdd = [&lt, &path](const std::string& name, int64_t line) -> model::Layer& {
        for (auto& l : lt.layers)
            if (l.name == name) return l;
        model::Layer l;
        l.name = name;
        l.source = {path, line, {}};
        lt.layers.push_back(std::move(l));
        return lt.layers.back();
    };
    for (const DataTable& t : tables) {
        const int name = t.column("module name");
        const int type = t.column("module type");
        if (t.kind == "model_check.layer_out_qconfig" && name >= 0) {
            const int in = t.column("input dtype");
            const int out = t.column("out dtype");
            const int axis = t.column("ch_axis");
            const int obs = t.column("observer");
            for (size_t r = 0; r < t.rows.size(); ++r) {
                const auto& row = t.rows[r];
                model::Layer& l = findOrAdd(row[static_cast<size_t>(name)], t.rowLines[r]);
                if (type >= 0) l.op = shortTypeName(row[static_cast<size_t>(type)]);
                if (in >= 0) l.inputDtypes = parseDtypeList(row[static_cast<size_t>(in)]);
                if (out >= 0) {
                    auto outs = parseDtypeList(row[static_cast<size_t>(out)]);
                    if (!outs.empty()) l.outputDtype = outs.front();
                }
                const std::string axisCell = axis >= 0 ? row[static_cast<size_t>(axis)] : "";
                const std::string axisLow = toLower(axisCell);
                if (axisLow.find("fakecast") != std::string::npos &&
                    axisLow.find("float16") != std::string::npos)
                    l.outputDtype = DType::Float16;
                const bool noQconfig = axisLow.find("none") != std::string::npos;
                if (!noQconfig && model::isInteger(l.outputDtype)) {
                    model::QuantParams q;
                    q.dtype = l.outputDtype;
                    if (auto a = parseNumber(axisCell)) q.axis = toInt<int>(*a);
                    if (obs >= 0) q.observer = row[static_cast<size_t>(obs)];
                    l.outputQuant = q;
                }
                if (l.name != baseModuleName(l.name) && l.name.find('(') != std::string::npos)
                    addFlag(l, "shared");
            }
        } else if (t.kind == "model_check.weight_qconfig" && name >= 0) {
            const int wd = t.column("weight dtype");
            const int axis = t.column("ch_axis");
            const int obs = t.column("observer");
            for (size_t r = 0; r < t.rows.size(); ++r) {
                const auto& row = t.rows[r];
                model::Layer& l = findOrAdd(row[static_cast<size_t>(name)], t.rowLines[r]);
                if (l.op.empty() && type >= 0) l.op = shortTypeName(row[static_cast<size_t>(type)]);
                model::QuantParams q;
                if (wd >= 0)
                    if (auto d = parseDtypeList(row[static_cast<size_t>(wd)]); !d.empty())
                        q.dtype = d.front();
                if (axis >= 0)
                    if (auto a = parseNumber(row[static_cast<size_t>(axis)])) q.axis = toInt<int>(*a);
                if (obs >= 0) q.observer = row[static_cast<size_t>(obs)];
                l.weightDtype = q.dtype;
                l.weightQuant = q;
            }
        }
    }
    for (const DataTable& t : tables) {
        const int nameCol = t.column("name");
        if (nameCol < 0) continue;
        const char* flag = t.kind == "model_check.unfused"        ? "unfused"
                           : t.kind == "model_check.called_times" ? "shared"
                                                                  : nullptr;
        if (!flag) continue;
        const int times = t.column("called times");
        for (const auto& row : t.rows) {
            std::string n = row[static_cast<size_t>(nameCol)];
            if (n.ends_with("(shared)")) n = std::string(trim(n.substr(0, n.size() - 8)));
            if (times >= 0) {
                auto v = parseNumber(row[static_cast<size_t>(times)]);
                if (!v || *v <= 1) continue;
            }
            for (auto& l : lt.layers)
                if (baseModuleName(l.name) == n) addFlag(l, flag);
        }
    }
    return lt;
}

}  // namespace

std::string shortTypeName(const std::string& cell)
{
    std::string s(trim(cell));
    if (s.starts_with("<class '")) s = s.substr(8);
    while (!s.empty() && (s.back() == '>' || s.back() == '\'')) s.pop_back();
    const size_t dot = s.rfind('.');
    return dot == std::string::npos ? s : s.substr(dot + 1);
}

ToolchainRead readModelCheckResult(const std::vector<TextLine>& lines, TableScan scan,
                                   const std::string& path)
{
    ToolchainRead out;
    out.warnings = std::move(scan.warnings);
    std::vector<SeenMarker> seen;
    DataTable summary;
    summary.kind = "model_check.summary";
    summary.title = "Model check summary";
    summary.sourcePath = path;
    summary.columns = {"section", "status"};
    for (const TextLine& line : lines) {
        if (line.text.size() > 4096) continue;
        const std::string low = toLower(trim(line.text));
        for (const Marker& m : kMarkers) {
            if (low.find(m.text) == std::string::npos) continue;
            // "Weight qconfig" also occurs inside table cells; a marker is a short line of its own.
            if (low.size() > m.text.size() + 24 || low.starts_with("|")) continue;
            seen.push_back({line.number, &m, std::string(trim(line.text))});
            summary.rows.push_back({m.title, std::string(trim(line.text))});
            summary.rowLines.push_back(line.number);
            break;
        }
    }
    int unfusedGroup = 0;
    DataTable unfused;
    for (const TextTable& t : scan.tables) {
        const Marker* marker = nullptr;
        for (const SeenMarker& s : seen)
            if (s.line < t.firstLine) marker = s.marker;
        const char* section = marker && *marker->section ? marker->section : sectionByHeader(t);
        if (!section) {
            out.warnings.push_back(makeError(
                "table.unknown_section",
                path + ":" + std::to_string(t.firstLine) + ": table under no known section; shown as is",
                path, t.firstLine));
            section = "other";
        }
        const std::string kind = std::string("model_check.") + section;
        std::string title = marker ? marker->title : section;
        if (kind == "model_check.unfused") {
            // One small table per unfused group; merged with a group column.
            ++unfusedGroup;
            if (unfused.columns.empty()) {
                unfused = toDataTable(t, kind, "Unfused modules", path);
                unfused.columns.insert(unfused.columns.begin(), "group");
                unfused.rows.clear();
                unfused.rowLines.clear();
            }
            const int name = t.column({"name"});
            const int type = t.column({"type"});
            for (size_t r = 0; r < t.rows.size(); ++r) {
                std::vector<std::string> row(unfused.columns.size());
                row[0] = std::to_string(unfusedGroup);
                const int un = unfused.column("name");
                const int ut = unfused.column("type");
                if (un >= 0) row[static_cast<size_t>(un)] = t.cell(r, name);
                if (ut >= 0) row[static_cast<size_t>(ut)] = t.cell(r, type);
                unfused.rows.push_back(std::move(row));
                unfused.rowLines.push_back(t.rowLines[r]);
            }
            continue;
        }
        out.tables.push_back(toDataTable(t, kind, title, path));
    }
    if (!unfused.columns.empty()) out.tables.insert(out.tables.begin(), std::move(unfused));
    if (!summary.rows.empty()) out.tables.insert(out.tables.begin(), std::move(summary));
    if (!out.tables.empty()) {
        model::LayerTable lt = buildLayers(out.tables, path);
        if (!lt.layers.empty()) {
            lt.warnings = out.warnings;
            out.layers = std::move(lt);
        }
    }
    return out;
}

}  // namespace qatdoctor::core::artifacts
