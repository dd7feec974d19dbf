#include "core/model/onnx_input.h"

#include <algorithm>
#include <cctype>

namespace qatdoctor::core::model {
namespace {

bool endsWithOnnx(const std::string& path)
{
    if (path.size() < 5) return false;
    std::string ext = path.substr(path.size() - 5);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".onnx";
}

// ModelProto serializes ir_version (field 1, varint) first, then producer_name (2), ...,
// graph (7) or opset_import (8): tags 0x08, 0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a, 0x42.
bool looksLikeModelProto(std::string_view head)
{
    if (head.size() < 4 || static_cast<unsigned char>(head[0]) != 0x08) return false;
    const unsigned char irVersion = static_cast<unsigned char>(head[1]);
    if (irVersion == 0 || irVersion > 20) return false;
    const unsigned char next = static_cast<unsigned char>(head[2]);
    return next == 0x12 || next == 0x1a || next == 0x22 || next == 0x28 || next == 0x32 || next == 0x3a ||
           next == 0x42;
}

}  // namespace

int probeOnnx(const std::string& path, std::string_view head)
{
    const bool ext = endsWithOnnx(path);
    const bool proto = looksLikeModelProto(head);
    if (ext) return proto ? 90 : 50;
    return proto ? 60 : 0;
}

}  // namespace qatdoctor::core::model
