#include "core/checkpoint/checkpoint_layers.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <regex>

#include "core/checkpoint/converted_layouts.h"
#include "core/checkpoint/dotted_path.h"
#include "core/common/error_codes.h"

namespace qatdoctor::core::checkpoint {
namespace {

using model::Layer;
using model::QuantParams;

constexpr std::string_view kOutputQuantizer = "activation_post_process";
constexpr std::string_view kWeightQuantizer = "weight_fake_quant";
// A quantizer's buffers are tiny (one value, or one per channel); anything larger under such a
// name is not read into the table.
constexpr int64_t kMaxQuantizerElements = 1 << 20;

// "torch.nn.modules.conv.Conv2d" -> "Conv2d"
std::string shortClassName(const std::string& className)
{
    return className.substr(className.rfind('.') + 1);
}

bool isOutputQuantizerName(const std::string& segment)
{
    // eager mode names it activation_post_process; FX numbers its top-level ones
    static const std::regex kFx("activation_post_process_[0-9]+");
    return segment == kOutputQuantizer || std::regex_match(segment, kFx);
}

// What a quantizer's buffers say, gathered before the row is built.
struct QuantizerState {
    std::vector<double> scale, zeroPoint, minVal, maxVal;
    std::optional<bool> fakeQuantEnabled, observerEnabled;
    std::string scaleKey;  // the full tensor name of its scale
    std::string path;      // its module's path in the model ("conv1.weight_fake_quant")
    bool any = false;
    bool minRead = false, maxRead = false;  // its observer's min_val / max_val were read
    bool converted = false;                 // a converted module's own scale and zero point
};

// Which quantizer of which module a quantizer path is ("conv1.weight_fake_quant" -> conv1, weight).
struct QuantizerPlace {
    std::string module;
    bool weight = false;
};

struct ModuleRow {
    std::string path;
    std::map<std::string, const TensorInfo*> tensors;  // own tensors by leaf name
    QuantizerState weightQuant, outputQuant;
};

class TableBuilder {
public:
    TableBuilder(const CheckpointFile& file, TensorReader& reader, MemoryBudget& budget)
        : m_file(file), m_reader(reader), m_budget(budget)
    {
    }

    model::LayerTable build()
    {
        for (const TensorInfo& t : m_file.tensors) {
            const std::string name = modelTensorName(m_file, t);
            if (!name.empty()) place(name, t);
        }
        // a converted module whose scale and zero point are its only state (a whole pickled
        // FloatFunctional's add) is a row too
        for (const auto& [key, value] : m_file.scalars)
            if (const std::string name = modelPath(m_file, key); !name.empty()) row(parentPath(name));
        model::LayerTable table;
        table.sourcePath = m_file.path;
        table.format = "checkpoint";
        table.producer = "torch.save (" + m_file.container + ")";
        size_t quantizers = 0, unknown = 0;
        for (const std::string& path : m_order) {
            ModuleRow& row = m_rows[path];
            readConvertedOutput(row);
            if (row.tensors.empty() && !row.weightQuant.any && !row.outputQuant.any) continue;
            Layer layer = makeLayer(row);
            for (const auto* q : {&layer.weightQuant, &layer.outputQuant}) {
                quantizers += q->has_value() ? 1 : 0;
                // a converted module's output dtype is not saved either, but no setting is missing
                const bool convertedOutput = q == &layer.outputQuant && row.outputQuant.converted;
                unknown += q->has_value() && (*q)->dtype == model::DType::Unknown && !convertedOutput ? 1 : 0;
            }
            // a converted recurrent layer holds one quantized matrix per gate set and direction:
            // a row each, named by its float parameter ("encoder.weight_ih_l0")
            const std::vector<const TensorInfo*> weights = quantizedWeights(row);
            if (weights.size() < 2) {
                table.layers.push_back(std::move(layer));
                continue;
            }
            for (const TensorInfo* w : weights) {
                Layer matrix = layer;
                matrix.name = layer.name + "." + lastSegment(modelTensorName(m_file, *w));
                matrix.weightQuant = weightParams(*w);
                matrix.source.node = w->name;
                table.layers.push_back(std::move(matrix));
            }
        }
        // a whole pickled module keeps its quantizers' settings; a state_dict does not
        if (unknown > 0)
            table.warnings.push_back(
                Warning{codes::kCheckpointBitWidth,
                        m_file.path + ": " + std::to_string(unknown) + " of " + std::to_string(quantizers) +
                            " quantizers' bit widths are not saved in this checkpoint "
                            "(quant_min / quant_max are attributes, not buffers; only "
                            "torch.save(model) keeps them); their dtypes show as unknown",
                        m_file.path});
        if (m_overBudget > 1)
            m_warnings[m_budgetWarning].message += " (" + std::to_string(m_overBudget) + " buffers in all)";
        for (Warning& w : m_warnings) table.warnings.push_back(std::move(w));
        return table;
    }

private:
    ModuleRow& row(const std::string& path)
    {
        auto [it, added] = m_rows.try_emplace(path);
        if (added) {
            it->second.path = path;
            m_order.push_back(path);
        }
        return it->second;
    }

