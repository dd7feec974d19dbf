// Shared helpers of the FAQ tests: the real knowledge base and the small fixture trees.
#pragma once

#include <string>

#include "core/faq/faq_base.h"

namespace qatdoctor::faqtest {

inline std::string realFaqDir()
{
    return std::string(QATDOCTOR_SOURCE_DIR) + "/faq";
}
inline std::string goodFixtureDir()
{
    return std::string(QATDOCTOR_TEST_DATA) + "/faq_good";
}
inline std::string badFixtureDir()
{
    return std::string(QATDOCTOR_TEST_DATA) + "/faq_bad";
}

// The real faq/ folder, loaded once per test binary (it is immutable).
inline const core::faq::FaqLoad& realFaq()
{
    static const core::faq::FaqLoad load = core::faq::FaqBase::loadDirectory(realFaqDir());
    return load;
}

}  // namespace qatdoctor::faqtest
