#include "app/cli/terminal_safe.h"

namespace qatdoctor::cli {

namespace {

bool passes(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u >= 0x20 && u != 0x7f) || c == '\n' || c == '\t';
}

}  // namespace

bool ControlEscapingBuf::put(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if (passes(c)) return m_target->sputc(c) != traits_type::eof();
    static const char kHex[] = "0123456789abcdef";
    const char escaped[4] = {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
    return m_target->sputn(escaped, 4) == 4;
}

ControlEscapingBuf::int_type ControlEscapingBuf::overflow(int_type ch)
{
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    return put(traits_type::to_char_type(ch)) ? ch : traits_type::eof();
}

// Runs of printable text go to the target in one call (a 1 MB JSON report is one run), only a
// control character is written on its own.
std::streamsize ControlEscapingBuf::xsputn(const char* s, std::streamsize n)
{
    std::streamsize i = 0;
    while (i < n) {
        std::streamsize run = i;
        while (run < n && passes(s[run])) ++run;
        if (run > i) {
            const std::streamsize wrote = m_target->sputn(s + i, run - i);
            if (wrote != run - i) return i + wrote;
            i = run;
        }
        if (i < n) {
            if (!put(s[i])) return i;
            ++i;
        }
    }
    return n;
}

}  // namespace qatdoctor::cli
