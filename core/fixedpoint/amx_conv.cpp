#include "core/fixedpoint/amx_conv.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/fixedpoint/int8_gemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 headers warn about their own _mm512_undefined_* placeholders when inlined
// (GCC bug 105593, fixed in 13): silenced for the header only
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "core/fixedpoint/amx_tiles.h"
#include "core/fixedpoint/requant_simd.h"
#define QD_HAVE_X86 1
#define QD_AMXV __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi,amx-tile,amx-int8")))
#else
#define QD_HAVE_X86 0
#endif

namespace qatdoctor::core::fixedpoint {

bool amxTapMajorFits(const ConvGeometry& g)
{
    return g.group == 1 && g.c % 64 == 0 && g.sh == 1 && g.sw == 1;
}

std::vector<int8_t> packAmxTapMajor(const int8_t* w, int64_t m, int64_t c, int64_t taps)
{
    const int64_t blocks = ((m + 15) / 16 + 1) / 2 * 2, chunks = c / 64;
    std::vector<int8_t> out(static_cast<size_t>(blocks * taps * chunks * 1024), 0);
    for (int64_t b = 0; b < blocks; ++b)
        for (int64_t t = 0; t < taps; ++t)
            for (int64_t cc = 0; cc < chunks; ++cc) {
                int8_t* tile = out.data() + ((b * taps + t) * chunks + cc) * 1024;
                for (int64_t j = 0; j < 16 && b * 16 + j < m; ++j)
                    for (int64_t ci = 0; ci < 64; ++ci)  // row ci / 4 holds 4 channels of each output channel
                        tile[(ci / 4) * 64 + j * 4 + ci % 4] =
                            w[((b * 16 + j) * c + cc * 64 + ci) * taps + t];
            }
    return out;
}

#if QD_HAVE_X86
namespace {

// Byte p*4 + j = byte p of 128-bit lane j: four channel rows of 16 pixels to [pixel][4 channels].
constexpr std::array<uint8_t, 64> interleaveTable()
{
    std::array<uint8_t, 64> t{};
    for (int p = 0; p < 16; ++p)
        for (int j = 0; j < 4; ++j) t[static_cast<size_t>(p * 4 + j)] = static_cast<uint8_t>(j * 16 + p);
    return t;
}
alignas(64) constexpr std::array<uint8_t, 64> kInterleave = interleaveTable();

// One input row of every channel into the pixel-major row dst ([pixel][C] bytes), xor flip: blocks
// of 16 channels x 16 pixels, each as four [pixel][4 channels] registers transposed as 4x4 dwords
// so that each pixel's 16 channels become one 16-byte store.
QD_AMXV void rowToPixelMajor(const uint8_t* src, int64_t planeStride, int64_t c, int64_t w, uint8_t flip,
                             uint8_t* dst)
{
    const __m512i vidx = _mm512_load_si512(kInterleave.data());
    const __m512i vflip = _mm512_set1_epi8(static_cast<char>(flip));
    for (int64_t c0 = 0; c0 < c; c0 += 16)
        for (int64_t x0 = 0; x0 < w; x0 += 16) {
            const int64_t n = std::min<int64_t>(16, w - x0);
            const __mmask16 m = n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
            __m512i r[4];
            for (int j = 0; j < 4; ++j) {
                const uint8_t* s = src + (c0 + 4 * j) * planeStride + x0;
                __m512i v = _mm512_castsi128_si512(_mm_maskz_loadu_epi8(m, s));
                v = _mm512_inserti32x4(v, _mm_maskz_loadu_epi8(m, s + planeStride), 1);
                v = _mm512_inserti32x4(v, _mm_maskz_loadu_epi8(m, s + 2 * planeStride), 2);
                v = _mm512_inserti32x4(v, _mm_maskz_loadu_epi8(m, s + 3 * planeStride), 3);
                r[j] = _mm512_xor_si512(_mm512_permutexvar_epi8(vidx, v), vflip);
            }
            // lane L of u[k] = pixel 4L + k's channels c0..c0+15
            const __m512i t0 = _mm512_unpacklo_epi32(r[0], r[1]), t1 = _mm512_unpackhi_epi32(r[0], r[1]);
            const __m512i t2 = _mm512_unpacklo_epi32(r[2], r[3]), t3 = _mm512_unpackhi_epi32(r[2], r[3]);
            const __m512i u[4] = {_mm512_unpacklo_epi64(t0, t2), _mm512_unpackhi_epi64(t0, t2),
                                  _mm512_unpacklo_epi64(t1, t3), _mm512_unpackhi_epi64(t1, t3)};
            uint8_t* d = dst + x0 * c + c0;
            for (int k = 0; k < 4; ++k) {
                if (k < n)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + k * c), _mm512_castsi512_si128(u[k]));
                if (4 + k < n)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (4 + k) * c),
                                     _mm512_extracti32x4_epi32(u[k], 1));
                if (8 + k < n)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (8 + k) * c),
                                     _mm512_extracti32x4_epi32(u[k], 2));
                if (12 + k < n)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + (12 + k) * c),
                                     _mm512_extracti32x4_epi32(u[k], 3));
            }
        }
}

