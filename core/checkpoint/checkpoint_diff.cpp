#include "core/checkpoint/checkpoint_diff.h"

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include "core/checkpoint/checkpoint_layers.h"
#include "core/common/number_text.h"

namespace qatdoctor::core::checkpoint {
namespace {

constexpr size_t kMaxEvidence = 12;

// What reading tensor into buffer adds to the memory held: the buffer keeps its largest size.
uint64_t growthFor(const TensorInfo& tensor, const std::string& buffer)
{
    const uint64_t need = tensor.packedBytes();
    return need > buffer.capacity() ? need - buffer.capacity() : 0;
}
// Changed tensors are decoded in blocks of this many elements, so a 400 MB embedding never
// becomes 800 MB of doubles at once.
constexpr size_t kBlock = 1 << 16;

// Running statistics and counters that change in any forward pass (BatchNorm in train mode),
// learned or not.
bool isBuffer(const std::string& name)
{
    static constexpr std::array<std::string_view, 3> kBuffers{".running_mean", ".running_var",
                                                              ".num_batches_tracked"};
    for (std::string_view b : kBuffers)
        if (name.ends_with(b)) return true;
    return false;
}

// converted: the file holds quantized tensors, whose modules keep their output's scale and zero
// point as tensors of their own ("conv1.scale")
TensorRole roleOf(const std::string& name, bool converted)
{
    if (isQuantizerTensor(name)) return TensorRole::Quantizer;
    if (converted && (name.ends_with(".scale") || name.ends_with(".zero_point")))
        return TensorRole::Quantizer;
    return isBuffer(name) ? TensorRole::Buffer : TensorRole::Weight;
}

TensorChange changeOf(const std::string& name, const TensorInfo& t, ChangeKind kind, bool converted)
{
    TensorChange c;
    c.name = name;
    c.role = roleOf(name, converted);
    c.kind = kind;
    c.dtype = t.dtype;
    c.numel = t.numel();
    return c;
}

std::map<std::string, const TensorInfo*> modelTensors(const CheckpointFile& f)
{
    std::map<std::string, const TensorInfo*> out;
    for (const TensorInfo& t : f.tensors) {
        const std::string name = modelTensorName(f, t);
        if (!name.empty()) out.emplace(name, &t);
    }
    return out;
}

struct ChangeSums {
    double diff2 = 0, norm2 = 0, maxAbs = 0;
    bool nonFinite = false;

