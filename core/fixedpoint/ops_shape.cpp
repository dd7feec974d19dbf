// Shape and data-movement ops of the specification table: exact for every element type.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "core/fixedpoint/broadcast.h"
#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/node_attrs.h"
#include "core/fixedpoint/op_registry.h"
#include "core/fixedpoint/tensor_io.h"

namespace qatdoctor::core::fixedpoint {
namespace {

using Outs = Result<std::vector<Tensor>>;

// Every axis a shape op reads from a node is range-checked (kernel_checks.h).
int64_t normAxis(int64_t axis, int64_t rank)
{
    return checkedAxis(axis, rank);
}

// Copies element blocks: generic gather by source offsets.
Tensor gatherOffsets(const Tensor& x, std::vector<int64_t> shape, const std::vector<int64_t>& offsets)
{
    Tensor y(x.dtype(), std::move(shape));
    const size_t es = elementSize(x.dtype());
    const uint8_t* src = x.data<uint8_t>();
    uint8_t* dst = y.data<uint8_t>();
    for (size_t i = 0; i < offsets.size(); ++i)
        std::memcpy(dst + i * es, src + offsets[i] * static_cast<int64_t>(es), es);
    return y;
}

Outs reshape(const OpCall& c)
{
    const Tensor& x = c.in(0);
    auto target = c.in(1).toInts();
    const bool allowZero = NodeAttrs(c.node).i("allowzero", 0) != 0;
    int64_t known = 1, inferAt = -1;
    for (size_t i = 0; i < target.size(); ++i) {
        if (target[i] == 0 && !allowZero) {
            if (static_cast<int64_t>(i) >= x.rank())
                return opError(c.node, "shape copies dimension " + std::to_string(i) + " the input lacks");
            target[i] = x.dim(static_cast<int64_t>(i));
        }
        if (target[i] < -1 || (target[i] == -1 && inferAt >= 0))
            return opError(c.node, "shape " + shapeString(target) + " is not a shape");
        if (target[i] == -1)
            inferAt = static_cast<int64_t>(i);
        else if (target[i] > 0 && known > std::numeric_limits<int64_t>::max() / target[i])
            return opError(c.node, "shape " + shapeString(target) + " overflows");
        else
            known *= target[i];
    }
    if (inferAt >= 0) target[static_cast<size_t>(inferAt)] = known ? x.size() / known : 0;
    if (shapeSize(target) != x.size())
        return opError(c.node, "cannot reshape " + shapeString(x.shape()) + " to " + shapeString(target));
    return std::vector<Tensor>{x.reshaped(target)};
}

Outs flatten(const OpCall& c)
{
    const Tensor& x = c.in(0);
    // Flatten's axis may be the rank itself (everything in the outer dimension)
    int64_t axis = NodeAttrs(c.node).i("axis", 1);
    if (axis != x.rank()) axis = checkedAxis(axis, x.rank());
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= x.dim(i);
    return std::vector<Tensor>{x.reshaped({outer, outer ? x.size() / outer : 0})};
}

Outs transpose(const OpCall& c)
{
    const Tensor& x = c.in(0);
    auto perm = NodeAttrs(c.node).ints("perm");
    if (perm.empty()) {
        perm.resize(static_cast<size_t>(x.rank()));
        std::iota(perm.rbegin(), perm.rend(), 0);
    }
    checkPermutation(perm, x.rank());
    std::vector<int64_t> outShape, inStrides(static_cast<size_t>(x.rank()), 1), strides;
    for (int64_t d = x.rank() - 2; d >= 0; --d)
        inStrides[static_cast<size_t>(d)] = inStrides[static_cast<size_t>(d + 1)] * x.dim(d + 1);
    for (int64_t p : perm) {
        outShape.push_back(x.dim(p));
        strides.push_back(inStrides[static_cast<size_t>(p)]);
    }
    std::vector<int64_t> offsets;
    offsets.reserve(static_cast<size_t>(x.size()));
    forEachBroadcast(outShape, {strides},
                     [&](int64_t, const std::vector<int64_t>& o) { offsets.push_back(o[0]); });
    return std::vector<Tensor>{gatherOffsets(x, outShape, offsets)};
}

std::vector<int64_t> axesOf(const OpCall& c)
{
    if (c.hasInput(1)) return c.in(1).toInts();
    return NodeAttrs(c.node).ints("axes");
}

Outs squeeze(const OpCall& c)
{
    const Tensor& x = c.in(0);
    auto axes = axesOf(c);
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < x.rank(); ++d) {
        bool drop = axes.empty() ? x.dim(d) == 1 : false;
        for (int64_t a : axes) drop = drop || normAxis(a, x.rank()) == d;
        if (!drop) shape.push_back(x.dim(d));
    }
    return std::vector<Tensor>{x.reshaped(shape)};
}

Outs unsqueeze(const OpCall& c)
{
    const Tensor& x = c.in(0);
    auto axes = axesOf(c);
    const int64_t outRank = x.rank() + static_cast<int64_t>(axes.size());
    std::vector<bool> isNew(static_cast<size_t>(outRank), false);
    for (int64_t a : axes) {
        const auto d = static_cast<size_t>(normAxis(a, outRank));
        if (isNew[d]) return opError(c.node, "axis " + std::to_string(a) + " is given twice");
        isNew[d] = true;
    }
    std::vector<int64_t> shape;
    int64_t src = 0;
    for (int64_t d = 0; d < outRank; ++d) shape.push_back(isNew[static_cast<size_t>(d)] ? 1 : x.dim(src++));
    return std::vector<Tensor>{x.reshaped(shape)};
}

Outs concat(const OpCall& c)
{
    std::vector<const Tensor*> ins;
    for (const Tensor& t : c.inputs)
        if (!t.empty()) ins.push_back(&t);
    if (ins.empty()) return opError(c.node, "no inputs");
    const int64_t rank = ins[0]->rank();
    const int64_t axis = normAxis(NodeAttrs(c.node).i("axis", 0), rank);
    std::vector<int64_t> shape = ins[0]->shape();
    shape[static_cast<size_t>(axis)] = 0;
    for (const Tensor* t : ins) {
        if (t->rank() != rank) return opError(c.node, "input ranks differ");
        for (int64_t d = 0; d < rank; ++d)
            if (d != axis && t->dim(d) != ins[0]->dim(d))
                return opError(c.node, "inputs differ outside the concatenated axis (" +
                                           shapeString(t->shape()) + " vs " + shapeString(ins[0]->shape()) +
                                           ")");
        shape[static_cast<size_t>(axis)] += t->dim(axis);
    }
    Tensor y(ins[0]->dtype(), shape);
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<size_t>(d)];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= shape[static_cast<size_t>(d)];
    const size_t es = elementSize(y.dtype());
    uint8_t* dst = y.data<uint8_t>();
    for (int64_t o = 0; o < outer; ++o)
        for (const Tensor* t : ins) {
            const int64_t block = t->dim(axis) * inner * static_cast<int64_t>(es);
            std::memcpy(dst, t->data<uint8_t>() + o * block, static_cast<size_t>(block));
            dst += block;
        }
    return std::vector<Tensor>{y};
}

