#include "core/rules/metrics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace qatdoctor::core::rules {
namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string> splitWords(const std::string& s)
{
    std::vector<std::string> words;
    std::string cur;
    for (char c : s) {
        if (c == '/' || c == '.' || c == '_' || c == '-' || c == ':' || c == ' ') {
            if (!cur.empty()) words.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) words.push_back(std::move(cur));
    return words;
}

bool isEvalWord(const std::string& w)
{
    return w == "val" || w == "eval" || w == "evaluation" || w == "validation" || w == "valid" ||
           w == "test" || w == "testing";
}

// Accuracy-like names, most canonical first (their rank is the preference).
constexpr const char* kAccuracyWords[] = {"acc", "accuracy", "top1", "acc1", "map",       "miou",  "iou",
                                          "ap",  "f1",       "top5", "acc5", "precision", "recall"};

}  // namespace

MetricName classifyMetric(std::string_view seriesName)
{
    const std::string name = lower(seriesName);
    const std::vector<std::string> words = splitWords(name);
    MetricName out;
    for (const std::string& w : words)
        if (isEvalWord(w)) out.eval = true;
    // The stage and the deployment step are the reader's attribution (logs/stage_words.h): the
    // name's "<stage>/" and "<step>/" components, never words guessed again here.
    std::string_view rest = seriesName;
    for (const logs::RunRole r :
         {logs::RunRole::Float, logs::RunRole::Calibration, logs::RunRole::Qat, logs::RunRole::Quantized})
        if (const std::string p = std::string(logs::roleName(r)) + "/"; rest.starts_with(p)) {
            out.quantized = r == logs::RunRole::Quantized;
            rest.remove_prefix(p.size());
        }
    if (rest.starts_with("pre_export/")) out.deployStep = DeployStep::PreExport;
    if (rest.starts_with("board/")) out.deployStep = DeployStep::Board;
    // nothing trains after QAT: a pre_export or board accuracy is an evaluation ("hbm_acc")
    if (out.deployStep != DeployStep::None) out.eval = true;
    // The last word that is not an eval/train marker names the metric ("qat_val/acc" -> "acc").
    std::string base;
    for (auto it = words.rbegin(); it != words.rend(); ++it) {
        if (isEvalWord(*it) || *it == "train" || *it == "training") continue;
        base = *it;
        break;
    }
    if (base == "lr" || name.find("learning_rate") != std::string::npos ||
        (base.rfind("lr", 0) == 0 && base.size() <= 3)) {
        out.kind = MetricKind::LearningRate;
        out.preference = base == "lr" ? 0 : 1;
        return out;
    }
    if (name.find("loss") != std::string::npos) {
        out.kind = MetricKind::Loss;
        // "loss" / "train/loss" beat "loss_cls" / "aux_loss".
        out.preference = base == "loss" ? 0 : 1;
        return out;
    }
    int rank = 0;
    for (const char* a : kAccuracyWords) {
        for (const std::string& w : words) {
            if (w == a || (std::string_view(a) == "acc" && w.rfind("acc", 0) == 0)) {
                out.kind = MetricKind::Accuracy;
                out.preference = rank;
                return out;
            }
        }
        ++rank;
    }
    return out;
}

MetricRef findMetric(const logs::Run& run, MetricKind kind, bool eval, bool quantized, DeployStep deployStep)
{
    MetricRef best;
    int bestPref = 1 << 30;
    for (const auto& [name, series] : run.series) {
        if (series.empty()) continue;
        const MetricName m = classifyMetric(name);
        if (m.kind != kind || (kind != MetricKind::LearningRate && m.eval != eval)) continue;
        if (m.deployStep != deployStep) continue;
        // A quantized-role run's own metrics are the quantized model's, whatever their names.
        if (deployStep == DeployStep::None && run.role != logs::RunRole::Quantized &&
            m.quantized != quantized)
            continue;
        const bool better =
            m.preference < bestPref || (m.preference == bestPref && series.size() > best.series->size());
        if (better) {
            best = MetricRef{name, &series};
            bestPref = m.preference;
        }
    }
    return best;
}

MetricRef learningRate(const logs::Run& r)
{
    return findMetric(r, MetricKind::LearningRate, false);
}

