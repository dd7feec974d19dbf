#include "core/fixedpoint/compare.h"

#include <cmath>
#include <limits>

namespace qatdoctor::core::fixedpoint {

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
    const double n = static_cast<double>(ref.size());
    a.count = ref.size();
    a.cosine = (nr == 0 && no == 0) ? 1.0 : (nr == 0 || no == 0 ? 0.0 : dot / std::sqrt(nr * no));
    a.mse = se / n;
    a.l1 = ae / n;
    a.maxAbs = mx;
    a.sqnrDb = se == 0 ? std::numeric_limits<double>::infinity() : (nr == 0 ? -std::numeric_limits<double>::infinity() : 10.0 * std::log10(nr / se));
    a.maxErrLsb = outputScale > 0 ? mx / outputScale : 0.0;
    return a;
}

// Cosine 0.99 is the similarity below which toolchain per-layer comparisons flag a layer;
// 20 dB SQNR (1% error energy) is the level where 8-bit layers stop being "rounding noise".
bool agreementBroken(const Agreement& a, const AgreementThresholds& t)
{
    return a.count > 0 && (a.cosine < t.minCosine || a.sqnrDb < t.minSqnrDb);
}

}  // namespace qatdoctor::core::fixedpoint
