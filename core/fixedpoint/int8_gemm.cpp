#include "core/fixedpoint/int8_gemm.h"

// GCC 12's AVX-512 headers warn about their own _mm512_undefined_* placeholders when inlined
// (GCC bug 105593, fixed in 13): silenced for the header only
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "core/fixedpoint/amx_conv.h"
#include "core/fixedpoint/amx_tiles.h"
#include "core/fixedpoint/requant_simd.h"

#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace qatdoctor::core::fixedpoint {

#if defined(__x86_64__) && defined(__GNUC__)
#define QD_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#define QD_HAVE_X86 1
#else
#define QD_HAVE_X86 0
#endif

namespace {

bool haveAvx512Vnni()
{
#if QD_HAVE_X86
    static const bool kHave = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                              __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    return kHave;
#else
    return false;
#endif
}

// AVX-VNNI: the same vpdpbusd on 256-bit registers (CPUs without AVX-512, e.g. Alder Lake).
bool haveAvxVnni()
{
#if QD_HAVE_X86 && defined(__linux__)
    static const bool kHave = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __builtin_cpu_supports("avx2") && __get_cpuid_count(7, 1, &a, &b, &c, &d) && ((a >> 4) & 1);
    }();
    return kHave;
#else
    return false;
#endif
}

}  // namespace

bool int8FastPathAvailable()
{
    return haveAvx512Vnni() || haveAvxVnni();
}
bool avxVnniAvailable()
{
    return haveAvxVnni();
}

bool amxAvailable()
{
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
    static const bool kHave = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
        const bool tile = (d >> 24) & 1, int8 = (d >> 25) & 1;
        if (!tile || !int8 || !haveAvx512Vnni() || !__builtin_cpu_supports("avx512vbmi")) return false;
        // Linux hands out the 8 KB tile state on request (ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)
        return syscall(SYS_arch_prctl, 0x1023, 18) == 0;
    }();
    return kHave;
#else
    return false;
#endif
}

namespace {

constexpr int64_t kR = PackedInt8Weights::kRowBlock;
constexpr int64_t kCols = 64;  // panel block width: 4 vectors of 16 int32 lanes

// rowAt(r, i) = weight of output row r at reduction index i (any source layout).
template <class RowAt>
PackedInt8Weights pack(int64_t m, int64_t k, int64_t groups, RowAt rowAt)
{
    PackedInt8Weights p;
    p.m = m;
    p.k = k;
    p.k4 = (k + 3) / 4 * 4;
    p.groups = groups;
    const int64_t mg = m / groups, steps = p.k4 / 4;
    p.blocksPerGroup = (mg + kR - 1) / kR;
    p.w.assign(static_cast<size_t>(groups * p.blocksPerGroup * steps * kR), 0);
    p.rowSums.assign(static_cast<size_t>(m), 0);
    for (int64_t gi = 0; gi < groups; ++gi)
        for (int64_t r = 0; r < mg; ++r) {
            const int64_t row = gi * mg + r;
            int32_t* blk = p.w.data() + ((gi * p.blocksPerGroup + r / kR) * steps) * kR;
            for (int64_t i = 0; i < k; ++i) {
                const int8_t v = rowAt(row, i);
                auto* bytes = reinterpret_cast<int8_t*>(blk + (i / 4) * kR + r % kR);
                bytes[i % 4] = v;
                p.rowSums[static_cast<size_t>(row)] += v;
            }
        }
    if (amxAvailable()) {
        p.k64 = (k + 63) / 64 * 64;
        p.amxRowsPerGroup = (mg + 31) / 32 * 32;
        p.amx.assign(static_cast<size_t>(groups * p.amxRowsPerGroup * p.k64), 0);
        for (int64_t gi = 0; gi < groups; ++gi)
            for (int64_t r = 0; r < mg; ++r)
                for (int64_t i = 0; i < k; ++i)
                    p.amx[static_cast<size_t>((gi * p.amxRowsPerGroup + r) * p.k64 + i)] =
                        static_cast<uint8_t>(rowAt(gi * mg + r, i) + 128);
    }
    return p;
}

}  // namespace

PackedInt8Weights packInt8Weights(const int8_t* w, int64_t m, int64_t k, int64_t groups, int64_t taps)
{
    PackedInt8Weights p = pack(m, k, groups, [&](int64_t r, int64_t i) { return w[r * k + i]; });
    if (!p.amx.empty() && taps > 0 && groups == 1 && k % taps == 0 && (k / taps) % 64 == 0)
        p.amxTaps = packAmxTapMajor(w, m, k / taps, taps);
    return p;
}