std::vector<std::string> headlineMetrics(const std::vector<logs::Run>& runs)
{
    // points per name over every run, and the most canonical name of each wanted kind
    std::map<std::string, size_t> points;
    for (const logs::Run& r : runs)
        for (const auto& [name, s] : r.series) points[name] += s.size();
    auto best = [&](MetricKind kind, bool eval) -> std::string {
        std::string chosen;
        int chosenPref = 1 << 30;
        for (const auto& [name, n] : points) {
            const MetricName m = classifyMetric(name);
            if (m.kind != kind || m.eval != eval || m.quantized || n < 2) continue;
            if (m.preference < chosenPref || (m.preference == chosenPref && n > points[chosen])) {
                chosen = name;
                chosenPref = m.preference;
            }
        }
        return chosen;
    };
    std::vector<std::string> out;
    for (const auto& [kind, eval] :
         {std::pair{MetricKind::Loss, false}, std::pair{MetricKind::Accuracy, true},
          std::pair{MetricKind::Loss, true}, std::pair{MetricKind::Accuracy, false}}) {
        if (out.size() == 2) break;
        std::string name = best(kind, eval);
        if (!name.empty()) out.push_back(std::move(name));
    }
    if (out.empty()) {  // nothing named like a loss or an accuracy: the longest curve that is no lr
        std::string longest;
        for (const auto& [name, n] : points)
            if (classifyMetric(name).kind != MetricKind::LearningRate &&
                (longest.empty() || n > points[longest]))
                longest = name;
        if (longest.empty() && !points.empty()) longest = points.begin()->first;
        if (!longest.empty()) out.push_back(longest);
    }
    return out;
}

Points finitePoints(const logs::Series& s)
{
    Points p;
    for (size_t i = 0; i < s.size(); ++i) {
        if (!std::isfinite(s.value[i])) continue;
        p.value.push_back(s.value[i]);
        p.index.push_back(i);
    }
    return p;
}

double median(std::vector<double> v)
{
    if (v.empty()) return NAN;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double hi = v[mid];
    if (v.size() % 2) return hi;
    const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lo + hi) / 2;
}

double medianOf(const std::vector<double>& values, size_t begin, size_t end)
{
    end = std::min(end, values.size());
    if (begin >= end) return NAN;
    return median(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(begin),
                                      values.begin() + static_cast<std::ptrdiff_t>(end)));
}

LateTrend lateTrend(const std::vector<double>& values)
{
    LateTrend t;
    const size_t n = values.size();
    const size_t m = std::max<size_t>(3, static_cast<size_t>(std::lround(0.3 * static_cast<double>(n))));
    if (n < 3 || m > n) return t;
    double meanX = 0, meanY = 0;
    for (size_t i = 0; i < m; ++i) {
        meanX += static_cast<double>(i);
        meanY += values[n - m + i];
    }
    meanX /= static_cast<double>(m);
    meanY /= static_cast<double>(m);
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < m; ++i) {
        const double dx = static_cast<double>(i) - meanX;
        sxy += dx * (values[n - m + i] - meanY);
        sxx += dx * dx;
    }
    const double slope = sxy / sxx;
    t.fitted = m;
    t.fittedFrom = meanY - slope * meanX;
    t.fittedTo = meanY + slope * (static_cast<double>(m - 1) - meanX);
    if (t.fittedTo > 0) t.dropPerTenth = -slope * (static_cast<double>(n) / 10.0) / t.fittedTo;
    return t;
}

std::optional<size_t> lastFinite(const logs::Series& s)
{
    for (size_t i = s.size(); i-- > 0;)
        if (std::isfinite(s.value[i])) return i;
    return std::nullopt;
}

double accuracyScale(const logs::Series& s)
{
    double hi = -INFINITY;
    for (float v : s.value)
        if (std::isfinite(v)) hi = std::max(hi, static_cast<double>(v));
    return hi > 1.5 ? 0.01 : 1.0;
}

