#include "core/common/result.h"

namespace qatdoctor::core {

std::string Error::toString() const
{
    std::string out;
    // Messages passed up from a reader often start with the place already ("model.onnx: node
    // ..."): print it once.
    const bool placed = !file.empty() && message.size() > file.size() &&
                        message.compare(0, file.size(), file) == 0 &&
                        (message[file.size()] == ':' || message[file.size()] == '@');
    if (!file.empty() && !placed) {
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

Error makeError(std::string code, std::string message, std::string file, int64_t line, int64_t offset)
{
    return Error{std::move(code), std::move(message), std::move(file), line, offset};
}

}  // namespace qatdoctor::core
