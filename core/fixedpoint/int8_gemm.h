// The fast path of the integer mode: 8-bit activations (uint8, or int8 shifted by +128) x int8
// symmetric weights (the usual QAT configuration) with int32 accumulation on AVX-512 VNNI
// (vpdpbusd), chosen at run time with function-level target attributes so the build stays
// portable; other CPUs and other type combinations use the portable kernels of conv_kernel.h /
// int_ops.h, which are also the reference the fast path is tested against. Integer sums are
// exact either way, so results are bit-identical. Callers use the fast path only where the
// portable path accumulates in int32 too (8-bit operands, K < 33025), so overflow reporting is
// unchanged: it can only happen on the int64 path.
#pragma once

#include <cstdint>
#include <vector>

#include "core/fixedpoint/conv_kernel.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {

// AVX-512 VNNI, or else AVX-VNNI (the 256-bit form, CPUs without AVX-512).
bool int8FastPathAvailable();
bool avxVnniAvailable();  // the 256-bit form alone (tests force it with Int8Scratch::noAvx512)
// AMX-INT8 (tdpbusd: 16x16 outputs x 64 products per instruction) usable: the CPU has it, Linux
// granted this process the tile state, and AVX-512 VBMI is there for the packing. Convolutions
// then use it instead of the AVX-512 VNNI kernel; the sums are the same integers.
bool amxAvailable();

// Weights of one product packed once per model: per group, blocks of kRowBlock output rows,
// each [K4/4][kRowBlock] of 4-byte groups (the broadcast operand of vpdpbusd); K4 = K rounded
// up to 4 and missing rows/columns are zeros. rowSums[m] = sum_k w[m][k] (the zero-point term).
struct PackedInt8Weights {
    static constexpr int64_t kRowBlock = 6;
    int64_t m = 0, k = 0, k4 = 0, groups = 1;
    int64_t blocksPerGroup = 0;    // ceil((m / groups) / kRowBlock)
    std::vector<int32_t> w;        // [groups][blocksPerGroup][k4 / 4][kRowBlock]
    std::vector<int32_t> rowSums;  // [m]
    // The AMX form (amxAvailable()): weights + 128 as uint8 (tdpbusd's unsigned operand), rows
    // [groups][channels padded to 32][k64], k64 = K rounded up to 64, zeros past K.
    int64_t k64 = 0, amxRowsPerGroup = 0;
    std::vector<uint8_t> amx;
    // With AMX, for convolutions amx_conv.h handles (group 1, C % 64 == 0): packAmxTapMajor's form.
    std::vector<int8_t> amxTaps;
};
// w is [m][k] row-major (a convolution's [M][C/group*kh*kw], or Gemm's B with transB); taps =
// kh*kw of a convolution (0: not one), for the AMX tap-major form.
PackedInt8Weights packInt8Weights(const int8_t* w, int64_t m, int64_t k, int64_t groups = 1,
                                  int64_t taps = 0);
// w is [k][n] row-major (MatMul's B): packs its transpose.
PackedInt8Weights packInt8WeightsTransposed(const int8_t* w, int64_t k, int64_t n);

// Scratch buffers reused across the convolutions of one run (no allocation per layer).
struct Int8Scratch {
    std::vector<uint8_t> padded, panel;
    std::vector<int32_t> sums;  // the int32 sums of a requantizing call on a path without fusion
    bool noVbmi = false;        // tests: the packing path of AVX-512 CPUs without VBMI on one that has it
    bool noAmx = false;         // tests: the AVX-512 VNNI kernel on a CPU with AMX
    bool noAvx512 = false;      // tests: the AVX-VNNI (256-bit) kernel on a CPU with AVX-512
    bool noTapMajor = false;    // tests: the AMX panel kernel where the tap-major one fits
    int64_t panelBandBytes = 96 * 1024;  // panel size of one band of output rows (tests: small)
};

// The float requantization of requantizeRowU8/S8 per output channel m: code =
// clamp(zp + round(float(sum + biasQ[m]) * multiplier[m]), lo, hi), stored as its low byte.
struct Requant8 {
    const int32_t* biasQ = nullptr;
    const float* multiplier = nullptr;
    int32_t zp = 0, lo = 0, hi = 255;
};

// y[n][m][p] = sum_k (x - xZero) * w for a (grouped, strided, dilated, padded) convolution of
// 8-bit x (int8 when xSigned). Needs int8FastPathAvailable(). With rq, codes[n][m][p] gets the
// requantized 8-bit codes instead (y unused): the AMX kernels requantize in registers, without
// the int32 sums ever going to memory; the other paths requantize rows after the sums.
void convX8S8(const ConvGeometry& g, const uint8_t* x, bool xSigned, int32_t xZero,
              const PackedInt8Weights& w, int32_t* y, ThreadPool* pool, Int8Scratch* scratch = nullptr,
              const Requant8* rq = nullptr, uint8_t* codes = nullptr);
// C[M][N] = sum_k (A[M][K] - aZero) * B[N][K] with B packed (N rows of K).
void gemmX8S8(int64_t M, const uint8_t* a, bool aSigned, int32_t aZero, const PackedInt8Weights& b,
              int32_t* c, ThreadPool* pool, Int8Scratch* scratch = nullptr);

// out[i] = clamp(zp + round(float(acc[i] + biasQ) * multiplier), lo, hi) for one channel's row,
// round half to even (the float requantization), vectorised where the CPU allows. The int8
// variant stores int8 codes (lo/hi in [-128, 127]).
void requantizeRowU8(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo,
                     int32_t hi, uint8_t* out);
void requantizeRowS8(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo,
                     int32_t hi, int8_t* out);

}  // namespace qatdoctor::core::fixedpoint
