#include "core/fixedpoint/result_diff.h"

#include <map>

#include "core/fixedpoint/mode_pair.h"

namespace qatdoctor::core::fixedpoint {

std::vector<std::string> layersWithOtherIntegerResults(const SimulationResult& before,
                                                       const SimulationResult& after)
{
    const std::string key = modePairKey(ModePair::FakeInt);
    std::map<std::string, const Agreement*> earlier;
    for (const LayerComparison& c : before.comparisons)
        if (auto it = c.pairs.find(key); it != c.pairs.end()) earlier[c.layer] = &it->second;
    std::vector<std::string> changed;
    for (const LayerComparison& c : after.comparisons) {
        auto now = c.pairs.find(key);
        auto then = earlier.find(c.layer);
        if (now == c.pairs.end() || then == earlier.end()) continue;
        const Agreement::Sums& a = then->second->sums;
        const Agreement::Sums& b = now->second.sums;
        if (a.errSq != b.errSq || a.absErr != b.absErr || then->second->count != now->second.count)
            changed.push_back(c.layer);
    }
    return changed;
}

}  // namespace qatdoctor::core::fixedpoint
