// The 2x2-tile AMX step both int8 kernels are built from (int8_gemm.cpp's panel kernel and
// amx_conv.cpp's im2col-free convolution): accumulators in tiles 0-3, operands in tiles 4-7.
// Tile numbers must be compile-time constants, hence always-inline functions rather than
// loops. x86 only: include after <immintrin.h>.
#pragma once

#include <cstdint>

namespace qatdoctor::core::fixedpoint {

#define QD_AMX_TILES __attribute__((target("amx-tile,amx-int8"), always_inline))

QD_AMX_TILES inline void amxZero2x2()
{
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
}

// Tiles 0-3 += the unsigned 16-row tiles u0, u1 times the signed 16-column tiles s0, s1 over one
// 64-byte chunk of K: tile 2*i + j gets u_i x s_j.
QD_AMX_TILES inline void amxStep2x2(const void* u0, const void* u1, int64_t uStride, const void* s0,
                                    const void* s1, int64_t sStride)
{
    _tile_loadd(4, u0, uStride);
    _tile_loadd(5, u1, uStride);
    _tile_loadd(6, s0, sStride);
    _tile_loadd(7, s1, sStride);
    _tile_dpbusd(0, 4, 6);
    _tile_dpbusd(1, 4, 7);
    _tile_dpbusd(2, 5, 6);
    _tile_dpbusd(3, 5, 7);
}

// All four accumulators out before any is read back: reading a tile right after storing it
// waits on the store.
QD_AMX_TILES inline void amxStore2x2(int32_t (&c)[4][16][16])
{
    _tile_stored(0, c[0], 64);
    _tile_stored(1, c[1], 64);
    _tile_stored(2, c[2], 64);
    _tile_stored(3, c[3], 64);
}

#undef QD_AMX_TILES

}  // namespace qatdoctor::core::fixedpoint
