#include "core/fixedpoint/run_simulation.h"

#include <algorithm>

#include "core/common/error_codes.h"

namespace qatdoctor::core::fixedpoint {

Result<std::shared_ptr<const Interpreter>> interpreterFor(std::shared_ptr<const model::ModelGraph> graph,
                                                          const std::shared_ptr<const Interpreter>& reuse)
{
    if (reuse) return reuse;
    if (!graph) return makeError(codes::kSimulateNoModel, "nothing to simulate: no ONNX model");
    auto built = Interpreter::build(std::move(graph));
    if (!built) return built.error();
    return std::shared_ptr<const Interpreter>(std::move(*built));
}

Result<RgbImage> imageForModel(const Interpreter& interpreter, const ImageRequest& image)
{
    const auto& shapes = interpreter.inputShapes();
    const std::vector<int64_t> shape = shapes.empty() ? std::vector<int64_t>{} : shapes[0];
    if (interpreter.inputNames().size() != 1 || shape.size() != 4 || (shape[1] >= 0 && shape[1] != 3))
        return makeError(codes::kSimulateInput,
                         image.path + ": an image input needs a model with one input of shape [N,3,H,W] (" +
                             interpreter.path() + ")",
                         image.path);
    if (!image.decode)
        return makeError(codes::kSimulateImage, image.path + ": no image decoder in this build", image.path);
    return image.decode(image.path, shape[3], shape[2]);
}

Result<SimulationRun> runSimulation(std::shared_ptr<const model::ModelGraph> graph,
                                    const SimulationRequest& request, const ProgressFn& progress)
{
    SimulationRun run;
    auto interpreter = interpreterFor(std::move(graph), request.reuse);
    if (!interpreter) return interpreter.error();
    run.interpreter = *interpreter;
    const Interpreter& interp = *run.interpreter;
    for (const std::set<std::string>* names : {&request.options.int16Layers, &request.options.floatLayers})
        for (const std::string& n : *names)
            if (std::none_of(interp.layers().begin(), interp.layers().end(),
                             [&](const LayerInfo& l) { return l.name == n; }))
                return makeError(codes::kSimulateInput, "no layer named '" + n + "' in " + interp.path(),
                                 interp.path());
    std::optional<RgbImage> pixels;
    if (request.image) {
        auto decoded = imageForModel(interp, *request.image);
        if (!decoded) return decoded.error();
        pixels = std::move(*decoded);
    }
    auto inputs = prepareInputs(interp, request.input);
    if (!inputs) return inputs.error();
    run.inputs = std::move(*inputs);
    if (pixels) {
        const ImageRequest& image = *request.image;
        Tensor t = imageToTensor(pixels->rgb.data(), pixels->height, pixels->width, image.colour);
        if (image.pixelScale != 1.0f)
            for (int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] *= image.pixelScale;
        run.inputs.tensors[0] = std::move(t);
        run.inputs.sources[0] = image.path + " (" + colourFormatName(image.colour) + ")";
    }
    auto result = simulate(interp, run.inputs, request.options, progress);
    if (!result) return result.error();
    run.result = std::move(*result);
    return run;
}

}  // namespace qatdoctor::core::fixedpoint
