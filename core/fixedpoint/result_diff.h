// What changed between two simulations of one model on one input that differ in a setting (the
// requantization or its rounding): the layers whose integer results moved.
#pragma once

#include <string>
#include <vector>

#include "core/fixedpoint/simulation.h"

namespace qatdoctor::core::fixedpoint {

// Layers, in graph order, whose fake-quant vs integer error differs between the two runs. The
// fake-quant results do not depend on requantization, so a different error is a different
// integer result (the exact error sums are compared, not the rounded figures).
std::vector<std::string> layersWithOtherIntegerResults(const SimulationResult& before,
                                                       const SimulationResult& after);

}  // namespace qatdoctor::core::fixedpoint
