// Running a simulation, the one way the CLI (`simulate`), the analysis (`analyze --simulate`),
// the Fixed-point page and its colour panel do it: an interpreter on the graph the model area
// loaded, inputs from files, seeded random values or an image in a colour form, then the three
// modes compared. Callers keep only their I/O and display. Decoding image files needs Qt, so the
// decoder is the caller's (ui/pages/fixedpoint/image_input.h in the app and the GUI build of the CLI).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/colour.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation.h"

namespace qatdoctor::core::fixedpoint {

struct RgbImage {
    int64_t width = 0, height = 0;
    std::vector<uint8_t> rgb;  // height * width * 3, interleaved RGB
};
// Decodes path scaled to width x height (<= 0: the image's own size on that axis). Errors name
// the file.
using ImageDecoder = std::function<Result<RgbImage>(const std::string& path, int64_t width, int64_t height)>;

// An image in place of the model's one [N,3,H,W] input, in the colour form the board would feed.
struct ImageRequest {
    std::string path;
    ColourFormat colour = ColourFormat::Rgb;
    float pixelScale = 1.0f;  // multiplies the pixel values (a model trained on 0..1 inputs: 1/255)
    ImageDecoder decode;
};

struct SimulationRequest {
    InputSpec input;                    // files, an ONNX test-data folder, or seeded random values
    std::optional<ImageRequest> image;  // replaces the first input
    SimulationOptions options;
    // An interpreter already built on this graph (the page keeps one across runs); null = build.
    std::shared_ptr<const Interpreter> reuse;
};

struct SimulationRun {
    std::shared_ptr<const Interpreter> interpreter;
    PreparedInputs inputs;  // what was fed: sources and notes for printing
    SimulationResult result;
};

// The interpreter to use: request.reuse, or one built on graph.
Result<std::shared_ptr<const Interpreter>> interpreterFor(std::shared_ptr<const model::ModelGraph> graph,
                                                          const std::shared_ptr<const Interpreter>& reuse);

// The image decoded at the size of the model's input. Errors: "simulate.input" (the model has not
// one input of shape [N,3,H,W]), the decoder's.
Result<RgbImage> imageForModel(const Interpreter& interpreter, const ImageRequest& image);

// Builds (or reuses) the interpreter, prepares the inputs and simulates. Errors: "simulate.input"
// (a what-if layer the model does not have, an image the model cannot take), the interpreter's,
// prepareInputs', the decoder's and simulate's; kCancelledCode through progress.
Result<SimulationRun> runSimulation(std::shared_ptr<const model::ModelGraph> graph,
                                    const SimulationRequest& request, const ProgressFn& progress = {});

}  // namespace qatdoctor::core::fixedpoint