double pointNoise(const std::vector<double>& values)
{
    if (values.size() < 4) return NAN;
    std::vector<double> second;
    second.reserve(values.size() - 2);
    for (size_t i = 2; i < values.size(); ++i)
        second.push_back(values[i] - 2 * values[i - 1] + values[i - 2]);
    const double mid = median(second);
    std::vector<double> dev;
    dev.reserve(second.size());
    for (double d : second) dev.push_back(std::fabs(d - mid));
    return 1.4826 * median(dev) / std::sqrt(6.0);
}

double evaluationNoise(const logs::Series& s)
{
    const Points p = finitePoints(s);
    if (p.size() < 4) return NAN;
    const size_t from = p.size() > 8 ? p.size() - 8 : 0;
    return pointNoise(
        std::vector<double>(p.value.begin() + static_cast<std::ptrdiff_t>(from), p.value.end()));
}

namespace {

// The last finite point of an accuracy series, as a fraction.
std::optional<FinalValue> finalValueOf(const MetricRef& acc)
{
    if (!acc) return std::nullopt;
    auto last = lastFinite(*acc.series);
    if (!last) return std::nullopt;
    return FinalValue{acc.series->value[*last] * accuracyScale(*acc.series), *last, acc};
}

}  // namespace

std::optional<FinalValue> finalEvalAccuracy(const logs::Run& run)
{
    return finalValueOf(evalAccuracy(run));
}

std::optional<FinalValue> finalQuantizedAccuracy(const logs::Run& run)
{
    return finalValueOf(findMetric(run, MetricKind::Accuracy, true, true));
}

std::optional<FinalValue> finalDeployStepAccuracy(const logs::Run& run, DeployStep step)
{
    return finalValueOf(findMetric(run, MetricKind::Accuracy, true, false, step));
}

std::optional<double> metadataNumber(const logs::Run& run, std::initializer_list<const char*> keys)
{
    for (const char* k : keys)
        if (auto v = run.metadataNumber(k); v && std::isfinite(*v)) return v;
    return std::nullopt;
}

std::optional<std::string> metadataText(const logs::Run& run, std::initializer_list<const char*> keys)
{
    for (const char* k : keys) {
        auto it = run.metadata.find(k);
        if (it != run.metadata.end() && !it->second.empty()) return it->second;
    }
    return std::nullopt;
}

namespace {

// A number written "name=N" inside a setting's text: mmengine's config dump keeps the batch in
// "train_dataloader = dict(batch_size=32, ...)", mmdet 2.x in "data = dict(samples_per_gpu=2, ...)".
std::optional<double> numberInside(const std::string& text, std::string_view name)
{
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_'))
            continue;
        size_t v = at + name.size();
        while (v < text.size() && (text[v] == ' ' || text[v] == '=' || text[v] == ':')) ++v;
        if (v == at + name.size()) continue;
        char* end = nullptr;
        const double n = std::strtod(text.c_str() + v, &end);
        if (end != text.c_str() + v && std::isfinite(n)) return n;
    }
    return std::nullopt;
}

// mmengine's work-dir naming, "<model>_8xb32-300e_<dataset>": 8 GPUs of 32 images each.
std::optional<std::pair<double, double>> gpusByBatch(const logs::Run& run)
{
    std::vector<std::string> names = {run.name};
    for (const char* k : {"work_dir", "exp_name", "experiment", "config", "filename"})
        if (auto it = run.metadata.find(k); it != run.metadata.end()) names.push_back(it->second);
    for (const logs::RunFile& f : run.files) names.push_back(f.path);
    for (const std::string& n : names)
        for (size_t x = n.find("xb"); x != std::string::npos; x = n.find("xb", x + 1)) {
            size_t b = x;
            while (b > 0 && std::isdigit(static_cast<unsigned char>(n[b - 1]))) --b;
            size_t e = x + 2;
            while (e < n.size() && std::isdigit(static_cast<unsigned char>(n[e]))) ++e;
            if (b == x || e == x + 2 || (b > 0 && std::isalpha(static_cast<unsigned char>(n[b - 1]))))
                continue;
            return std::make_pair(std::stod(n.substr(b, x - b)), std::stod(n.substr(x + 2, e - x - 2)));
        }
    return std::nullopt;
}

}  // namespace

