#include "core/fixedpoint/dataset_eval.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>

#include "core/common/error_codes.h"
#include "core/common/number_text.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {
namespace {

constexpr int kModes = 3;  // indexed by SimMode

int slot(SimMode m)
{
    return static_cast<int>(m);
}

// What one sample leaves behind: small, so a block of them is all that is ever held.
struct SampleRecord {
    int64_t cls[kModes] = {-1, -1, -1};
    Agreement vsFloat[kModes];
    Agreement fakeInt;
    std::optional<Error> error;
};

Tensor asFloat(const Tensor& t)
{
    if (t.dtype() == DType::Float32) return t;
    Tensor out(DType::Float32, t.shape());
    for (int64_t i = 0; i < t.size(); ++i) out.data<float>()[i] = static_cast<float>(t.at(i));
    return out;
}

// Whether the output is one vector of class scores: a single axis longer than 1.
bool classScores(const Tensor& t)
{
    int longAxes = 0;
    for (int64_t d : t.shape()) longAxes += d > 1;
    return longAxes == 1;
}

// The first largest score (torch.argmax's choice among ties).
int64_t argmax(const Tensor& t)
{
    const float* v = t.data<float>();
    int64_t best = 0;
    for (int64_t i = 1; i < t.size(); ++i)
        if (v[i] > v[best]) best = i;
    return best;
}

bool has(const std::vector<SimMode>& modes, SimMode m)
{
    return std::find(modes.begin(), modes.end(), m) != modes.end();
}

SampleRecord runSampleModes(const Interpreter& interp, const DatasetSource& data, uint64_t index,
                            const DatasetEvalOptions& options, bool classify)
{
    SampleRecord rec;
    auto input = data.sample(index);
    if (!input) {
        rec.error = input.error();
        return rec;
    }
    RunOptions run;
    run.requant = options.requant;
    run.keepLayerOutputs = false;
    run.maxTensorBytes = options.maxTensorBytes;
    std::optional<Tensor> out[kModes];
    for (SimMode m : options.modes) {
        auto r = interp.run(m, {*input}, run, nullptr);
        if (!r) {
            Error e = r.error();
            e.message = data.where(index) + ": " + e.message;
            rec.error = std::move(e);
            return rec;
        }
        if (r->outputs.empty()) continue;
        out[slot(m)] = asFloat(r->outputs[0]);
        if (classify) rec.cls[slot(m)] = argmax(*out[slot(m)]);
    }
    const std::optional<Tensor>& flt = out[slot(SimMode::Float)];
    for (SimMode m : {SimMode::Fake, SimMode::Int})
        if (flt && out[slot(m)]) rec.vsFloat[slot(m)] = compareTensors(*flt, *out[slot(m)], 0);
    if (out[slot(SimMode::Fake)] && out[slot(SimMode::Int)])
        rec.fakeInt = compareTensors(*out[slot(SimMode::Fake)], *out[slot(SimMode::Int)], 0);
    return rec;
}

// Runs on pool threads: nothing may escape (an exception out of a worker ends the process), so
// what the reader or a tensor allocation throws becomes the sample's error.
SampleRecord runSample(const Interpreter& interp, const DatasetSource& data, uint64_t index,
                       const DatasetEvalOptions& options, bool classify)
{
    try {
        return runSampleModes(interp, data, index, options, classify);
    } catch (const std::exception& e) {
        SampleRecord rec;
        rec.error = makeError(codes::kSimulateDataset, data.where(index) + ": " + e.what());
        return rec;
    }
}

// A non-finite cosine (NaN or Inf outputs) is the worst there is.
double rankedCosine(double c)
{
    return std::isfinite(c) ? c : -std::numeric_limits<double>::infinity();
}

bool worseFirst(const WorstSample& a, const WorstSample& b)
{
    const bool da = a.fakeClass != a.intClass, db = b.fakeClass != b.intClass;
    if (da != db) return da;  // a changed answer is worse than any cosine
    const double ca = rankedCosine(a.cosine), cb = rankedCosine(b.cosine);
    if (ca != cb) return ca < cb;
    return a.index < b.index;
}

void keepWorst(std::vector<WorstSample>& worst, WorstSample s, size_t limit)
{
    if (limit == 0) return;
    worst.insert(std::upper_bound(worst.begin(), worst.end(), s, worseFirst), std::move(s));
    if (worst.size() > limit) worst.pop_back();
}

// Folds one sample into the result, in sample order.
void fold(DatasetEvaluation& e, const SampleRecord& rec, uint64_t index, const DatasetSource& data,
          size_t worstCount)
{
    ++e.samples;
    const int64_t label = data.label(index);
    for (ModeScore& s : e.modes) {
        const int k = slot(s.mode);
        ++s.samples;
        if (label >= 0 && rec.cls[k] == label) ++s.correct;
        if (rec.cls[k] >= 0 && rec.cls[k] == rec.cls[slot(SimMode::Float)]) ++s.agreeFloat;
        s.vsFloat = mergeAgreements(s.vsFloat, rec.vsFloat[k]);
    }
    const int64_t fake = rec.cls[slot(SimMode::Fake)], integer = rec.cls[slot(SimMode::Int)];
    if (fake >= 0 && integer >= 0 && fake != integer) ++e.fakeIntDisagree;
    e.fakeVsInt = mergeAgreements(e.fakeVsInt, rec.fakeInt);
    const Agreement& against = rec.fakeInt.count ? rec.fakeInt : rec.vsFloat[slot(SimMode::Int)];
    if (against.count)
        keepWorst(e.worst, {index, data.where(index), against.cosine, label, fake, integer}, worstCount);
}

}  // namespace