    bool finite() const { return std::isfinite(diff2) && std::isfinite(norm2) && std::isfinite(maxAbs); }
};

// The straight sums: one pass with no branch per element (NaN / Inf show in the sums).
template <class T>
void addPlain(const T* a, const T* b, size_t m, ChangeSums& s)
{
    for (size_t k = 0; k < m; ++k) {
        const double x = a[k], d = static_cast<double>(b[k]) - x;
        s.diff2 += d * d;
        s.norm2 += x * x;
        s.maxAbs = std::max(s.maxAbs, std::fabs(d));
    }
}

// The careful sums, when NaN / Inf took part: +inf -> +inf and NaN -> NaN are no change; any
// other change with a non-finite value has no finite size.
void addCareful(const double* a, const double* b, size_t m, ChangeSums& s)
{
    for (size_t k = 0; k < m; ++k) {
        if (!std::isfinite(a[k]) || !std::isfinite(b[k])) {
            if (!(a[k] == b[k]) && !(std::isnan(a[k]) && std::isnan(b[k]))) s.nonFinite = true;
            continue;
        }
        addPlain(a + k, b + k, 1, s);
    }
}

// max |b - a| and ||b - a|| / ||a|| over the packed elements, a block at a time: float32 (nearly
// every weight) straight from the bytes, other types decoded to doubles.
void changeStats(const std::string& dtype, const std::string& a, const std::string& b, TensorChange& c)
{
    const size_t esz = dtypeSize(dtype);
    const size_t n = esz ? a.size() / esz : 0;
    ChangeSums s;
    if (dtype == "float32") {
        std::vector<float> fa(std::min(n, kBlock)), fb(fa.size());
        for (size_t at = 0; at < n; at += kBlock) {
            const size_t m = std::min(kBlock, n - at);
            std::memcpy(fa.data(), a.data() + at * esz, m * esz);
            std::memcpy(fb.data(), b.data() + at * esz, m * esz);
            addPlain(fa.data(), fb.data(), m, s);
        }
    }
    if (dtype != "float32" || !s.finite()) {
        s = {};
        std::vector<double> va(std::min(n, kBlock)), vb(va.size());
        for (size_t at = 0; at < n; at += kBlock) {
            const size_t m = std::min(kBlock, n - at);
            decodeElements(dtype, a.data() + at * esz, m, va.data());
            decodeElements(dtype, b.data() + at * esz, m, vb.data());
            addCareful(va.data(), vb.data(), m, s);
        }
    }
    c.maxAbs = s.nonFinite ? INFINITY : s.maxAbs;
    c.relL2 = s.nonFinite ? NAN : s.norm2 > 0 ? std::sqrt(s.diff2 / s.norm2) : (s.diff2 > 0 ? INFINITY : 0);
}

Evidence tensorEvidence(const CheckpointDiff& d, const std::string& name, const Text& detail)
{
    Evidence e;
    e.file = d.pathB;
    e.layer = name.substr(0, name.rfind('.'));
    e.detail = detail.en;
    e.detailZh = detail.zh;
    return e;
}

}  // namespace

const char* changeKindName(ChangeKind kind)
{
    static constexpr std::array<const char*, 7> kNames{"same",    "changed", "reshaped", "added",
                                                       "removed", "unread",  "quantized"};
    return kNames[static_cast<size_t>(kind)];
}

Text changeKindText(ChangeKind kind)
{
    static constexpr std::array<std::pair<const char*, const char*>, 7> kWords{{
        {"相同", "same"},
        {"有变化", "changed"},
        {"形状改变", "reshaped"},
        {"仅在 B 中", "only in B"},
        {"仅在 A 中", "only in A"},
        {"未能读取", "unread"},
        {"已量化（convert）", "quantized (convert)"},
    }};
    const auto& [zh, en] = kWords[static_cast<size_t>(kind)];
    return {zh, en};
}

size_t CheckpointDiff::count(TensorRole role, ChangeKind kind) const
{
    size_t n = 0;
    for (const TensorChange& t : tensors) n += t.role == role && t.kind == kind;
    return n;
}

size_t CheckpointDiff::count(ChangeKind kind) const
{
    size_t n = 0;
    for (const TensorChange& t : tensors) n += t.kind == kind;
    return n;
}

double changeOrder(const TensorChange& change)
{
    if (change.kind != ChangeKind::Changed) return -1.0;
    return std::isnan(change.relL2) ? -0.5 : change.relL2;
}

size_t CheckpointDiff::count(TensorRole role) const
{
    return count(role, ChangeKind::Same) + count(role, ChangeKind::Changed) +
           count(role, ChangeKind::Reshaped) + count(role, ChangeKind::Quantized);
}

Result<CheckpointDiff> diffCheckpoints(const CheckpointFile& a, const CheckpointFile& b,
                                       const ProgressFn& progress, uint64_t maxMemory)
{
    MemoryBudget budget(maxMemory);  // holds the two buffers' largest sizes so far
    CheckpointDiff out;
    out.pathA = a.path;
    out.pathB = b.path;
    const bool convertedA = a.holdsQuantizedTensors(), convertedB = b.holdsQuantizedTensors();
    out.convertBetween = !convertedA && convertedB;
    const std::map<std::string, const TensorInfo*> inA = modelTensors(a), inB = modelTensors(b);
    TensorReader readA(a), readB(b);
    std::string bytesA, bytesB;  // reused from tensor to tensor
    size_t done = 0;
    for (const TensorInfo& ta : a.tensors) {
        const std::string name = modelTensorName(a, ta);
        if (name.empty()) continue;
        if (progress && !progress(static_cast<double>(done++) / static_cast<double>(inA.size() + 1), name))
            return Error{kCancelledCode, "cancelled", a.path};
        TensorChange c = changeOf(name, ta, ChangeKind::Removed, convertedA || convertedB);
        const auto it = inB.find(name);
        if (it != inB.end()) {
            const TensorInfo& tb = *it->second;
            if (tb.shape == ta.shape && ta.quant.has_value() != tb.quant.has_value()) {
                c.kind = ChangeKind::Quantized;
            } else if (tb.shape != ta.shape || tb.dtype != ta.dtype) {
                c.kind = ChangeKind::Reshaped;
            } else if (const uint64_t more = growthFor(ta, bytesA) + growthFor(tb, bytesB);
                       !budget.take(more)) {
                c.kind = ChangeKind::Unread;
                c.problem = budget.refusal("comparing " + name + " in both files", more);
            } else {
                Result<void> ra = readA.readPacked(ta, bytesA), rb = readB.readPacked(tb, bytesB);
                if (!ra || !rb) {
                    c.kind = ChangeKind::Unread;
                    c.problem = (!ra ? ra.error() : rb.error()).message;
                } else if (bytesA == bytesB) {
                    c.kind = ChangeKind::Same;
                } else {
                    c.kind = ChangeKind::Changed;
                    changeStats(ta.dtype, bytesA, bytesB, c);
                }
            }
        }
        out.tensors.push_back(std::move(c));
    }
    for (const TensorInfo& tb : b.tensors) {
        const std::string name = modelTensorName(b, tb);
        if (!name.empty() && !inA.count(name))
            out.tensors.push_back(changeOf(name, tb, ChangeKind::Added, convertedB));
    }
    return out;
}

std::string relativeChangeText(double relL2, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    if (std::isnan(relL2)) return zh ? "非有限值" : "non-finite";
    if (std::isinf(relL2)) return zh ? "从 0 起" : "from 0";
    return shortNumber(relL2);
}

Text diffSummary(const CheckpointDiff& d)
{
    Text out;
    const auto part = [&](TensorRole role, const char* en, const char* zh) {
        const size_t compared = d.count(role);
        if (compared == 0) return;
        const size_t changed = d.count(role, ChangeKind::Changed);
        std::string en1 = std::to_string(changed) + " of " + std::to_string(compared) + " " + en + " changed";
        std::string zh1 =
            std::string(zh) + " " + std::to_string(compared) + " 个中 " + std::to_string(changed) + " 个变化";
        const TensorChange* largest = nullptr;
        for (const TensorChange& t : d.tensors)
            if (t.role == role && t.kind == ChangeKind::Changed && !std::isnan(t.relL2) &&
                (!largest || t.relL2 > largest->relL2))
                largest = &t;
        if (largest) {
            en1 += " (largest relative change " + relativeChangeText(largest->relL2) + ", " + largest->name +
                   ")";
            zh1 += "（最大相对变化 " + relativeChangeText(largest->relL2, Lang::Zh) + "，" + largest->name +
                   "）";
        }
        out.en += (out.en.empty() ? "" : "; ") + en1;
        out.zh += (out.zh.empty() ? "" : "；") + zh1;
    };
    part(TensorRole::Weight, "weights", "权重");
    part(TensorRole::Quantizer, "quantizer tensors", "量化参数张量");
    part(TensorRole::Buffer, "running statistics", "统计量");
    if (const size_t quantized = d.count(ChangeKind::Quantized)) {
        out.en += (out.en.empty() ? "" : "; ") + std::to_string(quantized) +
                  " weights float on one side, quantized on the other (convert)";
        out.zh += (out.zh.empty() ? "" : "；") + std::to_string(quantized) +
                  " 个权重一侧为浮点、另一侧已量化（convert）";
    }
    const size_t added = d.count(ChangeKind::Added), removed = d.count(ChangeKind::Removed);
    if (added + removed == 0) {
        out.en += out.en.empty() ? "The same keys." : "; the same keys.";
        out.zh += out.zh.empty() ? "键完全相同。" : "；键完全相同。";
    } else {
        out.en +=
            "; " + std::to_string(added) + " keys only in B, " + std::to_string(removed) + " only in A.";
        out.zh +=
            "；" + std::to_string(added) + " 个键仅在 B 中，" + std::to_string(removed) + " 个仅在 A 中。";
    }
    if (!out.en.empty() && out.en.back() != '.') out.en += ".";
    return out;
}

void diffFindings(const CheckpointDiff& diff, bool trainedBetween, std::vector<Finding>& out,
                  std::set<std::string>& evaluated)
{
    const size_t weights = diff.count(TensorRole::Weight, ChangeKind::Same) +
                           diff.count(TensorRole::Weight, ChangeKind::Changed);
    if (trainedBetween && weights > 0) {
        evaluated.insert("qat.not_learning");
        if (diff.count(TensorRole::Weight, ChangeKind::Changed) == 0) {
            const std::string n = std::to_string(weights);
            const std::string scales = std::to_string(diff.count(TensorRole::Quantizer, ChangeKind::Changed));
            Finding f = makeFinding(
                "qat.not_learning", Severity::Error, Stage::Qat,
                {"两个 checkpoint 之间没有任何权重变化", "No weight changed between the two checkpoints"},
                {"全部 " + n + " 个权重张量在两个 checkpoint 中逐字节相同（量化参数有 " + scales +
                     " 个变化）：optimizer 没有更新模型的参数。常见原因是 optimizer 在 prepare "
                     "之前用旧模型的 "
                     "parameters() 创建，或参数被冻结（requires_grad = False）、学习率为 0。",
                 "All " + n + " weight tensors are byte-identical in the two checkpoints (" + scales +
                     " quantizer tensors changed): the optimizer never updated the model's parameters. Usual "
                     "causes: the optimizer was created from the old model's parameters() before prepare, "
                     "the parameters are frozen (requires_grad = False), or the learning rate is 0."},
                "qat.weights_not_updating");
            const std::string a = std::filesystem::path(diff.pathA).filename().string();
            for (const TensorChange& t : diff.tensors)
                if (t.role == TensorRole::Weight && t.kind == ChangeKind::Same &&
                    f.evidence.size() < kMaxEvidence)
                    f.evidence.push_back(tensorEvidence(
                        diff, t.name,
                        {t.name + " 与 " + a + " 中逐字节相同", t.name + " byte-identical to " + a}));
            out.push_back(std::move(f));
        }
    }
    evaluated.insert("checkpoint.keys_changed");
    const size_t gained = diff.count(ChangeKind::Added), lost = diff.count(ChangeKind::Removed);
    if (gained + lost == 0 || diff.convertBetween) return;
    Finding f = makeFinding(
        "checkpoint.keys_changed", Severity::Warning, Stage::Qat,
        {"两个 checkpoint 的键不一致：新增 " + std::to_string(gained) + " 个、缺少 " + std::to_string(lost) +
             " 个",
         "The checkpoints' keys differ: " + std::to_string(gained) + " gained, " + std::to_string(lost) +
             " lost"},
        {"B 有 A 没有的张量，或反之。在两个阶段之间模型结构变了（prepare 之后替换了模块、改了 qconfig），"
         "或者加载时会出现 missing / unexpected keys，对应的参数没有被加载。",
         "B has tensors A lacks, or the other way round. The model's structure changed between the two "
         "stages (modules replaced or qconfig changed after prepare), or loading one into the other reports "
         "missing / unexpected keys and those parameters are not loaded."},
        "qat.behaviour_vs_float");
    for (const TensorChange& t : diff.tensors)
        if ((t.kind == ChangeKind::Added || t.kind == ChangeKind::Removed) &&
            f.evidence.size() < kMaxEvidence) {
            const bool added = t.kind == ChangeKind::Added;
            f.evidence.push_back(tensorEvidence(diff, t.name,
                                                {t.name + (added ? "：仅在 B 中" : "：仅在 A 中"),
                                                 t.name + (added ? ": only in B" : ": only in A")}));
        }
    out.push_back(std::move(f));
}

}  // namespace qatdoctor::core::checkpoint
