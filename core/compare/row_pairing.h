// Pairing the rows of two tables (layers of two models, rows of two debug tables): by key, each
// row at most once, and the pairs listed in B's order with A's unpaired rows where they stood.
#pragma once

#include <string>
#include <vector>

namespace qatdoctor::core::compare {

// Pairs still-unpaired rows whose keys are equal; rows sharing one key pair in table order (a
// module's first call with the other side's first call). partnerOfA[i] = B's row, -1 = none.
void pairByKey(const std::vector<std::string>& keysA, const std::vector<std::string>& keysB,
               std::vector<int>& partnerOfA, std::vector<int>& partnerOfB);

// B's rows in order, each with its A partner (-1 = only in B); an unpaired A row comes after the B
// partner of the paired A row before it (a removed layer is shown where it stood).
std::vector<std::pair<int, int>> pairsInOrderOfB(const std::vector<int>& partnerOfA,
                                                 const std::vector<int>& partnerOfB);

}  // namespace qatdoctor::core::compare
