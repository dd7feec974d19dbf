// Two attempts compared: A (before a change) and B (after it), each a whole Analysis. The one
// comparison engine the CLI's `diff`, the GUI's A | B views and the report's "What changed" read:
// the layer tables of both sides' models and checkpoints, the toolchain's per-layer tables, the
// findings (resolved, new, still there), the runs' final figures and the simulations' agreement,
// and the answers a user asks a diff for: did each change take effect (findings with ids
// "compare.*", so they print, filter and fail a CI run like any other finding).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/compare/layer_diff.h"
#include "core/compare/table_diff.h"

namespace qatdoctor::core::compare {

enum class FindingChangeKind { Resolved, New, Persisting };
const char* findingChangeName(FindingChangeKind kind);  // "resolved" | "new" | "persisting"
const Text& findingChangeText(FindingChangeKind kind);  // "resolved" / "已解决", ...

struct FindingChange {
    FindingChangeKind kind = FindingChangeKind::Persisting;
    Finding finding;  // B's when B has it, else A's
};

// One stage's runs (float, calibration, QAT, quantized), A's against B's: the figures a user
// reads first. Accuracies are fractions.
struct RunChange {
    std::string role;  // logs::roleName
    std::string runA, runB;
    std::string accuracyMetric;  // the evaluation series the accuracies come from
    std::optional<double> accuracyA, accuracyB;
    std::string lossMetric;
    std::optional<double> lossA, lossB;  // the training loss's last finite value
};

struct SimulationLayerChange {
    std::string layer;
    std::optional<double> cosineA, cosineB;  // fake-quant vs integer, per layer
};

struct SimulationChange {
    std::optional<double> outputSqnrA, outputSqnrB;  // dB, integer vs float, first graph output
    std::string firstBadA, firstBadB;
    std::vector<SimulationLayerChange> layers;  // B's order
};

struct Comparison {
    std::string nameA, nameB;                 // what each side is ("run_v1", "model.onnx + 3 files")
    std::vector<LayerTableDiff> models;       // pairs of model layer tables, the primary models first
    std::vector<LayerTableDiff> checkpoints;  // pairs of checkpoints' quantizer tables
    std::vector<DataTableDiff> tables;        // pairs of toolchain tables of one kind
    std::vector<FindingChange> findings;      // A's findings resolved or kept, then B's new ones
    std::vector<RunChange> runs;
    std::optional<SimulationChange> simulation;
    // Did the changes take effect, and what did they break: "compare.int16_took_effect",
    // "compare.int16_fell_back", "compare.output_high_precision", "compare.shared_split",
    // "compare.similarity_improved", "compare.sensitivity_dropped", ... most severe first.
    std::vector<Finding> answers;

    size_t count(FindingChangeKind kind) const;
    // The regressions at or above a severity (for --fail-on): the answers that say a change did not
    // take effect or made things worse (warnings and errors; an Info answer is good news), and
    // the new findings.
    std::vector<const Finding*> regressions(Severity atLeast) const;
};

// A against B; A and B stay untouched (the engine keeps names and numbers, never pointers).
Comparison compareAnalyses(const Analysis& a, const Analysis& b);

// One sentence for the reader: "2 of 6 layers changed (int16 took effect on conv1 and add; conv2
// fell back to int8); 1 finding resolved, 0 new." in the reader's language.
std::string comparisonSummary(const Comparison& c, Lang lang);

// The "comparison" object of `diff --json` and the report's JSON: {a, b, summary, answers,
// findings[{change, ...finding}], models[{a, b, format, rows[{a, b, op, change, matched_by,
// fields[{field, before, after, configuration}]}]}], checkpoints (as models), tables[{kind, a, b,
// metric, higher_is_better, ranked, rows[{layer, part, change, movement, before, after, rank_a,
// rank_b, dtype_a, dtype_b}]}], runs, simulation}.
nlohmann::json comparisonToJson(const Comparison& c, Lang lang);

}  // namespace qatdoctor::core::compare
