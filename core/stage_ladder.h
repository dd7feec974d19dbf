// The stage ladder: one accuracy per pipeline stage, from float to the board, and where it is
// lost. The FAQ's first advice for an accuracy problem is to decide whether it happens in
// training, export or deployment; the ladder answers it from what was logged (each stage's final
// evaluation, the pre_export and board evaluations a log names) and from a simulated deployment
// accuracy (a dataset evaluation: float, fake-quant and integer modes on the same samples).
// Each step between neighbouring rungs has a drop, the largest drop in range (a threshold with
// its reason in resources/thresholds.json) and the FAQ topic of that step; the first step out of
// range is where the verdict says trouble starts.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/common/check_results.h"
#include "core/common/data_table.h"
#include "core/common/finding.h"
#include "core/fixedpoint/dataset_eval.h"
#include "core/logs/run.h"
#include "core/rules/thresholds.h"

namespace qatdoctor::core {

// Pipeline order; the simulated rungs form a chain of their own (one dataset, three modes).
enum class LadderStage { Float, Calibration, Qat, PreExport, Quantized, Board, SimFloat, SimFake, SimInt };
// "float", "calibration", "qat", "pre_export", "quantized", "board", "simulated_float",
// "simulated_fake", "simulated_int".
const char* ladderStageId(LadderStage stage);
Text ladderStageName(LadderStage stage);  // "QAT", "Quantized (HBIR)", "Integer simulation", ...
bool isSimulatedStage(LadderStage stage);

struct LadderRung {
    LadderStage stage = LadderStage::Float;
    std::string metric;  // the series ("qat/val/acc") or "top-1"
    double value = 0;    // accuracy as a fraction
    // Simulated rungs: the 95 % interval and the samples behind it.
    std::optional<fixedpoint::Interval> interval;
    uint64_t samples = 0;
    Evidence source;  // run, file and line of the value (a result file for a simulated rung)
};

struct LadderStep {
    size_t from = 0, to = 0;   // rung indices
    double drop = 0;           // from.value - to.value, in accuracy points (fractions)
    double relativeDrop = 0;   // drop / from.value: what the thresholds compare
    double allowed = 0;        // the largest relative drop in range
    std::string thresholdKey;  // its key in resources/thresholds.json
    bool bad = false;
    std::string findingId;  // the finding a bad step raises (a training rule's or a ladder.* one)
    Severity severity = Severity::Warning;
    Stage stage = Stage::Qat;  // where trouble at this step starts (the verdict's stage)
    std::string faq;           // the FAQ topic for this step
};

// What the toolchain's consistency tool said about a step (hb_verifier): no accuracy, but a
// verdict. bc vs hbm must agree element for element (the same fixed-point program); an onnx / bc
// cosine table judges QAT against the converted model by its least similar tensor.
struct LadderCheck {
    LadderStage from = LadderStage::Quantized, to = LadderStage::Board;
    std::string tool;  // "hb_verifier"
    bool passed = true;
    std::string what;  // "bbox_deltas: 212/25600 (0.83%) elements differ, max abs diff 0.0625"
    Evidence source;   // the file and the row's line
    std::string findingId;
    Severity severity = Severity::Error;
    Stage stage = Stage::Deployment;
    std::string faq;
};

struct StageLadder {
    std::vector<LadderRung> rungs;    // pipeline order, then the simulated chain
    std::vector<LadderStep> steps;    // between neighbours of one chain
    std::vector<LadderCheck> checks;  // the consistency tools' verdicts on steps
    std::optional<size_t> firstBad;   // index into steps: the first step out of range

    bool empty() const { return rungs.empty() && checks.empty(); }
    const LadderStep* firstBadStep() const { return firstBad ? &steps[*firstBad] : nullptr; }
};

// The ladder of the runs (read through the rules' stage views, so a one-file pipeline gives the
// same rungs as a folder per stage) and of the complete, labelled dataset evaluations; tables:
// the analysis's toolchain tables (hb_verifier's give the checks).
StageLadder buildStageLadder(const logs::LogSet& logs,
                             const std::vector<fixedpoint::DatasetEvaluation>& evaluations,
                             const std::vector<DataTable>& tables, const rules::Thresholds& thresholds);

// The findings of bad steps the training rules do not report themselves (ids ladder.*), and the
// check ids that count as run. A bad step whose loss a rule already reported points at the
// rule's finding instead.
void addLadderFindings(StageLadder& ladder, CheckResults& results);

// The ladder as the rows every face shows (the CLI's table, the report's, the Overview's strip):
// per rung its name, value (with the 95 % interval of a simulated one), the step from the rung
// above (change in points and whether it is in range) and where the value came from.
struct LadderRow {
    std::string name;       // "QAT", "hb_verifier: Quantized (HBIR) -> Board (hbm)"
    std::string value;      // "91.3%", "inconsistent"
    std::string interval;   // a simulated rung's 95 % interval, "79.3%-86.6%" ("" otherwise)
    std::string change;     // "-0.05 pts" ("" for the top of a chain and for checks)
    std::string judgement;  // "in range (<= 2% relative)", "FIRST BAD STEP: ... allowed 2%"
    std::string source;     // "run.log:234"
    Evidence evidence;      // where the value came from (what a click shows)
    bool joined = false;    // a step joins it to the row above (an arrow)
    bool bad = false;       // the step into it, or the check, is out of range
    bool firstBad = false;
};
std::vector<LadderRow> ladderRows(const StageLadder& ladder, Lang lang);

// {stages: [{stage, name, metric, value, interval, samples, source: {file, line, run}}],
//  steps: [{from, to, drop, relative_drop, allowed, bad, finding, faq}],
//  checks: [{tool, from, to, passed, what, source, finding, faq}],
//  first_bad: {from, to, drop, relative_drop, finding, faq} | null}
nlohmann::json ladderToJson(const StageLadder& ladder, Lang lang);

}  // namespace qatdoctor::core
