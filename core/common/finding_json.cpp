#include "core/common/finding_json.h"

#include <cmath>

#include "core/common/finding_catalogue.h"

namespace qatdoctor::core {

using nlohmann::json;

namespace {

std::string str(const json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

json jsonNumber(double v)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

json jsonCount(double v)
{
    constexpr double kExact = 9007199254740992.0;  // 2^53: every integer below is a double exactly
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < kExact) return static_cast<int64_t>(v);
    return jsonNumber(v);
}

std::optional<double> numberFromJson(const json& j)
{
    if (j.is_number()) return j.get<double>();
    if (j == "nan") return std::nan("");
    if (j == "inf") return INFINITY;
    if (j == "-inf") return -INFINITY;
    return std::nullopt;
}

json evidenceToJson(const Evidence& e)
{
    json j = json::object();
    if (!e.run.empty()) j["run"] = e.run;
    if (!e.file.empty()) j["file"] = e.file;
    if (e.line > 0) j["line"] = e.line;
    if (e.step) j["step"] = jsonCount(*e.step);
    if (!e.metric.empty()) j["metric"] = e.metric;
    if (e.value) j["value"] = jsonNumber(*e.value);
    if (!e.layer.empty()) j["layer"] = e.layer;
    if (!e.detail.empty()) j["detail"] = e.detail;
    return j;
}

Evidence evidenceFromJson(const json& j)
{
    Evidence e;
    if (!j.is_object()) return e;
    e.run = str(j, "run");
    e.file = str(j, "file");
    if (auto it = j.find("line"); it != j.end() && it->is_number_integer()) e.line = it->get<int64_t>();
    if (auto it = j.find("step"); it != j.end()) e.step = numberFromJson(*it);
    e.metric = str(j, "metric");
    if (auto it = j.find("value"); it != j.end()) e.value = numberFromJson(*it);
    e.layer = str(j, "layer");
    e.detail = str(j, "detail");
    return e;
}

json textToJson(const Text& t)
{
    return json{{"zh", t.zh}, {"en", t.en}};
}

nlohmann::json warningToJson(const Warning& w)
{
    json j;
    j["file"] = w.file;
    j["line"] = w.line > 0 ? json(w.line) : json(nullptr);
    if (w.offset >= 0) j["offset"] = w.offset;
    j["code"] = w.code;
    j["message"] = w.message;
    return j;
}

nlohmann::json findingToJson(const Finding& f, Lang lang)
{
    json j;
    j["id"] = f.id;
    j["severity"] = severityName(f.severity);
    j["stage"] = stageName(f.stage);
    j["title"] = f.title.in(lang);
    j["message"] = f.message.in(lang);
    j["evidence"] = json::array();
    for (const Evidence& e : f.evidence) j["evidence"].push_back(evidenceToJson(e));
    j["faq"] = f.faq.empty() ? json(nullptr) : json(f.faq);
    if (f.strength) {
        const Strength& s = *f.strength;
        j["strength"] = {{"measure", s.measure.in(lang)},        {"value", jsonNumber(s.value)},
                         {"threshold", jsonNumber(s.threshold)}, {"holds_when", s.above ? "above" : "below"},
                         {"margin", jsonNumber(s.margin())},     {"text", strengthText(s, lang)}};
        if (std::isfinite(s.noise)) j["strength"]["noise"] = s.noise;
    }
    if (f.recovered) j["recovered"] = true;
    // the standard the evidence met (finding_catalogue.h)
    json standard = {{"met", evidenceLevelName(f.evidenceLevel)}, {"text", standardText(f, lang)}};
    if (const FindingRow* row = findingRow(f.id)) {
        standard["decisive"] = row->decisive.in(lang);
        standard["suggestive"] = row->suggestive.en.empty() ? json(nullptr) : json(row->suggestive.in(lang));
    }
    j["evidence_standard"] = std::move(standard);
    return j;
}

}  // namespace qatdoctor::core
