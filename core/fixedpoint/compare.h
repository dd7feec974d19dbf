// Agreement between two runs of the same tensor: the figures the per-layer table shows.
#pragma once

#include <string>

#include "core/fixedpoint/tensor.h"

namespace qatdoctor::core::fixedpoint {

struct Agreement {
    double cosine = 1.0;
    double mse = 0;
    double l1 = 0;  // mean absolute error
    double maxAbs = 0;
    double sqnrDb = 0;     // 10 log10(sum ref^2 / sum err^2); +inf when identical
    double maxErrLsb = 0;  // maxAbs / output scale (0 when the tensor is not quantized)
    int64_t count = 0;
    // The sums behind the figures, so agreements over several samples merge exactly.
    struct Sums {
        double dot = 0, refSq = 0, otherSq = 0, errSq = 0, absErr = 0;
    } sums;
};

// ref is the reference side (the first mode of the pair). Shapes must match (else count = 0).
Agreement compareTensors(const Tensor& ref, const Tensor& other, double outputScale);

// The agreement over both tensor sets, as if compareTensors had seen them concatenated.
Agreement mergeAgreements(const Agreement& a, const Agreement& b);
// The figures (cosine, mse, l1, SQNR) of a.count and a.sums, the rest of a kept: an agreement
// read back from its saved sums is the one that was saved.
Agreement agreementWithFigures(Agreement a);

// Thresholds for "agreement breaks" (defaults explained in compare.cpp).
struct AgreementThresholds {
    double minCosine = 0.99;
    double minSqnrDb = 20.0;
};
bool agreementBroken(const Agreement& a, const AgreementThresholds& t = {});

}  // namespace qatdoctor::core::fixedpoint
