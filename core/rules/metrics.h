// Which series of a run is its training loss, its evaluation accuracy, its learning rate...
// Every rule asks these questions through this one helper, so the name patterns live in one
// place: loss* -> loss; acc / accuracy / top1 / mAP / mIoU / f1 / ... -> accuracy (higher is
// better); lr / learning_rate -> learning rate. A name component val / eval / test / validation
// (as a prefix "val/acc", "qat_val/acc", or a suffix "acc_val") marks an evaluation metric.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::core::rules {

enum class MetricKind { Loss, Accuracy, LearningRate, Other };

// A deployment step a metric's name may name beyond the run's stage: "pre_export_val/acc" (the
// qat.export.pt model, look-up tables made fixed-point), "board/acc" or "hbm_acc" (the hbm on
// the device). Such series belong to the stage ladder's own rungs, never to the run's stage.
enum class DeployStep { None, PreExport, Board };

struct MetricName {
    MetricKind kind = MetricKind::Other;
    bool eval = false;       // evaluation (validation / test) rather than training
    bool quantized = false;  // names the quantized model ("quantized_val/acc", "int8/acc", "hbir_acc")
    DeployStep deployStep = DeployStep::None;
    int preference = 99;  // lower = the more canonical series of its kind ("loss" before "loss_cls")
};

MetricName classifyMetric(std::string_view seriesName);

// A chosen series of a run (series == nullptr when the run has none).
struct MetricRef {
    std::string name;
    const logs::Series* series = nullptr;
    explicit operator bool() const { return series != nullptr && !series->empty(); }
};

// The most canonical series of that kind and phase; ties go to the series with more points.
// Series naming the quantized model are left out unless quantized is true (then only they count);
// series naming a deployment step are left out unless deployStep names it (then only they count).
MetricRef findMetric(const logs::Run& run, MetricKind kind, bool eval, bool quantized = false,
                     DeployStep deployStep = DeployStep::None);

inline MetricRef trainLoss(const logs::Run& r)
{
    return findMetric(r, MetricKind::Loss, false);
}
inline MetricRef evalLoss(const logs::Run& r)
{
    return findMetric(r, MetricKind::Loss, true);
}
inline MetricRef trainAccuracy(const logs::Run& r)
{
    return findMetric(r, MetricKind::Accuracy, false);
}
inline MetricRef evalAccuracy(const logs::Run& r)
{
    return findMetric(r, MetricKind::Accuracy, true);
}
MetricRef learningRate(const logs::Run& r);

// The series a user looks at first across runs (what the Curves page opens on): the training
// loss, then the main evaluation metric; never the lr or a one-point series while a curve exists.
std::vector<std::string> headlineMetrics(const std::vector<logs::Run>& runs);

// Finite values of a series, with their point indices.
struct Points {
    std::vector<double> value;
    std::vector<size_t> index;
    size_t size() const { return value.size(); }
    bool empty() const { return value.empty(); }
};
Points finitePoints(const logs::Series& s);

double median(std::vector<double> v);  // NaN for an empty vector
// Median of values[begin, end) clamped to the range.
double medianOf(const std::vector<double>& values, size_t begin, size_t end);

// How steeply a series still falls at its end, robust to batch noise: a least-squares line
// through its last 30% of points (at least 3), its fall per tenth of the series relative to the
// line's value at the last point (0.15 = still falling 15% of its level every tenth of the run;
// negative when rising). NaN for fewer than 3 values or a line ending at or below 0.
struct LateTrend {
    double dropPerTenth = NAN;
    double fittedFrom = NAN, fittedTo = NAN;  // the line at the first and last point it fits
    size_t fitted = 0;                        // how many points it fits
};
LateTrend lateTrend(const std::vector<double>& values);

// Index of the last finite point, or nullopt.
std::optional<size_t> lastFinite(const logs::Series& s);

// Accuracy as a fraction: a series whose finite maximum is above 1.5 is in percent.
double accuracyScale(const logs::Series& s);

// The robust standard deviation of values' point-to-point noise, from their second differences
// (a smooth trend gives small ones, noise of deviation sigma gives sqrt(6) sigma). NaN for fewer
// than 4 values.
double pointNoise(const std::vector<double>& values);

// How much an evaluation of the series wobbles by itself, in its own units: from the second
// differences of its last 8 finite points (at least 4), their spread around their median (a
// robust standard deviation, divided by sqrt 6 since each holds four draws), so a steady or a
// saturating rise is not counted as noise. NaN when too few points. A difference between two
// evaluations within twice this is not shown by them (finding_catalogue.h: suggestive).
double evaluationNoise(const logs::Series& s);

// Final evaluation accuracy of a run as a fraction, with the point it came from.
struct FinalValue {
    double value = 0;  // as a fraction for accuracies
    size_t index = 0;  // point index in the series
    MetricRef metric;
};
std::optional<FinalValue> finalEvalAccuracy(const logs::Run& run);
// The same for a quantized-model evaluation: a run with role quantized (any eval accuracy), or
// a series naming the quantized model in another run.
std::optional<FinalValue> finalQuantizedAccuracy(const logs::Run& run);
// The final evaluation accuracy a run logged for a deployment step (pre_export, board).
std::optional<FinalValue> finalDeployStepAccuracy(const logs::Run& run, DeployStep step);

// A numeric metadata value under any of the given keys (first found).
std::optional<double> metadataNumber(const logs::Run& run, std::initializer_list<const char*> keys);
// How many GPUs (processes) a run trained on, under the names scripts give it (Lightning's
// Trainer says devices, torchrun nproc_per_node, HAT world_size, mmengine's environment block
// "GPU number", HF n_gpu), else mmengine's "8xb32" work-dir naming.
std::optional<double> worldSize(const logs::Run& run);
std::optional<std::string> metadataText(const logs::Run& run, std::initializer_list<const char*> keys);

// The batch on each device, under the names frameworks give it (batch_size, samples_per_gpu,
// per_device_train_batch_size), inside a config dump's dataloader ("train_dataloader =
// dict(batch_size=32, ...)"), or from mmengine's "8xb32" work-dir naming.
std::optional<double> batchPerDevice(const logs::Run& run);
// Effective batch = batch per device x world size (world size 1 when not logged).
std::optional<double> effectiveBatch(const logs::Run& run);
// The configured learning rate: metadata lr (or base_lr, learning_rate, max_lr), else the first
// finite value of the lr series.
std::optional<double> baseLearningRate(const logs::Run& run);
// The largest learning rate the run used: the maximum of its lr series, else metadata max_lr or lr.
std::optional<double> peakLearningRate(const logs::Run& run);
// The epochs a run's settings plan (epochs, num_epochs, max_epochs, ...).
std::optional<double> plannedEpochs(const logs::Run& run);
// The epochs a run completed: epochs with an evaluation (each epoch ends with one), else the
// last epoch its training lines reached (that epoch may be incomplete).
std::optional<int> completedEpochs(const logs::Run& run);
// The training steps its settings plan: planned epochs x steps per epoch, when both are logged.
std::optional<double> plannedSteps(const logs::Run& run);

// The learning rate a run ended with: the last finite point of its lr series (nullopt without one).
std::optional<double> finalLearningRate(const logs::Run& run);

// Time span of a run from any series' wall times (nullopt when no wall time was logged).
std::optional<std::pair<double, double>> wallTimeSpan(const logs::Run& run);

}  // namespace qatdoctor::core::rules