Outs split(const OpCall& c)
{
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    const int64_t axis = normAxis(a.i("axis", 0), x.rank());
    std::vector<int64_t> parts = c.hasInput(1) ? c.in(1).toInts() : a.ints("split");
    const auto outs = static_cast<int64_t>(c.node.output_size());
    if (parts.empty()) {
        const int64_t n = a.has("num_outputs") ? a.i("num_outputs", outs) : outs;
        if (n <= 0 || n > std::max<int64_t>(1, x.dim(axis)))
            return opError(c.node, "cannot split into " + std::to_string(n) + " parts");
        const int64_t each = (x.dim(axis) + n - 1) / n;
        for (int64_t i = 0, left = x.dim(axis); i < n; ++i, left -= each)
            parts.push_back(std::min(each, left));
    }
    int64_t total = 0;
    for (int64_t len : parts) {
        if (len < 0) return opError(c.node, "split sizes must not be negative");
        total += len;
    }
    if (total != x.dim(axis))
        return opError(c.node, "split sizes add up to " + std::to_string(total) + ", the axis has " +
                                   std::to_string(x.dim(axis)));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(d);
    for (int64_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
    std::vector<Tensor> ys;
    int64_t start = 0;
    const size_t es = elementSize(x.dtype());
    for (int64_t len : parts) {
        std::vector<int64_t> shape = x.shape();
        shape[static_cast<size_t>(axis)] = len;
        Tensor y(x.dtype(), shape);
        for (int64_t o = 0; o < outer; ++o)
            std::memcpy(y.data<uint8_t>() + o * len * inner * static_cast<int64_t>(es),
                        x.data<uint8_t>() + (o * x.dim(axis) + start) * inner * static_cast<int64_t>(es),
                        static_cast<size_t>(len * inner) * es);
        start += len;
        ys.push_back(y);
    }
    return ys;
}

Outs slice(const OpCall& c)
{
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    std::vector<int64_t> starts, ends, axes, steps;
    if (c.opset < 10) {
        starts = a.ints("starts");
        ends = a.ints("ends");
        axes = a.ints("axes");
    } else {
        starts = c.in(1).toInts();
        ends = c.in(2).toInts();
        if (c.hasInput(3)) axes = c.in(3).toInts();
        if (c.hasInput(4)) steps = c.in(4).toInts();
    }
    if (axes.empty()) {
        axes.resize(starts.size());
        std::iota(axes.begin(), axes.end(), 0);
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        return opError(c.node, "starts, ends, axes and steps differ in length");
    const int64_t rank = x.rank();
    std::vector<int64_t> st(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank), 1),
        shape = x.shape();
    for (size_t i = 0; i < axes.size(); ++i) {
        const int64_t d = normAxis(axes[i], rank);
        const int64_t dim = x.dim(d), s = steps[i];
        if (s == 0) return opError(c.node, "step 0");
        int64_t b = starts[i], e = ends[i];
        if (b < 0) b += dim;
        if (e < 0) e += dim;
        if (s > 0) {
            b = std::clamp<int64_t>(b, 0, dim);
            e = std::clamp<int64_t>(e, 0, dim);
            shape[static_cast<size_t>(d)] = e > b ? (e - b + s - 1) / s : 0;
        } else {
            b = std::clamp<int64_t>(b, 0, dim - 1);
            e = std::clamp<int64_t>(e, -1, dim - 1);
            shape[static_cast<size_t>(d)] = b > e ? (b - e - s - 1) / (-s) : 0;
        }
        st[static_cast<size_t>(d)] = b;
        step[static_cast<size_t>(d)] = s;
    }
    std::vector<int64_t> inStrides(static_cast<size_t>(rank), 1);
    for (int64_t d = rank - 2; d >= 0; --d)
        inStrides[static_cast<size_t>(d)] = inStrides[static_cast<size_t>(d + 1)] * x.dim(d + 1);
    std::vector<int64_t> strides(static_cast<size_t>(rank));
    int64_t base = 0;
    for (int64_t d = 0; d < rank; ++d) {
        strides[static_cast<size_t>(d)] = inStrides[static_cast<size_t>(d)] * step[static_cast<size_t>(d)];
        base += st[static_cast<size_t>(d)] * inStrides[static_cast<size_t>(d)];
    }
    std::vector<int64_t> offsets;
    forEachBroadcast(shape, {strides},
                     [&](int64_t, const std::vector<int64_t>& o) { offsets.push_back(base + o[0]); });
    return std::vector<Tensor>{gatherOffsets(x, shape, offsets)};
}

Outs gather(const OpCall& c)
{
    const Tensor& x = c.in(0);
    const Tensor& idx = c.in(1);
    const int64_t axis = normAxis(NodeAttrs(c.node).i("axis", 0), x.rank());
    std::vector<int64_t> shape(x.shape().begin(), x.shape().begin() + axis);
    for (int64_t d : idx.shape()) shape.push_back(d);
    for (int64_t d = axis + 1; d < x.rank(); ++d) shape.push_back(x.dim(d));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.dim(d);
    for (int64_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
    checkTensorBudget(shape, DType::Int64);  // the offsets table below
    std::vector<int64_t> offsets;
    const auto ids = idx.toInts();
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t id : ids) {
            if (id < 0) id += x.dim(axis);
            if (id < 0 || id >= x.dim(axis)) return opError(c.node, "index out of range");
            for (int64_t k = 0; k < inner; ++k) offsets.push_back((o * x.dim(axis) + id) * inner + k);
        }
    return std::vector<Tensor>{gatherOffsets(x, shape, offsets)};
}

Outs expand(const OpCall& c)
{
    const Tensor& x = c.in(0);
    const std::vector<int64_t> target = c.in(1).toInts();
    checkAtLeast(target, 0, "the shape (a negative dimension)");
    auto shape = broadcastShapes({x.shape(), target});
    if (!shape) return opError(c.node, "shape does not broadcast");
    checkTensorBudget(*shape, DType::Int64);  // the offsets table below
    std::vector<int64_t> offsets;
    forEachBroadcast(*shape, {broadcastStrides(x.shape(), *shape)},
                     [&](int64_t, const std::vector<int64_t>& o) { offsets.push_back(o[0]); });
    return std::vector<Tensor>{gatherOffsets(x, *shape, offsets)};
}

Outs tile(const OpCall& c)
{
    const Tensor& x = c.in(0);
    const auto reps = c.in(1).toInts();
    checkLength(reps, static_cast<size_t>(x.rank()), "repeats");
    checkAtLeast(reps, 0, "repeats (a negative count)");
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < x.rank(); ++d) {
        const int64_t r = reps[static_cast<size_t>(d)];
        if (r > 0 && x.dim(d) > std::numeric_limits<int64_t>::max() / r)
            return opError(c.node, "repeats overflow the shape");
        shape.push_back(x.dim(d) * r);
    }
    checkTensorBudget(shape, DType::Int64);  // the offsets table below
    std::vector<int64_t> idx(static_cast<size_t>(x.rank()), 0), offsets;
    const int64_t count = shapeSize(shape);
    for (int64_t i = 0; i < count; ++i) {
        int64_t off = 0;
        for (int64_t d = 0; d < x.rank(); ++d) off = off * x.dim(d) + idx[static_cast<size_t>(d)] % x.dim(d);
        offsets.push_back(off);
        for (int64_t d = x.rank() - 1; d >= 0; --d) {
            if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
            idx[static_cast<size_t>(d)] = 0;
        }
    }
    return std::vector<Tensor>{gatherOffsets(x, shape, offsets)};
}

