// The answers a comparison gives, as findings with ids "compare.*": for each configuration change
// the FAQ talks about, whether it took effect (int16 applied or fell back, the output made high
// precision, a shared quantizer split, the bad layer's similarity improved, the changed ops'
// sensitivity lowered) and what the change broke (precision lowered, similarity or accuracy
// dropped, sensitivity raised). One row per question in change_answers.cpp.
#pragma once

#include <vector>

#include "core/compare/comparison.h"

namespace qatdoctor::core::compare {

// Reads the diffs already in `c` (models, tables, runs, simulation) and B's configured dtypes.
// Most severe first.
std::vector<Finding> changeAnswers(const Comparison& c, const Analysis& a, const Analysis& b);

}  // namespace qatdoctor::core::compare
