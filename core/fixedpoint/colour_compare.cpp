#include "core/fixedpoint/colour_compare.h"

#include <algorithm>

#include "core/fixedpoint/simulation.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {

namespace {

std::optional<int64_t> argmax(const std::vector<Tensor>& outputs)
{
    if (outputs.empty() || outputs[0].size() < 2) return std::nullopt;
    const std::vector<float> v = outputs[0].toFloats();
    return static_cast<int64_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

Result<ColourComparison> compareColourForms(const Interpreter& interp, const uint8_t* rgb, int64_t height,
                                            int64_t width, const ColourCompareOptions& options,
                                            const ProgressFn& progress)
{
    if (interp.inputNames().size() != 1)
        return makeError("simulate.colour",
                         interp.path() +
                             ": the colour comparison needs a model with one (image) input, this one has " +
                             std::to_string(interp.inputNames().size()),
                         interp.path());
    const auto& want = interp.inputShapes()[0];
    const bool fits = want.size() == 4 && (want[0] < 0 || want[0] == 1) && (want[1] < 0 || want[1] == 3) &&
                      (want[2] < 0 || want[2] == height) && (want[3] < 0 || want[3] == width);
    if (!fits)
        return makeError("simulate.colour",
                         interp.path() + ": input '" + interp.inputNames()[0] + "' has shape " +
                             shapeString(want) + ", an image of " + std::to_string(height) + "x" +
                             std::to_string(width) + " gives 1x3x" + std::to_string(height) + "x" +
                             std::to_string(width),
                         interp.path());
    ThreadPool pool(std::max(1, options.threads));
    RunOptions ro;
    ro.requant = options.requant;
    auto convert = [&](ColourFormat f) {
        Tensor t = imageToTensor(rgb, height, width, f);
        if (options.pixelScale != 1.0f)
            for (int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] *= options.pixelScale;
        return t;
    };
    const Tensor trained = convert(options.trained);
    const Tensor fed = convert(options.fed);
    const char* stages[3] = {"colour: float", "colour: trained form", "colour: fed form"};
    std::vector<RunResult> runs;
    const std::pair<SimMode, const Tensor*> plan[3] = {
        {SimMode::Float, &trained}, {options.mode, &trained}, {options.mode, &fed}};
    for (int k = 0; k < 3; ++k) {
        const ProgressFn sub = [&, k](double f, std::string_view) {
            return reportProgress(progress, (k + f) / 3.0, stages[k]);
        };
        auto r = interp.run(plan[k].first, {*plan[k].second}, ro, &pool, sub);
        if (!r) return r.error();
        runs.push_back(std::move(*r));
    }
    const RunResult &flt = runs[0], &ref = runs[1], &other = runs[2];
    ColourComparison c;
    c.options = options;
    c.outputNames = interp.outputNames();
    const auto& layers = interp.layers();
    for (size_t li = 0; li < layers.size(); ++li) {
        if (li >= ref.layerOutputs.size() || li >= other.layerOutputs.size() || li >= flt.layerOutputs.size())
            break;
        ColourComparisonRow row;
        row.layer = layers[li].name;
        row.op = layers[li].op;
        row.mismatch = compareTensors(ref.layerOutputs[li], other.layerOutputs[li], layers[li].outputScale);
        row.quantization = compareTensors(flt.layerOutputs[li], ref.layerOutputs[li], layers[li].outputScale);
        if (c.firstBadLayer.empty() && row.mismatch.count > 0 &&
            agreementBroken(row.mismatch, options.thresholds))
            c.firstBadLayer = row.layer;
        c.layers.push_back(row);
    }
    for (size_t o = 0; o < ref.outputs.size() && o < other.outputs.size() && o < flt.outputs.size(); ++o) {
        const double scale = outputScaleOf(layers, c.outputNames[o]);
        c.outputMismatch.push_back(compareTensors(ref.outputs[o], other.outputs[o], scale));
        c.outputQuantization.push_back(compareTensors(flt.outputs[o], ref.outputs[o], scale));
    }
    c.top1Trained = argmax(ref.outputs);
    c.top1Fed = argmax(other.outputs);
    reportProgress(progress, 1.0, "done");
    return c;
}

}  // namespace qatdoctor::core::fixedpoint