Outs constant(const OpCall& c)
{
    NodeAttrs a(c.node);
    if (const auto* t = a.tensor("value")) {
        auto v = tensorFromProto(*t, c.folder);
        if (!v) return v.error();
        return std::vector<Tensor>{*v};
    }
    if (a.has("value_float")) return std::vector<Tensor>{Tensor::scalar(a.f("value_float", 0))};
    if (a.has("value_int"))
        return std::vector<Tensor>{Tensor::fromInts(DType::Int64, {}, {a.i("value_int", 0)})};
    if (a.has("value_floats")) {
        auto f = a.floats("value_floats");
        return std::vector<Tensor>{Tensor::fromFloats({static_cast<int64_t>(f.size())}, f)};
    }
    if (a.has("value_ints")) {
        auto v = a.ints("value_ints");
        return std::vector<Tensor>{Tensor::fromInts(DType::Int64, {static_cast<int64_t>(v.size())}, v)};
    }
    return opError(c.node, "unsupported Constant form");
}

Outs constantOfShape(const OpCall& c)
{
    const auto shape = c.in(0).toInts();
    Tensor value = Tensor::scalar(0.0f);
    if (const auto* t = NodeAttrs(c.node).tensor("value")) {
        auto v = tensorFromProto(*t);
        if (!v) return v.error();
        value = *v;
    }
    Tensor y(value.dtype(), shape);
    for (int64_t i = 0; i < y.size(); ++i) y.set(i, value.at(0));
    return std::vector<Tensor>{y};
}

