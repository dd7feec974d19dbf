// The one table of checks run after loading: model lints, training rules, artifact checks, the
// simulation's findings. Each area's checks take the parts of the Analysis they read and the
// CheckResults they add to; this table is where the Analysis is taken apart for them.
#include "core/analysis.h"
#include "core/artifacts/artifact_checks.h"
#include "core/fixedpoint/simulation_summary.h"
#include "core/model/model_lints.h"
#include "core/rules/rule.h"

namespace qatdoctor::core {

namespace {

void runOnnxModelLints(Analysis& a)
{
    for (const model::LayerTable& table : a.models)
        if (table.format == "onnx") model::runModelLints(table, a.expectedDtypes, a.findings, a.checksRun);
}

// Thresholds from a.thresholdsPath (built-in defaults when empty; a file that cannot be used
// adds a warning and the defaults apply).
void runTrainingRules(Analysis& a)
{
    Result<rules::Thresholds> t = rules::loadThresholds(a.thresholdsPath);
    if (!t) {
        Warning w = t.error();
        w.message += " (using the built-in thresholds)";
        a.warnings.push_back(std::move(w));
    }
    rules::runTrainingRules(a.logs, t ? *t : rules::defaultThresholds(), a);
}

}  // namespace

const std::vector<Check>& checks()
{
    static const std::vector<Check> kChecks = {
        // rows: {id, run}
        {"model.lints", runOnnxModelLints},
        {"training.rules", runTrainingRules},
        {"artifacts",
         [](Analysis& a) { artifacts::runArtifactChecks(a.models, a.tables, a.expectedDtypes, a); }},
        {"simulation", [](Analysis& a) { fixedpoint::runSimulationCheck(a.simulation, a); }},
    };
    return kChecks;
}

}  // namespace qatdoctor::core
