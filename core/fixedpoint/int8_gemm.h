// The fast path of the integer mode: uint8 activations x int8 weights (symmetric weights, the
// usual QAT configuration) with int32 accumulation on AVX-512 VNNI (vpdpbusd), chosen at run
// time; other CPUs and other type combinations use the portable int16 kernels of conv_kernel.h.
// Results are bit-identical to the portable path: integer sums are exact either way.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fixedpoint/conv_kernel.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {

bool int8FastPathAvailable();

// Weights [M][K] as int8 padded to K4 = ceil(K/4)*4, and each row's sum (for the zero point).
struct PackedInt8Weights {
    int64_t m = 0, k = 0, k4 = 0;
    std::vector<int8_t> w;
    std::vector<int32_t> rowSums;
};
PackedInt8Weights packInt8Weights(const int8_t* w, int64_t m, int64_t k);

// y[n][m][p] = sum_k (x - xZero) * w for a (grouped) convolution of uint8 x. Needs
// int8FastPathAvailable(); weights packed per output channel over one group's K.
void convU8S8(const ConvGeometry& g, const uint8_t* x, int32_t xZero, const PackedInt8Weights& w, int32_t* y,
              ThreadPool* pool);
// C[M][N] = sum_k (A[M][K] - aZero) * B^T where B is packed [N][K] (Gemm with transB / Linear).
void gemmU8S8(int64_t M, const uint8_t* a, int32_t aZero, const PackedInt8Weights& b, int32_t* c, ThreadPool* pool);

// out[i] = clamp(zp + round(float(acc[i] + biasQ) * multiplier), lo, hi) for one channel's row,
// round half to even (the float requantization), vectorised where the CPU allows.
void requantizeRowU8(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo, int32_t hi,
                     uint8_t* out);

}  // namespace qatdoctor::core::fixedpoint
