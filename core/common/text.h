// User-visible text in the two languages the product speaks.
#pragma once

#include <string>

namespace qatdoctor::core {

enum class Lang { Zh, En };

struct Text {
    std::string zh;
    std::string en;

    const std::string& in(Lang lang) const { return lang == Lang::Zh ? zh : en; }
    bool complete() const { return !zh.empty() && !en.empty(); }
};

// "zh" / "en" (anything starting with "zh" is Chinese; everything else English).
Lang parseLang(const std::string& code);
const char* langCode(Lang lang);

// "epoch_2" before "epoch_10", "part_2.npy" before "part_10.npy": digit runs compare as numbers.
bool naturalLess(const std::string& a, const std::string& b);

}  // namespace qatdoctor::core
