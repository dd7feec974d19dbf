// Two checkpoints compared tensor by tensor: byte-identical or changed (max abs and relative L2
// change), reshaped, gained or lost. Tensors are matched by their name inside the model part, so
// a bare state_dict compares with the training checkpoint that holds it. The findings it proves:
// qat.not_learning ("no weight changed between A and B", with the tensors as evidence) and
// checkpoint.keys_changed (keys gained or lost, not by convert: a model changed after prepare, or a load that
// would report missing / unexpected keys).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint_file.h"
#include "core/common/finding.h"
#include "core/common/progress.h"
#include "core/common/text.h"

namespace qatdoctor::core::checkpoint {

enum class TensorRole { Weight, Quantizer, Buffer };  // parameter; scale / observer; running stats...
// Quantized: the same weight float on one side and a quantized tensor of the same shape on the
// other (a float checkpoint and its converted model pair fc.weight with the converted Linear's
// packed weight).
enum class ChangeKind { Same, Changed, Reshaped, Added, Removed, Unread, Quantized };
const char* changeKindName(ChangeKind kind);  // "same" | "changed" | "reshaped" | "added" | ...
// For a reader, in both languages: "only in B", "quantized (convert)", ...
Text changeKindText(ChangeKind kind);

struct TensorChange {
    std::string name;  // inside the model part ("conv1.weight")
    TensorRole role = TensorRole::Weight;
    ChangeKind kind = ChangeKind::Same;
    std::string dtype;
    int64_t numel = 0;
    double maxAbs = 0;    // max |b - a| (changed only)
    double relL2 = 0;     // ||b - a|| / ||a|| (changed only; inf when a is all zero, NaN when
                          // either side holds NaN / Inf where they differ)
    std::string problem;  // why a tensor could not be read (Unread)
};

struct CheckpointDiff {
    std::string pathA, pathB;
    // A holds no quantized tensor and B does: B is A's model after convert, whose keys differ
    // by design (a converted module's scale and zero point gained, a BatchNorm folded away)
    bool convertBetween = false;
    std::vector<TensorChange> tensors;  // A's order, then B's additions

    size_t count(TensorRole role, ChangeKind kind) const;
    size_t count(TensorRole role) const;  // compared in both (same, changed or reshaped)
    size_t count(ChangeKind kind) const;  // of any role
};

// Reads both checkpoints' tensors (lazily, one pair at a time, the pair held within a budget of
// maxMemory bytes, 0 = a quarter of physical memory: a pair past it is Unread, saying so).
// Progress counts tensors.
Result<CheckpointDiff> diffCheckpoints(const CheckpointFile& a, const CheckpointFile& b,
                                       const ProgressFn& progress = {}, uint64_t maxMemory = 0);

// Where a tensor goes in a list of changes, largest first: its relative L2 when measured; a change
// NaN / Inf took part in just below every measured one; unmeasured rows (same, gained, lost) last.
double changeOrder(const TensorChange& change);

// A relative change for a table cell: "0.031", "from 0" when A was all zero, "non-finite" when
// NaN / Inf took part (an observer's initial +inf, a diverged weight).
std::string relativeChangeText(double relL2, Lang lang = Lang::En);

// One sentence for the reader: "6 of 6 weights changed (largest relative change 0.031, conv1.weight);
// 8 of 12 quantizer tensors changed; 2 keys only in B." in both languages.
Text diffSummary(const CheckpointDiff& diff);

// The findings the diff proves, and the ids it could decide. trainedBetween: training steps
// lie between A and B, so their weights should differ: both carry quantizers (a float checkpoint
// and the QAT model prepared from it share their weights by design) and B is no calibration
// checkpoint (calibration only observes).
void diffFindings(const CheckpointDiff& diff, bool trainedBetween, std::vector<Finding>& out,
                  std::set<std::string>& evaluated);

}  // namespace qatdoctor::core::checkpoint
