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

bool crOnly(std::string_view head) { return head.find('\n') == std::string_view::npos && head.find('\r') != std::string_view::npos; }

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

}  // namespace

std::string_view logTextEncoding(std::string_view head)
{
    if (head.starts_with("\xff\xfe")) return "UTF-16LE";
    if (head.starts_with("\xfe\xff")) return "UTF-16BE";
    if (head.starts_with("\xef\xbb\xbf")) return "UTF-8 with BOM";
    if (crOnly(head.substr(0, 64 * 1024))) return "CR line ends";
    const std::string_view start = head.substr(0, 64 * 1024);
    if (invalidUtf8(start) && fromGb18030(start)) return "GB18030";
    return "";
}

std::optional<std::string> decodeLogText(std::string_view bytes)
{
    const std::string_view head = bytes.substr(0, 64 * 1024);
    if (head.starts_with("\xff\xfe")) return fromUtf16(bytes, true);
    if (head.starts_with("\xfe\xff")) return fromUtf16(bytes, false);
    if (head.starts_with("\xef\xbb\xbf")) return std::string(bytes.substr(3));
    // not UTF-8: GB18030 when the whole decodes as it (converted once, not tested first)
    if (!crOnly(head)) return invalidUtf8(head) ? fromGb18030(bytes) : std::nullopt;
    std::string out(bytes);
    for (char& c : out)
        if (c == '\r') c = '\n';
    return out;
}

}  // namespace qatdoctor::core::logs