    void place(const std::string& name, const TensorInfo& t)
    {
        std::string owner = parentPath(name);
        std::string leaf = lastSegment(name);
        // convert_fx keeps its graph's quantize steps' parameters as root buffers
        // ("conv_input_scale_0", "_zero_point_1"): one row per quantize step
        static const std::regex kFxRootBuffer("(.*)_(scale|zero_point)_([0-9]+)");
        std::smatch fx;
        if (owner.empty() && std::regex_match(leaf, fx, kFxRootBuffer)) {
            owner = (fx[1].length() ? fx[1].str() : std::string("quantize")) + "_" + fx[3].str();
            leaf = fx[2].str();
        }
        // an observer inside a quantizer: "<quantizer>.activation_post_process.min_val"
        if (lastSegment(owner) == kOutputQuantizer) {
            const std::string quantizer = parentPath(owner);
            const std::string q = lastSegment(quantizer);
            if (q == kWeightQuantizer || isOutputQuantizerName(q)) {
                readObserver(quantizerState(quantizer), leaf, t);
                return;
            }
        }
        const std::string segment = lastSegment(owner);
        if (segment == kWeightQuantizer || isOutputQuantizerName(segment)) {
            readQuantizer(quantizerState(owner), leaf, t, name);
            return;
        }
        row(owner).tensors[leaf] = &t;
    }

    QuantizerState& quantizerState(const std::string& quantizer)
    {
        const std::string segment = lastSegment(quantizer);
        const std::string parent = parentPath(quantizer);
        // a top-level FX quantizer is a row of its own; eager mode's belongs to its module
        QuantizerState& q = segment == kWeightQuantizer                     ? row(parent).weightQuant
                            : segment != kOutputQuantizer || parent.empty() ? row(quantizer).outputQuant
                                                                            : row(parent).outputQuant;
        q.path = quantizer;
        return q;
    }

    // A module pickled whole, by its path in the model.
    // A path of the model as the file names it: under the model key ("state_dict.conv1").
    std::string filePath(const std::string& modelPath) const
    {
        return m_file.modelKey.empty() ? modelPath : m_file.modelKey + "." + modelPath;
    }

    const PickledModule* pickled(const std::string& modelPath) const
    {
        const auto m = m_file.modules.find(filePath(modelPath));
        return m == m_file.modules.end() ? nullptr : &m->second;
    }

    // What a whole pickled quantizer was configured with, its own attributes before its
    // observer's (torch's FakeQuantize copies quant_min, quant_max, dtype and qscheme from it).
    void applySettings(const QuantizerState& s, QuantParams& q) const
    {
        const PickledModule* own = pickled(s.path);
        const PickledModule* observer = pickled(s.path + "." + std::string(kOutputQuantizer));
        const auto setting = [&](std::string_view name) -> std::optional<std::string> {
            for (const PickledModule* m : {own, observer})
                if (const std::string* v = m ? m->setting(name) : nullptr) return *v;
            return std::nullopt;
        };
        const auto integer = [&](std::string_view name) -> std::optional<int64_t> {
            const std::optional<std::string> text = setting(name);
            int64_t v = 0;
            if (!text || std::from_chars(text->data(), text->data() + text->size(), v).ec != std::errc{})
                return std::nullopt;
            return v;
        };
        q.qmin = integer("quant_min");
        q.qmax = integer("quant_max");
        if (const std::optional<std::string> d = setting("dtype"))
            q.dtype = model::parseDType(*d).value_or(q.dtype);
        if (q.dtype == model::DType::Unknown && q.qmin && q.qmax)
            q.dtype = model::integerTypeSpanning(*q.qmin, *q.qmax).value_or(q.dtype);
        const std::optional<int64_t> axis = integer("ch_axis");
        const std::optional<std::string> scheme = setting("qscheme");
        if (axis && *axis >= 0 && scheme && scheme->find("per_channel") != std::string::npos)
            q.axis = static_cast<int>(*axis);
        if (observer) q.observer = shortClassName(observer->className);
        if (const std::optional<std::string> a = setting("averaging_constant")) {
            double v = 0;
            if (std::from_chars(a->data(), a->data() + a->size(), v).ec == std::errc{})
                q.averagingConstant = v;
        }
    }