struct alignas(64) TileConfig {
    uint8_t palette = 1, startRow = 0;
    uint8_t reserved[14] = {};
    uint16_t colsb[16] = {};
    uint8_t rows[16] = {};
};

// Which of a tile's 16 virtual pixels are real output pixels, and the output index of the first.
// The real ones form runs (a row's end, the next row's start); lane i of run k goes to output
// first + i - shift[k] (shift = the padding lanes before it).
struct PixelTile {
    __mmask16 valid = 0;
    int64_t first = 0;
    int runs = 0;
    __mmask16 runMask[8] = {};
    int64_t runShift[8] = {};
};

// Byte chl*16 + r of transposed register j = channel 4j + chl of pixel row r, taken from the
// rows' codes held four rows per register (row r at byte (r % 4) * 16 + channel of register
// r / 4): indices for vpermt2b over the register pair holding rows r and r +- 4 (r % 8 picks).
constexpr std::array<uint8_t, 64> transposeTable()
{
    std::array<uint8_t, 64> t{};
    for (int chl = 0; chl < 4; ++chl)
        for (int r = 0; r < 16; ++r)
            t[static_cast<size_t>(chl * 16 + r)] =
                static_cast<uint8_t>(((r % 8) / 4) * 64 + (r % 4) * 16 + chl);
    return t;
}
alignas(64) constexpr std::array<uint8_t, 64> kTranspose = transposeTable();

struct TapMajorJob {
    const uint8_t* buf;  // padded pixel-major input of one image
    const int8_t* wt;    // packAmxTapMajor
    const int32_t* rowSums;
    const int64_t* offsets;  // per tap, in pixels
    const PixelTile* tiles;
    int64_t c, chunks, taps, m, P, pairs;
    int32_t zero;
    int32_t* y;          // [m][P] of this image
    const Requant8* rq;  // set: codes [m][P] instead of y
    uint8_t* codes;
};

// The requantized codes of one 16x16 tile of sums c ([pixel][channel], channels ch0...): each
// pixel row requantized with per-channel vectors (requant16's arithmetic, element for element),
// the 16x16 bytes transposed in registers to [channel][pixel], and each channel's real pixels
// stored run by run. (A gather per channel of the int32 sums cost about twice as much.)
QD_AMXV void storeCodes(const int32_t (&c)[16][16], const PixelTile& tile, const TapMajorJob& j, int64_t ch0,
                        int64_t nc, uint8_t* tb)
{
    const Requant8& rq = *j.rq;
    const __mmask16 cm = nc >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nc) - 1);
    const __m512i corr =
        _mm512_mullo_epi32(_mm512_set1_epi32(j.zero), _mm512_maskz_loadu_epi32(cm, j.rowSums + ch0));
    const __m512i bias = _mm512_maskz_loadu_epi32(cm, rq.biasQ + ch0);
    const __m512 mult = _mm512_maskz_loadu_ps(cm, rq.multiplier + ch0);
    const __m512i zp = _mm512_set1_epi32(rq.zp), lo = _mm512_set1_epi32(rq.lo), hi = _mm512_set1_epi32(rq.hi);
    __m512i z[4];
    for (int g = 0; g < 4; ++g) {
        __m128i row[4];
        for (int r = 0; r < 4; ++r) {
            const __m512i a = _mm512_add_epi32(_mm512_sub_epi32(_mm512_load_si512(c[4 * g + r]), corr), bias);
            __m512i v = _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(_mm512_cvtepi32_ps(a), mult)), zp);
            row[r] = _mm512_cvtepi32_epi8(_mm512_min_epi32(_mm512_max_epi32(v, lo), hi));
        }
        z[g] = _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(row[0]), row[1], 1), row[2], 2),
            row[3], 3);
    }
    const __m512i base = _mm512_load_si512(kTranspose.data());
    for (int t = 0; t < 4; ++t) {  // channels 4t..4t+3, rows 0-7 from z0/z1 and 8-15 from z2/z3
        const __m512i idx = _mm512_add_epi8(base, _mm512_set1_epi8(static_cast<char>(4 * t)));
        const __m512i low = _mm512_permutex2var_epi8(z[0], idx, z[1]),
                      high = _mm512_permutex2var_epi8(z[2], idx, z[3]);
        _mm512_store_si512(tb + t * 64, _mm512_mask_blend_epi8(0xFF00FF00FF00FF00ull, low, high));
    }
    for (int64_t k = 0; k < nc; ++k) {
        const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(tb + k * 16));
        uint8_t* out = j.codes + (ch0 + k) * j.P + tile.first;
        for (int r = 0; r < tile.runs; ++r) _mm_mask_storeu_epi8(out - tile.runShift[r], tile.runMask[r], v);
    }
}

