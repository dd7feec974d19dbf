#include "core/logs/text_decoding.h"

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

}  // namespace

std::string_view logTextEncoding(std::string_view head)
{
    if (head.starts_with("\xff\xfe")) return "UTF-16LE";
    if (head.starts_with("\xfe\xff")) return "UTF-16BE";
    if (head.starts_with("\xef\xbb\xbf")) return "UTF-8 with BOM";
    if (crOnly(head.substr(0, 64 * 1024))) return "CR line ends";
    return "";
}

std::optional<std::string> decodeLogText(std::string_view bytes)
{
    const std::string_view encoding = logTextEncoding(bytes.substr(0, 64 * 1024));
    if (encoding.empty()) return std::nullopt;
    if (encoding == "UTF-16LE") return fromUtf16(bytes, true);
    if (encoding == "UTF-16BE") return fromUtf16(bytes, false);
    if (encoding == "UTF-8 with BOM") return std::string(bytes.substr(3));
    std::string out(bytes);
    for (char& c : out)
        if (c == '\r') c = '\n';
    return out;
}

}  // namespace qatdoctor::core::logs