PackedInt8Weights packInt8WeightsTransposed(const int8_t* w, int64_t k, int64_t n)
{
    return pack(n, k, 1, [&](int64_t r, int64_t i) { return w[i * n + r]; });
}

#if QD_HAVE_X86
namespace {

// The panel: blocks of kCols columns, each [K4/4][width][4] bytes contiguous; the last block's
// width is rounded up to 16 (its extra columns are computed and never stored).
struct PanelLayout {
    int64_t cols = 0, k4 = 0;
    int64_t blocks() const { return (cols + kCols - 1) / kCols; }
    int64_t width(int64_t b) const { return std::min<int64_t>(kCols, (cols - b * kCols + 15) / 16 * 16); }
    int64_t bytes() const { return blocks() * kCols * k4; }
    uint8_t* at(uint8_t* panel, int64_t step, int64_t col) const
    {
        const int64_t b = col / kCols;
        return panel + b * kCols * k4 + step * width(b) * 4 + (col % kCols) * 4;
    }
};

#define QD_VBMI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi")))

bool haveVbmi()
{
    static const bool kHave = __builtin_cpu_supports("avx512vbmi");
    return kHave;
}

// Byte p*4 + j of a panel step = pixel p of row j: row j at bytes j*16 (stride 1, one register)
// or j*32 with 2 bytes per pixel (stride 2, two registers).
constexpr std::array<uint8_t, 64> permuteTable(int stride)
{
    std::array<uint8_t, 64> t{};
    for (int p = 0; p < 16; ++p)
        for (int j = 0; j < 4; ++j)
            t[static_cast<size_t>(p * 4 + j)] =
                static_cast<uint8_t>(stride == 1 ? j * 16 + p : j * 32 + 2 * p);
    return t;
}
alignas(64) constexpr std::array<uint8_t, 64> kPermute1 = permuteTable(1);
alignas(64) constexpr std::array<uint8_t, 64> kPermute2 = permuteTable(2);

// gather4 for strides 1 and 2 with one byte permute per 16 pixels (vpermb / vpermt2b) instead of
// widening each row to 32-bit lanes.
QD_VBMI void gather4Vbmi(const uint8_t* const src[4], int64_t stride, int64_t n, uint8_t flip, uint8_t* dst)
{
    const __m512i vidx = _mm512_load_si512(stride == 1 ? kPermute1.data() : kPermute2.data());
    const __m512i vflip = _mm512_set1_epi8(static_cast<char>(flip));
    for (int64_t p = 0; p < n; p += 16) {
        const int64_t left = n - p;
        const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
        __m512i out;
        if (stride == 1) {
            __m512i v = _mm512_castsi128_si512(_mm_maskz_loadu_epi8(m, src[0] + p));
            v = _mm512_inserti32x4(v, _mm_maskz_loadu_epi8(m, src[1] + p), 1);
            v = _mm512_inserti32x4(v, _mm_maskz_loadu_epi8(m, src[2] + p), 2);
            v = _mm512_inserti32x4(v, _mm_maskz_loadu_epi8(m, src[3] + p), 3);
            out = _mm512_permutexvar_epi8(vidx, v);
        } else {  // 2 bytes per pixel; the odd byte past the last pixel stays in the buffer's slack
            const __mmask32 m2 = left >= 16 ? __mmask32(0xFFFFFFFF) : __mmask32((1ull << (2 * left)) - 1);
            __m512i a = _mm512_castsi256_si512(_mm256_maskz_loadu_epi8(m2, src[0] + 2 * p));
            a = _mm512_inserti64x4(a, _mm256_maskz_loadu_epi8(m2, src[1] + 2 * p), 1);
            __m512i b = _mm512_castsi256_si512(_mm256_maskz_loadu_epi8(m2, src[2] + 2 * p));
            b = _mm512_inserti64x4(b, _mm256_maskz_loadu_epi8(m2, src[3] + 2 * p), 1);
            out = _mm512_permutex2var_epi8(a, vidx, b);
        }
        _mm512_mask_storeu_epi32(dst + p * 4, m, _mm512_xor_si512(out, vflip));
    }
}

// dst[p*4 + j] = src_j[p * stride] (xor flip) for p < n <= 64: the vpdpbusd operand layout.
QD_VNNI void gather4(const uint8_t* const src[4], int64_t stride, int64_t n, uint8_t flip, uint8_t* dst)
{
    const __m512i vflip = _mm512_set1_epi32(flip * 0x01010101u);
    for (int64_t p = 0; p < n; p += 16) {
        const int64_t left = n - p;
        const __mmask16 m = left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
        __m512i v[4];
        for (int j = 0; j < 4; ++j) {
            const uint8_t* s = src[j] + p * stride;
            if (stride == 1) {
                v[j] = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, s));
            } else if (stride == 2) {  // even bytes of 16 words; the odd byte read stays in the slack
                v[j] = _mm512_and_si512(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, s)),
                                        _mm512_set1_epi32(0xFF));
            } else {
                alignas(16) uint8_t tmp[16] = {};
                for (int64_t i = 0; i < std::min<int64_t>(16, left); ++i) tmp[i] = s[i * stride];
                v[j] = _mm512_cvtepu8_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(tmp)));
            }
        }
        const __m512i out =
            _mm512_or_si512(_mm512_or_si512(v[0], _mm512_slli_epi32(v[1], 8)),
                            _mm512_or_si512(_mm512_slli_epi32(v[2], 16), _mm512_slli_epi32(v[3], 24)));
        _mm512_mask_storeu_epi32(dst + p * 4, m, _mm512_xor_si512(out, vflip));
    }
}

