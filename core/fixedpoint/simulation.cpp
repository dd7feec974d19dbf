#include "core/fixedpoint/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "core/common/number_text.h"
#include "core/fixedpoint/mode_pair.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {
namespace {

double sqnr(const std::vector<float>& ref, const std::vector<float>& q)
{
    double s = 0, e = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        s += double(ref[i]) * ref[i];
        e += (double(q[i]) - ref[i]) * (double(q[i]) - ref[i]);
    }
    return e == 0 ? 200.0 : 10.0 * std::log10(std::max(s, 1e-30) / e);
}

// Symmetric max-abs fake quantization, per tensor or per output channel (along axis).
std::vector<float> symmetricFake(const Tensor& w, int bits, bool perChannel, int64_t axis)
{
    const auto v = w.toFloats();
    const bool split = perChannel && axis >= 0 && axis < w.rank();
    int64_t outer = 1, channels = 1, inner = static_cast<int64_t>(v.size());
    if (split) {
        channels = w.dim(axis);
        outer = 1;
        for (int64_t d = 0; d < axis; ++d) outer *= w.dim(d);
        inner = channels && outer ? static_cast<int64_t>(v.size()) / (channels * outer) : 0;
    }
    const double qmax = double((int64_t{1} << (bits - 1)) - 1);
    std::vector<float> out(v.size());
    auto at = [&](int64_t o, int64_t c, int64_t k) {
        return static_cast<size_t>((o * channels + c) * inner + k);
    };
    for (int64_t c = 0; c < channels; ++c) {
        double m = 0;
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t k = 0; k < inner; ++k) m = std::max(m, std::fabs(double(v[at(o, c, k)])));
        const float s = static_cast<float>(m > 0 ? m / qmax : 1.0);
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t k = 0; k < inner; ++k) {
                const size_t i = at(o, c, k);
                const float q = std::clamp(std::nearbyintf(v[i] / s), float(-qmax - 1), float(qmax));
                out[i] = q * s;
            }
    }
    return out;
}

// Final output 0's SQNR of an int run against the float run (0 when either is missing).
double finalOutputSqnr(const std::vector<Tensor>& reference, const std::vector<Tensor>& outputs)
{
    return reference.empty() || outputs.empty() ? 0.0 : compareTensors(reference[0], outputs[0], 0).sqnrDb;
}

}  // namespace

std::optional<double> SimulationResult::outputSqnrDb() const
{
    auto it = outputAgreement.find(modePairKey(ModePair::FloatInt));
    if (it == outputAgreement.end() || it->second.empty()) return std::nullopt;
    return it->second.front().sqnrDb;
}

WeightStats weightStats(const std::string& layer, const Tensor& weight,
                        const std::optional<QParams>& modelQuant, int64_t channelAxis)
{
    WeightStats s;
    s.layer = layer;
    s.channels = weight.rank() > channelAxis ? weight.dim(channelAxis) : 1;
    s.count = weight.size();
    const auto ref = weight.toFloats();
    s.sqnrInt8PerTensor = sqnr(ref, symmetricFake(weight, 8, false, channelAxis));
    s.sqnrInt8PerChannel = sqnr(ref, symmetricFake(weight, 8, true, channelAxis));
    s.sqnrInt16PerChannel = sqnr(ref, symmetricFake(weight, 16, true, channelAxis));
    if (modelQuant) s.sqnrModel = sqnr(ref, fakeQuantize(weight, *modelQuant).toFloats());
    return s;
}

namespace {

bool runsMode(const SimulationOptions& options, SimMode mode)
{
    return std::find(options.modes.begin(), options.modes.end(), mode) != options.modes.end();
}

// What the steps of one simulation share: the interpreter and its inputs, the thread pool, the
// run options every run starts from, and the progress over all the runs the simulation makes.
class Steps {
public:
    Steps(const Interpreter& interp, const std::vector<Tensor>& inputs, const SimulationOptions& options,
          const ProgressFn& progress, double totalRuns)
        : interp(interp),
          inputs(inputs),
          options(options),
          pool(std::max(1, options.threads)),
          m_progress(progress),
          m_totalRuns(totalRuns)
    {
        base.requant = options.requant;
        base.int16Layers = options.int16Layers;
        base.floatLayers = options.floatLayers;
        base.maxTensorBytes = options.maxTensorBytes;
    }

