#include "core/common/result.h"

namespace qatdoctor::core {

std::string Error::toString() const
{
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0)
            out += ":" + std::to_string(line);
        else if (offset >= 0)
            out += "@" + std::to_string(offset);
        out += ": ";
    }
    out += message;
    return out;
}

Error makeError(std::string code, std::string message, std::string file, int64_t line,
                int64_t offset)
{
    return Error{std::move(code), std::move(message), std::move(file), line, offset};
}

}  // namespace qatdoctor::core