// All rows of one panel step: `rows` output rows of `cols` pixels, source rows rowStride bytes
// apart, split at panel block edges. Written out once per gather (a macro, not a lambda) so the
// gather inlines: these run once per (step, output row) and the call cost was a visible share.
#define QD_PACK_ROWS(NAME, ATTR, GATHER)                                                             \
    ATTR void NAME(const PanelLayout& L, uint8_t* panel, int64_t step, const uint8_t* const base[4], \
                   int64_t rowStride, int64_t rows, int64_t cols, int64_t stride, uint8_t flip)      \
    {                                                                                                \
        for (int64_t r = 0; r < rows; ++r) {                                                         \
            const uint8_t* src[4] = {base[0] + r * rowStride, base[1] + r * rowStride,               \
                                     base[2] + r * rowStride, base[3] + r * rowStride};              \
            int64_t p = r * cols, n = cols;                                                          \
            while (n > 0) {                                                                          \
                const int64_t len = std::min(n, kCols - p % kCols);                                  \
                GATHER(src, stride, len, flip, L.at(panel, step, p));                                \
                for (int j = 0; j < 4; ++j) src[j] += len * stride;                                  \
                p += len;                                                                            \
                n -= len;                                                                            \
            }                                                                                        \
        }                                                                                            \
    }
#define QD_AVXVNNI __attribute__((target("avx2,avxvnni")))

// gather4 for AVX-VNNI CPUs: 8 pixels per step widened to 32-bit lanes, the tail byte by byte.
QD_AVXVNNI void gather4Avx2(const uint8_t* const src[4], int64_t stride, int64_t n, uint8_t flip,
                            uint8_t* dst)
{
    int64_t p = 0;
    if (stride == 1) {
        const __m256i vflip = _mm256_set1_epi32(static_cast<int32_t>(flip * 0x01010101u));
        for (; p + 8 <= n; p += 8) {
            __m256i v[4];
            for (int j = 0; j < 4; ++j)
                v[j] = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src[j] + p)));
            const __m256i out =
                _mm256_or_si256(_mm256_or_si256(v[0], _mm256_slli_epi32(v[1], 8)),
                                _mm256_or_si256(_mm256_slli_epi32(v[2], 16), _mm256_slli_epi32(v[3], 24)));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + p * 4), _mm256_xor_si256(out, vflip));
        }
    }
    for (; p < n; ++p)
        for (int j = 0; j < 4; ++j) dst[p * 4 + j] = static_cast<uint8_t>(src[j][p * stride] ^ flip);
}

QD_PACK_ROWS(packRowsVbmi, QD_VBMI, gather4Vbmi)
QD_PACK_ROWS(packRows, QD_VNNI, gather4)
QD_PACK_ROWS(packRowsAvx2, QD_AVXVNNI, gather4Avx2)
#undef QD_PACK_ROWS