Tensor castTo(const Tensor& x, DType to)
{
    Tensor y(to, x.shape());
    const bool fromFloat = x.dtype() == DType::Float32 || x.dtype() == DType::Float64;
    for (int64_t i = 0; i < x.size(); ++i) {
        if (to == DType::Float32 || to == DType::Float64 || to == DType::Bool || fromFloat) {
            double v = x.at(i);
            if (fromFloat && to != DType::Float32 && to != DType::Float64 && to != DType::Bool)
                v = std::trunc(v);
            y.set(i, v);
        } else {
            y.setInt(i, x.atInt(i));
        }
    }
    return y;
}

Outs castOp(const OpCall& c)
{
    const DType to = simulatedDtype(static_cast<int32_t>(NodeAttrs(c.node).i("to", 1)));
    if (to == DType::Unknown || elementSize(to) == 0) return unsupported(c.node, "unsupported target type");
    return std::vector<Tensor>{castTo(c.in(0), to)};
}

Outs pad(const OpCall& c)
{
    const Tensor& x = c.in(0);
    NodeAttrs a(c.node);
    const std::string mode = a.s("mode", "constant");
    if (mode != "constant" && mode != "edge" && mode != "reflect" && mode != "wrap")
        return opError(c.node, "unknown mode '" + mode + "'");
    std::vector<int64_t> pads = c.opset < 11 ? a.ints("pads") : c.in(1).toInts();
    double value = c.opset < 11 ? a.f("value", 0) : (c.hasInput(2) && c.in(2).size() ? c.in(2).at(0) : 0.0);
    const int64_t rank = x.rank();
    std::vector<int64_t> axes;
    if (c.hasInput(3)) axes = c.in(3).toInts();
    std::vector<int64_t> pb(static_cast<size_t>(rank), 0), pe(static_cast<size_t>(rank), 0);
    checkLength(pads, 2 * (axes.empty() ? static_cast<size_t>(rank) : axes.size()), "pads");
    if (axes.empty()) {
        for (int64_t d = 0; d < rank; ++d) {
            pb[static_cast<size_t>(d)] = pads[static_cast<size_t>(d)];
            pe[static_cast<size_t>(d)] = pads[static_cast<size_t>(d + rank)];
        }
    } else {
        for (size_t i = 0; i < axes.size(); ++i) {
            const int64_t d = normAxis(axes[i], rank);
            pb[static_cast<size_t>(d)] = pads[i];
            pe[static_cast<size_t>(d)] = pads[i + axes.size()];
        }
    }
    // reflecting needs two elements and repeating one along a padded axis (else no source exists)
    if (mode != "constant")
        for (int64_t d = 0; d < rank; ++d)
            if ((pb[static_cast<size_t>(d)] > 0 || pe[static_cast<size_t>(d)] > 0) &&
                x.dim(d) < (mode == "reflect" ? 2 : 1))
                return opError(c.node, mode + " padding needs " + (mode == "reflect" ? "2" : "1") +
                                           " or more elements along a padded axis");
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d)
        shape.push_back(x.dim(d) + pb[static_cast<size_t>(d)] + pe[static_cast<size_t>(d)]);
    Tensor y(x.dtype(), shape);
    std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
    for (int64_t i = 0; i < y.size(); ++i) {
        int64_t off = 0;
        bool inside = true;
        for (int64_t d = 0; d < rank; ++d) {
            int64_t s = idx[static_cast<size_t>(d)] - pb[static_cast<size_t>(d)];
            const int64_t n = x.dim(d);
            if (s < 0 || s >= n) {
                if (mode == "constant")
                    inside = false;
                else if (mode == "edge")
                    s = std::clamp<int64_t>(s, 0, n - 1);
                else if (mode == "reflect") {
                    while (s < 0 || s >= n) s = s < 0 ? -s : 2 * (n - 1) - s;
                } else if (mode == "wrap")
                    s = ((s % n) + n) % n;
            }
            off = off * n + s;
        }
        if (inside)
            y.set(i, x.at(off));
        else
            y.set(i, value);
        for (int64_t d = rank - 1; d >= 0; --d) {
            if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
            idx[static_cast<size_t>(d)] = 0;
        }
    }
    return std::vector<Tensor>{y};
}

}  // namespace

