// The JSON form of a simulation (the CLI's `simulate --json`; the report reads the same).
#pragma once

#include <nlohmann/json.hpp>

#include "core/common/text.h"
#include "core/fixedpoint/colour_compare.h"
#include "core/fixedpoint/simulation.h"

namespace qatdoctor::core::fixedpoint {

// {"model", "threads", "requant", "modes", "timing_ms": {"float": ms, ...}, "layers": [...],
//  "first_bad_layer", "outputs": {...}, "luts": [...], "weights": [...], "findings": [...] ...}
nlohmann::json simulationToJson(const SimulationResult& r, Lang lang, RequantMode requant);
nlohmann::json agreementToJson(const Agreement& a);
// {"int16_layers", "float_layers", "baseline_output_sqnr_db", "output_sqnr_db", "gain_db"}: the
// what-if a run applied and what it gained over the unchanged model (nulls when unknown).
nlohmann::json whatIfToJson(const std::set<std::string>& int16Layers,
                            const std::set<std::string>& floatLayers,
                            const std::optional<double>& baselineOutputSqnrDb,
                            const std::optional<double>& outputSqnrDb);
// {"trained", "fed", "mode", "first_bad_layer", "top1": {"trained", "fed"},
//  "layers": [{"name", "op", "mismatch": {...}, "quantization": {...}}], "outputs": [...]}
nlohmann::json colourComparisonToJson(const ColourComparison& c);

}  // namespace qatdoctor::core::fixedpoint
