// LineShape's check and number reading on AVX-512 (with VBMI's byte permute): a line of up to
// 128 bytes is checked with two masked loads, and its numbers are read four at a time: their
// digits are gathered by one permute into 16-byte slots and turned into mantissas with
// multiply-adds, then converted and divided by their powers of ten eight lanes wide. The
// doubles are the portable path's: the mantissa is exact and the one division is IEEE's.
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
    bool build(const char* p, size_t length, const std::vector<ShapedNumber>& numbers, const uint8_t* isDigit);
    void clear();
    bool valid() const { return m_length != 0; }
    // As LineShape::match, but reads no byte past e. Only when available().
    bool match(const char* p, const char* e, double* values) const;

private:
    // Up to four numbers read together: byte slot k*16..k*16+15 takes number k's digits,
    // right-aligned (the bytes before them are zero digits).
    struct Group {
        uint8_t index[64] = {};    // permute index: line byte per slot byte
        uint64_t keep = 0;         // slot bytes that take a digit
        double pow10[8] = {1, 1, 1, 1, 1, 1, 1, 1};  // per 64-bit lane; number k's mantissa is in lane 2k
        uint8_t negative = 0;      // lanes to negate
        uint8_t count = 0;         // numbers in this group
    };
    size_t m_length = 0;
    uint8_t m_fixed[kMaxBytes] = {};     // the line's bytes (digits zeroed)
    uint64_t m_fixedMask[2] = {};        // bytes that must equal m_fixed
    uint64_t m_digitMask[2] = {};        // bytes that must be digits
    std::vector<Group> m_groups;
};

}  // namespace qatdoctor::core::logs