// The AVX-VNNI kernel: kR rows x NV * 8 columns (16 registers: 12 accumulators at NV = 2).
template <int NV>
QD_AVXVNNI void kernelAvx(const uint8_t* blk, int64_t width, int64_t steps, const int32_t* wp,
                          const int32_t* rowSums, int64_t rows, int64_t cols, int32_t zero, int32_t* y,
                          int64_t ldy)
{
    __m256i acc[kR][NV];
    for (int r = 0; r < kR; ++r)
        for (int j = 0; j < NV; ++j) acc[r][j] = _mm256_setzero_si256();
    const int64_t stride = width * 4;
    for (int64_t s = 0; s < steps; ++s, blk += stride, wp += kR) {
        __m256i c[NV];
        for (int j = 0; j < NV; ++j)
            c[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk + j * 32));
#pragma GCC unroll 8
        for (int r = 0; r < kR; ++r) {
            const __m256i wv = _mm256_set1_epi32(wp[r]);
            for (int j = 0; j < NV; ++j) acc[r][j] = _mm256_dpbusd_avx_epi32(acc[r][j], c[j], wv);
        }
    }
    for (int r = 0; r < kR && r < rows; ++r) {
        const __m256i corr = _mm256_set1_epi32(zero * rowSums[r]);
        for (int j = 0; j < NV; ++j) {
            alignas(32) int32_t out[8];
            _mm256_store_si256(reinterpret_cast<__m256i*>(out), _mm256_sub_epi32(acc[r][j], corr));
            const int64_t n = std::min<int64_t>(8, cols - j * 8);
            for (int64_t i = 0; i < n; ++i) y[r * ldy + j * 8 + i] = out[i];
        }
    }
}

// panelGemm for AVX-VNNI CPUs: each panel block in 16-column strips.
void panelGemmAvx(const PanelLayout& L, const uint8_t* panel, const PackedInt8Weights& w, int64_t gi,
                  int32_t zero, int32_t* y, int64_t ldy, ThreadPool* pool)
{
    const int64_t mg = w.m / w.groups, mb = w.blocksPerGroup, nb = L.blocks(), steps = w.k4 / 4;
    parallelFor(pool, mb * nb, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            const int64_t pb = t / mb, mi = t % mb;
            const int64_t m0 = gi * mg + mi * kR, rows = std::min(kR, mg - mi * kR);
            const int64_t p0 = pb * kCols, width = L.width(pb);
            const uint8_t* blk = panel + pb * kCols * L.k4;
            const int32_t* wp = w.w.data() + ((gi * mb + mi) * steps) * kR;
            for (int64_t c0 = 0; c0 < width; c0 += 16) {
                const int64_t cols = std::min<int64_t>(16, L.cols - p0 - c0);
                if (cols <= 0) break;
                kernelAvx<2>(blk + c0 * 4, width, steps, wp, w.rowSums.data() + m0, rows, cols, zero,
                             y + m0 * ldy + p0 + c0, ldy);
            }
        }
    });
}

#define QD_AMX __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,amx-tile,amx-int8")))

// Column sums of one panel block over the first K reduction indices (the panel holds x - 128 as
// int8 on the AMX path): vpdpbusd with 1s where k < K and 0s past it.
QD_AMX void panelColumnSums(const uint8_t* blk, int64_t width, int64_t K, int32_t* sums)
{
    __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                      _mm512_setzero_si512()};
    const int64_t steps = (K + 3) / 4;
    for (int64_t s = 0; s < steps; ++s) {
        uint32_t ones = 0;
        for (int j = 0; j < 4; ++j)
            if (4 * s + j < K) ones |= 1u << (8 * j);
        const __m512i o = _mm512_set1_epi32(static_cast<int32_t>(ones));
        for (int v = 0; v < width / 16; ++v)
            acc[v] = _mm512_dpbusd_epi32(acc[v], o, _mm512_loadu_si512(blk + s * width * 4 + v * 64));
    }
    for (int v = 0; v < width / 16; ++v) _mm512_storeu_si512(sums + v * 16, acc[v]);
}

struct alignas(64) TileConfig {
    uint8_t palette = 1, startRow = 0;
    uint8_t reserved[14] = {};
    uint16_t colsb[16] = {};
    uint8_t rows[16] = {};
};