// Tasks [t0, t1): 32 virtual pixels x 32 output channels each, 2x2 tiles of 16x16 sums.
QD_AMXV void tapMajorTasks(const TapMajorJob& j, int64_t t0, int64_t t1)
{
    TileConfig cfg;
    for (int t = 0; t < 8; ++t) {
        cfg.rows[t] = 16;
        cfg.colsb[t] = 64;
    }
    _tile_loadconfig(&cfg);
    alignas(64) int32_t cAll[4][16][16];
    alignas(64) uint8_t transposedCodes[256];
    const __m512i gatherIdx = _mm512_mullo_epi32(
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32(16));
    const int64_t stride = j.c;
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t cp = t / j.pairs,
                      pp = t % j.pairs;  // pixels fastest: a channel pair's weights stay in cache
        const uint8_t* a0 = j.buf + pp * 32 * j.c;
        const uint8_t* a1 = a0 + 16 * j.c;
        const int8_t* b0 = j.wt + (2 * cp) * j.taps * j.chunks * 1024;
        const int8_t* b1 = b0 + j.taps * j.chunks * 1024;
        amxZero2x2();
        for (int64_t tap = 0; tap < j.taps; ++tap) {
            const int64_t off = j.offsets[tap] * j.c;
            for (int64_t cc = 0; cc < j.chunks; ++cc) {
                const int64_t wo = (tap * j.chunks + cc) * 1024;
                amxStep2x2(a0 + off + cc * 64, a1 + off + cc * 64, stride, b0 + wo, b1 + wo, 64);
            }
        }
        amxStore2x2(cAll);
        for (int q = 0; q < 4; ++q) {
            const int64_t pt = pp * 2 + q / 2, ch0 = (2 * cp + q % 2) * 16;
            const PixelTile& tile = j.tiles[pt];
            if (!tile.valid || ch0 >= j.m) continue;
            auto& c = cAll[q];
            const int64_t nc = std::min<int64_t>(16, j.m - ch0);
            if (j.rq) {
                storeCodes(c, tile, j, ch0, nc, transposedCodes);
                continue;
            }
            // c is [pixel][channel]: a channel's 16 pixels by a gather, the real ones packed
            // together (they are consecutive outputs) and stored at once
            const __mmask16 keep = static_cast<__mmask16>((1u << __builtin_popcount(tile.valid)) - 1);
            for (int64_t k = 0; k < nc; ++k) {
                const int64_t ch = ch0 + k;
                __m512i v = _mm512_i32gather_epi32(gatherIdx, &c[0][k], 4);
                v = _mm512_maskz_compress_epi32(
                    tile.valid, _mm512_sub_epi32(v, _mm512_set1_epi32(j.zero * j.rowSums[ch])));
                _mm512_mask_storeu_epi32(j.y + ch * j.P + tile.first, keep, v);
            }
        }
    }
    _tile_release();
}

}  // namespace
#endif

