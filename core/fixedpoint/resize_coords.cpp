#include "core/fixedpoint/resize_coords.h"

#include <onnx/onnx_pb.h>

#include <cmath>

#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"

namespace qatdoctor::core::fixedpoint {

Result<ResizeShape> resizeShape(const onnx::NodeProto& node, int64_t opset, bool upsample,
                                const std::vector<int64_t>& inShape, const std::vector<Tensor>& inputs)
{
    auto given = [&](size_t i) { return i < inputs.size() && !inputs[i].empty() && inputs[i].size() > 0; };
    const size_t rank = inShape.size();
    const bool v10 = upsample || opset < 11;
    const size_t scalesIdx = v10 ? 1 : 2, sizesIdx = 3;
    ResizeShape r;
    r.outShape = inShape;
    r.scales.assign(rank, 1.0);
    r.sizesGiven = !v10 && given(sizesIdx);
    if (r.sizesGiven) {
        const auto sizes = inputs[sizesIdx].toInts();
        if (sizes.size() != rank) return opError(node, "sizes rank mismatch");
        for (size_t d = 0; d < rank; ++d) {
            r.outShape[d] = sizes[d];
            r.scales[d] = double(float(sizes[d]) / float(inShape[d]));
        }
        return r;
    }
    std::vector<float> s;
    if (given(scalesIdx))
        s = inputs[scalesIdx].toFloats();
    else if (upsample && NodeAttrs(node).has("scales"))
        s = NodeAttrs(node).floats("scales");
    else
        return opError(node, "needs scales or sizes");
    if (s.size() != rank) return opError(node, "scales rank mismatch");
    for (size_t d = 0; d < rank; ++d) {
        r.scales[d] = s[d];
        r.outShape[d] = static_cast<int64_t>(std::floor(double(inShape[d]) * double(s[d])));
    }
    return r;
}

}  // namespace qatdoctor::core::fixedpoint
