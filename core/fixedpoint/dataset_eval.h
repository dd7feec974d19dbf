// A simulated deployment accuracy: the model run in float, fake-quant and integer modes over an
// evaluation set, sample by sample (constant memory), scored per mode: top-1 against labels with
// a 95 % interval, agreement with the float mode (argmax and SQNR), and the samples where
// fake-quant and integer disagree. Samples run in parallel on whole-sample threads and are folded
// in sample order, so the figures do not depend on the thread count. A shard (every N-th sample
// from K) is a partial result; mergeEvaluations adds shards back into the whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/compare.h"
#include "core/fixedpoint/dataset_source.h"
#include "core/fixedpoint/interpreter.h"

namespace qatdoctor::core::fixedpoint {

// The most shards a dataset is split into (--shard K/N, and what a result file may claim).
inline constexpr uint32_t kMaxShards = 1'000'000;

struct DatasetEvalOptions {
    std::vector<SimMode> modes{SimMode::Float, SimMode::Fake, SimMode::Int};
    RequantMode requant = RequantMode::Float;
    int threads = 1;          // samples run at once, one thread each
    uint32_t shardIndex = 0;  // evaluate samples shardIndex, shardIndex + shardCount, ...
    uint32_t shardCount = 1;
    size_t worstCount = 10;       // samples kept in the worst list
    uint64_t maxTensorBytes = 0;  // as RunOptions::maxTensorBytes
};

// A two-sided 95 % interval of a proportion (Wilson score interval: it stays inside [0, 1] and
// is honest at 0 or n successes, where the normal approximation collapses to a point).
struct Interval {
    double low = 0, high = 0;
};
Interval wilson95(uint64_t successes, uint64_t n);

struct ModeScore {
    SimMode mode = SimMode::Float;
    uint64_t samples = 0;
    uint64_t correct = 0;     // argmax == label (labelled sets)
    uint64_t agreeFloat = 0;  // argmax == the float mode's (when float ran)
    Agreement vsFloat;        // output vs the float mode's, over every sample (count 0: not compared)

    double top1() const { return samples ? double(correct) / double(samples) : 0.0; }
};

struct WorstSample {
    uint64_t index = 0;  // in the dataset
    std::string where;   // "images.npy[17]", "cat/003.png"
    double cosine = 1;   // integer vs fake-quant output (vs float when fake did not run)
    int64_t label = -1, fakeClass = -1, intClass = -1;
};

struct DatasetEvaluation {
    std::string modelPath;
    std::vector<std::string> sources;
    std::string labelsPath;  // "" unlabelled, "class folders" when the folders gave them
    uint64_t datasetSize = 0;
    uint64_t samples = 0;             // evaluated (this shard's when partial)
    std::vector<uint32_t> shards{0};  // the shards this result covers
    uint32_t shardCount = 1;
    std::string requant = "float";
    std::vector<ModeScore> modes;
    // Classification needs one output with one axis of classes; otherwise scores are agreement only.
    bool classification = true;
    uint64_t fakeIntDisagree = 0;  // samples whose argmax differs between fake-quant and integer
    Agreement fakeVsInt;
    std::vector<WorstSample> worst;  // lowest cosine first (a non-finite one first of all)
    size_t worstCount = 10;          // how many the list keeps (parts merge to the same length)
    int threads = 1;
    double seconds = 0;
    std::string file;  // the result file it was read from ("" = computed in this process)

    bool labelled() const { return !labelsPath.empty(); }
    bool complete() const { return shards.size() == shardCount; }
    const ModeScore* score(SimMode m) const;
};

// Runs the modes over every sample of the shard. progress gets the fraction done and the
// samples per second; returning false cancels (kCancelledCode). Errors name the sample.
Result<DatasetEvaluation> evaluateDataset(const Interpreter& interp, const DatasetSource& data,
                                          const DatasetEvalOptions& options, const ProgressFn& progress = {});

// Shards of one evaluation merged: counts add exactly, agreements merge their sums, the worst
// lists are merged. Errors ("simulate.merge", naming the part file): another model, dataset,
// mode set or shard count, a shard given twice.
Result<DatasetEvaluation> mergeEvaluations(const std::vector<DatasetEvaluation>& parts);

// Orders a worst list as evaluateDataset keeps it (changed answers, then the lowest cosine).
void sortWorst(std::vector<WorstSample>& worst);

}  // namespace qatdoctor::core::fixedpoint
