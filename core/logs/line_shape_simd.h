// LineShape's check and number reading on AVX-512 (with VBMI's byte permute): a line of up to
// 128 bytes is checked with two masked loads, and its numbers are read eight at a time: the
// digits of four are gathered by one permute into 16-byte slots and turned into mantissas with
// multiply-adds; the eight mantissas are converted and divided by their powers of ten together
// (one division: it is the slow unit). The doubles are the portable path's: the mantissa is
// exact and the one division is IEEE's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qatdoctor::core::logs {

// One number of a shaped line (see LineShape).
struct ShapedNumber {
    uint16_t intAt = 0, fracAt = 0;  // offsets of the first integer / fraction digit
    uint8_t intLen = 0, fracLen = 0;
    bool negative = false;
};

class SimdLineShape {
public:
    static constexpr size_t kMaxBytes = 128;
    // Whether this CPU runs match() (AVX-512 F, BW, DQ and VBMI).
    static bool available();

    // The shape of a line of `length` bytes at p whose digit bytes are flagged in isDigit (one
    // flag per byte). false (and invalid) for lines longer than kMaxBytes.
    bool build(const char* p, size_t length, const std::vector<ShapedNumber>& numbers,
               const uint8_t* isDigit);
    void clear();
    bool valid() const { return m_length != 0; }
    // As LineShape::match, but reads no byte past e. Only when available().
    bool match(const char* p, const char* e, double* values) const;

private:
    // Up to eight numbers read together, in two halves of four: byte slot k*16..k*16+15 of
    // half h takes number 4h+k's digits, right-aligned (the bytes before them are zero digits).
    struct Pass {
        uint8_t index[2][64] = {};                   // permute index per half: line byte per slot byte
        uint64_t keep[2] = {};                       // slot bytes that take a digit
        double pow10[8] = {1, 1, 1, 1, 1, 1, 1, 1};  // per number: 10^fraction digits
        uint8_t negative = 0;                        // numbers to negate (bit k: number k of the pass)
        uint8_t count = 0;                           // numbers in this pass
        bool twoHalves = false;                      // more than four numbers
    };
    size_t m_length = 0;
    uint8_t m_fixed[kMaxBytes] = {};  // the line's bytes (digits zeroed)
    uint64_t m_fixedMask[2] = {};     // bytes that must equal m_fixed
    uint64_t m_digitMask[2] = {};     // bytes that must be digits
    std::vector<Pass> m_passes;
};

}  // namespace qatdoctor::core::logs