// Tasks [t0, t1) of one group, each 32 channels x (up to) 32 pixels of one panel block: 2x2
// tiles of 16x16 int32 sums (tmm0-3), weights + 128 as the unsigned operand (tmm4-5, rows =
// channels), the panel's x - 128 as the signed one (tmm6-7, its [step][pixel][4] layout is
// tdpbusd's). Rows come out channel-major, as y is: no transpose. With s = sum (w + 128)(x - 128):
// sum (x - zero) w = s - 128 colSum(x - 128) + (128 - zero) rowSum(w).
// With rq, the 8-bit codes of each row go to codes (same layout as y) instead of the sums.
QD_AMX void amxTasks(int64_t t0, int64_t t1, const PanelLayout& L, const uint8_t* panel,
                     const int32_t* colSums, const PackedInt8Weights& w, int64_t gi, int32_t zero, int32_t* y,
                     int64_t ldy, bool pixelsFastest, const Requant8* rq, uint8_t* codes)
{
    TileConfig cfg;
    for (int t = 0; t < 8; ++t) {
        cfg.rows[t] = 16;
        cfg.colsb[t] = 64;
    }
    _tile_loadconfig(&cfg);
    const int64_t mg = w.m / w.groups, chunks = w.k64 / 64, cbCount = w.amxRowsPerGroup / 32;
    const int64_t pairsPerBlock = kCols / 32;
    alignas(64) int32_t cAll[4][16][16];
    for (int64_t t = t0; t < t1; ++t) {
        // whichever operand is larger stays put while the other one cycles through the cache
        const int64_t ptCount = L.blocks() * pairsPerBlock;
        const int64_t cb = pixelsFastest ? t / ptCount : t % cbCount,
                      pt = pixelsFastest ? t % ptCount : t / cbCount;
        const int64_t b = pt / pairsPerBlock, p0 = b * kCols + (pt % pairsPerBlock) * 32;
        const int64_t width = L.width(b), off = p0 - b * kCols;
        if (off >= width) continue;  // past a narrow last block
        const bool two = off + 16 < width;
        const uint8_t* blk = panel + b * kCols * L.k4;
        const uint8_t* b0 = blk + off * 4;
        const uint8_t* b1 = two ? b0 + 64 : b0;
        const uint8_t* a0 = w.amx.data() + (gi * w.amxRowsPerGroup + cb * 32) * w.k64;
        const uint8_t* a1 = a0 + 16 * w.k64;
        const int64_t stride = width * 4;
        amxZero2x2();
        for (int64_t kc = 0; kc < chunks; ++kc)
            amxStep2x2(a0 + kc * 64, a1 + kc * 64, w.k64, b0 + kc * 16 * stride, b1 + kc * 16 * stride,
                       stride);
        amxStore2x2(cAll);
        for (int q = 0; q < 4; ++q) {
            const int64_t ch0 = cb * 32 + (q / 2) * 16, px = p0 + (q % 2) * 16;
            if ((q % 2) && !two) continue;
            auto& c = cAll[q];
            const int64_t np = std::min<int64_t>(16, L.cols - px), nc = std::min<int64_t>(16, mg - ch0);
            if (np <= 0) continue;
            const __mmask16 pm = np >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << np) - 1);
            const __m512i col = _mm512_slli_epi32(_mm512_maskz_loadu_epi32(pm, colSums + px), 7);
            for (int64_t n = 0; n < nc; ++n) {
                const int64_t m = gi * mg + ch0 + n;
                const __m512i rowTerm = _mm512_set1_epi32((128 - zero) * w.rowSums[static_cast<size_t>(m)]);
                const __m512i v = _mm512_add_epi32(_mm512_sub_epi32(_mm512_load_si512(c[n]), col), rowTerm);
                if (rq)
                    _mm_mask_storeu_epi8(
                        codes + m * ldy + px, pm,
                        requant16(v, rq->biasQ[m], rq->multiplier[m], rq->zp, rq->lo, rq->hi));
                else
                    _mm512_mask_storeu_epi32(y + m * ldy + px, pm, v);
            }
        }
    }
    _tile_release();
}

// y[m0 + r][p0 + c] = acc - zero * rowSum over kR rows and NV*16 columns of one panel block.
// NV is a template parameter so the inner loop unrolls into a straight vpdpbusd sequence
// (kR x NV accumulators, 24 for a full block).
template <int NV>
QD_VNNI void kernel(const uint8_t* blk, int64_t width, int64_t steps, const int32_t* wp,
                    const int32_t* rowSums, int64_t rows, int64_t cols, int32_t zero, int32_t* y, int64_t ldy)
{
    __m512i acc[kR][NV];
#pragma GCC unroll 8
    for (int r = 0; r < kR; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) acc[r][j] = _mm512_setzero_si512();
    const int64_t stride = width * 4;
    for (int64_t s = 0; s < steps; ++s, blk += stride, wp += kR) {
        __m512i c[NV];
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j) c[j] = _mm512_loadu_si512(blk + j * 64);
#pragma GCC unroll 8
        for (int r = 0; r < kR; ++r) {
            const __m512i wv = _mm512_set1_epi32(wp[r]);
#pragma GCC unroll 4
            for (int j = 0; j < NV; ++j) acc[r][j] = _mm512_dpbusd_epi32(acc[r][j], c[j], wv);
        }
    }
    __mmask16 masks[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
        const int64_t left = cols - j * 16;
        masks[j] = left >= 16 ? __mmask16(0xFFFF) : left <= 0 ? __mmask16(0) : __mmask16((1u << left) - 1);
    }