    // false when the buffer is too large for a quantizer's or cannot be read (a warning then)
    bool readSmall(const TensorInfo& t, std::vector<double>& into)
    {
        if (t.numel() > kMaxQuantizerElements) return false;
        // the table keeps every value it reads: together they stay within the budget (600
        // quantizers may each claim the same 4 MiB storage). Each value is held twice, as read
        // and in the layer's parameters (a float scale or an int64 zero point).
        const uint64_t bytes = static_cast<uint64_t>(t.numel()) * (sizeof(double) + sizeof(int64_t));
        if (!m_budget.take(bytes)) {
            if (m_overBudget++ == 0) {
                m_budgetWarning = m_warnings.size();
                m_warnings.push_back({codes::kCheckpointBudget,
                                      m_file.path + ": " +
                                          m_budget.refusal("quantizer buffer " + t.name, bytes) +
                                          ": not read, nor any later buffer that does not fit",
                                      m_file.path});
            }
            return false;
        }
        Result<std::vector<double>> v = m_reader.values(t);
        if (!v) {
            m_warnings.push_back(v.error());
            return false;
        }
        into = std::move(*v);
        return true;
    }
    std::vector<double> small(const TensorInfo& t)
    {
        std::vector<double> v;
        readSmall(t, v);
        return v;
    }

    void readQuantizer(QuantizerState& q, const std::string& leaf, const TensorInfo& t,
                       const std::string& name)
    {
        q.any = true;
        if (leaf == "scale") {
            q.scale = small(t);
            q.scaleKey = name;
        } else if (leaf == "zero_point") {
            q.zeroPoint = small(t);
        } else if (leaf == "fake_quant_enabled" || leaf == "observer_enabled") {
            const std::vector<double> v = small(t);
            if (!v.empty())
                (leaf == "fake_quant_enabled" ? q.fakeQuantEnabled : q.observerEnabled) = v[0] != 0;
        } else {
            readObserver(q, leaf, t);  // horizon's quantizers keep min/max on themselves
        }
    }

    void readObserver(QuantizerState& q, const std::string& leaf, const TensorInfo& t)
    {
        q.any = true;
        if (leaf == "min_val") q.minRead = readSmall(t, q.minVal);
        if (leaf == "max_val") q.maxRead = readSmall(t, q.maxVal);
    }

    // A quantizer's flags: the output quantizer's by their names, the weight quantizer's with
    // "weight_" in front (a layer holds both).
    std::optional<QuantParams> params(const QuantizerState& s, bool weight, std::vector<std::string>& flags)
    {
        if (!s.any) return std::nullopt;
        const std::string prefix = weight ? "weight_" : "";
        QuantParams q;
        q.scales.assign(s.scale.begin(), s.scale.end());
        constexpr double kLimit = 1e15;  // far past any integer range; keeps the cast defined
        for (double z : s.zeroPoint) {
            if (!std::isfinite(z)) addFlag(flags, prefix + kFlagZeroPointNonFinite);
            q.zeroPoints.push_back(
                static_cast<int64_t>(std::isfinite(z) ? std::clamp(z, -kLimit, kLimit) : 0.0));
        }
        q.axis = q.scales.size() > 1 ? 0 : -1;
        q.fakeQuantEnabled = s.fakeQuantEnabled;
        q.observerEnabled = s.observerEnabled;
        q.scaleSource = s.scaleKey;
        applySettings(s, q);
        // the observed range over all channels; an observer that never saw data keeps +inf / -inf
        // (per-tensor) or empty buffers (per-channel); NaN means it saw NaN, which is another story
        const auto finite = [](double v) { return std::isfinite(v); };
        if (!s.minVal.empty() && std::all_of(s.minVal.begin(), s.minVal.end(), finite))
            q.minVal = *std::min_element(s.minVal.begin(), s.minVal.end());
        if (!s.maxVal.empty() && std::all_of(s.maxVal.begin(), s.maxVal.end(), finite))
            q.maxVal = *std::max_element(s.maxVal.begin(), s.maxVal.end());
        const auto initialMin = [](double v) { return v == INFINITY; };
        const auto initialMax = [](double v) { return v == -INFINITY; };
        const auto nan = [](double v) { return std::isnan(v); };
        if (s.minRead && s.maxRead &&
            ((s.minVal.empty() && s.maxVal.empty()) ||
             (std::all_of(s.minVal.begin(), s.minVal.end(), initialMin) &&
              std::all_of(s.maxVal.begin(), s.maxVal.end(), initialMax))))
            addFlag(flags, prefix + kFlagObserverNeverRan);
        if (std::any_of(s.minVal.begin(), s.minVal.end(), nan) ||
            std::any_of(s.maxVal.begin(), s.maxVal.end(), nan))
            addFlag(flags, prefix + kFlagObserverNaN);
        if (s.fakeQuantEnabled == false) addFlag(flags, prefix + kFlagFakeQuantDisabled);
        if (s.observerEnabled == false) addFlag(flags, prefix + kFlagObserverDisabled);
        return q;
    }

