#include "core/model/layer_weights.h"

#include "core/model/fake_quantizers.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_quant.h"

namespace qatdoctor::core::model {
namespace {

int inputAt(const GraphNode& n, size_t i)
{
    return i < n.inputs.size() ? n.inputs[i] : -1;
}

// Stride bookkeeping for "which channel is element i in".
struct AxisWalk {
    int64_t inner = 1;
    int64_t channels = 1;
    AxisWalk(const std::vector<int64_t>& dims, int axis)
    {
        if (axis < 0 || axis >= static_cast<int>(dims.size())) return;
        channels = dims[static_cast<size_t>(axis)];
        for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
    }
    int64_t channelOf(size_t i) const
    {
        return channels <= 1 ? 0 : (static_cast<int64_t>(i) / inner) % channels;
    }
};

void dequantize(LayerWeights& w, const QuantParams& q)
{
    if (q.scales.empty()) return;
    const AxisWalk walk(w.dims, q.perChannel() ? q.axis : -1);
    for (size_t i = 0; i < w.values.size(); ++i) {
        const size_t c = static_cast<size_t>(walk.channelOf(i));
        const float scale = q.scales[std::min(c, q.scales.size() - 1)];
        const int64_t zp = q.zeroPoints.empty() ? 0 : q.zeroPoints[std::min(c, q.zeroPoints.size() - 1)];
        w.values[i] = (w.values[i] - static_cast<float>(zp)) * scale;
    }
}

}  // namespace

Result<LayerWeights> readLayerWeights(const LayerTable& table, const Layer& layer)
{
    if (!table.graph)
        return makeError("model.no_graph", table.sourcePath + " has no graph to read weights from",
                         table.sourcePath);
    const ModelGraph& g = *table.graph;
    const bool qlinear = layer.op == "QLinearConv" || layer.op == "QLinearMatMul";
    const size_t idx = qlinear ? 3 : 1;
    auto noWeight = [&] {
        return makeError("model.no_weight", "layer '" + layer.name + "' has no constant weight",
                         table.sourcePath);
    };
    if (layer.inputs.size() <= idx) return noWeight();
    int t = g.tensorId(layer.inputs[idx]);
    bool integers = qlinear;
    // Fake quant: DQ(Q(w)) or DQ(Clip(Q(w))) -> the float w; converted: DQ(int8 const).
    int p = constantDequantizerOf(g, t);  // through an exporter's Transpose of the weight
    if (p < 0) p = g.producer(t);
    if (p >= 0 && isFakeQuantizeOp(g.node(p))) {
        t = inputAt(g.node(p), 0);  // a fake quantizer's weight is stored as real values
    } else if (p >= 0 && isDequantizeOp(g.node(p))) {
        const int src = inputAt(g.node(p), 0);
        if (g.isConst(src)) {
            t = src;
            integers = true;
        } else {
            int q = g.producer(src);
            if (q >= 0 && g.node(q).op == "Clip") q = g.producer(inputAt(g.node(q), 0));
            if (q < 0 || !isQuantizeOp(g.node(q))) return noWeight();
            t = inputAt(g.node(q), 0);
        }
    }
    if (t < 0 || !g.isConst(t)) return noWeight();
    auto values = g.constFloats(t);
    if (!values) return values.error();
    LayerWeights w;
    w.values = std::move(*values);
    w.dims = g.constDims(t);
    w.storedAsIntegers = integers;
    if (integers && layer.weightQuant) dequantize(w, *layer.weightQuant);
    return w;
}

std::vector<float> channelValues(const LayerWeights& w, const QuantParams& q, int64_t channel)
{
    const AxisWalk walk(w.dims, q.perChannel() ? q.axis : -1);
    if (walk.channels <= 1 || channel < 0 || channel >= walk.channels) return w.values;
    std::vector<float> out;
    out.reserve(w.values.size() / static_cast<size_t>(walk.channels));
    for (size_t i = 0; i < w.values.size(); ++i)
        if (walk.channelOf(i) == channel) out.push_back(w.values[i]);
    return out;
}

}  // namespace qatdoctor::core::model
