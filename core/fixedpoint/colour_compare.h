// The colour-form check: one image fed to a model in the form it was trained on and in the form
// the deployment actually delivers (the BPU takes centered YUV444), both in the same mode, and
// compared layer by layer next to the quantization error alone (float vs that mode, on the right
// form) so the size of the mistake reads at a glance: a colour mismatch typically costs tens of
// dB where quantization costs a few.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/colour.h"
#include "core/fixedpoint/compare.h"
#include "core/fixedpoint/interpreter.h"

namespace qatdoctor::core::fixedpoint {

struct ColourCompareOptions {
    ColourFormat trained = ColourFormat::Rgb;         // the form the model expects (reference)
    ColourFormat fed = ColourFormat::Yuv444Centered;  // the form it is given
    SimMode mode = SimMode::Int;                      // the deployed view by default
    // Multiplies the converted pixels (0..255 RGB/BGR, -128..127 centered YUV) before they enter
    // the model, as the training pipeline's normalization did: 1/128 is horizon's QuantStub
    // convention for centered YUV444 (-1..1); 1 feeds raw pixel units.
    float pixelScale = 1.0f;
    RequantMode requant = RequantMode::Float;
    int threads = 1;
    AgreementThresholds thresholds;
};

struct ColourComparisonRow {
    std::string layer;
    std::string op;
    Agreement mismatch;      // fed form vs trained form, both in options.mode
    Agreement quantization;  // trained form: float mode vs options.mode
};

struct ColourComparison {
    ColourCompareOptions options;
    std::vector<ColourComparisonRow> layers;  // execution order
    std::vector<std::string> outputNames;
    std::vector<Agreement> outputMismatch, outputQuantization;  // per graph output
    std::string firstBadLayer;  // first layer where the mismatch breaks agreement
    // argmax of the first graph output (classification models), trained vs fed form
    std::optional<int64_t> top1Trained, top1Fed;
};

// rgb: height*width*3 interleaved 8-bit RGB pixels, already at the model's input size (the
// caller decodes and scales). The model must have one input of shape [1,3,H,W] (dynamic dims
// allowed). Errors name the model ("simulate.colour"); kCancelledCode.
Result<ColourComparison> compareColourForms(const Interpreter& interp, const uint8_t* rgb, int64_t height,
                                            int64_t width, const ColourCompareOptions& options,
                                            const ProgressFn& progress = {});

}  // namespace qatdoctor::core::fixedpoint