void convAmxTapMajor(const ConvGeometry& g, const uint8_t* x, bool xSigned, int32_t xZero,
                     const PackedInt8Weights& w, int32_t* y, ThreadPool* pool, Int8Scratch& sc,
                     const Requant8* rq, uint8_t* codes)
{
#if QD_HAVE_X86
    const int64_t C = g.c, taps = g.kh * g.kw, P = g.outPixels();
    const int64_t hp = std::max(g.h + g.padT, (g.oh - 1) + (g.kh - 1) * g.dh + 1);
    const int64_t wp = std::max(g.w + g.padL, (g.ow - 1) + (g.kw - 1) * g.dw + 1);
    const int64_t virtualPixels = g.oh * wp, tileCount = (virtualPixels + 15) / 16,
                  pairs = (tileCount + 1) / 2;
    const int64_t maxOffset = (g.kh - 1) * g.dh * wp + (g.kw - 1) * g.dw;
    // tiles read up to pairs*32 - 1 + maxOffset pixels in (the extra ones are padding, dropped)
    const int64_t bufPixels = std::max(hp * wp, pairs * 32 + maxOffset) + 1;
    const uint8_t flip = xSigned ? 0x80 : 0;
    const int32_t zero = xSigned ? xZero + 128 : xZero;
    std::vector<int64_t> offsets(static_cast<size_t>(taps));
    for (int64_t ky = 0; ky < g.kh; ++ky)
        for (int64_t kx = 0; kx < g.kw; ++kx)
            offsets[static_cast<size_t>(ky * g.kw + kx)] = ky * g.dh * wp + kx * g.dw;
    std::vector<PixelTile> tiles(static_cast<size_t>(pairs * 2));
    for (int64_t t = 0; t < pairs * 2; ++t) {
        PixelTile& pt = tiles[static_cast<size_t>(t)];
        int64_t padLanes = 0;
        for (int64_t i = 0; i < 16; ++i) {
            const int64_t v = t * 16 + i, oy = v / wp, ox = v % wp;
            if (oy >= g.oh || ox >= g.ow) {
                ++padLanes;
                continue;
            }
            if (!pt.valid) pt.first = oy * g.ow + ox;
            if (i == 0 || !((pt.valid >> (i - 1)) & 1)) pt.runShift[pt.runs++] = padLanes;  // a new run
            pt.runMask[pt.runs - 1] = static_cast<__mmask16>(pt.runMask[pt.runs - 1] | (1u << i));
            pt.valid = static_cast<__mmask16>(pt.valid | (1u << i));
        }
    }
    sc.padded.resize(static_cast<size_t>(bufPixels * C + 64));
    uint8_t* buf = sc.padded.data();
    const int64_t cpairs = ((g.m + 15) / 16 + 1) / 2;
    for (int64_t n = 0; n < g.n; ++n) {
        // padding holds the zero point, which contributes 0: the rows above and below (and the
        // slack), and each input row's left and right ends
        const int64_t right = wp - g.padL - g.w;
        std::memset(buf, zero, static_cast<size_t>(g.padT * wp * C));
        std::memset(buf + (g.padT + g.h) * wp * C, zero,
                    static_cast<size_t>((bufPixels - (g.padT + g.h) * wp) * C));
        const uint8_t* xn = x + n * C * g.h * g.w;
        parallelFor(pool, g.h, [&](int64_t y0, int64_t y1) {
            for (int64_t iy = y0; iy < y1; ++iy) {
                uint8_t* row = buf + (iy + g.padT) * wp * C;
                std::memset(row, zero, static_cast<size_t>(g.padL * C));
                std::memset(row + (g.padL + g.w) * C, zero, static_cast<size_t>(right * C));
                rowToPixelMajor(xn + iy * g.w, g.h * g.w, C, g.w, flip, row + g.padL * C);
            }
        });
        const TapMajorJob job{buf,
                              w.amxTaps.data(),
                              w.rowSums.data(),
                              offsets.data(),
                              tiles.data(),
                              C,
                              C / 64,
                              taps,
                              g.m,
                              P,
                              pairs,
                              zero,
                              y ? y + n * g.m * P : nullptr,
                              rq,
                              codes ? codes + n * g.m * P : nullptr};
        parallelFor(pool, cpairs * pairs, [&](int64_t t0, int64_t t1) { tapMajorTasks(job, t0, t1); });
    }
#else
    (void)g;
    (void)x;
    (void)xSigned;
    (void)xZero;
    (void)w;
    (void)y;
    (void)pool;
    (void)sc;
    (void)rq;
    (void)codes;
#endif
}

}  // namespace qatdoctor::core::fixedpoint
