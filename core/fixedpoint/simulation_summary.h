// What a finished simulation leaves in the Analysis (Analysis::simulation): the per-layer
// agreement figures, the first bad layer, LUT errors, the what-if settings and the int16
// sensitivity ranking, timing and findings. Plain values without tensors, so an Analysis
// snapshot stays cheap to copy; the report, the JSON and the checks read this, never the page.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/common/check_results.h"
#include "core/common/finding.h"
#include "core/common/text.h"
#include "core/fixedpoint/compare.h"

namespace qatdoctor::core::fixedpoint {

struct SimulationResult;
struct SimulationOptions;

struct LayerAgreementRow {
    std::string layer;
    std::string op;
    std::map<std::string, Agreement> pairs;  // by modePairKey() (mode_pair.h)
    int64_t overflows = 0;                   // accumulator results outside int32
    bool int16 = false;                      // what-if: this layer ran at int16

    const Agreement* pair(const std::string& name) const;
};

struct LutErrorRow {
    std::string layer;
    std::string op;
    int inputBits = 8;
    int entries = 256;
    double inputMin = 0, inputMax = 0;
    double maxError = 0, meanError = 0, maxErrorLsb = 0;
};

struct SensitivityEntry {
    std::string layer;
    double outputSqnrDb = 0;  // final output, int vs float, with this layer at int16
    double gainDb = 0;        // over the unchanged model
};

struct SimulationSummary {
    std::string modelPath;
    std::vector<std::string> inputs;  // per graph input: the file, or "random(seed=N)"
    std::vector<std::string> modes;   // "float", "fake", "int"
    std::string requant = "float";    // "float" | "fixed"
    std::string round = "half_even";  // fixed-point tie rounding (roundModeName)
    int threads = 1;
    size_t samples = 1;                      // input samples the figures cover
    std::map<std::string, double> timingMs;  // mode -> median ms
    std::vector<LayerAgreementRow> layers;   // execution order
    std::string firstBadLayer;               // fake vs int breaks here ("" = nowhere)
    std::string firstBadLayerFloat;          // float vs fake breaks here
    AgreementThresholds thresholds;
    std::vector<std::string> outputNames;
    std::map<std::string, std::vector<Agreement>> outputAgreement;  // pair -> per graph output
    std::optional<double> requantDiffLsb;
    std::string requantDiffLayer;
    std::vector<LutErrorRow> luts;
    std::vector<std::string> fallbacks;  // ops the integer mode computed in float
    std::set<std::string> int16Layers;   // what-if settings of this run
    std::set<std::string> floatLayers;
    std::optional<double> baselineOutputSqnrDb;  // unchanged model (set when this run is a what-if)
    std::vector<SensitivityEntry> sensitivity;   // best gain first
    std::vector<Finding> findings;

    // Output SQNR (dB), integer vs float, of the first graph output; nullopt when not run.
    std::optional<double> outputSqnrDb() const;
    bool whatIf() const { return !int16Layers.empty() || !floatLayers.empty(); }
};

// inputSources: per graph input, where it came from (PreparedInputs::sources).
SimulationSummary summarizeSimulation(const SimulationResult& result, const SimulationOptions& options,
                                      std::vector<std::string> inputSources);

// The "simulation" object of the analysis JSON; field names follow simulationToJson (the CLI's
// `simulate --json`): model, inputs, modes, requant, threads, timing_ms, layers[{name, op,
// float_fake, fake_int, float_int, overflows, int16}], first_bad_layer, output_agreement, luts,
// fallbacks, what_if, sensitivity, findings. Non-finite numbers are null.
nlohmann::json simulationSummaryToJson(const SimulationSummary& s, Lang lang);

// The check row (core/check_registry.cpp): the simulation's findings join the results and its
// check ids count as run, so the wizard can answer "clear"; nothing when no simulation is attached.
void runSimulationCheck(const std::optional<SimulationSummary>& simulation, CheckResults& results);

}  // namespace qatdoctor::core::fixedpoint
