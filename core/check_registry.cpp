// The one table of checks run after loading: training rules, model lints, artifact checks.
#include "core/analysis.h"
#include "core/model/onnx_input.h"
#include "core/rules/rule.h"
#include "core/artifacts/artifact_checks.h"
#include "core/fixedpoint/simulation_summary.h"

namespace qatdoctor::core {

const std::vector<Check>& checks()
{
    static const std::vector<Check> kChecks = {
        // rows: {id, run}
        {"model.lints", model::runOnnxModelLints},
        {"training.rules", rules::runTrainingRulesCheck},
        {"artifacts", artifacts::runArtifactChecks},
        {"simulation", fixedpoint::runSimulationCheck},
    };
    return kChecks;
}

}  // namespace qatdoctor::core