    static void addFlag(std::vector<std::string>& flags, const std::string& flag)
    {
        if (std::find(flags.begin(), flags.end(), flag) == flags.end()) flags.push_back(flag);
    }

    // The class of the object at a path of the model, "" when not pickled as an object.
    std::string classOf(const std::string& modelPath) const
    {
        const auto c = m_file.objectClasses.find(filePath(modelPath));
        return c == m_file.objectClasses.end() ? std::string{} : c->second;
    }

    // A converted module's quantized weight (torch's quantized tensor) carries its own scales.
    std::optional<QuantParams> weightParams(const TensorInfo& t)
    {
        QuantParams q;
        q.dtype = t.type();
        q.scaleSource = t.name;
        const QTensorParams& p = *t.quant;
        if (!p.perChannel()) {
            q.scales = {static_cast<float>(p.scale)};
            q.zeroPoints = {p.zeroPoint};
            return q;
        }
        std::vector<double> scales, zeroPoints;
        if (!readSmall(*p.scales, scales) || (p.zeroPoints && !readSmall(*p.zeroPoints, zeroPoints)))
            return q;  // a warning says why
        q.scales.assign(scales.begin(), scales.end());
        if (p.floatZeroPoints())
            q.realZeroPoints = std::move(zeroPoints);
        else
            for (double z : zeroPoints)
                q.zeroPoints.push_back(std::isfinite(z) ? static_cast<int64_t>(z) : 0);
        q.axis = p.axis;
        return q;
    }

    // A converted module keeps its output's scale and zero point beside its weight: as tensors
    // (a state_dict: an integer zero point beside a floating scale of as many values) or as
    // numbers in its pickled state (file.scalars).
    void readConvertedOutput(ModuleRow& row)
    {
        if (row.outputQuant.any) return;
        QuantizerState& q = row.outputQuant;
        const auto scale = row.tensors.find("scale");
        const auto zero = row.tensors.find("zero_point");
        if (scale != row.tensors.end() && zero != row.tensors.end()) {
            const TensorInfo& s = *scale->second;
            const TensorInfo& z = *zero->second;
            if (!model::isInteger(z.type()) || !model::isFloat(s.type()) || s.numel() != z.numel()) return;
            q.any = q.converted = true;
            q.path = row.path;
            q.scaleKey = s.name;
            readSmall(s, q.scale);
            readSmall(z, q.zeroPoint);
            row.tensors.erase("scale");
            row.tensors.erase("zero_point");
            return;
        }
        const auto scalar = [&](const char* leaf) -> std::optional<double> {
            const auto v = m_file.scalars.find(filePath(row.path.empty() ? leaf : row.path + "." + leaf));
            return v == m_file.scalars.end() ? std::nullopt : std::optional<double>(v->second);
        };
        const std::optional<double> s = scalar("scale"), z = scalar("zero_point");
        if (!s || !z) return;
        q.any = q.converted = true;
        q.path = row.path;
        q.scaleKey = (row.path.empty() ? "" : row.path + ".") + "scale";
        q.scale = {*s};
        q.zeroPoint = {*z};
    }

    // A row's quantized weights in the file's order: "weight", or a recurrent layer's
    // weight_ih_l0, weight_hh_l0, ...
    std::vector<const TensorInfo*> quantizedWeights(const ModuleRow& row) const
    {
        std::vector<const TensorInfo*> out;
        for (const auto& [leaf, t] : row.tensors)
            if (t->quant && leaf.starts_with("weight")) out.push_back(t);
        std::sort(out.begin(), out.end());  // file.tensors order: they point into it
        return out;
    }
    const TensorInfo* quantizedWeight(const ModuleRow& row) const
    {
        const auto weight = row.tensors.find("weight");
        if (weight != row.tensors.end() && weight->second->quant) return weight->second;
        const std::vector<const TensorInfo*> all = quantizedWeights(row);
        return all.empty() ? nullptr : all.front();
    }

