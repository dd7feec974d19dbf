#include "core/checkpoint/checkpoint_lints.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "core/checkpoint/checkpoint_layers.h"
#include "core/common/number_text.h"

namespace qatdoctor::core::checkpoint {
namespace {

using model::Layer;

// Evidence lists stop here; the finding's message gives the total.
constexpr size_t kMaxEvidence = 12;
// Weights are decoded this many elements at a time.
constexpr size_t kBlock = 1 << 16;
// The NaN scan reads weights; past this many bytes of one checkpoint it stops and says so.
constexpr uint64_t kNonFiniteScanBytes = uint64_t{1} << 30;

bool hasFlag(const Layer& l, const char* flag)
{
    return std::find(l.flags.begin(), l.flags.end(), flag) != l.flags.end();
}

bool hasNonFiniteFloat32(const char* packed, size_t count)
{
    constexpr uint32_t kExponent = 0x7f800000u;
    std::vector<uint32_t> words(std::min(count, kBlock));
    for (size_t at = 0; at < count; at += kBlock) {
        const size_t m = std::min(kBlock, count - at);
        std::memcpy(words.data(), packed + at * 4, m * 4);
        uint32_t any = 0;
        for (size_t k = 0; k < m; ++k) any |= static_cast<uint32_t>((words[k] & kExponent) == kExponent);
        if (any) return true;
    }
    return false;
}

Evidence keyEvidence(const LintContext& in, const std::string& layer, const Text& detail)
{
    Evidence e;
    e.file = in.file.path;
    e.layer = layer;
    e.detail = detail.en;
    e.detailZh = detail.zh;
    return e;
}

void addCapped(Finding& f, Evidence e)
{
    if (f.evidence.size() < kMaxEvidence) f.evidence.push_back(std::move(e));
}

// The activation quantizers' scales all at torch's initial value (1.0, zero point 0), or their
// observers all still at +inf / -inf: the checkpoint was saved before any calibration batch, or
// the calibration state was never loaded into the model that saved it.
bool lintUncalibrated(const LintContext& in, std::vector<Finding>& out)
{
    size_t quantizers = 0, initial = 0;
    std::vector<const Layer*> examples;
    for (const Layer& l : in.table.layers) {
        if (!l.outputQuant || l.outputQuant->scales.empty()) continue;
        ++quantizers;
        const model::QuantParams& q = *l.outputQuant;
        const bool unit =
            std::all_of(q.scales.begin(), q.scales.end(), [](float s) { return s == 1.0f; }) &&
            std::all_of(q.zeroPoints.begin(), q.zeroPoints.end(), [](int64_t z) { return z == 0; });
        if (unit || hasFlag(l, kFlagObserverNeverRan)) {
            ++initial;
            examples.push_back(&l);
        }
    }
    if (quantizers == 0) return false;
    if (initial < quantizers) return true;
    const std::string n = std::to_string(quantizers);
    Finding f = makeFinding(
        "checkpoint.uncalibrated", Severity::Error, Stage::Calibration,
        {"checkpoint 中没有任何激活量化参数经过 calibration",
         "No activation quantizer in the checkpoint was ever calibrated"},
        {"全部 " + n +
             " 个激活量化节点仍是初始状态（scale 1.0、zero point 0，observer 的 min / max 仍为 ±inf）。"
             "这个 checkpoint 保存于 calibration 之前，或保存它的模型没有加载 calibration 的结果。"
             "QAT 应从 calibration 之后的 checkpoint 开始：确认 calibration 阶段确实运行了，"
             "并且 load_state_dict 没有报 missing / unexpected keys。",
         "All " + n +
             " activation quantizers are in their initial state (scale 1.0, zero point 0, observers at "
             "min +inf / max -inf). This checkpoint was saved before calibration, or the model that saved "
             "it never loaded the calibration result. QAT should start from the checkpoint calibration "
             "wrote: make sure the calibration stage ran and that load_state_dict reported no missing / "
             "unexpected keys."},
        "qat.behaviour_vs_float");
    for (const Layer* l : examples) {
        const model::QuantParams& q = *l->outputQuant;
        std::string detail =
            q.scaleSource + " = " +
            (q.scales.size() == 1 ? fullNumber(q.scales[0]) : "1.0 ×" + std::to_string(q.scales.size()));
        if (hasFlag(*l, kFlagObserverNeverRan)) detail += "; observer min / max never set";
        addCapped(f, keyEvidence(in, l->name, {detail, detail}));
    }
    out.push_back(std::move(f));
    return true;
}

// fake_quant_enabled = 0: the quantizer passes float values through. Calibration saves it so;
// a QAT checkpoint should not, and a model where some quantizers are on and others off was
// switched by hand (the FAQ's "are fake_quant_enabled and observe_enabled both 1?").
bool lintFakeQuantDisabled(const LintContext& in, std::vector<Finding>& out)
{
    size_t stored = 0, disabled = 0;
    std::vector<const Layer*> off;
    for (const Layer& l : in.table.layers) {
        bool layerOff = false;
        for (const auto* q : {&l.weightQuant, &l.outputQuant}) {
            if (!*q || !(*q)->fakeQuantEnabled) continue;
            ++stored;
            if (!*(*q)->fakeQuantEnabled) ++disabled, layerOff = true;
        }
        if (layerOff) off.push_back(&l);
    }
    if (stored == 0) return false;
    const bool qat = stageFromFileName(in.file.path) == Stage::Qat;
    if (disabled == 0 || (!qat && disabled == stored)) return true;
    const std::string n = std::to_string(off.size());
    Finding f = makeFinding(
        "checkpoint.fake_quant_disabled", Severity::Warning, Stage::Qat,
        {qat ? "QAT checkpoint 中有伪量化被关闭（fake_quant_enabled = 0）"
             : "部分伪量化被关闭（fake_quant_enabled = 0），其余开启",
         qat ? "Fake quant is switched off in a QAT checkpoint (fake_quant_enabled = 0)"
             : "Some fake quantizers are off (fake_quant_enabled = 0) while the others are on"},
        {n + " 个模块的伪量化被关闭：它们在训练中直接传递浮点值，QAT 学不到这些位置的量化误差，"
             "部署精度会与 QAT 不符。Calibration 阶段关闭伪量化是正常的；QAT 时所有 FakeQuantize 的 "
             "fake_quant_enabled 和 observer_enabled 都应为 1（检查 set_fake_quantize / "
             "disable_fake_quant 的调用）。",
         n + " modules have fake quant off: they pass float values through, so QAT never learns their "
             "quantization error and the deployed accuracy will not match QAT's. Calibration turns fake "
             "quant "
             "off on purpose; during QAT every FakeQuantize should have fake_quant_enabled and "
             "observer_enabled at 1 (look for set_fake_quantize / disable_fake_quant calls)."},
        "qat.weights_not_updating");
    for (const Layer* l : off)
        addCapped(f, keyEvidence(in, l->name, {"fake_quant_enabled = 0", "fake_quant_enabled = 0"}));
    out.push_back(std::move(f));
    return true;
}

bool lintNonFiniteWeights(const LintContext& in, std::vector<Finding>& out)
{
    Finding f = makeFinding(
        "checkpoint.nonfinite_weights", Severity::Error, stageFromFileName(in.file.path).value_or(Stage::Qat),
        {"checkpoint 的权重中有 NaN / Inf", "The checkpoint's weights contain NaN / Inf"},
        {"这些参数中有 NaN 或无穷大：保存前训练已经发散，从它继续训练或导出都会得到无效结果。"
         "请回到最后一个正常的 checkpoint，并按 NaN 问题的排查步骤检查学习率和数据。",
         "These parameters hold NaN or infinite values: training had diverged before the save, and "
         "training on from it or exporting it gives invalid results. Go back to the last sound checkpoint "
         "and follow the NaN troubleshooting steps (learning rate, data)."},
        "qat.nan_loss");
    uint64_t scanned = 0;
    bool any = false, partial = false;
    // the weights not scanned, each with why: a missing entry is named, not just counted
    std::vector<std::string> unread;
    size_t pastBudget = 0;
    std::string packed;  // reused from tensor to tensor
    std::vector<double> block(kBlock);
    for (const TensorInfo& t : in.file.tensors) {
        const std::string name = modelTensorName(in.file, t);
        const bool floating = t.dtype.starts_with("float") || t.dtype == "bfloat16";
        if (name.empty() || isQuantizerTensor(name) || !floating) continue;
        const uint64_t bytes = t.packedBytes();
        if (scanned + bytes > kNonFiniteScanBytes) {
            partial = true;  // a later, smaller tensor may still fit
            ++pastBudget;
            continue;
        }
        if (Result<void> read = in.reader.readPacked(t, packed); !read) {
            partial = true;
            std::string why = read.error().message;  // "<file>: tensor <name>: <what is wrong>"
            if (why.starts_with(in.file.path + ": ")) why.erase(0, in.file.path.size() + 2);
            unread.push_back(std::move(why));
            continue;
        }
        scanned += bytes;
        any = true;
        const size_t esz = dtypeSize(t.dtype), n = packed.size() / esz;
        size_t bad = 0, firstAt = 0;
        double firstValue = 0;
        // float32, nearly every weight: all exponent bits set is NaN / Inf; a clean tensor is
        // passed over without decoding it
        if (t.dtype == "float32" && !hasNonFiniteFloat32(packed.data(), n)) continue;
        for (size_t at = 0; at < n; at += kBlock) {
            const size_t m = std::min(kBlock, n - at);
            decodeElements(t.dtype, packed.data() + at * esz, m, block.data());
            for (size_t k = 0; k < m; ++k)
                if (!std::isfinite(block[k]) && bad++ == 0) {
                    firstAt = at + k;
                    firstValue = block[k];
                }
        }
        if (bad == 0) continue;
        const std::string detail = name + ": " + std::to_string(bad) + " of " + std::to_string(n) +
                                   " values non-finite, first " + fullNumber(firstValue) + " at index " +
                                   std::to_string(firstAt);
        const std::string detailZh = name + "：" + std::to_string(n) + " 个值中有 " + std::to_string(bad) +
                                     " 个非有限值，第一个为 " + fullNumber(firstValue) + "（下标 " +
                                     std::to_string(firstAt) + "）";
        Evidence e = keyEvidence(in, name.substr(0, name.rfind('.')), {detailZh, detail});
        e.value = firstValue;
        addCapped(f, std::move(e));
    }
    const bool found = !f.evidence.empty();
    if (found) out.push_back(std::move(f));
    if (partial && in.warnings) {
        std::string why;
        constexpr size_t kNamed = 3;
        for (size_t k = 0; k < unread.size() && k < kNamed; ++k) why += (why.empty() ? "" : "; ") + unread[k];
        if (unread.size() > kNamed)
            why += "; and " + std::to_string(unread.size() - kNamed) + " more unreadable";
        if (pastBudget > 0)
            why += (why.empty() ? "" : "; ") + std::to_string(pastBudget) + " past the scan's first GiB";
        const size_t count = unread.size() + pastBudget;
        in.warnings->push_back(Warning{
            "checkpoint.scan_partial",
            in.file.path + ": " + std::to_string(count) + (count == 1 ? " weight was" : " weights were") +
                " not scanned for NaN / Inf (" + why + "); a clear result covers the others only",
            in.file.path});
    }
    // a partial scan that found nothing has not shown the weights are finite
    return any && (!partial || found);
}

// Globals a weights_only load refuses: an error when loading would call them, a warning when it
// would only import their modules and build instances from a state (a whole pickled module).
bool lintUnsafePickle(const LintContext& in, std::vector<Finding>& out)
{
    const auto& runs = in.file.dangerous;
    const auto& refused = in.file.refusedGlobals;
    if (runs.empty() && refused.empty()) return true;
    const std::string n = std::to_string(refused.size());
    Finding f =
        !runs.empty()
            ? makeFinding(
                  "checkpoint.unsafe_pickle", Severity::Error, Stage::Environment,
                  {"checkpoint 的 pickle 会执行代码（未执行）",
                   "The checkpoint's pickle would run code (not run here)"},
                  {"这个文件的 pickle 会在加载时调用 weights_only 白名单之外的函数。用 torch.load"
                   "（weights_only=False）加载它会在你的机器上执行这些调用。QAT Doctor 只解析、从不执行。"
                   "除非确认来源可信，不要加载它；可信的权重用 torch.load(..., weights_only=True) 读取。",
                   "This file's pickle calls functions outside weights_only's allowlist when it is "
                   "loaded. Loading it with torch.load (weights_only=False) runs those calls on your "
                   "machine. QAT Doctor only parses it and never runs it. Do not load it unless you "
                   "trust where it came from; read trusted weights with torch.load(..., "
                   "weights_only=True)."})
            : makeFinding(
                  "checkpoint.unsafe_pickle", Severity::Warning, Stage::Environment,
                  {"checkpoint 含 " + n + " 个 weights_only 加载拒绝的类（未执行）",
                   "The checkpoint holds " + n + " classes a weights_only load refuses (not run here)"},
                  {"这个文件 pickle 了整个模型对象：weights_only=True 的 torch.load 会拒绝它，"
                   "weights_only=False "
                   "的加载会导入这些类所在的模块并用保存的状态构造对象（模块导入时的代码会执行）。"
                   "只加载可信来源的文件；更安全的做法是保存 state_dict。",
                   "This file pickles whole objects: torch.load with weights_only=True refuses it, and "
                   "a load with weights_only=False imports these classes' modules and builds them "
                   "from the saved state (code in those modules runs on import). Load it only from "
                   "a source you trust; saving the state_dict instead is safer."});
    for (const std::string& d : runs)
        addCapped(f, keyEvidence(in, {}, {"加载时调用 " + d, "calls " + d + " when loaded"}));
    for (const std::string& d : refused)
        addCapped(f, keyEvidence(in, {}, {"导入并构造 " + d, "imports and builds " + d}));
    out.push_back(std::move(f));
    return true;
}

struct CheckpointLint {
    const char* id;
    bool (*run)(const LintContext& in, std::vector<Finding>& out);
};
constexpr std::array<CheckpointLint, 4> kLints{{
    {"checkpoint.uncalibrated", lintUncalibrated},
    {"checkpoint.fake_quant_disabled", lintFakeQuantDisabled},
    {"checkpoint.nonfinite_weights", lintNonFiniteWeights},
    {"checkpoint.unsafe_pickle", lintUnsafePickle},
}};

}  // namespace

std::optional<Stage> stageFromFileName(const std::string& path)
{
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    // most specific first: "qat_calib.pt" is calibration for QAT
    static constexpr std::array<std::pair<std::string_view, Stage>, 6> kWords{{
        {"calib", Stage::Calibration},
        {"qat", Stage::Qat},
        {"quantized", Stage::Export},
        {"int8", Stage::Export},
        {"float", Stage::Float},
        {"fp32", Stage::Float},
    }};
    for (const auto& [word, stage] : kWords)
        if (name.find(word) != std::string::npos) return stage;
    return std::nullopt;
}

void runCheckpointLints(const LintContext& in, std::vector<Finding>& out, std::set<std::string>& evaluated)
{
    for (const CheckpointLint& lint : kLints)
        if (lint.run(in, out)) evaluated.insert(lint.id);
}

}  // namespace qatdoctor::core::checkpoint
