// Look-up tables for nonlinear ops in the integer domain: a full 256-entry table for 8-bit
// inputs, and for 16-bit inputs a segmented table (257 breakpoints, linear interpolation
// between them) as NPU toolchains build them. Each table reports its error against the float
// function over the input codes actually observed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/quantize.h"

namespace qatdoctor::core::fixedpoint {

using UnaryFn = std::function<double(double)>;

// The float function of a nonlinear op (attributes applied); empty when the op has no table form.
UnaryFn nonlinearFunction(const std::string& op, float alpha, float beta);

// Applies f through a table from `in` codes (params inP) to `out` params; fills report (error
// over the codes present in x, curve samples).
Tensor applyLut(const Tensor& x, const QParams& inP, const QParams& outP, const UnaryFn& f, LutReport& report);

}  // namespace qatdoctor::core::fixedpoint
