#include "core/common/text.h"

namespace qatdoctor::core {

Lang parseLang(const std::string& code)
{
    return code.rfind("zh", 0) == 0 ? Lang::Zh : Lang::En;
}

const char* langCode(Lang lang)
{
    return lang == Lang::Zh ? "zh" : "en";
}

}  // namespace qatdoctor::core
