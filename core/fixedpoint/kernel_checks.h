// Checks of what a node's attributes and inputs claim, made before a kernel indexes with them:
// a crafted model sets any axis, window or count. Each throws KernelInputError, which the
// interpreter catches and reports against the node (interpreter.cpp), so that a kernel stays a
// straight line of arithmetic once its arguments are known to be in range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace qatdoctor::core::fixedpoint {

struct KernelInputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// axis in [-rank, rank) (what: the attribute's name in the message), as an index in [0, rank).
// Flatten's axis may also be rank itself: pass rank + 1.
int64_t checkedAxis(int64_t axis, int64_t rank, const char* what = "axis");
// perm is a permutation of 0 .. rank-1.
void checkPermutation(const std::vector<int64_t>& perm, int64_t rank);
// An attribute list of the length the op's geometry needs ("pads has 1 values, a 2-D window needs 4").
void checkLength(const std::vector<int64_t>& values, size_t want, const char* what);
// Every value at least minimum (strides and dilations 1, pads 0).
void checkAtLeast(const std::vector<int64_t>& values, int64_t minimum, const char* what);
// Every value at most maximum: window attributes past any real input would overflow the
// geometry's arithmetic (kWindowLimit).
void checkAtMost(const std::vector<int64_t>& values, int64_t maximum, const char* what);
constexpr int64_t kWindowLimit = int64_t(1) << 30;

}  // namespace qatdoctor::core::fixedpoint
