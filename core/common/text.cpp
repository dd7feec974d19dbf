#include "core/common/text.h"

#include <cctype>
#include <string_view>

namespace qatdoctor::core {

Lang parseLang(const std::string& code)
{
    return code.rfind("zh", 0) == 0 ? Lang::Zh : Lang::En;
}

const char* langCode(Lang lang)
{
    return lang == Lang::Zh ? "zh" : "en";
}

bool naturalLess(const std::string& a, const std::string& b)
{
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) &&
            std::isdigit(static_cast<unsigned char>(b[j]))) {
            size_t ei = i, ej = j;
            while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
            while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
            const std::string_view da = std::string_view(a).substr(i, ei - i),
                                   db = std::string_view(b).substr(j, ej - j);
            const std::string_view ta = da.substr(std::min(da.find_first_not_of('0'), da.size()));
            const std::string_view tb = db.substr(std::min(db.find_first_not_of('0'), db.size()));
            if (ta.size() != tb.size()) return ta.size() < tb.size();
            if (ta != tb) return ta < tb;
            i = ei;
            j = ej;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

}  // namespace qatdoctor::core
