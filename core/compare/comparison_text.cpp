// The comparison in words (the summary sentence) and as JSON.
#include <nlohmann/json.hpp>

#include "core/common/finding_json.h"
#include "core/compare/comparison.h"

namespace qatdoctor::core::compare {
namespace {

std::string joined(const std::vector<std::string>& parts, const char* separator)
{
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : separator) + p;
    return s;
}

nlohmann::json optionalNumber(const std::optional<double>& v)
{
    return v ? jsonNumber(*v) : nlohmann::json();
}

nlohmann::json layerDiffToJson(const LayerTableDiff& d)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const LayerChange& r : d.rows) {
        nlohmann::json fields = nlohmann::json::array();
        for (const FieldChange& f : r.fields)
            fields.push_back({{"field", f.field},
                              {"before", f.before},
                              {"after", f.after},
                              {"configuration", f.configuration}});
        rows.push_back({{"a", r.nameA},
                        {"b", r.nameB},
                        {"op", r.op},
                        {"change", rowChangeName(r.kind)},
                        {"matched_by", matchByName(r.matchedBy)},
                        {"fields", std::move(fields)}});
    }
    return {{"a", d.pathA},
            {"b", d.pathB},
            {"format", d.format},
            {"changed", d.changedRows()},
            {"rows", std::move(rows)}};
}

nlohmann::json tableDiffToJson(const DataTableDiff& d)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const TableRowChange& r : d.rows) {
        nlohmann::json row = {{"layer", r.layer},
                              {"change", rowChangeName(r.kind)},
                              {"movement", movementName(r.movement)},
                              {"before", optionalNumber(r.before)},
                              {"after", optionalNumber(r.after)},
                              {"line_a", r.lineA},
                              {"line_b", r.lineB}};
        if (!r.part.empty()) row["part"] = r.part;
        if (d.ranked) {
            row["rank_a"] = r.rankA;
            row["rank_b"] = r.rankB;
        }
        if (!r.dtypeA.empty() || !r.dtypeB.empty()) {
            row["dtype_a"] = r.dtypeA;
            row["dtype_b"] = r.dtypeB;
        }
        rows.push_back(std::move(row));
    }
    return {{"kind", d.kind},     {"title", d.title},       {"a", d.pathA},
            {"b", d.pathB},       {"metric", d.metric},     {"higher_is_better", d.higherIsBetter},
            {"ranked", d.ranked}, {"rows", std::move(rows)}};
}

}  // namespace

std::string comparisonSummary(const Comparison& c, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    std::vector<std::string> parts;
    if (!c.models.empty()) {
        const LayerTableDiff& d = c.models.front();
        const size_t changed = d.changedRows(), total = d.rows.size();
        parts.push_back(zh ? std::to_string(total) + " 层中 " + std::to_string(changed) + " 层的配置有变化"
                           : std::to_string(changed) + " of " + std::to_string(total) +
                                 " layers changed configuration");
    }
    size_t better = 0, worse = 0;
    for (const DataTableDiff& d : c.tables) {
        better += d.count(Movement::Better);
        worse += d.count(Movement::Worse);
    }
    if (better + worse > 0)
        parts.push_back(
            zh ? "调试表中 " + std::to_string(better) + " 行变好、" + std::to_string(worse) + " 行变差"
               : std::to_string(better) + " debug-table rows better, " + std::to_string(worse) + " worse");
    const size_t resolved = c.count(FindingChangeKind::Resolved), added = c.count(FindingChangeKind::New),
                 kept = c.count(FindingChangeKind::Persisting);
    parts.push_back(zh ? "问题：解决 " + std::to_string(resolved) + " 个，新增 " + std::to_string(added) +
                             " 个，仍在 " + std::to_string(kept) + " 个"
                       : "findings: " + std::to_string(resolved) + " resolved, " + std::to_string(added) +
                             " new, " + std::to_string(kept) + " still there");
    std::string s = joined(parts, zh ? "；" : "; ") + (zh ? "。" : ".");
    std::vector<std::string> titles;
    for (const Finding& f : c.answers) titles.push_back(f.title.in(lang));
    if (!titles.empty()) s += (zh ? "" : " ") + joined(titles, zh ? "；" : "; ") + (zh ? "。" : ".");
    return s;
}

nlohmann::json comparisonToJson(const Comparison& c, Lang lang)
{
    nlohmann::json j;
    j["a"] = c.nameA;
    j["b"] = c.nameB;
    j["summary"] = comparisonSummary(c, lang);
    j["answers"] = nlohmann::json::array();
    for (const Finding& f : c.answers) j["answers"].push_back(findingToJson(f, lang));
    j["findings"] = nlohmann::json::array();
    for (const FindingChange& f : c.findings) {
        nlohmann::json fj = findingToJson(f.finding, lang);
        fj["change"] = findingChangeName(f.kind);
        j["findings"].push_back(std::move(fj));
    }
    j["models"] = nlohmann::json::array();
    for (const LayerTableDiff& d : c.models) j["models"].push_back(layerDiffToJson(d));
    j["checkpoints"] = nlohmann::json::array();
    for (const LayerTableDiff& d : c.checkpoints) j["checkpoints"].push_back(layerDiffToJson(d));
    j["tables"] = nlohmann::json::array();
    for (const DataTableDiff& d : c.tables) j["tables"].push_back(tableDiffToJson(d));
    j["runs"] = nlohmann::json::array();
    for (const RunChange& r : c.runs)
        j["runs"].push_back({{"role", r.role},
                             {"a", r.runA},
                             {"b", r.runB},
                             {"accuracy_metric", r.accuracyMetric},
                             {"accuracy_a", optionalNumber(r.accuracyA)},
                             {"accuracy_b", optionalNumber(r.accuracyB)},
                             {"loss_metric", r.lossMetric},
                             {"loss_a", optionalNumber(r.lossA)},
                             {"loss_b", optionalNumber(r.lossB)}});
    j["simulation"] = nullptr;
    if (c.simulation) {
        nlohmann::json layers = nlohmann::json::array();
        for (const SimulationLayerChange& l : c.simulation->layers)
            layers.push_back({{"layer", l.layer},
                              {"cosine_a", optionalNumber(l.cosineA)},
                              {"cosine_b", optionalNumber(l.cosineB)}});
        j["simulation"] = {{"output_sqnr_db_a", optionalNumber(c.simulation->outputSqnrA)},
                           {"output_sqnr_db_b", optionalNumber(c.simulation->outputSqnrB)},
                           {"first_bad_layer_a", c.simulation->firstBadA},
                           {"first_bad_layer_b", c.simulation->firstBadB},
                           {"layers", std::move(layers)}};
    }
    return j;
}

}  // namespace qatdoctor::core::compare
