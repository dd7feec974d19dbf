// The two files QconfigSetter (horizon_plugin_pytorch, OE >= 3.5) writes into its save_dir:
// qconfig_dtypes.pt.py, the configured dtypes per module as a Python literal, and
// qconfig_changelogs.txt, what the setter changed (a fallback from int16 to int8 and why), one
// change per line. Their exact layout is not published; the forms read here are listed in
// faq/README.md ("Toolchain files"), and anything else is an error or a warning naming the line.
#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "core/artifacts/python_literal.h"
#include "core/artifacts/toolchain_tables.h"
#include "core/common/error_codes.h"

namespace qatdoctor::core::artifacts {
namespace {

using model::DType;

enum class Role { Input, Weight, Output };

// Key names seen in qconfig templates and dumps, by the role they configure.
constexpr std::array<std::pair<std::string_view, Role>, 11> kRoleKeys = {{
    {"input", Role::Input},
    {"inputs", Role::Input},
    {"input_dtype", Role::Input},
    {"input_dtypes", Role::Input},
    {"activation", Role::Output},
    {"weight", Role::Weight},
    {"weight_dtype", Role::Weight},
    {"output", Role::Output},
    {"outputs", Role::Output},
    {"output_dtype", Role::Output},
    {"dtype", Role::Output},
}};

std::optional<Role> roleOf(const std::string& key)
{
    const std::string k = toLower(key);
    for (const auto& [name, role] : kRoleKeys)
        if (k == name) return role;
    return std::nullopt;
}

// qint8, 'qint16', torch.float32, None (a float output), or a list of those.
std::vector<DType> dtypesOf(const PyValue& v)
{
    std::vector<DType> out;
    if (v.kind == PyValue::Kind::List) {
        for (const PyValue& item : v.items)
            for (DType d : dtypesOf(item)) out.push_back(d);
        return out;
    }
    if (v.kind == PyValue::Kind::Name && v.text == "None") return {DType::Float32};
    if (v.kind == PyValue::Kind::Name || v.kind == PyValue::Kind::String)
        if (auto d = model::parseDType(v.text)) out.push_back(*d);
    return out;
}

std::string dtypeListText(const std::vector<DType>& ds)
{
    std::string s;
    for (DType d : ds) s += (s.empty() ? "" : ", ") + std::string(model::dtypeName(d));
    return s;
}

struct Change {
    std::string module, field, from, to, reason;
};

std::string_view stripped(std::string_view s, std::string_view chars)
{
    while (!s.empty() && chars.find(s.front()) != std::string_view::npos) s.remove_prefix(1);
    while (!s.empty() && chars.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
    return s;
}

bool isDtypeWord(std::string_view w)
{
    return w == "None" || model::parseDType(std::string(w)).has_value();
}

// "<module> [<field>][:] <from> -> <to> [reason]": the arrow also "=>", "→" or " to "; the module
// may be bracketed; the field is input / weight / output / activation (with _dtype or
// _dtypes); the reason follows in parentheses or after ',', ':', ';', '#' or "reason:".
std::optional<Change> parseChange(std::string_view line)
{
    size_t arrow = std::string_view::npos, arrowLen = 0;
    for (std::string_view a : {std::string_view("->"), std::string_view("=>"), std::string_view("\u2192"),
                               std::string_view(" to ")})
        if (size_t p = line.find(a); p != std::string_view::npos && p < arrow) {
            arrow = p;
            arrowLen = a.size();
        }
    if (arrow == std::string_view::npos) return std::nullopt;
    std::string_view left = trim(line.substr(0, arrow)), right = trim(line.substr(arrow + arrowLen));
    const size_t fromAt = left.find_last_of(" \t:=,");
    Change c;
    c.from = std::string(stripped(fromAt == std::string_view::npos ? left : left.substr(fromAt + 1), "'\" "));
    left = stripped(fromAt == std::string_view::npos ? std::string_view() : left.substr(0, fromAt), " \t:=,");
    const size_t toEnd = right.find_first_of(" \t,;:#(");
    c.to = std::string(stripped(right.substr(0, toEnd), "'\""));
    if (!isDtypeWord(c.from) || !isDtypeWord(c.to)) return std::nullopt;
    if (const size_t sp = left.find_last_of(" \t:"); sp != std::string_view::npos) {
        const std::string word = toLower(stripped(left.substr(sp + 1), " :=,"));
        for (std::string_view f : {"input", "weight", "output", "activation"})
            if (word.rfind(f, 0) == 0 &&
                (word.size() == f.size() || word.substr(f.size()).rfind("_dtype", 0) == 0)) {
                c.field = std::string(f);
                left = stripped(left.substr(0, sp), " \t:=,");
            }
    }
    if (c.field.empty()) c.field = "output";
    const size_t modEnd = left.find_first_of(" \t:,");
    c.module = std::string(stripped(left.substr(0, modEnd), "[]'\""));
    if (c.module.empty() ||
        !(std::isalpha(static_cast<unsigned char>(c.module.front())) || c.module.front() == '_'))
        return std::nullopt;
    std::string_view reason = toEnd == std::string_view::npos ? std::string_view() : right.substr(toEnd);
    reason = stripped(reason, " \t,;:#(");
    if (reason.size() >= 7 && toLower(reason.substr(0, 6)) == "reason")
        reason = stripped(reason.substr(6), " \t:=");
    c.reason = std::string(stripped(reason, " \t)"));
    return c;
}

}  // namespace

Result<ToolchainRead> readQconfigDtypes(std::string_view text, const std::string& path)
{
    std::vector<Warning> literalWarnings;
    auto doc = parsePythonLiteral(text, path, &literalWarnings);
    if (!doc) return doc.error();
    if (doc->kind != PyValue::Kind::Dict)
        return makeError(
            codes::kArtifactParse,
            path + ":" + std::to_string(doc->line) + ": expected a dict of module name -> dtypes", path,
            doc->line);
    ToolchainRead read;
    read.warnings = std::move(literalWarnings);
    model::LayerTable lt;
    lt.sourcePath = path;
    lt.format = "qconfig_dtypes";
    DataTable table;
    table.kind = "qconfig_dtypes";
    table.title = "Configured dtypes (qconfig_dtypes.pt.py)";
    table.sourcePath = path;
    table.columns = {"module", "input", "weight", "output"};
    for (const auto& [key, value] : doc->entries) {
        if (key.kind != PyValue::Kind::String && key.kind != PyValue::Kind::Name) {
            read.warnings.push_back(makeError(
                codes::kArtifactParse,
                path + ":" + std::to_string(key.line) + ": a key that is not a module name, skipped", path,
                key.line));
            continue;
        }
        model::Layer l;
        l.name = key.text;
        l.source = {path, key.line, {}};
        l.op = "configured";
        if (value.kind == PyValue::Kind::Dict) {
            for (const auto& [field, dtypes] : value.entries) {
                const auto role = roleOf(field.text);
                const std::vector<DType> ds = dtypesOf(dtypes);
                if (!role || ds.empty()) continue;
                if (*role == Role::Input) l.inputDtypes = ds;
                if (*role == Role::Weight) l.weightDtype = ds.front();
                if (*role == Role::Output) l.outputDtype = ds.front();
            }
        } else if (const std::vector<DType> ds = dtypesOf(value); !ds.empty()) {
            l.outputDtype = ds.front();  // module -> one dtype: its output's
        } else {
            read.warnings.push_back(makeError(
                codes::kArtifactParse,
                path + ":" + std::to_string(value.line) + ": no dtype for " + key.text + ", skipped", path,
                value.line));
            continue;
        }
        if (l.outputDtype == DType::Int16 || l.outputDtype == DType::UInt16)
            read.expectedDtypes[l.name] = model::dtypeName(l.outputDtype);
        table.rows.push_back({l.name, dtypeListText(l.inputDtypes),
                              l.weightDtype == DType::Unknown ? "" : model::dtypeName(l.weightDtype),
                              l.outputDtype == DType::Unknown ? "" : model::dtypeName(l.outputDtype)});
        table.rowLines.push_back(key.line);
        lt.layers.push_back(std::move(l));
    }
    if (lt.layers.empty())
        return makeError("artifact.no_table", path + ": no module with a dtype in the dict", path);
    read.tables.push_back(std::move(table));
    read.layers = std::move(lt);
    return read;
}

Result<ToolchainRead> readQconfigChangelog(std::string_view text, const std::string& path)
{
    ToolchainRead read;
    DataTable table;
    table.kind = "qconfig_changelog";
    table.title = "qconfig changes (qconfig_changelogs.txt)";
    table.sourcePath = path;
    table.columns = {"module", "field", "from", "to", "reason"};
    for (const TextLine& line : splitLines(text)) {
        const std::string_view t = trim(line.text);
        if (t.empty() || t.front() == '#') continue;
        if (auto c = parseChange(t)) {
            table.rows.push_back({c->module, c->field, c->from, c->to, c->reason});
            table.rowLines.push_back(line.number);
        } else {
            read.warnings.push_back(makeError(codes::kArtifactParse,
                                              path + ":" + std::to_string(line.number) +
                                                  ": not a change ('<module>: <from> -> <to>'), skipped",
                                              path, line.number));
        }
    }
    if (table.rows.empty())
        return makeError(
            "artifact.no_table",
            path + ": no change found (expected lines like '<module>: qint16 -> qint8 (reason)')", path);
    read.tables.push_back(std::move(table));
    return read;
}

}  // namespace qatdoctor::core::artifacts
