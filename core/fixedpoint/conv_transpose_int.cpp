#include "core/fixedpoint/conv_transpose_int.h"

namespace qatdoctor::core::fixedpoint {
namespace {

bool isIntegerCode(DType t)
{
    return t == DType::Int8 || t == DType::UInt8 || t == DType::Int16 || t == DType::UInt16 ||
           t == DType::Int32;
}

}  // namespace

Result<Accumulator> convTransposeInteger(const ConvTransposeGeometry& g, const Tensor& x, int64_t xZero,
                                         const Tensor& w, const std::vector<int64_t>& wZero, ThreadPool* pool)
{
    if (!isIntegerCode(x.dtype()) || !isIntegerCode(w.dtype()))
        return makeError("simulate.op", std::string("ConvTranspose on integers: X is ") +
                                            model::dtypeName(x.dtype()) + ", W is " +
                                            model::dtypeName(w.dtype()));
    if (w.rank() < 3 || x.rank() != w.rank() || x.dim(1) != g.c || w.dim(0) != g.c ||
        w.dim(1) * g.group != g.m)
        return makeError("simulate.op", "ConvTranspose on integers: X " + shapeString(x.shape()) + " and W " +
                                            shapeString(w.shape()) + " do not match the geometry");
    if (wZero.empty() || (wZero.size() != 1 && static_cast<int64_t>(wZero.size()) != w.dim(1)))
        return makeError("simulate.op", "ConvTranspose on integers: " + std::to_string(wZero.size()) +
                                            " weight zero points for " + std::to_string(w.dim(1)) +
                                            " channels per group");
    Accumulator a;
    a.shape = g.outShape();
    const auto n = static_cast<size_t>(shapeSize(a.shape));
    a.wide = !narrowSumsFit(x.dtype(), w.dtype(), (g.c / g.group) * g.kernelPixels());
    if (!a.wide) {
        const auto xv = offsetValues<int16_t>(x, {xZero}, -1);
        const auto wv = offsetValues<int16_t>(w, wZero, 1);
        a.acc32.resize(n);
        convTranspose<int16_t, int32_t>(g, xv.data(), wv.data(), a.acc32.data(), pool);
    } else {
        const auto xv = offsetValues<int32_t>(x, {xZero}, -1);
        const auto wv = offsetValues<int32_t>(w, wZero, 1);
        a.acc64.resize(n);
        convTranspose<int32_t, int64_t>(g, xv.data(), wv.data(), a.acc64.data(), pool);
        countOverflows(a);
    }
    return a;
}

}  // namespace qatdoctor::core::fixedpoint