    // One run of the interpreter, counted in the progress under stage.
    Result<RunResult> run(SimMode mode, const RunOptions& o, const char* stage)
    {
        auto res = interp.run(mode, inputs, o, &pool, [&, stage](double f, std::string_view) {
            return reportProgress(m_progress, (m_doneRuns + f) / m_totalRuns, stage);
        });
        m_doneRuns += 1;
        return res;
    }
    void skipRun() { m_doneRuns += 1; }

    const Interpreter& interp;
    const std::vector<Tensor>& inputs;
    const SimulationOptions& options;
    ThreadPool pool;
    RunOptions base;

private:
    const ProgressFn& m_progress;
    double m_totalRuns;
    double m_doneRuns = 0;
};

// Each mode asked for, with its median time. Run 0 keeps every layer's output for the
// comparisons; with --repeat N it is not timed: N more runs without that copying are, so
// timing_ms is the inference alone.
Result<std::map<std::string, RunResult>> runModes(Steps& steps, SimulationResult& r)
{
    std::map<std::string, RunResult> runs;
    const int repeat = std::max(1, steps.options.repeat);
    for (SimMode mode : steps.options.modes) {
        std::vector<double> times;
        const int runsOfMode = repeat > 1 ? repeat + 1 : 1;
        for (int k = 0; k < runsOfMode; ++k) {
            RunOptions o = steps.base;
            o.keepLayerOutputs = k == 0;
            const auto t0 = std::chrono::steady_clock::now();
            auto res = steps.run(mode, o, simModeName(mode));
            const auto t1 = std::chrono::steady_clock::now();
            if (!res) return res.error();
            if (k > 0 || runsOfMode == 1)
                times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            if (k == 0) runs[simModeName(mode)] = std::move(*res);
        }
        std::sort(times.begin(), times.end());
        const size_t n = times.size();
        r.timingMs[simModeName(mode)] = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    }
    for (auto& [mode, run] : runs) {
        r.outputs[mode] = run.outputs;
        r.layerOutputs[mode] = run.layerOutputs;
    }
    if (runs.count("int")) {
        r.overflows = runs["int"].overflows;
        r.luts = runs["int"].luts;
        r.fallbacks = runs["int"].fallbacks;
    }
    return runs;
}

// Per-layer and per-output agreement for each pair of modes that ran.
void compareModes(const std::map<std::string, RunResult>& runs, SimulationResult& r)
{
    r.comparisons.resize(r.layers.size());
    for (size_t li = 0; li < r.layers.size(); ++li) {
        r.comparisons[li].layer = r.layers[li].name;
        auto it = r.overflows.find(r.layers[li].name);
        if (it != r.overflows.end()) r.comparisons[li].overflows = it->second;
    }
    for (const ModePairInfo& info : modePairs()) {
        const auto a = runs.find(simModeName(info.first)), b = runs.find(simModeName(info.second));
        if (a == runs.end() || b == runs.end()) continue;
        for (size_t li = 0; li < r.layers.size(); ++li) {
            if (li >= a->second.layerOutputs.size() || li >= b->second.layerOutputs.size()) break;
            const Agreement ag = compareTensors(a->second.layerOutputs[li], b->second.layerOutputs[li],
                                                r.layers[li].outputScale);
            if (ag.count > 0) r.comparisons[li].pairs[info.key] = ag;
        }
        for (size_t o = 0; o < a->second.outputs.size() && o < b->second.outputs.size(); ++o)
            r.outputAgreement[info.key].push_back(compareTensors(a->second.outputs[o], b->second.outputs[o],
                                                                 outputScaleOf(r.layers, r.outputNames[o])));
    }
}

// The other requantization: where and by how much the two integer pipelines part.
Result<void> compareRequantizations(Steps& steps, const RunResult& mine, SimulationResult& r)
{
    RunOptions o = steps.base;
    o.requant = steps.options.requant == RequantMode::Float
                    ? RequantMode::fixedPoint(steps.options.requant.ties)
                    : RequantMode::Float;
    auto other = steps.run(SimMode::Int, o, "int (other requantization)");
    if (!other) return other.error();
    for (size_t li = 0; li < r.layers.size() && li < other->layerOutputs.size(); ++li) {
        const Agreement ag =
            compareTensors(mine.layerOutputs[li], other->layerOutputs[li], r.layers[li].outputScale);
        if (ag.count && ag.maxAbs > 0 && r.requantDiffLayer.empty()) r.requantDiffLayer = r.layers[li].name;
    }
    double worst = 0;
    for (size_t k = 0; k < mine.outputs.size(); ++k) {
        const double scale = outputScaleOf(r.layers, r.outputNames[k]);
        const Agreement ag = compareTensors(mine.outputs[k], other->outputs[k], scale);
        worst = std::max(worst, scale > 0 ? ag.maxErrLsb : ag.maxAbs);
    }
    r.requantDiffLsb = worst;
    return Ok{};
}

// How much each layer's weight loses to int8 per tensor, per channel, int16 and its own quantizer.
void weightStatistics(const Interpreter& interp, SimulationResult& r)
{
    for (const LayerInfo& L : r.layers) {
        if (L.weight.empty()) continue;
        auto w = interp.layerWeight(L);
        if (!w) continue;
        // output channels: axis 0 of Conv/Gemm weights, axis 1 of ConvTranspose's [C, M/group, k...]
        const int64_t axis =
            w->quant && w->quant->scales.size() > 1 ? w->quant->axis : (L.op == "ConvTranspose" ? 1 : 0);
        r.weights.push_back(weightStats(L.name, w->values, w->quant, axis));
    }
}

// What-if runs: the unchanged model's output agreement, the baseline the gain is measured from.
Result<void> baselineRun(Steps& steps, const std::map<std::string, RunResult>& runs, SimulationResult& r)
{
    RunOptions o = steps.base;
    o.keepLayerOutputs = false;
    o.int16Layers.clear();
    o.floatLayers.clear();
    auto unchanged = steps.run(SimMode::Int, o, "int (unchanged model)");
    if (!unchanged) return unchanged.error();
    const auto& ref = runs.at("float").outputs;
    if (!ref.empty() && !unchanged->outputs.empty()) {
        r.baselineOutputAgreement = compareTensors(ref[0], unchanged->outputs[0], 0);
        r.baselineOutputSqnrDb = r.baselineOutputAgreement->sqnrDb;
    }
    return Ok{};
}

// Every quantized layer at int16 in turn, ranked by the output SQNR it gains.
Result<void> rankSensitivity(Steps& steps, const std::map<std::string, RunResult>& runs, SimulationResult& r)
{
    const auto& ref = runs.at("float").outputs;
    auto outputSqnr = [&](const std::vector<Tensor>& outs) { return finalOutputSqnr(ref, outs); };
    const double baseline = runs.count("int") ? outputSqnr(runs.at("int").outputs) : 0.0;
    for (const LayerInfo& L : r.layers) {
        if (L.outputQuantizers.empty() && L.weightQuantizers.empty()) {
            steps.skipRun();
            continue;
        }
        RunOptions o = steps.base;
        o.keepLayerOutputs = false;
        o.int16Layers.insert(L.name);
        auto res = steps.run(SimMode::Int, o, "what-if int16");
        if (!res) return res.error();
        const double s = outputSqnr(res->outputs);
        r.sensitivity.push_back({L.name, s, s - baseline});
    }
    std::stable_sort(r.sensitivity.begin(), r.sensitivity.end(),
                     [](const SensitivityRow& a, const SensitivityRow& b) { return a.gainDb > b.gainDb; });
    return Ok{};
}

}  // namespace

