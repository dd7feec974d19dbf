#include "core/fixedpoint/simulation_json.h"

#include <cmath>

#include "core/common/finding_json.h"

namespace qatdoctor::core::fixedpoint {
namespace {

// JSON has no infinity: identical tensors report SQNR as null.
nlohmann::json num(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

}  // namespace

nlohmann::json agreementToJson(const Agreement& a)
{
    return {{"cosine", num(a.cosine)},  {"mse", num(a.mse)},        {"l1", num(a.l1)},
            {"max_abs", num(a.maxAbs)}, {"sqnr_db", num(a.sqnrDb)}, {"max_err_lsb", num(a.maxErrLsb)},
            {"count", a.count}};
}

nlohmann::json whatIfToJson(const std::set<std::string>& int16Layers,
                            const std::set<std::string>& floatLayers,
                            const std::optional<double>& baselineOutputSqnrDb,
                            const std::optional<double>& outputSqnrDb)
{
    auto optNum = [](const std::optional<double>& v) { return v ? num(*v) : nlohmann::json(); };
    const bool both = baselineOutputSqnrDb && outputSqnrDb;
    return {{"int16_layers", int16Layers},
            {"float_layers", floatLayers},
            {"baseline_output_sqnr_db", optNum(baselineOutputSqnrDb)},
            {"output_sqnr_db", optNum(outputSqnrDb)},
            {"gain_db", both ? num(*outputSqnrDb - *baselineOutputSqnrDb) : nlohmann::json()}};
}

nlohmann::json colourComparisonToJson(const ColourComparison& c)
{
    nlohmann::json j;
    j["trained"] = colourFormatName(c.options.trained);
    j["fed"] = colourFormatName(c.options.fed);
    j["mode"] = simModeName(c.options.mode);
    j["pixel_scale"] = c.options.pixelScale;
    j["first_bad_layer"] = c.firstBadLayer.empty() ? nlohmann::json() : nlohmann::json(c.firstBadLayer);
    j["top1"] = {{"trained", c.top1Trained ? nlohmann::json(*c.top1Trained) : nlohmann::json()},
                 {"fed", c.top1Fed ? nlohmann::json(*c.top1Fed) : nlohmann::json()}};
    j["layers"] = nlohmann::json::array();
    for (const auto& row : c.layers)
        j["layers"].push_back({{"name", row.layer},
                               {"op", row.op},
                               {"mismatch", agreementToJson(row.mismatch)},
                               {"quantization", agreementToJson(row.quantization)}});
    j["outputs"] = nlohmann::json::array();
    for (size_t o = 0; o < c.outputMismatch.size(); ++o)
        j["outputs"].push_back({{"name", o < c.outputNames.size() ? c.outputNames[o] : std::string()},
                                {"mismatch", agreementToJson(c.outputMismatch[o])},
                                {"quantization", agreementToJson(c.outputQuantization[o])}});
    return j;
}

nlohmann::json simulationToJson(const SimulationResult& r, Lang lang, RequantMode requant)
{
    nlohmann::json j;
    j["model"] = r.modelPath;
    j["threads"] = r.threads;
    j["samples"] = r.samples;
    j["requant"] = requantModeName(requant);
    j["round"] = roundModeName(requant.ties);
    j["modes"] = nlohmann::json::array();
    for (SimMode m : r.modes) j["modes"].push_back(simModeName(m));
    j["timing_ms"] = nlohmann::json::object();
    for (const auto& [m, ms] : r.timingMs) j["timing_ms"][m] = ms;
    j["first_bad_layer"] = r.firstBadLayer.empty() ? nlohmann::json() : nlohmann::json(r.firstBadLayer);
    j["first_bad_layer_float_fake"] =
        r.firstBadLayerFloat.empty() ? nlohmann::json() : nlohmann::json(r.firstBadLayerFloat);
    j["requant_diff_lsb"] = r.requantDiffLsb ? nlohmann::json(*r.requantDiffLsb) : nlohmann::json();
    j["requant_diff_layer"] =
        r.requantDiffLayer.empty() ? nlohmann::json() : nlohmann::json(r.requantDiffLayer);
    auto& layers = j["layers"] = nlohmann::json::array();
    for (size_t i = 0; i < r.layers.size(); ++i) {
        const LayerInfo& L = r.layers[i];
        nlohmann::json row = {
            {"name", L.name},
            {"op", L.op},
            {"node", L.node},
            {"observed", L.observed},
            {"output_scale", L.outputScale > 0 ? nlohmann::json(L.outputScale) : nlohmann::json()},
            {"output_dtype", model::dtypeName(L.outputDtype)}};
        if (i < r.comparisons.size()) {
            for (const auto& [pair, ag] : r.comparisons[i].pairs) row[pair] = agreementToJson(ag);
            if (r.comparisons[i].overflows) row["overflows"] = r.comparisons[i].overflows;
        }
        layers.push_back(row);
    }
    auto& outs = j["outputs"] = nlohmann::json::object();
    for (const auto& [mode, tensors] : r.outputs) {
        auto& arr = outs[mode] = nlohmann::json::array();
        for (size_t k = 0; k < tensors.size(); ++k) {
            const Tensor& t = tensors[k];
            nlohmann::json o = {{"name", k < r.outputNames.size() ? r.outputNames[k] : ""},
                                {"shape", t.shape()},
                                {"dtype", model::dtypeName(t.dtype())}};
            if (t.size() <= 64) o["values"] = t.toDoubles();
            arr.push_back(o);
        }
    }
    auto& oa = j["output_agreement"] = nlohmann::json::object();
    for (const auto& [pair, list] : r.outputAgreement) {
        oa[pair] = nlohmann::json::array();
        for (const Agreement& a : list) oa[pair].push_back(agreementToJson(a));
    }
    j["luts"] = nlohmann::json::array();
    for (const LutReport& l : r.luts)
        j["luts"].push_back({{"layer", l.layer},
                             {"op", l.op},
                             {"input_bits", l.inputBits},
                             {"entries", l.entries},
                             {"input_min", l.inputMin},
                             {"input_max", l.inputMax},
                             {"max_error", l.maxError},
                             {"mean_error", l.meanError},
                             {"max_error_lsb", l.maxErrorLsb}});
    j["overflows"] = r.overflows;
    j["fallbacks"] = r.fallbacks;
    j["what_if"] = whatIfToJson(r.int16Layers, r.floatLayers, r.baselineOutputSqnrDb, r.outputSqnrDb());
    j["weights"] = nlohmann::json::array();
    for (const WeightStats& w : r.weights)
        j["weights"].push_back({{"layer", w.layer},
                                {"channels", w.channels},
                                {"count", w.count},
                                {"sqnr_int8_per_tensor", num(w.sqnrInt8PerTensor)},
                                {"sqnr_int8_per_channel", num(w.sqnrInt8PerChannel)},
                                {"sqnr_int16_per_channel", num(w.sqnrInt16PerChannel)},
                                {"sqnr_model", w.sqnrModel ? num(*w.sqnrModel) : nlohmann::json()}});
    j["sensitivity"] = nlohmann::json::array();
    for (const SensitivityRow& s : r.sensitivity)
        j["sensitivity"].push_back(
            {{"layer", s.layer}, {"output_sqnr_db", num(s.outputSqnrDb)}, {"gain_db", num(s.gainDb)}});
    j["findings"] = nlohmann::json::array();
    for (const Finding& f : r.findings) j["findings"].push_back(findingToJson(f, lang));
    return j;
}

}  // namespace qatdoctor::core::fixedpoint
