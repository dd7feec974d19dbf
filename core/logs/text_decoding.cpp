#include "core/logs/text_decoding.h"

#include <iconv.h>

#include <cerrno>
#include <cstdint>

namespace qatdoctor::core::logs {
namespace {

void appendUtf8(std::string& out, uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

std::string fromUtf16(std::string_view bytes, bool littleEndian)
{
    std::string out;
    out.reserve(bytes.size() / 2);
    auto unit = [&](size_t i) -> uint32_t {
        const auto a = static_cast<uint8_t>(bytes[i]), b = static_cast<uint8_t>(bytes[i + 1]);
        return littleEndian ? (a | (b << 8)) : ((a << 8) | b);
    };
    for (size_t i = 2; i + 1 < bytes.size(); i += 2) {
        uint32_t u = unit(i);
        if (u >= 0xd800 && u < 0xdc00 && i + 3 < bytes.size()) {
            const uint32_t low = unit(i + 2);
            if (low >= 0xdc00 && low < 0xe000) {
                appendUtf8(out, 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00));
                i += 2;
                continue;
            }
        }
        if (u >= 0xd800 && u < 0xe000) u = 0xfffd;
        if (u == '\r') continue;  // CRLF -> LF: Windows' line ends
        appendUtf8(out, u);
    }
    return out;
}

bool crOnly(std::string_view head)
{
    return head.find('\n') == std::string_view::npos && head.find('\r') != std::string_view::npos;
}

// Whether bytes hold a sequence that is not UTF-8. A sequence cut by the end of bytes (a head of
// the file) does not count.
bool invalidUtf8(std::string_view bytes)
{
    size_t i = 0;
    while (i < bytes.size()) {
        const auto c = static_cast<uint8_t>(bytes[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        const size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
        if (n == 0 || (n == 3 && c >= 0xf0)) return true;
        for (size_t k = 1; k < n; ++k) {
            if (i + k >= bytes.size()) return false;
            if ((static_cast<uint8_t>(bytes[i + k]) & 0xc0) != 0x80) return true;
        }
        i += n;
    }
    return false;
}

// bytes converted from GB18030 (GBK's superset: what a log written on Chinese Windows holds)
// to UTF-8 with glibc's iconv, or nullopt when they are not GB18030 either. A multi-byte
// sequence cut by the end of bytes is kept as it is.
std::optional<std::string> fromGb18030(std::string_view bytes)
{
    iconv_t cd = iconv_open("UTF-8", "GB18030");
    if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
    std::string out(bytes.size() * 2 + 16, '\0');
    char* in = const_cast<char*>(bytes.data());
    size_t inLeft = bytes.size();
    char* o = out.data();
    size_t outLeft = out.size();
    bool ok = true;
    while (inLeft > 0) {
        if (iconv(cd, &in, &inLeft, &o, &outLeft) != static_cast<size_t>(-1)) break;
        if (errno == E2BIG) {
            const size_t used = static_cast<size_t>(o - out.data());
            out.resize(out.size() * 2);
            o = out.data() + used;
            outLeft = out.size() - used;
            continue;
        }
        if (errno == EINVAL) {  // cut at the end: keep the tail as bytes
            const size_t used = static_cast<size_t>(o - out.data());
            out.resize(used);
            out.append(in, inLeft);
            iconv_close(cd);
            return out;
        }
        ok = false;
        break;
    }
    iconv_close(cd);
    if (!ok) return std::nullopt;
    out.resize(static_cast<size_t>(o - out.data()));
    return out;
}

// Whether the bytes above 0x7f of a non-UTF-8 head mostly stand alone between ASCII bytes, as an
// accented letter does in a Western word ("Genauigkeit für"): Windows-1252 / Latin-1. In GB18030
// a Chinese character is two or four bytes and words are runs of them; and a UTF-8 log with a few
// damaged bytes is neither (it fails to decode as GB18030 and is read as bytes, warned about line
// by line; so is a UTF-8 log with one damaged byte among its UTF-8 characters).
// Binary files (TensorBoard events: lengths and CRCs) are neither: every byte decodes in
// Windows-1252, so control bytes above 1 % say it is no text.
bool mostlyLoneHighBytes(std::string_view head)
{
    size_t runs = 0, alone = 0, controls = 0;
    for (size_t i = 0; i < head.size();) {
        if (static_cast<uint8_t>(head[i]) < 0x80) {
            const char c = head[i++];
            if (static_cast<uint8_t>(c) < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\x1b')
                ++controls;
            continue;
        }
        size_t end = i;
        while (end < head.size() && static_cast<uint8_t>(head[end]) >= 0x80) ++end;
        if (end < head.size()) {  // (a run cut by the head's end is no evidence)
            if (!invalidUtf8(head.substr(i, end - i + 1))) return false;  // a UTF-8 character
            ++runs;
            if (end - i == 1) ++alone;
        }
        i = end;
    }
    return runs > 0 && alone * 2 >= runs && controls * 100 <= head.size();
}

// Windows-1252 (Latin-1 with printable characters where Latin-1 has C1 controls) to UTF-8;
// its five unassigned bytes become U+FFFD.
std::string fromWindows1252(std::string_view bytes)
{
    static constexpr uint16_t kHigh[32] = {0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
                                           0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd,
                                           0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
                                           0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178};
    std::string out;
    out.reserve(bytes.size() + bytes.size() / 8);
    for (const char ch : bytes) {
        const auto c = static_cast<uint8_t>(ch);
        if (c < 0x80)
            out += ch;
        else
            appendUtf8(out, c < 0xa0 ? kHigh[c - 0x80] : c);
    }
    return out;
}

}  // namespace

std::string_view logTextEncoding(std::string_view head)
{
    if (head.starts_with("\xff\xfe")) return "UTF-16LE";
    if (head.starts_with("\xfe\xff")) return "UTF-16BE";
    if (head.starts_with("\xef\xbb\xbf")) return "UTF-8 with BOM";
    if (crOnly(head.substr(0, 64 * 1024))) return "CR line ends";
    const std::string_view start = head.substr(0, 64 * 1024);
    if (!invalidUtf8(start)) return "";
    if (mostlyLoneHighBytes(start)) return "Windows-1252";
    if (fromGb18030(start)) return "GB18030";
    return "";
}

std::optional<std::string> decodeLogText(std::string_view bytes)
{
    const std::string_view head = bytes.substr(0, 64 * 1024);
    if (head.starts_with("\xff\xfe")) return fromUtf16(bytes, true);
    if (head.starts_with("\xfe\xff")) return fromUtf16(bytes, false);
    if (head.starts_with("\xef\xbb\xbf")) return std::string(bytes.substr(3));
    if (!crOnly(head)) {
        // not UTF-8: a Western or a Chinese legacy encoding (converted once, not tested first)
        if (!invalidUtf8(head)) return std::nullopt;
        return mostlyLoneHighBytes(head) ? std::optional(fromWindows1252(bytes)) : fromGb18030(bytes);
    }
    std::string out(bytes);
    for (char& c : out)
        if (c == '\r') c = '\n';
    return out;
}

}  // namespace qatdoctor::core::logs