double outputScaleOf(const std::vector<LayerInfo>& layers, const std::string& outputName)
{
    double scale = 0;
    for (const LayerInfo& L : layers)
        if (L.observed == outputName) scale = L.outputScale;
    return scale;
}

Result<SimulationResult> simulate(const Interpreter& interp, const std::vector<Tensor>& inputs,
                                  const SimulationOptions& options, const ProgressFn& progress)
{
    SimulationResult r;
    r.modelPath = interp.path();
    r.modes = options.modes;
    r.layers = interp.layers();
    r.outputNames = interp.outputNames();
    r.threads = std::max(1, options.threads);
    r.int16Layers = options.int16Layers;
    r.floatLayers = options.floatLayers;
    const bool extraRequant = options.compareRequant && runsMode(options, SimMode::Int);
    const bool baseline = r.whatIf() && runsMode(options, SimMode::Float) && runsMode(options, SimMode::Int);
    const bool sensitivity = options.sensitivity && runsMode(options, SimMode::Float);
    const int repeat = std::max(1, options.repeat);
    const size_t runsPerMode = repeat > 1 ? size_t(repeat) + 1 : 1;
    const double totalRuns = double(options.modes.size() * runsPerMode + (extraRequant ? 1 : 0) +
                                    (sensitivity ? r.layers.size() : 0) + (baseline ? 1 : 0));
    Steps steps(interp, inputs, options, progress, totalRuns);

    auto runs = runModes(steps, r);
    if (!runs) return runs.error();
    compareModes(*runs, r);
    if (extraRequant)
        if (auto done = compareRequantizations(steps, runs->at("int"), r); !done) return done.error();
    if (options.weights) weightStatistics(interp, r);
    if (baseline)
        if (auto done = baselineRun(steps, *runs, r); !done) return done.error();
    if (sensitivity)
        if (auto done = rankSensitivity(steps, *runs, r); !done) return done.error();
    markFirstBadLayers(r, options.thresholds);
    r.findings = simulationFindings(r);
    reportProgress(progress, 1.0, "done");
    return r;
}

