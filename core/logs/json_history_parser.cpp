#include "core/logs/json_history_parser.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/common/json_depth.h"
#include "core/common/json_text.h"
#include "core/logs/metric_names.h"

namespace qatdoctor::core::logs {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;

// The 1-based line of every element of the first array that follows `key` (HF's "log_history")
// or of the root array (key empty): evidence must point at the entry's line.
std::vector<uint32_t> elementLines(std::string_view text, std::string_view key)
{
    std::vector<uint32_t> out;
    size_t i = 0;
    if (!key.empty()) {
        const size_t at = text.find(key);
        if (at == std::string_view::npos) return out;
        i = at + key.size();
    }
    i = text.find('[', i);
    if (i == std::string_view::npos) return out;
    uint32_t line = 1;
    for (size_t k = 0; k < i; ++k) line += text[k] == '\n';
    int depth = 0;
    bool inString = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') ++line;
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{') {
            if (depth == 1 && c == '{') out.push_back(line);
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth == 0) break;
        }
    }
    return out;
}

std::string scalarText(const json& v)
{
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
    if (v.is_number()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.10g", v.get<double>());
        return buf;
    }
    return jsonText(v, -1);
}

// NaN and ±inf as Python's json module writes them (and the strings HF sometimes stores).
std::optional<double> numberOf(const json& v)
{
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        if (s == "NaN" || s == "nan") return NAN;
        if (s == "Infinity" || s == "inf") return INFINITY;
        if (s == "-Infinity" || s == "-inf") return -INFINITY;
    }
    return std::nullopt;
}

// Python's json module writes NaN / Infinity / -Infinity bare, which strict JSON refuses: read
// them as strings.
std::string quoteNonFinite(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') inString = true;
        bool replaced = false;
        for (std::string_view tok : {"-Infinity", "Infinity", "NaN"}) {
            if (text.substr(i, tok.size()) == tok) {
                out += '"';
                out += tok;
                out += '"';
                i += tok.size() - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += c;
    }
    return out;
}

struct Row {
    double step;
    std::optional<float> epoch;
    uint32_t line;
};

void addRow(ParsedLog& out, const json& entry, const Row& row, const char* skipKey)
{
    out.counted = true;  // a history's rows carry their step or epoch
    for (const auto& [key, value] : entry.items()) {
        if (key == skipKey) continue;
        const KeyKind kind = classifyKey(key);
        if (kind != KeyKind::Metric) continue;
        const std::optional<double> v = numberOf(value);
        if (!v || value.is_boolean()) continue;
        bool keyStage = false;
        const std::string name = stagedSeriesName(key, false, std::nullopt, {}, &keyStage);
        if (keyStage) out.stageReasons.emplace(name, "the key '" + key + "'");
        Series& s = out.series[out.seriesIndex(name)];
        if (row.epoch) s.markEpoch(*row.epoch);
        s.push(row.step, static_cast<float>(*v), row.line);
    }
}

void readTrainerState(const json& doc, std::string_view text, ParsedLog& out)
{
    const json& history = doc["log_history"];
    const std::vector<uint32_t> lines = elementLines(text, "\"log_history\"");
    for (const auto& [key, value] : doc.items())
        if (key != "log_history" && !value.is_structured() && !value.is_null())
            out.metadata.emplace(key, scalarText(value));
    if (!history.is_array()) return;
    for (size_t i = 0; i < history.size(); ++i) {
        const json& entry = history[i];
        if (!entry.is_object()) continue;
        const uint32_t line = i < lines.size() ? lines[i] : 0;
        // The closing summary (train_runtime, the whole run's mean train_loss) is no curve point.
        if (entry.contains("train_runtime")) {
            for (const auto& [key, value] : entry.items())
                if (!value.is_structured()) out.metadata.emplace(key, scalarText(value));
            continue;
        }
        const std::optional<double> step = entry.contains("step") ? numberOf(entry["step"]) : std::nullopt;
        if (!step) continue;
        std::optional<float> epoch;
        if (entry.contains("epoch")) {
            if (auto e = numberOf(entry["epoch"])) epoch = static_cast<float>(*e);
        }
        addRow(out, entry, Row{*step, epoch, line}, "step");
    }
}

void readSkorchHistory(const json& doc, std::string_view text, ParsedLog& out)
{
    const std::vector<uint32_t> lines = elementLines(text, "");
    for (size_t i = 0; i < doc.size(); ++i) {
        const json& entry = doc[i];
        if (!entry.is_object() || !entry.contains("epoch")) continue;
        const std::optional<double> epoch = numberOf(entry["epoch"]);
        if (!epoch) continue;
        addRow(out, entry, Row{*epoch, static_cast<float>(*epoch), i < lines.size() ? lines[i] : 0}, "epoch");
    }
}

}  // namespace

int probeJsonHistory(std::string_view name, std::string_view head)
{
    if (!name.ends_with(".json")) return 0;
    size_t b = 0;
    while (b < head.size() && (head[b] == ' ' || head[b] == '\n' || head[b] == '\r' || head[b] == '\t')) ++b;
    if (b >= head.size()) return 0;
    if (head[b] == '{' && head.find("\"log_history\"") != std::string_view::npos) return 90;
    // skorch: a list of epoch entries with per-batch lists
    if (head[b] == '[' && head.find("\"batches\"") != std::string_view::npos &&
        head.find("\"epoch\"") != std::string_view::npos)
        return 90;
    return 0;
}

bool parseJsonHistory(std::string_view bytes, const std::string& path, ParseState& state,
                      const LoadOptions& options, std::vector<ParsedLog>& parts)
{
    ParsedLog& out = parts.emplace_back();
    if (state.offset > 0) return true;  // read whole: a rewritten file comes back as a new one
    if (jsonNestingDepth(bytes) > kMaxDepth) {
        out.warnings.push_back(makeError(
            "logs.json_depth",
            "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels; file not read", path));
        state.offset = bytes.size();
        return true;
    }
    const std::string text = quoteNonFinite(bytes);
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
        // Still being written: wait for the rest. At the end of the file it is damaged.
        if (options.atEnd) {
            out.warnings.push_back(
                makeError("logs.json_syntax", "not a complete JSON document; file not read", path));
            state.offset = bytes.size();
        }
        return true;
    }
    if (doc.is_object() && doc.contains("log_history"))
        readTrainerState(doc, bytes, out);
    else if (doc.is_array())
        readSkorchHistory(doc, bytes, out);
    uint32_t lines = 0;
    for (char c : bytes) lines += c == '\n';
    state.line = lines;
    state.offset = bytes.size();
    return true;
}

}  // namespace qatdoctor::core::logs
