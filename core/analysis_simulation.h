// Simulating the model of an Analysis: `analyze --simulate` runs it here in one call; the
// Fixed-point page runs the simulator in its own background job and attaches the summary with
// attachSimulation, so both leave the same Analysis::simulation behind.
#pragma once

#include <string>

#include "core/analysis.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/run_simulation.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation.h"

namespace qatdoctor::core {

// The ONNX model the simulator runs: the primary model when it is ONNX, else the first ONNX
// model loaded; nullptr ("" for the path) when there is none.
const model::LayerTable* simulatableModel(const Analysis& analysis);
// Why there is none: "simulate.no_model", naming an ONNX file that was found but refused.
Error noSimulatableModel(const Analysis& analysis);
std::string simulatableModelPath(const Analysis& analysis);

// Sets analysis.simulation and re-runs the checks (its findings join the analysis).
void attachSimulation(Analysis& analysis, fixedpoint::SimulationSummary summary);

// Adds a dataset evaluation (replacing one of the same model, dataset and shards) and re-runs
// the checks: its modes become the ladder's simulated rungs.
void attachEvaluation(Analysis& analysis, fixedpoint::DatasetEvaluation evaluation);

// Reads simulatableModelPath(), prepares the input (files, or seeded random values), simulates
// and attaches the summary. Errors: "simulate.no_model" (no ONNX model loaded), the model's
// read errors, the simulator's ("simulate.unsupported", "simulate.input" ...), kCancelledCode.
Result<void> simulateAnalysisModel(Analysis& analysis, const fixedpoint::SimulationOptions& options,
                                   const fixedpoint::InputSpec& input, const ProgressFn& progress = {});

}  // namespace qatdoctor::core