std::optional<double> batchPerDevice(const logs::Run& run)
{
    if (auto b = metadataNumber(
            run, {"batch_size", "batch_size_per_gpu", "per_device_batch_size", "per_device_train_batch_size",
                  "train_batch_size", "samples_per_gpu", "batch"});
        b && *b > 0)
        return b;
    for (const auto& [key, value] : run.metadata)
        if (key.ends_with("dataloader") || key == "data")
            for (std::string_view name : {"batch_size", "samples_per_gpu"})
                if (auto b = numberInside(value, name); b && *b > 0) return b;
    if (auto g = gpusByBatch(run)) return g->second;
    return std::nullopt;
}

std::optional<double> effectiveBatch(const logs::Run& run)
{
    auto batch = batchPerDevice(run);
    if (!batch || *batch <= 0) return std::nullopt;
    const double world = worldSize(run).value_or(1.0);
    return *batch * std::max(1.0, world);
}

std::optional<double> worldSize(const logs::Run& run)
{
    if (auto w = metadataNumber(run, {"world_size", "WORLD_SIZE", "num_gpus", "gpus", "nproc_per_node",
                                      "devices", "GPU number", "gpu_number", "ngpus", "n_gpu"}))
        return w;
    if (auto g = gpusByBatch(run)) return g->first;
    return std::nullopt;
}

std::optional<double> baseLearningRate(const logs::Run& run)
{
    if (auto lr = metadataNumber(run, {"lr", "base_lr", "learning_rate", "max_lr"}); lr && *lr > 0) return lr;
    MetricRef lr = learningRate(run);
    if (!lr) return std::nullopt;
    Points p = finitePoints(*lr.series);
    if (p.empty()) return std::nullopt;
    return p.value.front();
}

std::optional<double> peakLearningRate(const logs::Run& run)
{
    MetricRef lr = learningRate(run);
    if (lr) {
        Points p = finitePoints(*lr.series);
        if (!p.empty()) return *std::max_element(p.value.begin(), p.value.end());
    }
    return metadataNumber(run, {"max_lr", "lr", "base_lr", "learning_rate"});
}

std::optional<double> plannedEpochs(const logs::Run& run)
{
    return metadataNumber(run, {"epochs", "num_epochs", "max_epoch", "max_epochs", "total_epochs"});
}

// Epochs with an evaluation (each epoch ends with one), else whole epochs seen in training.
std::optional<int> completedEpochs(const logs::Run& run)
{
    for (bool eval : {true, false}) {
        for (MetricKind kind : {MetricKind::Accuracy, MetricKind::Loss}) {
            MetricRef m = findMetric(run, kind, eval);
            if (!m || !m.series->hasEpoch()) continue;
            std::set<int> epochs;
            for (size_t i = 0; i < m.series->size(); ++i)
                if (auto e = m.series->epochAt(i); e && std::isfinite(*e))
                    epochs.insert(static_cast<int>(*e));
            if (epochs.empty()) continue;
            // Training lines of the epoch that crashed are there, the epoch is not complete.
            return eval ? static_cast<int>(epochs.size()) : *epochs.rbegin();
        }
    }
    return std::nullopt;
}

std::optional<double> plannedSteps(const logs::Run& run)
{
    const auto epochs = plannedEpochs(run);
    const auto perEpoch =
        metadataNumber(run, {"steps_per_epoch", "iters_per_epoch", "num_batches", "num_training_batches"});
    if (!epochs || !perEpoch || !(*epochs > 0) || !(*perEpoch > 0)) return std::nullopt;
    return *epochs * *perEpoch;
}

std::optional<double> finalLearningRate(const logs::Run& run)
{
    MetricRef lr = learningRate(run);
    if (!lr) return std::nullopt;
    const auto last = lastFinite(*lr.series);
    if (!last) return std::nullopt;
    return lr.series->value[*last];
}

std::optional<std::pair<double, double>> wallTimeSpan(const logs::Run& run)
{
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& [name, s] : run.series) {
        for (const auto& mark : s.wallTimes) {
            const double t = mark.value;
            if (!std::isfinite(t)) continue;
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
    }
    if (!std::isfinite(lo)) return std::nullopt;
    return std::make_pair(lo, hi);
}

}  // namespace qatdoctor::core::rules
