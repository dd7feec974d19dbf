#include "core/fixedpoint/simulation_summary.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/common/finding_json.h"
#include "core/fixedpoint/mode_pair.h"
#include "core/fixedpoint/simulation.h"
#include "core/fixedpoint/simulation_json.h"

namespace qatdoctor::core::fixedpoint {
namespace {

using nlohmann::json;

json num(double v)
{
    return std::isfinite(v) ? json(v) : json();
}
json optNum(const std::optional<double>& v)
{
    return v ? num(*v) : json();
}
json optStr(const std::string& s)
{
    return s.empty() ? json() : json(s);
}

// The ids simulationFindings() can raise: with a simulation attached each was evaluated.
constexpr const char* kSimulationCheckIds[] = {"simulation.first_bad_layer", "simulation.lut_error",
                                               "simulation.accumulator_overflow",
                                               "simulation.requant_mismatch"};

}  // namespace

const Agreement* LayerAgreementRow::pair(const std::string& name) const
{
    auto it = pairs.find(name);
    return it == pairs.end() ? nullptr : &it->second;
}

std::optional<double> SimulationSummary::outputSqnrDb() const
{
    auto it = outputAgreement.find(modePairKey(ModePair::FloatInt));
    if (it == outputAgreement.end() || it->second.empty()) return std::nullopt;
    return it->second.front().sqnrDb;
}

SimulationSummary summarizeSimulation(const SimulationResult& r, const SimulationOptions& options,
                                      std::vector<std::string> inputSources)
{
    SimulationSummary s;
    s.modelPath = r.modelPath;
    s.inputs = std::move(inputSources);
    for (SimMode m : r.modes) s.modes.push_back(simModeName(m));
    s.requant = requantModeName(options.requant);
    s.round = roundModeName(options.requant.ties);
    s.threads = r.threads;
    s.samples = r.samples;
    s.timingMs = r.timingMs;
    for (size_t i = 0; i < r.layers.size(); ++i) {
        LayerAgreementRow row;
        row.layer = r.layers[i].name;
        row.op = r.layers[i].op;
        if (i < r.comparisons.size()) {
            row.pairs = r.comparisons[i].pairs;
            row.overflows = r.comparisons[i].overflows;
        }
        row.int16 = options.int16Layers.count(row.layer) > 0;
        s.layers.push_back(std::move(row));
    }
    s.firstBadLayer = r.firstBadLayer;
    s.firstBadLayerFloat = r.firstBadLayerFloat;
    s.thresholds = options.thresholds;
    s.outputNames = r.outputNames;
    s.outputAgreement = r.outputAgreement;
    s.requantDiffLsb = r.requantDiffLsb;
    s.requantDiffLayer = r.requantDiffLayer;
    for (const LutReport& l : r.luts)
        s.luts.push_back({l.layer, l.op, l.inputBits, l.entries, l.inputMin, l.inputMax, l.maxError,
                          l.meanError, l.maxErrorLsb});
    s.fallbacks = r.fallbacks;
    s.int16Layers = options.int16Layers;
    s.floatLayers = options.floatLayers;
    s.baselineOutputSqnrDb = r.baselineOutputSqnrDb;
    for (const SensitivityRow& row : r.sensitivity)
        s.sensitivity.push_back({row.layer, row.outputSqnrDb, row.gainDb});
    s.findings = r.findings;
    return s;
}

json simulationSummaryToJson(const SimulationSummary& s, Lang lang)
{
    json j;
    j["model"] = s.modelPath;
    j["inputs"] = json::array();
    for (const std::string& in : s.inputs) j["inputs"].push_back({{"source", in}});
    j["modes"] = s.modes;
    j["requant"] = s.requant;
    j["round"] = s.round;
    j["threads"] = s.threads;
    j["samples"] = s.samples;
    j["timing_ms"] = json::object();
    for (const auto& [mode, ms] : s.timingMs) j["timing_ms"][mode] = num(ms);
    j["first_bad_layer"] = optStr(s.firstBadLayer);
    j["first_bad_layer_float_fake"] = optStr(s.firstBadLayerFloat);
    j["thresholds"] = {{"min_cosine", s.thresholds.minCosine}, {"min_sqnr_db", s.thresholds.minSqnrDb}};
    j["layers"] = json::array();
    for (const LayerAgreementRow& row : s.layers) {
        json jr = {{"name", row.layer}, {"op", row.op}, {"int16", row.int16}};
        for (const auto& [pair, a] : row.pairs) jr[pair] = agreementToJson(a);
        if (row.overflows) jr["overflows"] = row.overflows;
        j["layers"].push_back(std::move(jr));
    }
    j["output_names"] = s.outputNames;
    j["output_agreement"] = json::object();
    for (const auto& [pair, list] : s.outputAgreement) {
        j["output_agreement"][pair] = json::array();
        for (const Agreement& a : list) j["output_agreement"][pair].push_back(agreementToJson(a));
    }
    j["output_sqnr_db"] = optNum(s.outputSqnrDb());
    j["requant_diff_lsb"] = optNum(s.requantDiffLsb);
    j["requant_diff_layer"] = optStr(s.requantDiffLayer);
    j["luts"] = json::array();
    for (const LutErrorRow& l : s.luts)
        j["luts"].push_back({{"layer", l.layer},
                             {"op", l.op},
                             {"input_bits", l.inputBits},
                             {"entries", l.entries},
                             {"input_min", num(l.inputMin)},
                             {"input_max", num(l.inputMax)},
                             {"max_error", num(l.maxError)},
                             {"mean_error", num(l.meanError)},
                             {"max_error_lsb", num(l.maxErrorLsb)}});
    j["fallbacks"] = s.fallbacks;
    j["what_if"] = whatIfToJson(s.int16Layers, s.floatLayers, s.baselineOutputSqnrDb, s.outputSqnrDb());
    j["sensitivity"] = json::array();
    for (const SensitivityEntry& e : s.sensitivity)
        j["sensitivity"].push_back(
            {{"layer", e.layer}, {"output_sqnr_db", num(e.outputSqnrDb)}, {"gain_db", num(e.gainDb)}});
    j["findings"] = json::array();
    for (const Finding& f : s.findings) j["findings"].push_back(findingToJson(f, lang));
    return j;
}

void runSimulationCheck(const std::optional<SimulationSummary>& simulation, CheckResults& results)
{
    if (!simulation) return;
    for (const char* id : kSimulationCheckIds) results.checksRun.insert(id);
    results.findings.insert(results.findings.end(), simulation->findings.begin(), simulation->findings.end());
}

}  // namespace qatdoctor::core::fixedpoint
