#include "core/fixedpoint/kernel_checks.h"

namespace qatdoctor::core::fixedpoint {

int64_t checkedAxis(int64_t axis, int64_t rank, const char* what)
{
    if (axis < -rank || axis >= rank)
        throw KernelInputError(std::string(what) + " " + std::to_string(axis) + " is outside [" +
                               std::to_string(-rank) + ", " + std::to_string(rank - 1) + "] for a rank-" +
                               std::to_string(rank) + " tensor");
    return axis < 0 ? axis + rank : axis;
}

void checkPermutation(const std::vector<int64_t>& perm, int64_t rank)
{
    std::vector<bool> seen(static_cast<size_t>(rank > 0 ? rank : 0), false);
    bool ok = static_cast<int64_t>(perm.size()) == rank;
    for (int64_t p : perm) {
        ok = ok && p >= 0 && p < rank && !seen[static_cast<size_t>(p)];
        if (ok) seen[static_cast<size_t>(p)] = true;
    }
    if (!ok) throw KernelInputError("perm is not a permutation of the " + std::to_string(rank) + " axes");
}

void checkLength(const std::vector<int64_t>& values, size_t want, const char* what)
{
    if (values.size() != want)
        throw KernelInputError(std::string(what) + " has " + std::to_string(values.size()) +
                               " values, the op needs " + std::to_string(want));
}

void checkAtLeast(const std::vector<int64_t>& values, int64_t minimum, const char* what)
{
    for (int64_t v : values)
        if (v < minimum)
            throw KernelInputError(std::string(what) + " holds " + std::to_string(v) +
                                   ", below the least allowed " + std::to_string(minimum));
}

void checkAtMost(const std::vector<int64_t>& values, int64_t maximum, const char* what)
{
    for (int64_t v : values)
        if (v > maximum)
            throw KernelInputError(std::string(what) + " holds " + std::to_string(v) +
                                   ", past the largest allowed " + std::to_string(maximum));
}

}  // namespace qatdoctor::core::fixedpoint
