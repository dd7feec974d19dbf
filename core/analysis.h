// The aggregate of one diagnosis and the pipeline that builds it. GUI pages, the CLI and the
// report all read an Analysis; none of them computes anything the others cannot.
//
//   paths -> classify (probe table) -> loaders -> Analysis -> checks -> findings
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_layers.h"
#include "core/common/check_results.h"
#include "core/common/data_table.h"
#include "core/common/finding.h"
#include "core/common/folder_walk.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/dataset_eval.h"
#include "core/fixedpoint/simulation_summary.h"
#include "core/logs/run.h"
#include "core/model/layer_table.h"
#include "core/rules/verdict.h"
#include "core/stage_ladder.h"

namespace qatdoctor::core {

enum class InputKind { LogFolder, LogFile, Model, Artifact, Unknown };
const char* inputKindName(InputKind k);

struct InputItem {
    std::string path;
    InputKind kind = InputKind::Unknown;
    std::string format;  // registry id of the loader that took it ("log_folder", "onnx", ...)
    uint64_t size = 0;   // bytes (a folder: sum of files read)
};

struct AnalyzeOptions {
    std::vector<std::string> paths;                    // log folders, model files, toolchain text files
    std::string expectPath;                            // optional JSON of module name -> expected dtype
    std::map<std::string, std::string> roleOverrides;  // run name -> role name, set by the user
    std::string thresholdsPath;  // optional JSON overriding resources/thresholds.json (rules)
    uint64_t maxMemory = 0;      // what reading one file may hold (--max-memory; 0 = a quarter of memory)
};

// The checks' results (findings, checksRun, checksSkipped) are its CheckResults base.
struct Analysis : CheckResults {
    std::vector<InputItem> inputs;
    logs::LogSet logs;                      // all runs from all log inputs, merged
    std::vector<model::LayerTable> models;  // ONNX, printed modules, model_check_result...
    std::vector<DataTable> tables;          // toolchain debug tables (similarity, sensitivity, ...)
    std::vector<Warning> warnings;          // damaged-but-usable input, with file and place
    // torch.save checkpoints with their layer tables (kept apart from `models`, whose first is
    // the model the Model and Fixed-point pages show), and the diff of each consecutive pair
    // (made by the "checkpoints" check; see orderCheckpoints in checkpoint/checkpoint_order.h)
    std::vector<checkpoint::CheckpointRead> checkpoints;
    std::vector<checkpoint::CheckpointDiff> checkpointDiffs;
    std::map<std::string, std::string> expectedDtypes;  // module -> dtype (for model.int16_not_applied)
    std::string thresholdsPath;  // rules' threshold override file ("" = built-in defaults)
    uint64_t maxMemory = 0;      // AnalyzeOptions::maxMemory, for the checks that read files again
    // The fixed-point simulation of the ONNX model, when one was run (the Fixed-point page, or
    // `analyze --simulate`); its findings join `findings` through the "simulation" check.
    std::optional<fixedpoint::SimulationSummary> simulation;
    // Dataset evaluations (`simulate --dataset --out` results in the project, or the Fixed-point
    // page's "Evaluate on a dataset"): the simulated rungs of the ladder.
    std::vector<fixedpoint::DatasetEvaluation> evaluations;
    // One accuracy per stage and the first step out of range (made by the "ladder" check).
    StageLadder ladder;

    const model::LayerTable* primaryModel() const { return models.empty() ? nullptr : &models.front(); }
};

// One row of the input table: a cheap probe on the path (and the first bytes of a file), and a
// loader that adds what it reads to the Analysis. Adding a format is adding a row. A row that
// reads folders has the folder pair instead: both get the one scan of the folder analyze() makes
// (its walk and file heads, core/common/folder_walk.h).
struct InputLoader {
    const char* id;
    InputKind kind;
    // head = up to 64 KiB from the start of the file. Higher score wins; 0 = no.
    std::function<int(const std::string& path, std::string_view head)> probe;
    std::function<Result<void>(const std::string& path, Analysis& into, const ProgressFn& progress)> load;
    std::function<int(const FolderScan& scan)> probeFolder = {};
    std::function<Result<void>(const FolderScan& scan, Analysis& into, const ProgressFn& progress)>
        loadFolder = {};
};

// The table of all loaders (defined in input_registry.cpp).
const std::vector<InputLoader>& inputLoaders();

// One check over the whole Analysis: adds findings, and says whether it had data to run on.
struct Check {
    const char* id;  // primary finding id, or a group name ("model.lints")
    std::function<void(Analysis& analysis)> run;
};
// The table of all checks run after loading (defined in check_registry.cpp).
const std::vector<Check>& checks();

// Loads every path (errors name the path; exit code 2 material), then runs every check.
// Cancelling through progress returns an Error with code kCancelledCode.
Result<Analysis> analyze(const AnalyzeOptions& options, const ProgressFn& progress = {});

// Re-runs only the checks (after the user changes a role or an expectation).
void runChecks(Analysis& analysis);

// The verdict sentence of an analysis: the rules' verdict led by the ladder's first bad step
// (the Overview, the CLI, the JSON and the report all show this one).
rules::Verdict verdictOf(const Analysis& analysis);

// For the paste dialog: a complete Analysis (layers + findings from every check) of pasted
// `print(model)` text. `label` names the text in messages and evidence (e.g. "pasted model" or the
// saved file's path). Errors as artifacts::readPrintedModel.
Result<Analysis> analyzePrintedText(std::string_view text, const std::string& label = "pasted model");

}  // namespace qatdoctor::core