void markFirstBadLayers(SimulationResult& r, const AgreementThresholds& thresholds)
{
    r.firstBadLayer.clear();
    r.firstBadLayerFloat.clear();
    for (const LayerComparison& c : r.comparisons) {
        auto broken = [&](const char* pair) {
            return c.pairs.count(pair) && agreementBroken(c.pairs.at(pair), thresholds);
        };
        if (r.firstBadLayer.empty() && broken(modePairKey(ModePair::FakeInt))) r.firstBadLayer = c.layer;
        if (r.firstBadLayerFloat.empty() && broken(modePairKey(ModePair::FloatFake)))
            r.firstBadLayerFloat = c.layer;
    }
}

std::vector<Finding> simulationFindings(const SimulationResult& r)
{
    std::vector<Finding> out;
    auto layerEvidence = [&](const std::string& layer, const std::string& metric, double value,
                             const std::string& detail) {
        Evidence e;
        e.file = r.modelPath;
        e.layer = layer;
        e.metric = metric;
        e.value = value;
        e.detail = detail;
        return e;
    };
    if (!r.firstBadLayer.empty()) {
        const Agreement* ag = nullptr;
        for (const auto& c : r.comparisons)
            if (c.layer == r.firstBadLayer && c.pairs.count(modePairKey(ModePair::FakeInt)))
                ag = &c.pairs.at(modePairKey(ModePair::FakeInt));
        Finding f = makeFinding("simulation.first_bad_layer", Severity::Warning, Stage::Deployment, {}, {});
        f.title = {"定点仿真：从 " + r.firstBadLayer + " 起 QAT 与定点结果开始不一致",
                   "Fixed-point simulation: QAT and integer results part at " + r.firstBadLayer};
        const std::string cos = ag ? fixedText(ag->cosine, 4) : "?";
        const std::string sq = ag ? fixedText(ag->sqnrDb, 1) : "?";
        f.message = {
            "在同一输入上，伪量化（QAT 模型）与整数（部署模型）逐层比较，第一个明显偏离的层是 " +
                r.firstBadLayer + "（余弦 " + cos + "，SQNR " + sq +
                " dB）。检查该层的重量化、查表算子或累加溢出，可尝试将其设为 int16。",
            "On the same input, fake-quant (the QAT model) and integer arithmetic (the deployed model) first "
            "disagree at " +
                r.firstBadLayer + " (cosine " + cos + ", SQNR " + sq +
                " dB). Check that layer's "
                "requantization, look-up tables and accumulator range; consider int16 for it."};
        f.evidence.push_back(layerEvidence(r.firstBadLayer, "cosine", ag ? ag->cosine : 0.0,
                                           "fake vs int, SQNR " + sq + " dB"));
        f.faq = "qat.quantized_mismatch";
        out.push_back(f);
    }
    for (const LutReport& l : r.luts) {
        if (l.maxErrorLsb <= 1.0) continue;
        Finding f = makeFinding("simulation.lut_error", Severity::Warning, Stage::Export, {}, {});
        f.title = {
            "查表算子 " + l.layer + "（" + l.op + "）误差超过 1 个量化步长",
            "Look-up table of " + l.layer + " (" + l.op + ") is off by more than one quantization step"};
        f.message = {"导出后 " + l.op + " 以 " + std::to_string(l.entries) +
                         " 项查找表实现；在观测到的输入范围 [" + fixedText(l.inputMin, 3) + ", " +
                         fixedText(l.inputMax, 3) + "] 上最大误差 " + fixedText(l.maxError, 5) + "（" +
                         fixedText(l.maxErrorLsb, 2) + " LSB），平均 " + fixedText(l.meanError, 5) +
                         "。可提高该算子输入/输出精度（int16）或改写为对查表友好的形式。",
                     "After export " + l.op + " runs as a " + std::to_string(l.entries) +
                         "-entry table; over the observed input "
                         "range [" +
                         fixedText(l.inputMin, 3) + ", " + fixedText(l.inputMax, 3) +
                         "] its largest error is " + fixedText(l.maxError, 5) + " (" +
                         fixedText(l.maxErrorLsb, 2) + " LSB), mean " + fixedText(l.meanError, 5) +
                         ". Give the op 16-bit input/output "
                         "or rewrite it into a table-friendly form."};
        f.evidence.push_back(
            layerEvidence(l.layer, "lut_max_error", l.maxError, std::to_string(l.inputBits) + "-bit input"));
        f.faq = "export.precision_loss";
        out.push_back(f);
    }
    for (const auto& [layer, n] : r.overflows) {
        Finding f =
            makeFinding("simulation.accumulator_overflow", Severity::Error, Stage::Deployment, {}, {});
        f.title = {"层 " + layer + " 的累加结果超出 int32", "Accumulator of " + layer + " exceeds int32"};
        f.message = {
            std::to_string(n) + " 个输出的累加值超出 32 位范围（16 位输入的典型风险），硬件上会溢出。",
            std::to_string(n) +
                " outputs accumulate beyond the 32-bit range (a typical 16-bit input hazard); "
                "integer hardware would overflow there."};
        f.evidence.push_back(layerEvidence(layer, "overflows", double(n), ""));
        out.push_back(f);
    }
    // A layer asked for at int16 with no quantizer of its own (its output is quantized further on,
    // or not at all, and its weight is stored as codes): the what-if changes nothing there, and
    // its gain of 0 dB says nothing about the layer.
    for (const LayerInfo& l : r.layers) {
        if (!r.int16Layers.count(l.name) || l.widenable) continue;
        Finding f = makeFinding("simulation.nothing_widened", Severity::Warning, Stage::Deployment, {}, {});
        f.title = {"假设分析：" + l.name + " 没有可改为 int16 的量化节点",
                   "What-if: " + l.name + " has no quantizer to make int16"};
        f.message = {
            l.name +
                " 的输出和权重都没有自己的 QuantizeLinear（输出在后面的层才量化，或不量化；"
                "权重以整数码存储），所以这次 int16 假设对它没有任何改变，增益 0 dB 不说明该层的精度。"
                "请对产生它输入或消费它输出的层做假设分析。",
            l.name +
                " has no QuantizeLinear of its own on its output or its weight (its output is "
                "quantized further on, or not at all; its weight is stored as codes), so the int16 "
                "what-if changed nothing there and its 0 dB gain says nothing about the layer. "
                "Try the layer that feeds it or the one that quantizes its output."};
        f.evidence.push_back(
            layerEvidence(l.name, "quantizers_widened", 0.0, "int16 asked, nothing widened"));
        out.push_back(f);
    }
    // The step count is a quotient of dequantized floats: exactly one step can read 1.0000001.
    if (r.requantDiffLsb && *r.requantDiffLsb > kRequantMismatchLsb + 1e-3) {
        Finding f = makeFinding("simulation.requant_mismatch", Severity::Info, Stage::Deployment, {}, {});
        f.title = {"浮点与定点重量化的输出相差 " + fixedText(*r.requantDiffLsb, 1) + " LSB",
                   "Float and fixed-point requantization differ by " + fixedText(*r.requantDiffLsb, 1) +
                       " LSB at the output"};
        f.message = {
            "参考运行时（浮点乘法）与整数硬件（乘数+移位）的舍入差异从 " + r.requantDiffLayer +
                " 开始并传播到输出。",
            "The rounding difference between reference runtimes (float multiply) and integer hardware "
            "(multiplier + shift) starts at " +
                r.requantDiffLayer + " and reaches the output."};
        f.evidence.push_back(layerEvidence(r.requantDiffLayer, "requant_diff_lsb", *r.requantDiffLsb, ""));
        out.push_back(f);
    }
    sortFindings(out);
    return out;
}

}  // namespace qatdoctor::core::fixedpoint
