#include "core/artifacts/printed_layers.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/artifacts/text_lines.h"

namespace qatdoctor::core::artifacts {
namespace {

// Numbers in a printout or table are untrusted: an out-of-range (or NaN/inf) double converted to
// an integer is undefined behaviour, so integer fields saturate (NaN -> 0).
template <class Int>
Int toInt(double v)
{
    if (!(v == v)) return 0;
    if (v >= static_cast<double>(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
    if (v <= static_cast<double>(std::numeric_limits<Int>::lowest()))
        return std::numeric_limits<Int>::lowest();
    return static_cast<Int>(v);
}

using model::DType;
using model::Layer;
using model::QuantParams;

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

bool isComputeType(std::string_view type)
{
    return contains(type, "Conv") || contains(type, "Linear") || contains(type, "MatMul") ||
           contains(type, "Matmul");
}

bool isFusedType(std::string_view type)
{
    return isComputeType(type) && !startsWith(type, "Quantized") &&
           (contains(type, "ReLU") || contains(type, "Bn") || contains(type, "Add") ||
            contains(type, "Relu"));
}

bool isStubType(std::string_view type)
{
    return type == "QuantStub" || type == "DeQuantStub" || type == "Quantize" || type == "DeQuantize";
}

bool isFloatFunctional(std::string_view type)
{
    return contains(type, "FloatFunctional") || type == "QFunctional";
}

std::optional<bool> enabledFlag(const ArgList& args, std::string_view key)
{
    const std::string* v = args.find(key);
    if (!v) return std::nullopt;
    NumberList n = parseNumbers(*v);
    if (n.values.empty()) {
        const std::string low = toLower(*v);
        if (low == "true") return true;
        if (low == "false") return false;
        return std::nullopt;
    }
    return n.values.front() != 0.0;
}

void readRange(const ArgList& args, QuantParams& q, bool& uncalibrated)
{
    const std::string* minV = args.find("min_val");
    const std::string* maxV = args.find("max_val");
    if (!minV || !maxV) return;
    NumberList mins = parseNumbers(*minV);
    NumberList maxs = parseNumbers(*maxV);
    if (mins.empty || maxs.empty) {
        uncalibrated = true;
        return;
    }
    if (mins.values.empty() || maxs.values.empty()) return;
    const double lo = *std::min_element(mins.values.begin(), mins.values.end());
    const double hi = *std::max_element(maxs.values.begin(), maxs.values.end());
    if (std::isinf(lo) || std::isinf(hi)) uncalibrated = true;
    q.minVal = lo;
    q.maxVal = hi;
}

// Fields of one quantizer node (FakeQuantize family, FakeCast or an observer) and of the
// observer printed inside a fake quant.
QuantParams quantFromNode(const PrintedModule& pm, const ModuleNode& node, Layer& layer)
{
    QuantParams q;
    const ArgList args = splitArgs(node.args);
    bool uncalibrated = false;
    bool elided = false;
    if (const std::string* d = args.find("dtype"))
        if (auto t = model::parseDType(*d)) q.dtype = *t;
    if (const std::string* s = args.find("scale")) {
        NumberList n = parseNumbers(*s);
        for (double v : n.values) q.scales.push_back(static_cast<float>(v));
        elided = n.elided;
        const bool fixed = contains(node.type, "FixedScale");
        if (!fixed && !q.scales.empty() &&
            std::all_of(q.scales.begin(), q.scales.end(), [](float v) { return v == 1.0f; }))
            uncalibrated = true;
    }
    if (const std::string* z = args.find("zero_point"))
        for (double v : parseNumbers(*z).values) q.zeroPoints.push_back(toInt<int64_t>(v));
    if (const std::string* v = args.find("quant_min"))
        if (auto n = parseNumber(*v)) q.qmin = toInt<int64_t>(*n);
    if (const std::string* v = args.find("quant_max"))
        if (auto n = parseNumber(*v)) q.qmax = toInt<int64_t>(*n);
    const std::string* scheme = args.find("qscheme");
    const bool perChannel = scheme && contains(*scheme, "per_channel");
    if (perChannel) {
        q.axis = 0;
        if (const std::string* a = args.find("ch_axis"))
            if (auto n = parseNumber(*a)) q.axis = toInt<int>(*n);
    }
    q.fakeQuantEnabled = enabledFlag(args, "fake_quant_enabled");
    q.observerEnabled = enabledFlag(args, "observer_enabled");
    if (isObserverType(node.type)) {
        q.observer = node.type;
        readRange(args, q, uncalibrated);
    } else if (node.type == "FakeCast") {
        q.observer = node.type;
        readRange(args, q, uncalibrated);
    }
    for (int c : node.children) {
        const ModuleNode& child = pm.nodes[static_cast<size_t>(c)];
        if (!isObserverType(child.type)) continue;
        q.observer = child.type;
        readRange(splitArgs(child.args), q, uncalibrated);
    }
    if (q.observer.empty()) q.observer = node.type;
    auto flag = [&layer](const char* f) {
        if (std::find(layer.flags.begin(), layer.flags.end(), f) == layer.flags.end())
            layer.flags.push_back(f);
    };
    if (uncalibrated) flag("uncalibrated");
    if (elided) flag("scales_elided");
    return q;
}

struct Builder {
    const PrintedModule& pm;
    std::string path;
    model::LayerTable table;
    bool anyQuantizer = false;

    void addFlag(Layer& l, const char* f)
    {
        if (std::find(l.flags.begin(), l.flags.end(), f) == l.flags.end()) l.flags.push_back(f);
    }

    static bool isSlot(const std::string& name)
    {
        return name == "weight_fake_quant" || name == "weight_quant" || name == "activation_post_process";
    }

    void visit(int idx, bool parentIsLayer)
    {
        const ModuleNode& node = pm.nodes[static_cast<size_t>(idx)];
        bool hasQuant = false;
        bool hasFakeQuantChild = false;
        for (int c : node.children) {
            const ModuleNode& child = pm.nodes[static_cast<size_t>(c)];
            if (!isSlot(child.name) || !isQuantizerType(child.type)) continue;
            hasQuant = true;
            if (isFakeQuantType(child.type) || child.type == "FakeCast") hasFakeQuantChild = true;
        }
        if (isQuantizerType(node.type)) {
            if (isSlot(node.name) || node.type == "None" || idx == 0) return;  // read by the owning layer
            if (!hasFakeQuantChild) {
                // A quantizer registered as a module of its own: FX's activation_post_process_3,
                // a FakeCast module, ... It quantizes the output of whatever feeds it.
                Layer l;
                l.name = pm.path(idx);
                l.op = node.type;
                l.source = {path, node.line, {}};
                addFlag(l, "standalone_quantizer");
                l.outputQuant = quantFromNode(pm, node, l);
                l.outputDtype = l.outputQuant->dtype;
                anyQuantizer = true;
                table.layers.push_back(std::move(l));
                return;
            }
        }
        const bool converted = startsWith(node.type, "Quantized");
        const bool isLayer =
            idx != 0 && !node.type.empty() &&
            (hasQuant || converted || isStubType(node.type) || isFloatFunctional(node.type) ||
             (isComputeType(node.type) && !parentIsLayer && node.children.empty()));
        if (isLayer) table.layers.push_back(makeLayer(idx, converted));
        for (int c : node.children) visit(c, isLayer);
    }

    Layer makeLayer(int idx, bool converted)
    {
        const ModuleNode& node = pm.nodes[static_cast<size_t>(idx)];
        Layer l;
        l.name = pm.path(idx);
        if (l.name.empty()) l.name = node.type;
        l.op = node.type;
        l.source = {path, node.line, {}};
        if (isFusedType(node.type)) addFlag(l, "fused");
        for (int c : node.children) {
            const ModuleNode& child = pm.nodes[static_cast<size_t>(c)];
            if (!isQuantizerType(child.type)) continue;
            anyQuantizer = true;
            if (startsWith(child.name, "weight_fake_quant") || startsWith(child.name, "weight_quant")) {
                if (child.type == "None") continue;
                l.weightQuant = quantFromNode(pm, child, l);
                l.weightDtype = l.weightQuant->dtype;
            } else if (child.name == "activation_post_process") {
                if (child.type == "None") continue;
                l.outputQuant = quantFromNode(pm, child, l);
                l.outputDtype = l.outputQuant->dtype;
            }
        }
        const ArgList args = splitArgs(node.args);
        if (node.type == "QuantStub" || node.type == "Quantize") l.inputDtypes = {DType::Float32};
        if (node.type == "DeQuantStub" || node.type == "DeQuantize") {
            l.outputDtype = DType::Float32;
            if (!table.layers.empty() && table.layers.back().outputDtype != DType::Unknown)
                l.inputDtypes = {table.layers.back().outputDtype};
        }
        if (converted || node.type == "Quantize" || node.type == "QFunctional") {
            if (converted || node.type == "QFunctional") addFlag(l, "converted");
            QuantParams q;
            if (const std::string* d = args.find("dtype"))
                if (auto t = model::parseDType(*d)) q.dtype = *t;
            if (const std::string* s = args.find("scale"))
                for (double v : parseNumbers(*s).values) q.scales.push_back(static_cast<float>(v));
            if (const std::string* z = args.find("zero_point"))
                for (double v : parseNumbers(*z).values) q.zeroPoints.push_back(toInt<int64_t>(v));
            if (!q.scales.empty()) {
                if (q.scales.size() == 1 && q.scales.front() == 1.0f) addFlag(l, "uncalibrated");
                l.outputQuant = q;
                l.outputDtype = q.dtype;
            }
            // Stock converted conv/linear modules hold packed qint8 weights.
            if (converted && isComputeType(node.type)) {
                l.weightDtype = DType::Int8;
                if (const std::string* scheme = args.find("qscheme");
                    scheme && contains(*scheme, "per_channel")) {
                    QuantParams w;
                    w.dtype = DType::Int8;
                    w.axis = 0;
                    l.weightQuant = w;
                }
            }
        }
        if (l.weightQuant && !l.outputQuant && !converted) {
            // `(activation_post_process): None` or no output quantizer at all: the toolchain's
            // high-precision output (int32 on J6E/M, float on J6B/H/P; the FAQ prints it as int32).
            addFlag(l, "high_precision_output");
            l.outputDtype = DType::Int32;
        }
        if (!hasAnyQuant(l) && isComputeType(node.type) && !converted) addFlag(l, "not_quantized");
        return l;
    }

    static bool hasAnyQuant(const Layer& l) { return l.weightQuant || l.outputQuant; }
};

}  // namespace

bool isFakeQuantType(std::string_view type)
{
    return contains(type, "FakeQuant");
}

bool isObserverType(std::string_view type)
{
    return type.size() > 8 && type.substr(type.size() - 8) == "Observer";
}

bool isQuantizerType(std::string_view type)
{
    return isFakeQuantType(type) || isObserverType(type) || type == "FakeCast" || type == "None";
}

model::LayerTable layersFromPrinted(const PrintedModule& printed, const std::string& path)
{
    Builder b{printed, path, {}, false};
    b.table.sourcePath = path;
    b.table.format = kFormatPrinted;
    b.visit(0, false);
    // A float compute module is only noteworthy next to quantized ones.
    if (!b.anyQuantizer)
        for (Layer& l : b.table.layers)
            l.flags.erase(std::remove(l.flags.begin(), l.flags.end(), std::string("not_quantized")),
                          l.flags.end());
    b.table.warnings = printed.warnings;
    return std::move(b.table);
}

Result<model::LayerTable> readPrintedModel(std::string_view text, const std::string& path)
{
    if (trim(text).empty()) return makeError("printed.empty", path + ": the text is empty", path);
    if (auto off = binaryOffset(text))
        return makeError("artifact.binary",
                         path + ": binary data at byte " + std::to_string(*off) + ", not a printed model",
                         path, 0, static_cast<int64_t>(*off));
    auto parsed = parsePrintedModule(text, path);
    if (!parsed) return parsed.error();
    model::LayerTable table = layersFromPrinted(*parsed, path);
    if (table.layers.empty())
        table.warnings.push_back(makeError("printed.no_layers",
                                           path +
                                               ": the printout has modules but none with quantizers, stubs "
                                               "or compute layers",
                                           path));
    return table;
}

}  // namespace qatdoctor::core::artifacts
