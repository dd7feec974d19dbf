#include "core/model/expected_dtypes.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/common/file_io.h"
#include "core/common/json_depth.h"
#include "core/model/dtype.h"

namespace qatdoctor::core::model {

Result<ExpectedDtypes> parseExpectedDtypes(std::string_view text, const std::string& path)
{
    const auto refuse = [&path](const std::string& why, int64_t line = 0, int64_t offset = -1) {
        return makeError("expect.parse", path + ": " + why, path, line, offset);
    };
    // The valid form is one level deep; anything deeper is refused before nlohmann builds it.
    if (jsonNestingDepth(text) > 2)
        return refuse("not a JSON object of module name -> dtype (nested too deep)");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error::byte is 1-based and points after the offending character.
        int64_t offset = -1, line = 0;
        if (const auto* p = dynamic_cast<const nlohmann::json::parse_error*>(&e); p && p->byte > 0) {
            offset = static_cast<int64_t>(std::min<size_t>(p->byte - 1, text.size()));
            line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
        }
        return refuse("not valid JSON (" + std::string(e.what()) + ")", line, offset);
    }
    if (!j.is_object()) return refuse("not a JSON object of module name -> dtype");
    if (j.size() > kMaxExpectedDtypes)
        return refuse(std::to_string(j.size()) + " entries; at most " + std::to_string(kMaxExpectedDtypes) +
                      " modules can be checked");
    ExpectedDtypes out;
    for (const auto& [name, dtype] : j.items()) {
        if (name.empty()) return refuse("an empty module name");
        if (!dtype.is_string()) return refuse("the dtype of '" + name + "' is not a string");
        const std::string& value = dtype.get_ref<const std::string&>();
        if (!parseDType(value))
            return refuse("unknown dtype '" + value + "' for '" + name +
                          "' (int8, int16, float32, qint16, ...)");
        out[name] = value;
    }
    return out;
}

Result<ExpectedDtypes> readExpectedDtypes(const std::string& path)
{
    auto text = readFile(path, kMaxExpectedDtypesBytes);
    if (!text) return text.error();
    return parseExpectedDtypes(*text, path);
}

}  // namespace qatdoctor::core::model