#pragma GCC unroll 8
    for (int r = 0; r < kR; ++r) {
        if (r >= rows) break;
        const __m512i corr = _mm512_set1_epi32(zero * rowSums[r]);
#pragma GCC unroll 4
        for (int j = 0; j < NV; ++j)
            _mm512_mask_storeu_epi32(y + r * ldy + j * 16, masks[j], _mm512_sub_epi32(acc[r][j], corr));
    }
}

// Output rows [gi*mg, (gi+1)*mg) of y [.][ldy] = packed weights of group gi x the panel.
void panelGemm(const PanelLayout& L, const uint8_t* panel, const PackedInt8Weights& w, int64_t gi,
               int32_t zero, int32_t* y, int64_t ldy, ThreadPool* pool)
{
    const int64_t mg = w.m / w.groups, mb = w.blocksPerGroup, nb = L.blocks(), steps = w.k4 / 4;
    parallelFor(pool, mb * nb, [&](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) {
            const int64_t pb = t / mb, mi = t % mb;  // m fastest: the panel block stays in cache
            const int64_t m0 = gi * mg + mi * kR, rows = std::min(kR, mg - mi * kR);
            const int64_t p0 = pb * kCols, width = L.width(pb), cols = std::min(kCols, L.cols - p0);
            const uint8_t* blk = panel + pb * kCols * L.k4;
            const int32_t* wp = w.w.data() + ((gi * mb + mi) * steps) * kR;
            const int32_t* rs = w.rowSums.data() + m0;
            int32_t* out = y + m0 * ldy + p0;
            switch (width / 16) {
                case 1:
                    kernel<1>(blk, width, steps, wp, rs, rows, cols, zero, out, ldy);
                    break;
                case 2:
                    kernel<2>(blk, width, steps, wp, rs, rows, cols, zero, out, ldy);
                    break;
                case 3:
                    kernel<3>(blk, width, steps, wp, rs, rows, cols, zero, out, ldy);
                    break;
                default:
                    kernel<4>(blk, width, steps, wp, rs, rows, cols, zero, out, ldy);
                    break;
            }
        }
    });
}

}  // namespace
#endif

