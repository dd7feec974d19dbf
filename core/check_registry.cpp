// The one table of checks run after loading: model lints, training rules, artifact checks, the
// simulation's findings. Each area's checks take the parts of the Analysis they read and the
// CheckResults they add to; this table is where the Analysis is taken apart for them.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "core/analysis.h"
#include "core/artifacts/artifact_checks.h"
#include "core/checkpoint/checkpoint_lints.h"
#include "core/checkpoint/checkpoint_order.h"
#include "core/fixedpoint/simulation_summary.h"
#include "core/model/model_lints.h"
#include "core/rules/rule.h"

namespace qatdoctor::core {

namespace {

namespace fs = std::filesystem;

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

// Each checkpoint's own lints (run when it was read) and the model lints on its layer table
// (they read the expected dtypes, which the user may change); then the diff of each
// consecutive pair, kept from an earlier run of the checks when the pair is the same (a diff
// reads every weight of both files).
void runCheckpointChecks(Analysis& a)
{
    for (const checkpoint::CheckpointRead& c : a.checkpoints) {
        a.findings.insert(a.findings.end(), c.findings.begin(), c.findings.end());
        a.checksRun.insert(c.evaluated.begin(), c.evaluated.end());
        model::runModelLints(c.table, a.expectedDtypes, a.findings, a.checksRun);
    }
    const std::vector<const checkpoint::CheckpointRead*> order = checkpoint::orderCheckpoints(a.checkpoints);
    std::vector<checkpoint::CheckpointDiff> diffs;
    for (size_t k = 1; k < order.size(); ++k) {
        const checkpoint::CheckpointRead& from = *order[k - 1];
        const checkpoint::CheckpointRead& to = *order[k];
        const auto kept =
            std::find_if(a.checkpointDiffs.begin(), a.checkpointDiffs.end(),
                         [&](const auto& d) { return d.pathA == from.file.path && d.pathB == to.file.path; });
        if (kept != a.checkpointDiffs.end()) {
            diffs.push_back(std::move(*kept));
        } else {
            Result<checkpoint::CheckpointDiff> d =
                checkpoint::diffCheckpoints(from.file, to.file, {}, a.maxMemory);
            if (!d) {
                a.warnings.push_back(d.error());
                continue;
            }
            diffs.push_back(std::move(*d));
        }
        checkpoint::diffFindings(diffs.back(), checkpoint::trainedBetween(from, to), a.findings, a.checksRun);
    }
    a.checkpointDiffs = std::move(diffs);
}

// The stage ladder, after the training rules (whose findings its steps name) and before the
// verdict reads it. A thresholds file the rules could not use is already a warning.
void runLadder(Analysis& a)
{
    Result<rules::Thresholds> t = rules::loadThresholds(a.thresholdsPath);
    a.ladder = buildStageLadder(a.logs, a.evaluations, a.tables, t ? *t : rules::defaultThresholds());
    addLadderFindings(a.ladder, a);
}

}  // namespace

rules::Verdict verdictOf(const Analysis& a)
{
    const LadderStep* step = a.ladder.firstBadStep();
    return rules::computeVerdict(a, a.logs, step ? step->findingId : std::string());
}

const std::vector<Check>& checks()
{
    static const std::vector<Check> kChecks = {
        // rows: {id, run}
        {"model.lints", runOnnxModelLints},
        {"training.rules", runTrainingRules},
        {"artifacts",
         [](Analysis& a) { artifacts::runArtifactChecks(a.models, a.tables, a.expectedDtypes, a); }},
        {"simulation", [](Analysis& a) { fixedpoint::runSimulationCheck(a.simulation, a); }},
        {"checkpoints", runCheckpointChecks},
        {"ladder", runLadder},
    };
    return kChecks;
}

}  // namespace qatdoctor::core
