#include "core/logs/parameter_fingerprint.h"

#include <array>
#include <cstdlib>
#include <vector>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

// Words are runs of letters, digits and the characters numbers are written with; everything
// else (spaces, ':', '=', brackets, quotes, commas) separates them.
bool isWordByte(char c)
{
    return isAlpha(c) || isDigit(c) || c == '_' || c == '.' || c == '-' || c == '+';
}

std::vector<std::string_view> wordsOf(std::string_view line)
{
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && !isWordByte(line[i])) ++i;
        const size_t begin = i;
        while (i < line.size() && isWordByte(line[i])) ++i;
        if (i > begin) words.push_back(line.substr(begin, i - begin));
    }
    return words;
}

bool namesParameters(std::string_view w)
{
    static constexpr std::array<std::string_view, 4> kWhole = {"weight", "weights", "model", "state_dict"};
    if (startsWithNoCase(w, "param")) return true;
    for (std::string_view k : kWhole)
        if (equalsNoCase(w, k)) return true;
    return false;
}

// "norm", "sha1", "param_norm", "weight_sum": the word itself or its last '_' part.
bool namesMeasure(std::string_view w)
{
    static constexpr std::array<std::string_view, 7> kMeasures = {"norm", "sum",  "checksum", "hash",
                                                                  "md5",  "sha1", "sha256"};
    const size_t underscore = w.rfind('_');
    const std::string_view tail = underscore == std::string_view::npos ? w : w.substr(underscore + 1);
    for (std::string_view m : kMeasures)
        if (equalsNoCase(tail, m)) return true;
    return false;
}

bool isNumberWord(std::string_view w)
{
    if (w.empty() || w.size() > 64) return false;
    const std::string s(w);
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && (isDigit(s[0]) || s.size() > 1);
}

bool isDigest(std::string_view w)
{
    if (w.size() < 6) return false;
    bool digit = false;
    for (char c : w) {
        const bool hex = isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex) return false;
        digit = digit || isDigit(c);
    }
    return digit;
}

}  // namespace

std::optional<std::string> parameterFingerprint(std::string_view line)
{
    const std::vector<std::string_view> words = wordsOf(line);
    size_t i = 0;
    while (i < words.size() && !namesParameters(words[i])) ++i;
    // a measure with its value right after it ("norm 15.48", "sha1: c9881e5e"): a setting named
    // like one ("clip_grad_norm=None" in an argparse Namespace) is none
    auto valueAt = [&](size_t k) {
        // (printed tensors wrap their value: "param sum: tensor(123.45, device='cuda:0')")
        if (k < words.size() && (equalsNoCase(words[k], "tensor") || equalsNoCase(words[k], "array"))) ++k;
        return k < words.size() && (isNumberWord(words[k]) || isDigest(words[k]));
    };
    while (i < words.size() && !(namesMeasure(words[i]) && valueAt(i + 1))) ++i;
    if (i == words.size()) return std::nullopt;
    std::string fingerprint;
    for (++i; i < words.size(); ++i) {
        if (!isNumberWord(words[i]) && !isDigest(words[i])) continue;
        if (!fingerprint.empty()) fingerprint += ' ';
        fingerprint += words[i];
    }
    if (fingerprint.empty()) return std::nullopt;
    return fingerprint;
}

}  // namespace qatdoctor::core::logs
