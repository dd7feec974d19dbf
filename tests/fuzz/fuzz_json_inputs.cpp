// The smaller JSON documents a user can hand in: a thresholds override (--thresholds FILE) and a
// saved FAQ wizard session (replayed on the shipped FAQ base). The first byte picks which.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/faq/faq_base.h"
#include "core/faq/wizard_session_json.h"
#include "core/rules/thresholds.h"

using namespace qatdoctor::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const faq::FaqLoad faqBase = faq::FaqBase::loadDirectory(QATDOCTOR_FAQ_DIR);
    if (size < 1) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] & 1) {
        (void)rules::applyThresholds(text, "fuzz.json", rules::defaultThresholds());
        (void)rules::describeThresholds(text);
    } else {
        const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
        if (!j.is_discarded()) (void)faq::sessionFromJson(j, &faqBase.base);
    }
    return 0;
}
