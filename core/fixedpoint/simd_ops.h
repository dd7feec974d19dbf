// Vectorised versions of the integer mode's elementwise steps (AVX-512, chosen at run time).
// Each computes exactly what the scalar loop it replaces computes, operation for operation in
// the same precision (IEEE division/multiplication/addition are correctly rounded whatever the
// width), so results are bit-identical; each returns false when the CPU lacks the instructions
// and the caller runs its scalar loop. Tested against the scalar loops in int8_gemm_test.cpp.
#pragma once

#include <cstdint>

namespace qatdoctor::core::fixedpoint {

// QuantizeLinear of n floats into 8-bit codes, round half to even:
// out = isnan(v) ? zp : clamp(nearbyint(x / scale) + zp, lo, hi), all in float.
bool quantizeRowX8(const float* x, int64_t n, float scale, float zp, float lo, float hi, bool isSigned,
                   uint8_t* out);

// x[i] = max(x[i], floor) on 8-bit codes (Relu after a pending op, at the output zero point).
bool floorRowX8(uint8_t* x, int64_t n, int32_t floor, bool isSigned);

// out[i] = min(max(x[i], lo), hi) on 8-bit codes (Clip / Relu on codes; lo <= hi, both in the
// type's range). out may be x.
bool clampRowX8(const uint8_t* x, int64_t n, int32_t lo, int32_t hi, bool isSigned, uint8_t* out);

// Add/Sub of two uint8 tensors into uint8 with the float requantization, all in double:
// out = saturate(nearbyint((sa * (a - za) + sign * sb * (b - zb)) / so) + zo, [lo, hi]).
// (Computes in float, then in double multiplying by 1 / so, and divides only where a quotient
// lies near a half-integer: the rounded result is the division's, see simd_ops.cpp.)
bool addRowsU8(const uint8_t* a, const uint8_t* b, int64_t n, double sa, int32_t za, double sb, int32_t zb,
               double sign, double so, int32_t zo, int32_t lo, int32_t hi, uint8_t* out);

}  // namespace qatdoctor::core::fixedpoint
