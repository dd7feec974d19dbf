#include "core/common/json_text.h"

namespace qatdoctor::core {

std::string jsonText(const nlohmann::json& j, int indent)
{
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace qatdoctor::core