void convX8S8(const ConvGeometry& g, const uint8_t* x, bool xSigned, int32_t xZero,
              const PackedInt8Weights& w, int32_t* y, ThreadPool* pool, Int8Scratch* scratch,
              const Requant8* rq, uint8_t* codes)
{
#if QD_HAVE_X86
    Int8Scratch local;
    Int8Scratch& sc = scratch ? *scratch : local;
    const int64_t cg = g.c / g.group, K = g.kernelSize(), P = g.outPixels();
    const bool avx512 = haveAvx512Vnni() && !(sc.noAvx512 && haveAvxVnni());
    const bool useAmx = avx512 && amxAvailable() && !sc.noAmx && !w.amx.empty();
    if (useAmx && !sc.noTapMajor && !w.amxTaps.empty() && amxTapMajorFits(g) && w.k == K)
        return convAmxTapMajor(g, x, xSigned, xZero, w, y, pool, sc, rq, codes);
    if (rq && !useAmx) {  // no fused epilogue on these paths: the sums, then rows requantized
        std::vector<int32_t> sums;
        sums.swap(sc.sums);  // the inner call may not reuse it
        sums.resize(static_cast<size_t>(g.n * g.m * P));
        convX8S8(g, x, xSigned, xZero, w, sums.data(), pool, &sc);
        for (int64_t row = 0; row < g.n * g.m; ++row) {
            const int64_t m = row % g.m;
            requantizeRowU8(sums.data() + row * P, P, rq->biasQ[m], rq->multiplier[m], rq->zp, rq->lo, rq->hi,
                            codes + row * P);
        }
        sums.swap(sc.sums);
        return;
    }
    // AMX reads whole 64-deep chunks: the panel gets k64 / 4 steps (those past K4 / 4 are never
    // written and meet zero weights)
    const int64_t k4 = useAmx ? w.k64 : w.k4;
    // int8 codes become uint8 by flipping the sign bit (x + 128), the zero point moves with them
    const uint8_t flip = xSigned ? 0x80 : 0;
    const int32_t zero = xSigned ? xZero + 128 : xZero;
    const auto pad = static_cast<uint8_t>(zero);
    // a copy padded with the zero point (so padding contributes exactly 0) and flipped
    const int64_t hp = std::max(g.h + g.padT, (g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1);
    const int64_t wp = std::max(g.w + g.padL, (g.ow - 1) * g.sw + (g.kw - 1) * g.dw + 1);
    const bool copy = xSigned || g.padT || g.padL || hp != g.h || wp != g.w || g.sw != 1;
    // one segment per tap when output rows are contiguous in the source (1x1, stride 1)
    const bool contiguous = g.kw == 1 && g.sw == 1 && g.sh == 1 && g.ow == wp;
    // the panel is packed and multiplied in bands of output rows small enough to stay in the
    // cache between the two (the resnet stem's whole panel was 2.4 MB)
    const int64_t bandRows =
        contiguous ? g.oh : std::clamp<int64_t>(sc.panelBandBytes / std::max<int64_t>(1, g.ow * k4), 1, g.oh);
    if (copy) sc.padded.resize(static_cast<size_t>(cg * hp * wp + 64));
    sc.panel.resize(static_cast<size_t>(PanelLayout{contiguous ? P : bandRows * g.ow, k4}.bytes()));
    for (int64_t n = 0; n < g.n; ++n)
        for (int64_t gi = 0; gi < g.group; ++gi) {
            const uint8_t* xg = x + (n * g.c + gi * cg) * g.h * g.w;
            const uint8_t* src = xg;
            if (copy) {
                // padding stored pre-flipped: the gather flips everything on its way into the panel
                uint8_t* d = sc.padded.data();
                const int v = pad ^ flip;
                const int64_t right = wp - g.padL - g.w, bottom = hp - g.padT - g.h;
                for (int64_t ci = 0; ci < cg; ++ci) {
                    uint8_t* plane = d + ci * hp * wp;
                    std::memset(plane, v, static_cast<size_t>(g.padT * wp));
                    for (int64_t iy = 0; iy < g.h; ++iy) {
                        uint8_t* row = plane + (iy + g.padT) * wp;
                        // pads are a few bytes: plain stores, not a memset call per row
                        for (int64_t i = 0; i < g.padL; ++i) row[i] = static_cast<uint8_t>(v);
                        std::memcpy(row + g.padL, xg + (ci * g.h + iy) * g.w, static_cast<size_t>(g.w));
                        for (int64_t i = 0; i < right; ++i) row[g.padL + g.w + i] = static_cast<uint8_t>(v);
                    }
                    std::memset(plane + (g.padT + g.h) * wp, v, static_cast<size_t>(bottom * wp));
                }
                src = d;
            }
            uint8_t* panel = sc.panel.data();
            // AMX multiplies the panel as int8: x - 128, one more sign flip on the way in
            const uint8_t flipNow = static_cast<uint8_t>((copy ? flip : 0) ^ (useAmx ? 0x80 : 0));
            const bool vbmi = haveVbmi() && !sc.noVbmi;
            for (int64_t oy0 = 0; oy0 < g.oh; oy0 += bandRows) {
                const int64_t rows = contiguous ? 1 : std::min(bandRows, g.oh - oy0);
                const int64_t cols = contiguous ? P : g.ow, p0 = oy0 * g.ow;
                const PanelLayout L{rows * cols, k4};
                const uint8_t* band = src + oy0 * g.sh * wp;
                parallelFor(pool, w.k4 / 4, [&](int64_t s0, int64_t s1) {
                    for (int64_t s = s0; s < s1; ++s) {
                        int64_t base[4];
                        for (int j = 0; j < 4; ++j) {
                            const int64_t k =
                                4 * s + j < K ? 4 * s + j : 4 * s;  // any tap past K: its weight is 0
                            const int64_t ci = k / (g.kh * g.kw), ky = (k / g.kw) % g.kh, kx = k % g.kw;
                            base[j] = ci * hp * wp + ky * g.dh * wp + kx * g.dw;
                        }
                        const uint8_t* s4[4] = {band + base[0], band + base[1], band + base[2],
                                                band + base[3]};
                        const int64_t stride = contiguous ? 1 : g.sw;
                        if (!avx512)
                            packRowsAvx2(L, panel, s, s4, g.sh * wp, rows, cols, stride, flipNow);
                        else if (stride <= 2 && vbmi)
                            packRowsVbmi(L, panel, s, s4, g.sh * wp, rows, cols, stride, flipNow);
                        else
                            packRows(L, panel, s, s4, g.sh * wp, rows, cols, stride, flipNow);
                    }
                });
                int32_t* yn = y ? y + n * g.m * P + p0 : nullptr;
                if (useAmx) {
                    std::vector<int32_t> colSums(static_cast<size_t>(L.blocks() * kCols));
                    parallelFor(pool, L.blocks(), [&](int64_t b0, int64_t b1) {
                        for (int64_t b = b0; b < b1; ++b)
                            panelColumnSums(panel + b * kCols * L.k4, L.width(b), K,
                                            colSums.data() + b * kCols);
                    });
                    const int64_t tasks = L.blocks() * (kCols / 32) * (w.amxRowsPerGroup / 32);
                    const bool pixelsFastest =
                        w.amxRowsPerGroup * w.k64 > L.bytes();  // weights larger than the panel
                    uint8_t* cn = codes ? codes + n * g.m * P + p0 : nullptr;
                    parallelFor(pool, tasks, [&](int64_t t0, int64_t t1) {
                        amxTasks(t0, t1, L, panel, colSums.data(), w, gi, zero, yn, P, pixelsFastest, rq, cn);
                    });
                } else if (avx512) {
                    panelGemm(L, panel, w, gi, zero, yn, P, pool);
                } else {
                    panelGemmAvx(L, panel, w, gi, zero, yn, P, pool);
                }
            }
        }
#else
    (void)g;
    (void)x;
    (void)xSigned;
    (void)xZero;
    (void)w;
    (void)y;
    (void)pool;
    (void)scratch;
    (void)rq;
    (void)codes;
#endif
}

void gemmX8S8(int64_t M, const uint8_t* a, bool aSigned, int32_t aZero, const PackedInt8Weights& b,
              int32_t* c, ThreadPool* pool, Int8Scratch* scratch)
{
#if QD_HAVE_X86
    // C^T[N][M] = B[N][K] x A^T: A's rows become the panel's columns
    Int8Scratch local;
    Int8Scratch& sc = scratch ? *scratch : local;
    const int64_t K = b.k, K4 = b.k4, N = b.m;
    const uint8_t flip = aSigned ? 0x80 : 0;
    const int32_t zero = aSigned ? aZero + 128 : aZero;
    const PanelLayout L{M, K4};
    sc.panel.assign(static_cast<size_t>(L.bytes()), 0);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t k = 0; k < K; ++k) L.at(sc.panel.data(), k / 4, m)[k % 4] = a[m * K + k] ^ flip;
    std::vector<int32_t> ct(static_cast<size_t>(N * M));
    if (haveAvx512Vnni() && !(sc.noAvx512 && haveAvxVnni()))
        panelGemm(L, sc.panel.data(), b, 0, zero, ct.data(), M, pool);
    else
        panelGemmAvx(L, sc.panel.data(), b, 0, zero, ct.data(), M, pool);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t m = 0; m < M; ++m) c[m * N + n] = ct[static_cast<size_t>(n * M + m)];
