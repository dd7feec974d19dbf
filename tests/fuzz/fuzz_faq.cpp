// FAQ decision-tree files: parse + cross-reference validation of a one-file base, then search.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/faq/faq_base.h"
#include "core/faq/faq_search.h"

using namespace qatdoctor::core::faq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::vector<FaqSource> sources{{"10_fuzz.json", std::string(reinterpret_cast<const char*>(data), size)}};
    FaqLoad load = FaqBase::fromSources(sources);
    (void)load.base.topicsByPopularity();
    return 0;
}