    Layer makeLayer(ModuleRow& row)
    {
        Layer layer;
        layer.name = row.path.empty() ? "(root)" : row.path;
        const std::string cls = classOf(row.path);
        const TensorInfo* converted = quantizedWeight(row);  // build() read its output already
        const auto weight = row.tensors.find("weight");
        layer.op = guessOp(row, weight == row.tensors.end() ? nullptr : weight->second);
        if (const PickledModule* m = pickled(row.path)) layer.op = shortClassName(m->className);
        if (!cls.empty() && !cls.starts_with("torch.ScriptObject")) layer.op = shortClassName(cls);
        layer.weightQuant = params(row.weightQuant, true, layer.flags);
        layer.outputQuant = params(row.outputQuant, false, layer.flags);
        if (converted && !layer.weightQuant) layer.weightQuant = weightParams(*converted);
        if (converted) markConverted(layer, row.path, cls, *converted);
        if (layer.weightQuant)
            layer.weightDtype = layer.weightQuant->dtype;
        else if (weight != row.tensors.end())
            layer.weightDtype = model::parseDType(weight->second->dtype).value_or(model::DType::Unknown);
        if (layer.outputQuant)
            layer.outputDtype = layer.outputQuant->dtype;
        else if (!converted && weight != row.tensors.end())  // a converted one's: markConverted's
            layer.outputDtype = layer.weightDtype;
        layer.source.file = m_file.path;
        layer.source.node = !row.outputQuant.scaleKey.empty() ? row.outputQuant.scaleKey
                            : weight != row.tensors.end()     ? weight->second->name
                                                              : row.weightQuant.scaleKey;
        return layer;
    }

    // Dynamic by its class (a whole module, TorchScript), by the version state_dict() saved
    // beside it (torch's dynamic Linear is version 4, its static one 3), as a recurrent layer
    // without an output quantizer; a file without versions: a packed Linear whose output
    // scale 1.0 and zero point 0 are quantize_dynamic's placeholders (a Conv never is dynamic).
    bool isDynamic(const Layer& layer, const std::string& path, const std::string& cls,
                   const TensorInfo& weight) const
    {
        if (!cls.empty() && isQuantizedModuleClass(cls)) return isDynamicModuleClass(cls);
        if (layer.op == "LSTM" || layer.op == "GRU") return !layer.outputQuant;
        const bool packedLinear = weight.name.find("._packed_params.") != std::string::npos;
        if (!packedLinear) return false;
        const auto version = m_file.moduleVersions.find(filePath(path));
        if (version != m_file.moduleVersions.end()) return version->second >= 4;
        return layer.outputQuant && layer.outputQuant->scales == std::vector<float>{1.0f} &&
               layer.outputQuant->zeroPoints == std::vector<int64_t>{0} && !m_staticConvert;
    }
    // A quantized weight outside a packed Linear (a converted Conv's): the model went through
    // static convert, where a scale of 1.0 is an uncalibrated output, not a placeholder.
    bool staticConvertSeen() const
    {
        return std::any_of(m_file.tensors.begin(), m_file.tensors.end(), [](const TensorInfo& t) {
            return t.quant && t.name.find("_packed_params") == std::string::npos &&
                   t.name.find("_all_weight_values") == std::string::npos;
        });
    }

    // A converted layer whose activations are quantized on the fly (quantize_dynamic: a scale of
    // 1.0 and zero point 0 stand in for the output's, or no output quantizer on a recurrent
    // layer) or not at all (weight-only: an Embedding's float_qparams).
    // Neither without its evidence: a traced TorchScript module keeps a static layer's output
    // scale in its code, not in data.pkl, and that layer's output stays unknown.
    void markConverted(Layer& layer, const std::string& path, const std::string& cls,
                       const TensorInfo& weight) const
    {
        if (isDynamic(layer, path, cls, weight)) {
            layer.outputQuant.reset();
            layer.outputDtype = model::DType::Float32;
            layer.flags.push_back(kFlagDynamic);
        } else if (!layer.outputQuant && weight.quant->floatZeroPoints()) {
            // torch's weight-only scheme (Embedding, EmbeddingBag): float scales and zero points
            layer.outputDtype = model::DType::Float32;
            layer.flags.push_back(kFlagWeightOnly);
        }
    }