#else
    (void)M;
    (void)a;
    (void)aSigned;
    (void)aZero;
    (void)b;
    (void)c;
    (void)pool;
    (void)scratch;
#endif
}

namespace {

template <class T>
void requantizeScalar(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo,
                      int32_t hi, T* out)
{
    for (int64_t i = 0; i < n; ++i) {
        const int32_t q =
            static_cast<int32_t>(std::nearbyint(static_cast<float>(acc[i] + biasQ) * multiplier)) + zp;
        out[i] = static_cast<T>(std::clamp(q, lo, hi));
    }
}

#if QD_HAVE_X86
template <class T>
QD_VNNI void requantizeRowVnni(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp,
                               int32_t lo, int32_t hi, T* out)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         requant16(_mm512_loadu_si512(acc + i), biasQ, multiplier, zp, lo, hi));
    requantizeScalar(acc + i, n - i, biasQ, multiplier, zp, lo, hi, out + i);
}
#endif

}  // namespace

void requantizeRowU8(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo,
                     int32_t hi, uint8_t* out)
{
#if QD_HAVE_X86
    if (haveAvx512Vnni()) return requantizeRowVnni(acc, n, biasQ, multiplier, zp, lo, hi, out);
#endif
    requantizeScalar(acc, n, biasQ, multiplier, zp, lo, hi, out);
}

void requantizeRowS8(const int32_t* acc, int64_t n, int32_t biasQ, float multiplier, int32_t zp, int32_t lo,
                     int32_t hi, int8_t* out)
{
#if QD_HAVE_X86
    if (haveAvx512Vnni()) return requantizeRowVnni(acc, n, biasQ, multiplier, zp, lo, hi, out);
#endif
    requantizeScalar(acc, n, biasQ, multiplier, zp, lo, hi, out);
}

}  // namespace qatdoctor::core::fixedpoint
