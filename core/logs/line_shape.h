// The exact byte shape of a line: every byte that is not a digit of one of its numbers, and
// where those digits are. Most lines of a log have the shape of the line before (same keys,
// same widths: "loss: 6.8836", "0.10000000"); such a line is checked a word at a time and its
// numbers read from known positions, without scanning for where they end. Anything else
// (another width, a sign, an exponent, nan) fails the check and goes the general way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/logs/line_shape_simd.h"

namespace qatdoctor::core::logs {

// Where one number of a line is. digitFirst: the number must start with a digit (a bare
// "[ 120/5004]" counter, whose '[' alone would otherwise also match a key's).
struct NumberSpan {
    const char* begin = nullptr;
    const char* end = nullptr;
    bool digitFirst = false;
};

// Which code reads matching lines: the fastest this CPU runs (AVX-512 when it has it and the
// line fits), or always the portable one (tests compare the two).
enum class ShapeKernel { Fastest, Portable };

class LineShape {
public:
    explicit LineShape(ShapeKernel kernel = ShapeKernel::Fastest)
        : m_simdAllowed(kernel == ShapeKernel::Fastest && SimdLineShape::available())
    {
    }

    static constexpr size_t kMaxBytes = 512;  // longer lines are not worth the words
    // Bytes that must be readable past a line's end for match() (it loads whole words).
    static constexpr size_t kReadPast = 8;

    // The shape of the line [p, e) whose numbers are at spans (in line order). false (and
    // invalid) unless every number is a plain decimal parseNumber's fast path reads: an optional
    // '-', at most 8 integer and 8 fraction digits, 1 to 15 digits in all.
    bool build(const char* p, const char* e, const std::vector<NumberSpan>& spans);
    void clear();
    bool valid() const { return m_length != 0; }
    size_t length() const { return m_length; }  // of the line, in bytes

    // Whether a line ending at e may be matched: kReadPast bytes readable after it.
    static bool readable(const char* e, const char* readableEnd)
    {
        return readableEnd && readableEnd - e >= static_cast<std::ptrdiff_t>(kReadPast);
    }
    // After a line the general path read (another width, or the first): its shape is taken,
    // unless recent lines had none (a 17-digit learning rate); then the next tries wait, twice
    // as long after every failure. wantsShape(): the next learn() builds (callers record spans).
    void learn(const char* p, const char* e, const std::vector<NumberSpan>& spans);
    bool wantsShape() const { return m_backoff == 0; }
    void reset();  // no shape and no waiting

    // Whether [p, e) has this exact shape; then its numbers go to values (in line order), the
    // same doubles parseNumber gives. kReadPast bytes after e must be readable.
    bool match(const char* p, const char* e, double* values) const
    {
        return m_simd.valid() ? m_simd.match(p, e, values) : matchPortable(p, e, values);
    }
    // Whether matching lines are read by the AVX-512 code (see SimdLineShape).
    bool usesSimd() const { return m_simd.valid(); }

private:
    bool matchPortable(const char* p, const char* e, double* values) const;

    bool m_simdAllowed = false;
    SimdLineShape m_simd;
    size_t m_length = 0;
    int m_backoff = 0;                  // learn() calls to skip before the next build
    int m_failures = 0;                 // builds failed in a row
    std::vector<uint64_t> m_fixed;      // the line's bytes, word by word (digits zeroed)
    std::vector<uint64_t> m_fixedMask;  // 0xff at bytes that must equal m_fixed
    std::vector<uint64_t> m_digitHigh;  // 0x80 at bytes that must be digits
    std::vector<ShapedNumber> m_numbers;
};

}  // namespace qatdoctor::core::logs
