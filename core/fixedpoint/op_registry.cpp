#include "core/fixedpoint/op_registry.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

namespace qatdoctor::core::fixedpoint {

Error opError(const onnx::NodeProto& node, const std::string& what)
{
    return makeError("simulate.op", node.op_type() + " node '" + node.name() + "': " + what);
}

Error unsupported(const onnx::NodeProto& node, const std::string& what)
{
    Error e = opError(node, what);
    e.code = "simulate.unsupported";
    return e;
}

const std::vector<OpEntry>& specOps()
{
    static const std::vector<OpEntry> kTable = [] {
        std::vector<OpEntry> t;
        addMathOps(t);
        addNnOps(t);
        addShapeOps(t);
        addQuantOps(t);
        std::sort(t.begin(), t.end(),
                  [](const OpEntry& a, const OpEntry& b) { return std::string(a.op) < b.op; });
        return t;
    }();
    return kTable;
}

const OpFn* findSpecOp(const std::string& opType)
{
    const auto& t = specOps();
    auto it = std::lower_bound(t.begin(), t.end(), opType,
                               [](const OpEntry& e, const std::string& name) { return e.op < name; });
    return it != t.end() && it->op == opType ? &it->run : nullptr;
}

}  // namespace qatdoctor::core::fixedpoint
