// The simulator's front door: run a model in float / fake-quant / integer modes on one input,
// compare them layer by layer, rank layers for int16, measure weight quantization, and turn
// what matters into findings (simulation.first_bad_layer, simulation.lut_error, ...).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/common/finding.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/compare.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/sim_inputs.h"

namespace qatdoctor::core::fixedpoint {

struct SimulationOptions {
    std::vector<SimMode> modes{SimMode::Float, SimMode::Fake, SimMode::Int};
    RequantMode requant = RequantMode::Float;
    std::set<std::string> int16Layers;  // what-if: these layers at int16
    std::set<std::string> floatLayers;  // what-if: these layers in float
    int threads = 1;
    int repeat = 1;              // timing: median of this many runs per mode
    bool compareRequant = true;  // int mode also with the other requantization
    bool sensitivity = false;    // rank layers by the gain of int16 (one run per layer)
    bool weights = true;         // weight SQNR per layer
    AgreementThresholds thresholds;
    // The largest tensor a kernel may allocate (--max-memory); 0 = a quarter of physical memory.
    uint64_t maxTensorBytes = 0;
};

// Agreement of one tensor between two modes, by modePairKey() (mode_pair.h).
struct LayerComparison {
    std::string layer;
    std::map<std::string, Agreement> pairs;
    int64_t overflows = 0;
};

struct WeightStats {
    std::string layer;
    int64_t channels = 0;
    int64_t count = 0;
    double sqnrInt8PerTensor = 0;  // symmetric max-abs scale
    double sqnrInt8PerChannel = 0;
    double sqnrInt16PerChannel = 0;
    std::optional<double> sqnrModel;  // with the model's own weight quantizer
};

struct SensitivityRow {
    std::string layer;
    double outputSqnrDb = 0;  // final output, int mode vs float mode, this layer at int16
    double gainDb = 0;        // vs the unchanged model
};

struct SimulationResult {
    std::string modelPath;
    std::vector<SimMode> modes;
    std::vector<LayerInfo> layers;
    std::vector<LayerComparison> comparisons;  // one per layer, in execution order
    std::vector<std::string> outputNames;
    std::map<std::string, std::vector<Tensor>> outputs;             // mode -> graph outputs
    std::map<std::string, std::vector<Agreement>> outputAgreement;  // pair -> per graph output
    std::map<std::string, std::vector<Tensor>> layerOutputs;        // mode -> per layer (float)
    std::map<std::string, double> timingMs;                         // mode -> median ms
    std::string firstBadLayer;             // first layer where fake vs int agreement breaks
    std::string firstBadLayerFloat;        // first layer where float vs fake agreement breaks
    std::optional<double> requantDiffLsb;  // max |float - fixed requant| over graph outputs, in LSB
    std::string requantDiffLayer;          // first layer where the two requantizations differ
    std::map<std::string, int64_t> overflows;
    std::vector<LutReport> luts;
    std::vector<std::string> fallbacks;
    std::vector<WeightStats> weights;
    std::vector<SensitivityRow> sensitivity;  // best gain first
    std::set<std::string> int16Layers;        // the what-if this run applied
    std::set<std::string> floatLayers;
    // A what-if run also runs the unchanged model in int mode, so its gain is known: the final
    // output's SQNR (int vs float) of the unchanged model.
    std::optional<double> baselineOutputSqnrDb;
    std::optional<Agreement> baselineOutputAgreement;  // the same as an agreement (merges over samples)
    std::vector<Finding> findings;
    int threads = 1;
    size_t samples = 1;  // input samples the figures cover

    bool whatIf() const { return !int16Layers.empty() || !floatLayers.empty(); }
    std::optional<double> outputSqnrDb() const;  // final output, int vs float
};

// More than this many output steps between the two requantizations is a finding: one step is
// the ordinary double-rounding of a multiplier + shift.
constexpr double kRequantMismatchLsb = 1.0;

// The quantization step of the graph output outputName: the output scale of the layer that
// produces it, 0 when none does (errors in output steps then read as absolute errors).
double outputScaleOf(const std::vector<LayerInfo>& layers, const std::string& outputName);

// Runs everything the options ask for. inputs follow interp.inputNames(). Errors: input shape
// mismatches ("simulate.input"), kernel errors naming the node, kCancelledCode.
Result<SimulationResult> simulate(const Interpreter& interp, const std::vector<Tensor>& inputs,
                                  const SimulationOptions& options, const ProgressFn& progress = {});

// Every sample of inputs, one after another (a batch file gives several): per-layer and output
// agreement, overflows, look-up-table errors, fallbacks, the requantization difference and the
// what-if gain cover them all (agreements merge their sums exactly); outputs, timing, weights
// and the sensitivity ranking are the first sample's.
Result<SimulationResult> simulate(const Interpreter& interp, const PreparedInputs& inputs,
                                  const SimulationOptions& options, const ProgressFn& progress = {});

// Folds one more sample's result into r (same model and options), then marks the first bad
// layers and the findings again. sampleIndex counts from 1 for the second sample.
void mergeSample(SimulationResult& r, const SimulationResult& more, size_t sampleIndex,
                 const AgreementThresholds& thresholds);

// The first layers (in execution order) whose fake-vs-int and float-vs-fake agreement breaks.
void markFirstBadLayers(SimulationResult& r, const AgreementThresholds& thresholds);

// Weight SQNR of one float weight, its output channels along channelAxis (0 for Conv and Gemm
// weights, 1 for ConvTranspose's).
WeightStats weightStats(const std::string& layer, const Tensor& weight,
                        const std::optional<QParams>& modelQuant, int64_t channelAxis = 0);

// Findings from a finished simulation (also stored in SimulationResult::findings).
std::vector<Finding> simulationFindings(const SimulationResult& r);

}  // namespace qatdoctor::core::fixedpoint