    // The module type is not in a state_dict; its tensors tell the usual ones apart.
    static std::string guessOp(const ModuleRow& row, const TensorInfo* weight)
    {
        if (row.tensors.count("running_mean")) return "BatchNorm";
        if (row.tensors.count("in_proj_weight")) return "MultiheadAttention";
        // a recurrent layer's input weights stack its gates: four for an LSTM, three for a GRU
        const auto ih = row.tensors.find("weight_ih_l0"), hh = row.tensors.find("weight_hh_l0");
        if (ih != row.tensors.end() && hh != row.tensors.end() && ih->second->shape.size() == 2 &&
            hh->second->shape.size() == 2 && hh->second->shape[1] > 0) {
            const int64_t gates = ih->second->shape[0] / hh->second->shape[1];
            return gates == 4 ? "LSTM" : gates == 3 ? "GRU" : "RNN";
        }
        // quantizer buffers only: a fake quant's, or a converted module's output (a Quantize, a
        // FloatFunctional's add) whose state_dict keeps just its scale and zero point
        if (!weight)
            return !row.tensors.empty()        ? "Module"
                   : row.outputQuant.converted ? "QuantizedOutput"
                                               : "FakeQuantize";
        static constexpr std::array<const char*, 6> kByRank = {"Module", "Norm",   "Linear",
                                                               "Conv1d", "Conv2d", "Conv3d"};
        const size_t rank = weight->shape.size();
        if (rank == 2 && lastSegment(row.path).find("emb") != std::string::npos) return "Embedding";
        return rank < kByRank.size() ? kByRank[rank] : "Module";
    }

    const CheckpointFile& m_file;
    const bool m_staticConvert = staticConvertSeen();
    TensorReader& m_reader;
    MemoryBudget& m_budget;
    size_t m_overBudget = 0;     // quantizer buffers not read for the budget
    size_t m_budgetWarning = 0;  // the first one's warning, in m_warnings
    std::map<std::string, ModuleRow> m_rows;
    std::vector<std::string> m_order;
    std::vector<Warning> m_warnings;
};

}  // namespace

std::string modelPath(const CheckpointFile& file, const std::string& path)
{
    if (file.modelKey.empty()) return path;
    const std::string prefix = file.modelKey + ".";
    return path.starts_with(prefix) ? path.substr(prefix.size()) : std::string{};
}

std::string modelTensorName(const CheckpointFile& file, const TensorInfo& tensor)
{
    if (tensor.duplicate) return {};
    return modelPath(file, tensor.canonical.empty() ? tensor.name : tensor.canonical);
}

bool isQuantizerTensor(const std::string& modelName)
{
    const std::string owner = parentPath(modelName);
    for (std::string p = owner; !p.empty(); p = parentPath(p)) {
        const std::string s = lastSegment(p);
        if (s == kWeightQuantizer || isOutputQuantizerName(s)) return true;
    }
    return false;
}

model::LayerTable checkpointLayerTable(const CheckpointFile& file, TensorReader& reader, MemoryBudget& budget)
{
    return TableBuilder(file, reader, budget).build();
}

bool CheckpointRead::quantized() const
{
    return converted() || std::any_of(table.layers.begin(), table.layers.end(),
                                      [](const Layer& l) { return l.weightQuant || l.outputQuant; });
}

bool CheckpointRead::converted() const
{
    return file.holdsQuantizedTensors();
}

bool CheckpointRead::dynamic() const
{
    return std::any_of(table.layers.begin(), table.layers.end(), [](const Layer& l) {
        return std::find(l.flags.begin(), l.flags.end(), kFlagDynamic) != l.flags.end();
    });
}

bool CheckpointRead::bitWidthsMissing() const
{
    return std::any_of(table.warnings.begin(), table.warnings.end(),
                       [](const Warning& w) { return w.code == codes::kCheckpointBitWidth; });
}

Result<CheckpointRead> readCheckpointLayers(const std::string& path, uint64_t maxMemory)
{
    MemoryBudget budget(maxMemory);
    Result<CheckpointFile> file = readCheckpoint(path, &budget);
    if (!file) return file.error();
    CheckpointRead out;
    out.file = std::move(*file);
    TensorReader reader(out.file);
    out.table = checkpointLayerTable(out.file, reader, budget);
    return out;
}

}  // namespace qatdoctor::core::checkpoint
