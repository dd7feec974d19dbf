#include "core/model/onnx_nesting.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace qatdoctor::core::model {
namespace {

// The message kinds along the chain, and which of their fields hold the next one (field numbers
// from onnx.proto: ModelProto.graph = 7, GraphProto.node = 1, NodeProto.attribute = 5,
// AttributeProto.g = 6 and .graphs = 11).
enum class Kind : uint8_t { Model, Graph, Node, Attribute };

bool childOf(Kind kind, uint64_t field, Kind& child)
{
    switch (kind) {
        case Kind::Model:
            child = Kind::Graph;
            return field == 7;
        case Kind::Graph:
            child = Kind::Node;
            return field == 1;
        case Kind::Node:
            child = Kind::Attribute;
            return field == 5;
        case Kind::Attribute:
            child = Kind::Graph;
            return field == 6 || field == 11;
    }
    return false;
}

bool readVarint(const uint8_t*& p, const uint8_t* end, uint64_t& v)
{
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end) return false;
        const uint8_t b = *p++;
        v |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

struct Frame {
    const uint8_t* p;
    const uint8_t* end;
    Kind kind;
};

}  // namespace

int onnxNestingDepth(std::string_view bytes, int limit)
{
    // An explicit stack, not recursion: the input is exactly the file too deep to recurse into.
    const auto* begin = reinterpret_cast<const uint8_t*>(bytes.data());
    std::vector<Frame> stack{{begin, begin + bytes.size(), Kind::Model}};
    int deepest = 1;
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.p == f.end) {
            stack.pop_back();
            continue;
        }
        uint64_t tag = 0;
        if (!readVarint(f.p, f.end, tag)) return -1;
        const uint64_t field = tag >> 3;
        uint64_t n = 0;
        switch (tag & 7) {
            case 0:
                if (!readVarint(f.p, f.end, n)) return -1;
                break;
            case 1:
            case 5: {
                const size_t width = (tag & 7) == 1 ? 8 : 4;
                if (static_cast<size_t>(f.end - f.p) < width) return -1;
                f.p += width;
                break;
            }
            case 2: {
                if (!readVarint(f.p, f.end, n) || n > static_cast<uint64_t>(f.end - f.p)) return -1;
                const uint8_t* body = f.p;
                f.p += n;
                Kind child{};
                if (childOf(f.kind, field, child)) {
                    const Frame next{body, body + n, child};  // (f is invalidated by push_back)
                    stack.push_back(next);
                    deepest = std::max(deepest, static_cast<int>(stack.size()));
                    if (deepest >= limit) return deepest;
                }
                break;
            }
            default:
                return -1;  // groups (3, 4) are in no ONNX message; 6 and 7 are no wire type
        }
    }
    return deepest;
}

}  // namespace qatdoctor::core::model
