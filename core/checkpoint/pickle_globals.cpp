#include "core/checkpoint/pickle_globals.h"

#include <array>
#include <string>

namespace qatdoctor::core::checkpoint {
namespace {

struct Allowed {
    std::string_view module;
    std::string_view name;  // "*Storage": any name ending so; "*Tensor": likewise
};

// torch.load(weights_only=True) accepts these (torch 2.x, _weights_only_unpickler's allowlist).
constexpr std::array<Allowed, 34> kWeightsOnly{{
    {"collections", "OrderedDict"},
    {"collections", "Counter"},
    {"torch.nn.parameter", "Parameter"},
    {"torch.serialization", "_get_layout"},
    {"torch", "Size"},
    {"torch", "Tensor"},
    {"torch", "device"},
    {"_codecs", "encode"},
    {"builtins", "bytearray"},
    {"builtins", "set"},
    {"builtins", "complex"},
    {"__builtin__", "set"},
    {"torch", "*Storage"},
    {"torch.storage", "*Storage"},
    {"torch", "*Tensor"},
    {"torch.cuda", "*Tensor"},
    {"torch", "per_tensor_affine"},
    {"torch", "per_tensor_symmetric"},
    {"torch", "per_channel_affine"},
    {"torch", "per_channel_symmetric"},
    {"torch", "per_channel_affine_float_qparams"},
    {"torch._utils", "_rebuild_parameter"},
    {"torch._utils", "_rebuild_parameter_with_state"},
    {"torch._utils", "_rebuild_qtensor"},
    {"torch._utils", "_rebuild_tensor"},
    {"torch._utils", "_rebuild_tensor_v2"},
    {"torch._utils", "_rebuild_tensor_v3"},
    {"torch._utils", "_rebuild_sparse_tensor"},
    {"torch._utils", "_rebuild_meta_tensor_no_storage"},
    {"torch._utils", "_rebuild_wrapper_subclass"},
    {"torch._utils", "_rebuild_device_tensor_from_numpy"},
    {"torch._utils", "_rebuild_device_tensor_from_cpu_tensor"},
    {"torch._utils", "_rebuild_sparse_csr_tensor"},
    {"torch._tensor", "_rebuild_from_type_v2"},
}};

// torch's dtypes, pickled as ("torch", "<dtype>"); weights_only accepts every one.
constexpr std::array<std::string_view, 32> kDtypes{
    "float16",   "float32",    "float64", "bfloat16", "half",     "float",         "double",      "complex32",
    "complex64", "complex128", "cfloat",  "cdouble",  "uint8",    "uint16",        "uint32",      "uint64",
    "int8",      "int16",      "int32",   "int64",    "short",    "int",           "long",        "bool",
    "qint8",     "quint8",     "qint32",  "quint4x2", "quint2x4", "float8_e4m3fn", "float8_e5m2", "bits8"};

// Globals that reach processes, files, the network or the interpreter itself: a whole module
// ("*") or single names of an otherwise harmless one.
constexpr std::array<Allowed, 48> kDangerous{{
    {"os", "*"},
    {"posix", "*"},
    {"nt", "*"},
    {"subprocess", "*"},
    {"_posixsubprocess", "*"},
    {"sys", "*"},
    {"shutil", "*"},
    {"socket", "*"},
    {"importlib", "*"},
    {"runpy", "*"},
    {"pty", "*"},
    {"webbrowser", "*"},
    {"code", "*"},
    {"codeop", "*"},
    {"ctypes", "*"},
    {"multiprocessing", "*"},
    {"pickle", "*"},
    {"_pickle", "*"},
    {"marshal", "*"},
    {"commands", "*"},
    {"popen2", "*"},
    {"platform", "*"},
    {"asyncio", "*"},
    {"http", "*"},
    {"urllib", "*"},
    {"timeit", "*"},
    {"pdb", "*"},
    {"bdb", "*"},
    {"cProfile", "*"},
    {"profile", "*"},
    {"trace", "*"},
    {"signal", "*"},
    {"tempfile", "*"},
    {"torch.hub", "*"},
    {"torch.utils.cpp_extension", "*"},
    {"torch._ops", "*"},
    {"types", "FunctionType"},
    {"types", "CodeType"},
    {"types", "LambdaType"},
    {"types", "MethodType"},
    {"io", "open"},
    {"io", "FileIO"},
    {"_io", "open"},
    {"_io", "FileIO"},
    {"operator", "methodcaller"},
    {"operator", "attrgetter"},
    {"torch.jit", "load"},
    {"torch", "load"},
}};

// Builtins that run code, open files or reach any attribute.
constexpr std::array<std::string_view, 12> kDangerousBuiltins{
    "eval",    "exec",    "compile", "open",     "__import__", "getattr",
    "setattr", "delattr", "apply",   "execfile", "breakpoint", "input"};

std::string_view rootOf(std::string_view dotted)
{
    return dotted.substr(0, dotted.find('.'));
}

bool matches(std::string_view pattern, std::string_view name)
{
    if (pattern == "*") return true;
    if (pattern.starts_with('*'))
        return name.ends_with(pattern.substr(1)) && name.find('.') == std::string_view::npos;
    return pattern == name;
}

bool isBuiltinsModule(std::string_view module)
{
    return module == "builtins" || module == "__builtin__";
}

}  // namespace

bool isWeightsOnlyGlobal(std::string_view module, std::string_view name)
{
    for (const Allowed& a : kWeightsOnly)
        if (a.module == module && matches(a.name, name)) return true;
    if (module == "torch")
        for (std::string_view d : kDtypes)
            if (d == name) return true;
    return false;
}

bool isDangerousGlobal(std::string_view module, std::string_view name)
{
    for (const Allowed& d : kDangerous) {
        const bool wholeModule = d.name == "*";
        if (wholeModule ? module == d.module || rootOf(module) == d.module ||
                              module.starts_with(std::string(d.module) + ".")
                        : module == d.module && name == d.name)
            return true;
        // protocol 4 resolves a dotted name attribute by attribute: ("torch.serialization",
        // "os.system") reaches the os module torch.serialization imported
        if (wholeModule && name.find('.') != std::string_view::npos && rootOf(name) == d.module) return true;
    }
    if (isBuiltinsModule(module) || name.find('.') != std::string_view::npos)
        for (std::string_view b : kDangerousBuiltins)
            if ((isBuiltinsModule(module) && rootOf(name) == b) || name.starts_with(std::string(b) + "."))
                return true;
    return false;
}

bool isReconstructor(std::string_view module, std::string_view name)
{
    return (module == "copyreg" || module == "copy_reg") &&
           (name == "_reconstructor" || name == "__newobj__");
}

GlobalRisk riskOf(std::string_view module, std::string_view name, GlobalUse use)
{
    if (isDangerousGlobal(module, name)) return GlobalRisk::Runs;
    // the base class protocol 2 hands copyreg's reconstructor: object.__new__ builds nothing else
    if (isBuiltinsModule(module) && name == "object" && use != GlobalUse::Called) return GlobalRisk::Safe;
    // a dotted name is an attribute chain: never what the allowlist names
    if (name.find('.') == std::string_view::npos && isWeightsOnlyGlobal(module, name))
        return GlobalRisk::Safe;
    if (use == GlobalUse::Called) return GlobalRisk::Runs;
    return GlobalRisk::Class;
}

}  // namespace qatdoctor::core::checkpoint
