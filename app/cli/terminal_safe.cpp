#include "app/cli/terminal_safe.h"

namespace qatdoctor::cli {

bool ControlEscapingBuf::put(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 0x20 && u != 0x7f) || c == '\n' || c == '\t') return m_target->sputc(c) != traits_type::eof();
    static const char kHex[] = "0123456789abcdef";
    const char escaped[4] = {'\\', 'x', kHex[u >> 4], kHex[u & 15]};
    return m_target->sputn(escaped, 4) == 4;
}

ControlEscapingBuf::int_type ControlEscapingBuf::overflow(int_type ch)
{
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    return put(traits_type::to_char_type(ch)) ? ch : traits_type::eof();
}

std::streamsize ControlEscapingBuf::xsputn(const char* s, std::streamsize n)
{
    for (std::streamsize i = 0; i < n; ++i)
        if (!put(s[i])) return i;
    return n;
}

}  // namespace qatdoctor::cli
