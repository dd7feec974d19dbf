#include "core/fixedpoint/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qatdoctor::core::fixedpoint {
Agreement agreementWithFigures(Agreement a)
{
    const auto& s = a.sums;
    const double n = static_cast<double>(a.count);
    a.cosine = (s.refSq == 0 && s.otherSq == 0)
                   ? 1.0
                   : (s.refSq == 0 || s.otherSq == 0 ? 0.0 : s.dot / std::sqrt(s.refSq * s.otherSq));
    a.mse = s.errSq / n;
    a.l1 = s.absErr / n;
    a.sqnrDb = s.errSq == 0 ? std::numeric_limits<double>::infinity()
                            : (s.refSq == 0 ? -std::numeric_limits<double>::infinity()
                                            : 10.0 * std::log10(s.refSq / s.errSq));
    return a;
}

Agreement compareTensors(const Tensor& ref, const Tensor& other, double outputScale)
{
    Agreement a;
    if (ref.empty() || other.empty() || ref.size() != other.size()) return a;
    double dot = 0, nr = 0, no = 0, se = 0, ae = 0, mx = 0;
    const bool fast = ref.dtype() == DType::Float32 && other.dtype() == DType::Float32;
    for (int64_t i = 0; i < ref.size(); ++i) {
        const double r = fast ? ref.data<float>()[i] : ref.at(i);
        const double o = fast ? other.data<float>()[i] : other.at(i);
        const double e = o - r;
        dot += r * o;
        nr += r * r;
        no += o * o;
        se += e * e;
        ae += std::fabs(e);
        mx = std::max(mx, std::fabs(e));
    }
    a.count = ref.size();
    a.sums = {dot, nr, no, se, ae};
    a.maxAbs = mx;
    a.maxErrLsb = outputScale > 0 ? mx / outputScale : 0.0;
    return agreementWithFigures(a);
}

Agreement mergeAgreements(const Agreement& a, const Agreement& b)
{
    if (b.count == 0) return a;
    if (a.count == 0) return b;
    Agreement m;
    m.count = a.count + b.count;
    m.sums = {a.sums.dot + b.sums.dot, a.sums.refSq + b.sums.refSq, a.sums.otherSq + b.sums.otherSq,
              a.sums.errSq + b.sums.errSq, a.sums.absErr + b.sums.absErr};
    m.maxAbs = std::max(a.maxAbs, b.maxAbs);
    m.maxErrLsb = std::max(a.maxErrLsb, b.maxErrLsb);
    return agreementWithFigures(m);
}

// Cosine 0.99 is the similarity below which toolchain per-layer comparisons flag a layer;
// 20 dB SQNR (1% error energy) is the level where 8-bit layers stop being "rounding noise".
bool agreementBroken(const Agreement& a, const AgreementThresholds& t)
{
    return a.count > 0 && (a.cosine < t.minCosine || a.sqnrDb < t.minSqnrDb);
}

}  // namespace qatdoctor::core::fixedpoint