Interval wilson95(uint64_t successes, uint64_t n)
{
    if (n == 0) return {0, 1};
    constexpr double kZ = 1.959963984540054;  // the normal quantile of 97.5 %
    const double nn = static_cast<double>(n), p = static_cast<double>(successes) / nn;
    const double denom = 1 + kZ * kZ / nn;
    const double centre = (p + kZ * kZ / (2 * nn)) / denom;
    const double half = kZ * std::sqrt(p * (1 - p) / nn + kZ * kZ / (4 * nn * nn)) / denom;
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

void sortWorst(std::vector<WorstSample>& worst)
{
    std::sort(worst.begin(), worst.end(), worseFirst);
}

const ModeScore* DatasetEvaluation::score(SimMode m) const
{
    for (const ModeScore& s : modes)
        if (s.mode == m) return &s;
    return nullptr;
}

Result<DatasetEvaluation> evaluateDataset(const Interpreter& interp, const DatasetSource& data,
                                          const DatasetEvalOptions& options, const ProgressFn& progress)
{
    if (options.shardCount == 0 || options.shardIndex >= options.shardCount)
        return makeError(codes::kSimulateDataset, "shard " + std::to_string(options.shardIndex) + "/" +
                                                      std::to_string(options.shardCount) + " does not exist");
    if (options.modes.empty()) return makeError(codes::kSimulateDataset, "no mode to evaluate");
    const auto started = std::chrono::steady_clock::now();
    DatasetEvaluation e;
    e.modelPath = interp.path();
    e.sources = data.sources();
    e.labelsPath = data.labelsPath();
    e.datasetSize = data.size();
    e.shards = {options.shardIndex};
    e.shardCount = options.shardCount;
    e.requant = options.requant == RequantMode::Fixed ? "fixed" : "float";
    e.threads = std::max(1, options.threads);
    e.worstCount = options.worstCount;
    for (SimMode m : {SimMode::Float, SimMode::Fake, SimMode::Int})
        if (has(options.modes, m)) e.modes.push_back(ModeScore{m, 0, 0, 0, {}});
    DatasetEvalOptions ordered = options;
    ordered.modes.clear();
    for (const ModeScore& s : e.modes) ordered.modes.push_back(s.mode);

    // this shard's samples: shardIndex, shardIndex + shardCount, ...
    const uint64_t total =
        data.size() > options.shardIndex
            ? (data.size() - options.shardIndex + options.shardCount - 1) / options.shardCount
            : 0;
    auto indexOf = [&](uint64_t k) { return options.shardIndex + k * options.shardCount; };
    if (total > 0) {  // the first sample decides whether scores are classes
        auto first = data.sample(indexOf(0));
        if (!first) return first.error();
        RunOptions probe;
        probe.keepLayerOutputs = false;
        probe.maxTensorBytes = options.maxTensorBytes;
        auto r = interp.run(ordered.modes.front(), {*first}, probe, nullptr);
        if (!r) return r.error();
        e.classification =
            interp.outputNames().size() >= 1 && !r->outputs.empty() && classScores(r->outputs[0]);
    }
    ThreadPool pool(e.threads);
    // Blocks grow while they take under a quarter second, so progress and cancel stay prompt
    // for a resnet and the fold's overhead stays small for a tiny CNN.
    uint64_t block = static_cast<uint64_t>(e.threads);
    std::vector<SampleRecord> records;
    for (uint64_t done = 0; done < total;) {
        const uint64_t n = std::min(block, total - done);
        records.assign(n, {});
        const auto blockStart = std::chrono::steady_clock::now();
        parallelFor(&pool, static_cast<int64_t>(n), [&](int64_t b, int64_t end) {
            for (int64_t k = b; k < end; ++k)
                records[static_cast<size_t>(k)] = runSample(
                    interp, data, indexOf(done + static_cast<uint64_t>(k)), ordered, e.classification);
        });
        for (uint64_t k = 0; k < n; ++k) {
            if (records[k].error) return *records[k].error;
            fold(e, records[k], indexOf(done + k), data, options.worstCount);
        }
        done += n;
        const double blockSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - blockStart).count();
        if (blockSeconds < 0.25 && block < 256 * static_cast<uint64_t>(e.threads)) block *= 2;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const std::string stage = std::to_string(done) + " of " + std::to_string(total) + " samples, " +
                                  fixedText(elapsed > 0 ? double(done) / elapsed : 0.0, 0) + " samples/s";
        if (!reportProgress(progress, double(done) / double(total), stage))
            return makeError(kCancelledCode, "dataset evaluation cancelled");
    }
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return e;
}

