#include "core/compare/row_pairing.h"

#include <algorithm>
#include <unordered_map>

namespace qatdoctor::core::compare {

void pairByKey(const std::vector<std::string>& keysA, const std::vector<std::string>& keysB,
               std::vector<int>& partnerOfA, std::vector<int>& partnerOfB)
{
    std::unordered_map<std::string, std::vector<int>> freeInB;
    for (size_t j = keysB.size(); j-- > 0;)
        if (partnerOfB[j] < 0) freeInB[keysB[j]].push_back(static_cast<int>(j));
    for (size_t i = 0; i < keysA.size(); ++i) {
        if (partnerOfA[i] >= 0) continue;
        auto it = freeInB.find(keysA[i]);
        if (it == freeInB.end() || it->second.empty()) continue;
        const int j = it->second.back();  // filled in reverse: back() is the first in table order
        it->second.pop_back();
        partnerOfA[i] = j;
        partnerOfB[static_cast<size_t>(j)] = static_cast<int>(i);
    }
}

std::vector<std::pair<int, int>> pairsInOrderOfB(const std::vector<int>& partnerOfA,
                                                 const std::vector<int>& partnerOfB)
{
    std::vector<std::vector<int>> removedAfter(partnerOfB.size() + 1);  // slot 0 = before B's first row
    size_t slot = 0;  // after the furthest B partner seen so far
    for (size_t i = 0; i < partnerOfA.size(); ++i) {
        if (partnerOfA[i] >= 0)
            slot = std::max(slot, static_cast<size_t>(partnerOfA[i]) + 1);
        else
            removedAfter[slot].push_back(static_cast<int>(i));
    }
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(partnerOfA.size() + partnerOfB.size());
    for (size_t j = 0; j <= partnerOfB.size(); ++j) {
        for (int i : removedAfter[j]) pairs.emplace_back(i, -1);
        if (j < partnerOfB.size()) pairs.emplace_back(partnerOfB[j], static_cast<int>(j));
    }
    return pairs;
}

}  // namespace qatdoctor::core::compare
