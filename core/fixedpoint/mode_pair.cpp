#include "core/fixedpoint/mode_pair.h"

namespace qatdoctor::core::fixedpoint {

const std::array<ModePairInfo, 3>& modePairs()
{
    static const std::array<ModePairInfo, 3> kPairs = {{
        {ModePair::FloatFake,
         "float_fake",
         SimMode::Float,
         SimMode::Fake,
         {"浮点 vs 伪量化", "float vs fake-quant"},
         {"量化的代价", "what quantization costs"},
         0x1f77b4},
        {ModePair::FakeInt,
         "fake_int",
         SimMode::Fake,
         SimMode::Int,
         {"伪量化 vs 整数", "fake-quant vs integer"},
         {"部署带来的变化", "what deployment changes"},
         0xd62728},
        {ModePair::FloatInt,
         "float_int",
         SimMode::Float,
         SimMode::Int,
         {"浮点 vs 整数", "float vs integer"},
         {"两者之和", "both"},
         0x9a9a9a},
    }};
    return kPairs;
}

const ModePairInfo& modePairInfo(ModePair pair)
{
    return modePairs()[static_cast<size_t>(pair)];
}

}  // namespace qatdoctor::core::fixedpoint