void addShapeOps(std::vector<OpEntry>& t)
{
    auto identity = [](const OpCall& c) { return Outs(std::vector<Tensor>{c.in(0)}); };
    t.push_back({"Identity", identity});
    t.push_back({"Dropout", [](const OpCall& c) {
                     if (c.hasInput(2) && c.in(2).atInt(0) != 0)
                         return Outs(unsupported(c.node, "training mode"));
                     std::vector<Tensor> o{c.in(0)};
                     if (c.node.output_size() > 1) {
                         Tensor mask(DType::Bool, c.in(0).shape());
                         for (int64_t i = 0; i < mask.size(); ++i) mask.setInt(i, 1);
                         o.push_back(mask);
                     }
                     return Outs(o);
                 }});
    t.push_back({"Reshape", reshape});
    t.push_back({"Flatten", flatten});
    t.push_back({"Transpose", transpose});
    t.push_back({"Squeeze", squeeze});
    t.push_back({"Unsqueeze", unsqueeze});
    t.push_back({"Concat", concat});
    t.push_back({"Split", split});
    t.push_back({"Slice", slice});
    t.push_back({"Gather", gather});
    t.push_back({"Expand", expand});
    t.push_back({"Tile", tile});
    t.push_back({"Constant", constant});
    t.push_back({"ConstantOfShape", constantOfShape});
    t.push_back({"Cast", castOp});
    t.push_back({"CastLike", [](const OpCall& c) {
                     return Outs(std::vector<Tensor>{castTo(c.in(0), c.in(1).dtype())});
                 }});
    t.push_back({"Pad", pad});
    t.push_back({"Shape", [](const OpCall& c) {
                     NodeAttrs a(c.node);
                     const int64_t r = c.in(0).rank();
                     int64_t s = a.i("start", 0), e = a.i("end", r);
                     s = std::clamp<int64_t>(s < 0 ? s + r : s, 0, r);
                     e = std::clamp<int64_t>(e < 0 ? e + r : e, 0, r);
                     std::vector<int64_t> dims(c.in(0).shape().begin() + s,
                                               c.in(0).shape().begin() + std::max(s, e));
                     return Outs(std::vector<Tensor>{
                         Tensor::fromInts(DType::Int64, {static_cast<int64_t>(dims.size())}, dims)});
                 }});
    t.push_back({"Size", [](const OpCall& c) {
                     return Outs(std::vector<Tensor>{Tensor::fromInts(DType::Int64, {}, {c.in(0).size()})});
                 }});
    t.push_back({"Range", [](const OpCall& c) {
                     const double s = c.in(0).at(0), l = c.in(1).at(0), d = c.in(2).at(0);
                     const double count = std::max(0.0, std::ceil((l - s) / d));
                     // a zero or NaN delta never reaches the limit; the tensor budget bounds the rest
                     if (d == 0 || !std::isfinite(count) || count >= 9.2e18)
                         return Outs(opError(c.node, "Range never ends"));
                     const auto n = static_cast<int64_t>(count);
                     Tensor y(c.in(0).dtype(), {n});
                     for (int64_t i = 0; i < n; ++i) y.set(i, s + static_cast<double>(i) * d);
                     return Outs(std::vector<Tensor>{y});
                 }});
}

}  // namespace qatdoctor::core::fixedpoint
