// Why a run got its role, in the reader's language. The readers write the reason in English
// from a few fixed phrases around quoted names ("folder name 'qat'", "header line '...' (line 3)");
// the quoted names stay as written, the phrases are translated here, in one table.
#pragma once

#include <string>
#include <string_view>

#include "core/common/text.h"

namespace qatdoctor::core::logs {

std::string roleReasonText(std::string_view reason, Lang lang);

}  // namespace qatdoctor::core::logs
