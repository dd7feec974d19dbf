#include "core/analysis_simulation.h"

#include "core/common/error_codes.h"

namespace qatdoctor::core {

const model::LayerTable* simulatableModel(const Analysis& analysis)
{
    for (const model::LayerTable& m : analysis.models)  // models.front() is the primary model
        if (m.format == "onnx" && m.graph) return &m;
    return nullptr;
}

std::string simulatableModelPath(const Analysis& analysis)
{
    const model::LayerTable* m = simulatableModel(analysis);
    return m ? m->sourcePath : std::string();
}

Error noSimulatableModel(const Analysis& analysis)
{
    // an ONNX file that was found but refused is not "no model": say which and why
    for (const Warning& w : analysis.warnings)
        if (w.code.rfind("onnx.", 0) == 0 || w.code == codes::kIoTooLarge)
            return makeError(codes::kSimulateNoModel,
                             "nothing to simulate: the ONNX model " + w.file +
                                 " was found but could not be read: " + w.message,
                             w.file);
    return makeError(codes::kSimulateNoModel,
                     "nothing to simulate: no ONNX model among the inputs (give the exported .onnx)");
}

void attachSimulation(Analysis& analysis, fixedpoint::SimulationSummary summary)
{
    analysis.simulation = std::move(summary);
    runChecks(analysis);
}

void attachEvaluation(Analysis& analysis, fixedpoint::DatasetEvaluation evaluation)
{
    std::erase_if(analysis.evaluations, [&](const fixedpoint::DatasetEvaluation& e) {
        return e.modelPath == evaluation.modelPath && e.sources == evaluation.sources &&
               e.shards == evaluation.shards;
    });
    // the newest first: the ladder shows the first complete, labelled one
    analysis.evaluations.insert(analysis.evaluations.begin(), std::move(evaluation));
    runChecks(analysis);
}

Result<void> simulateAnalysisModel(Analysis& analysis, const fixedpoint::SimulationOptions& options,
                                   const fixedpoint::InputSpec& input, const ProgressFn& progress)
{
    const model::LayerTable* table = simulatableModel(analysis);
    if (!table) return noSimulatableModel(analysis);
    // the graph the analysis loaded: the model is not read from disk a second time
    fixedpoint::SimulationRequest request;
    request.input = input;
    request.options = options;
    auto run = fixedpoint::runSimulation(table->graph, request, progress);
    if (!run) return run.error();
    attachSimulation(analysis, fixedpoint::summarizeSimulation(run->result, options, run->inputs.sources));
    return Ok{};
}

}  // namespace qatdoctor::core