Result<DatasetEvaluation> mergeEvaluations(const std::vector<DatasetEvaluation>& parts)
{
    if (parts.empty()) return makeError(codes::kSimulateMerge, "nothing to merge");
    DatasetEvaluation m = parts.front();
    std::set<uint32_t> seen(m.shards.begin(), m.shards.end());
    auto modesOf = [](const DatasetEvaluation& e) {
        std::vector<SimMode> out;
        for (const ModeScore& s : e.modes) out.push_back(s.mode);
        return out;
    };
    for (size_t i = 1; i < parts.size(); ++i) {
        const DatasetEvaluation& p = parts[i];
        std::string name = p.file;
        if (name.empty()) name = "part " + std::to_string(i + 1);
        auto refuse = [&](const std::string& why) {
            std::string message = name;
            message += ": ";
            message += why;
            return makeError(codes::kSimulateMerge, message, p.file);
        };
        if (p.modelPath != m.modelPath)
            return refuse("another model (" + p.modelPath + " vs " + m.modelPath + ")");
        if (p.sources != m.sources || p.datasetSize != m.datasetSize || p.labelsPath != m.labelsPath)
            return refuse("another dataset");
        if (p.shardCount != m.shardCount)
            return refuse("made for " + std::to_string(p.shardCount) + " shards, not " +
                          std::to_string(m.shardCount));
        if (modesOf(p) != modesOf(m) || p.requant != m.requant || p.classification != m.classification ||
            p.worstCount != m.worstCount)
            return refuse("other modes or settings");
        for (uint32_t s : p.shards)
            if (!seen.insert(s).second) return refuse("shard " + std::to_string(s) + " given twice");
        // element counts are the file's claims: a sum past int64 is refused, never wrapped
        auto overflows = [](int64_t a, int64_t b) { return b > 0 && a > INT64_MAX - b; };
        if (overflows(m.fakeVsInt.count, p.fakeVsInt.count))
            return refuse("element counts overflow when summed");
        for (size_t k = 0; k < m.modes.size(); ++k)
            if (overflows(m.modes[k].vsFloat.count, p.modes[k].vsFloat.count))
                return refuse("element counts overflow when summed");
        m.samples += p.samples;
        for (size_t k = 0; k < m.modes.size(); ++k) {
            ModeScore& a = m.modes[k];
            const ModeScore& b = p.modes[k];
            a.samples += b.samples;
            a.correct += b.correct;
            a.agreeFloat += b.agreeFloat;
            a.vsFloat = mergeAgreements(a.vsFloat, b.vsFloat);
        }
        m.fakeIntDisagree += p.fakeIntDisagree;
        m.fakeVsInt = mergeAgreements(m.fakeVsInt, p.fakeVsInt);
        for (const WorstSample& w : p.worst) keepWorst(m.worst, w, m.worstCount);
        m.seconds += p.seconds;
    }
    m.shards.assign(seen.begin(), seen.end());
    m.file.clear();
    return m;
}

}  // namespace qatdoctor::core::fixedpoint
