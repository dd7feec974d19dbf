// The three comparisons a simulation makes, each between two of its modes, with the one name
// table every page, chart, table, JSON key and report uses for them.
#pragma once

#include <array>
#include <cstdint>

#include "core/common/text.h"
#include "core/fixedpoint/interpreter.h"

namespace qatdoctor::core::fixedpoint {

enum class ModePair { FloatFake, FakeInt, FloatInt };

struct ModePairInfo {
    ModePair pair;
    const char* key;  // map and JSON key: "float_fake", "fake_int", "float_int"
    SimMode first, second;
    Text label;    // "fake-quant vs integer"
    Text meaning;  // what the difference is: "what deployment changes"
    uint32_t rgb;  // its colour in every chart, the app's and the report's
};

// In the order the simulation computes them.
const std::array<ModePairInfo, 3>& modePairs();
const ModePairInfo& modePairInfo(ModePair pair);
inline const char* modePairKey(ModePair pair)
{
    return modePairInfo(pair).key;
}

}  // namespace qatdoctor::core::fixedpoint
