#include "core/common/result.h"

namespace qatdoctor::core {

std::string Error::toString() const
{
    // Messages usually name the file already ("cannot open x.log: ..."); then only the place is
    // added, so the path is not printed twice.
    std::string place;
    if (line > 0)
        place = ":" + std::to_string(line);
    else if (offset >= 0)
        place = "@" + std::to_string(offset);
    if (file.empty()) return message;
    if (message.find(file) != std::string::npos)
        return place.empty() ? message : file + place + ": " + message;
    return file + place + ": " + message;
}

Error makeError(std::string code, std::string message, std::string file, int64_t line,
                int64_t offset)
{
    return Error{std::move(code), std::move(message), std::move(file), line, offset};
}

}  // namespace qatdoctor::core
