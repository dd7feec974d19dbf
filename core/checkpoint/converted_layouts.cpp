#include "core/checkpoint/converted_layouts.h"

#include <array>
#include <map>
#include <optional>
#include <regex>

#include "core/checkpoint/dotted_path.h"

namespace qatdoctor::core::checkpoint {
namespace {

// What the object holding a packed tensor must be for a layout to apply: none (the path says
// it all), a quantized Conv (its pickled state is a tuple), a dynamic LSTM's cell parameters.
enum class Holder { Any, QuantizedConv, CellParams, PackedLinear, PackedConv };

// One layout: the dotted path's pattern (group 1 = the module, group 2 = the index the name is
// chosen by), what must hold the tensor, the names by that index (less firstIndex), and whether
// a match repeats values listed elsewhere.
struct Layout {
    const char* pattern;
    Holder holder;
    std::array<const char*, 4> names;
    int firstIndex;
    bool duplicate;
    // the path is the walk's (a pickled state's index), not a key of the file: the float name
    // replaces it
    bool rename;
};

// torch's _ConvNd.__getstate__: (in_channels, out_channels, kernel_size, stride, padding,
// dilation, transposed, output_padding, groups, padding_mode, weight, bias, scale, zero_point,
// training); TorchScript pickles the same tuple. quantized_dynamic CellParams: (tag,
// [bias_ih, bias_hh], doubles, longs, [packed w_ih, packed w_hh]), each packed one (weight, bias).
// TorchScript keeps a Linear's packed params as the object itself (its state (weight, bias, ...)),
// a mobile archive as a constant with no module name, like a prepacked Conv's
// Conv2dPackedParamsBase state ("2", [config, weight], [bias]). The first layout that matches
// names a path: those holders come last, an LSTM's packed weights are its cell's.
const std::array<Layout, 9> kLayouts{{
    {R"(^(.+)\._packed_params\._packed_params\.([01])$)", Holder::Any, {"weight", "bias"}, 0, false, false},
    {R"(^(.+)\._packed_params\._packed_weight()$)", Holder::Any, {"weight"}, 0, false, false},
    {R"(^(.+)\.(1[0-3])$)",
     Holder::QuantizedConv,
     {"weight", "bias", "scale", "zero_point"},
     10,
     false,
     true},
    {R"(^(.+)\._all_weight_values\.(?:[0-9]+)\.param\.1\.([01])$)",
     Holder::CellParams,
     {"bias_ih", "bias_hh"},
     0,
     false,
     false},
    {R"(^(.+)\._all_weight_values\.(?:[0-9]+)\.param\.4\.([01])\.0$)",
     Holder::CellParams,
     {"weight_ih", "weight_hh"},
     0,
     false,
     false},
    {R"(^(.+)\._all_weight_values\.(?:[0-9]+)\.param\.4\.([01])\.1$)",
     Holder::CellParams,
     {"bias_ih", "bias_hh"},
     0,
     true,
     false},
    {R"(^(.+?)(?:\._packed_params)?\.([01])$)", Holder::PackedLinear, {"weight", "bias"}, 0, false, false},
    {R"(^(.+)\.1\.1()$)", Holder::PackedConv, {"weight"}, 0, false, false},
    {R"(^(.+)\.2\.0()$)", Holder::PackedConv, {"bias"}, 0, false, false},
}};

// The layer number of an LSTM's cell parameters ("lstm._all_weight_values.3.param..." -> 3).
std::string cellLayer(const std::string& path)
{
    static const std::regex kCell(R"(\._all_weight_values\.([0-9]+)\.param\.)");
    std::smatch m;
    return std::regex_search(path, m, kCell) ? m[1].str() : std::string{};
}

std::string classAt(const CheckpointFile& file, const std::string& path)
{
    const auto it = file.objectClasses.find(path);
    return it == file.objectClasses.end() ? std::string{} : it->second;
}

bool holderMatches(const CheckpointFile& file, Holder holder, const std::string& module,
                   const std::string& path)
{
    switch (holder) {
        case Holder::Any:
            return true;
        case Holder::QuantizedConv: {
            const std::string cls = classAt(file, module);
            const std::string leaf = cls.substr(cls.rfind('.') + 1);
            return isQuantizedModuleClass(cls) && leaf.starts_with("Conv");
        }
        case Holder::PackedLinear:  // TorchBind's LinearPackedParamsBase, or TorchScript's older
                                    // LinearPackedParams whose state is (weight, bias, training, dtype)
            return classAt(file, parentPath(path)).find("LinearPackedParams") != std::string::npos;
        case Holder::PackedConv: {
            const std::string cls = classAt(file, module);
            return cls.ends_with("Conv2dPackedParamsBase") || cls.ends_with("Conv3dPackedParamsBase");
        }
        case Holder::CellParams: {
            const std::string layer = cellLayer(path);
            return classAt(file, module + "._all_weight_values." + layer + ".param")
                .ends_with("CellParamsBase");
        }
    }
    return false;
}

struct Named {
    std::string canonical;
    bool duplicate = false;
    bool rename = false;
};

Named canonicalOf(const CheckpointFile& file, const std::string& path)
{
    // the layouts all end in a packed holder's or a pickled state's index: paths without one
    // (nearly all) skip the regex searches
    static const std::regex kStateIndex(R"(\.(1[0-3]|[01]|1\.1|2\.0)$)");
    if (path.find("_packed_params") == std::string::npos &&
        path.find("_all_weight_values") == std::string::npos && !std::regex_search(path, kStateIndex))
        return {path};
    static const std::array<std::regex, kLayouts.size()> kPatterns = [] {
        std::array<std::regex, kLayouts.size()> p;
        for (size_t k = 0; k < kLayouts.size(); ++k) p[k] = std::regex(kLayouts[k].pattern);
        return p;
    }();
    for (size_t k = 0; k < kLayouts.size(); ++k) {
        const Layout& layout = kLayouts[k];
        std::smatch m;
        if (!std::regex_match(path, m, kPatterns[k])) continue;
        const std::string module = m[1].str();
        if (!holderMatches(file, layout.holder, module, path)) continue;
        const int index = m[2].length() ? std::stoi(m[2].str()) - layout.firstIndex : 0;
        if (index < 0 || index >= static_cast<int>(layout.names.size()) || !layout.names[index]) continue;
        std::string name = module;
        name.append(".").append(layout.names[index]);
        if (layout.holder == Holder::CellParams) name.append("_l").append(cellLayer(path));
        return {name, layout.duplicate, layout.rename};
    }
    return {path};
}

// A dynamic recurrent layer keeps its cell parameters in one list, layer by layer and in each
// layer direction by direction: entry i is layer i / 2 of a bidirectional layer ("_reverse"
// when odd), layer i of a unidirectional one. The module's bidirectional setting says which
// where it was pickled whole or scripted; a state_dict holds only shapes: a layer past the
// first takes the previous layer's output, hidden wide, or twice that in both directions.
void nameRecurrentDirections(CheckpointFile& file, size_t first,
                             const std::vector<std::pair<std::string, double>>& objectNumbers)
{
    static const std::regex kCellName(R"(^(.+)\.(weight|bias)_(ih|hh)_l([0-9]+)$)");
    struct Cell {
        std::vector<int64_t> ih, hh;
    };
    std::map<std::string, std::map<int, Cell>> modules;
    std::vector<std::pair<TensorInfo*, std::smatch>> named;
    for (size_t k = first; k < file.tensors.size(); ++k) {
        TensorInfo& t = file.tensors[k];
        std::smatch m;
        if (t.name.find("_all_weight_values") == std::string::npos ||
            !std::regex_match(t.canonical, m, kCellName))
            continue;
        Cell& cell = modules[m[1].str()][std::stoi(m[4].str())];
        if (m[2] == "weight") (m[3] == "ih" ? cell.ih : cell.hh) = t.shape;
        named.emplace_back(&t, m);
    }
    std::map<std::string, int> directions;
    for (const auto& [module, cells] : modules) {
        std::optional<bool> bidirectional;
        for (const auto& [path, value] : objectNumbers)
            if (path == module + ".bidirectional") bidirectional = value != 0;
        if (!bidirectional) {
            const Cell& c0 = cells.begin()->second;
            const int64_t hidden = c0.hh.size() == 2 ? c0.hh[1] : 0;
            const int64_t input = c0.ih.size() == 2 ? c0.ih[1] : 0;
            bool both = cells.size() % 2 == 0 && hidden > 0;
            for (const auto& [i, c] : cells)
                both = both && c.ih.size() == 2 && c.ih[1] == (i < 2 ? input : 2 * hidden);
            bool one = hidden > 0;
            for (const auto& [i, c] : cells)
                one = one && c.ih.size() == 2 && c.ih[1] == (i == 0 ? input : hidden);
            bidirectional = both && !one;
        }
        directions[module] = *bidirectional ? 2 : 1;
    }
    for (auto& [t, m] : named) {
        const int entry = std::stoi(m[4].str());
        const int dirs = directions[m[1].str()];
        t->canonical = m[1].str() + "." + m[2].str() + "_" + m[3].str() + "_l" +
                       std::to_string(entry / dirs) + (entry % dirs ? "_reverse" : "");
    }
}

}  // namespace

bool isQuantizedModuleClass(const std::string& className)
{
    return className.find(".quantized.") != std::string::npos;
}

bool isDynamicModuleClass(const std::string& className)
{
    return className.find(".quantized.dynamic.") != std::string::npos;
}

std::string canonicalPath(const CheckpointFile& file, const std::string& path)
{
    return canonicalOf(file, path).canonical;
}

void nameConvertedLayouts(CheckpointFile& file, size_t first,
                          const std::vector<std::pair<std::string, double>>& objectNumbers)
{
    for (size_t k = first; k < file.tensors.size(); ++k) {
        TensorInfo& t = file.tensors[k];
        Named n = canonicalOf(file, t.name);
        if (n.rename)
            t.name = std::move(n.canonical);
        else if (n.canonical != t.name)
            t.canonical = std::move(n.canonical);
        t.duplicate = n.duplicate;
    }
    nameRecurrentDirections(file, first, objectNumbers);
    const auto isQuantizerNumber = [](const std::string& name) {
        return name.ends_with(".scale") || name.ends_with(".zero_point");
    };
    // a converted module's own numbers, in a quantized module's state only: a float module may
    // call an attribute "scale" too
    for (const auto& [path, value] : objectNumbers) {
        const std::string name = canonicalPath(file, path);
        const std::string module = parentPath(name);
        if (isQuantizerNumber(name) && isQuantizedModuleClass(classAt(file, module)))
            file.scalars[name] = value;
    }
}

}  // namespace qatdoctor::core::checkpoint
