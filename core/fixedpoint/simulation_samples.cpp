// A simulation over several input samples: each sample runs on its own, and its figures are
// folded into the first sample's result.
#include <algorithm>

#include "core/fixedpoint/simulation.h"

namespace qatdoctor::core::fixedpoint {

void mergeSample(SimulationResult& r, const SimulationResult& more, size_t sampleIndex,
                 const AgreementThresholds& thresholds)
{
    for (size_t li = 0; li < r.comparisons.size() && li < more.comparisons.size(); ++li) {
        for (const auto& [pair, ag] : more.comparisons[li].pairs) {
            auto it = r.comparisons[li].pairs.find(pair);
            r.comparisons[li].pairs[pair] =
                it == r.comparisons[li].pairs.end() ? ag : mergeAgreements(it->second, ag);
        }
        r.comparisons[li].overflows += more.comparisons[li].overflows;
    }
    for (const auto& [pair, list] : more.outputAgreement) {
        auto& mine = r.outputAgreement[pair];
        for (size_t k = 0; k < list.size(); ++k) {
            if (k < mine.size())
                mine[k] = mergeAgreements(mine[k], list[k]);
            else
                mine.push_back(list[k]);
        }
    }
    for (const auto& [layer, n] : more.overflows) r.overflows[layer] += n;
    for (const std::string& f : more.fallbacks)
        if (std::find(r.fallbacks.begin(), r.fallbacks.end(), f) == r.fallbacks.end())
            r.fallbacks.push_back(f);
    for (const LutReport& l : more.luts) {
        auto it = std::find_if(r.luts.begin(), r.luts.end(),
                               [&](const LutReport& m) { return m.layer == l.layer; });
        if (it == r.luts.end()) {
            r.luts.push_back(l);
            continue;
        }
        // the range and the worst error over every sample; the mean error as the mean of the samples'
        it->inputMin = std::min(it->inputMin, l.inputMin);
        it->inputMax = std::max(it->inputMax, l.inputMax);
        it->maxError = std::max(it->maxError, l.maxError);
        it->maxErrorLsb = std::max(it->maxErrorLsb, l.maxErrorLsb);
        it->meanError = (it->meanError * double(sampleIndex) + l.meanError) / double(sampleIndex + 1);
    }
    if (more.requantDiffLsb) {
        r.requantDiffLsb = std::max(r.requantDiffLsb.value_or(0.0), *more.requantDiffLsb);
        if (r.requantDiffLayer.empty()) r.requantDiffLayer = more.requantDiffLayer;
    }
    if (more.baselineOutputAgreement) {
        r.baselineOutputAgreement = r.baselineOutputAgreement ? mergeAgreements(*r.baselineOutputAgreement,
                                                                                *more.baselineOutputAgreement)
                                                              : *more.baselineOutputAgreement;
        r.baselineOutputSqnrDb = r.baselineOutputAgreement->sqnrDb;
    }
    r.samples += more.samples;
    markFirstBadLayers(r, thresholds);
    r.findings = simulationFindings(r);
}

Result<SimulationResult> simulate(const Interpreter& interp, const PreparedInputs& inputs,
                                  const SimulationOptions& options, const ProgressFn& progress)
{
    const double samples = double(inputs.sampleCount());
    auto part = [&](size_t k) {
        return ProgressFn([&, k](double f, std::string_view stage) {
            return reportProgress(progress, (double(k) + f) / samples, stage);
        });
    };
    auto first = simulate(interp, inputs.tensors, options, samples > 1 ? part(0) : progress);
    if (!first || inputs.moreSamples.empty()) return first;
    SimulationOptions rest = options;
    rest.sensitivity = false;  // the ranking is the first sample's: one run per layer per sample is too dear
    rest.weights = false;      // the same weights every time
    rest.repeat = 1;
    for (size_t k = 0; k < inputs.moreSamples.size(); ++k) {
        auto more = simulate(interp, inputs.moreSamples[k], rest, part(k + 1));
        if (!more) return more.error();
        mergeSample(*first, *more, k + 1, options.thresholds);
    }
    reportProgress(progress, 1.0, "done");
    return first;
}

}  // namespace qatdoctor::core::fixedpoint
