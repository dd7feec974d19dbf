#include "core/checkpoint/checkpoint_contents.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/checkpoint/converted_layouts.h"
#include "core/checkpoint/dotted_path.h"
#include "core/common/number_text.h"

namespace qatdoctor::core::checkpoint {
namespace {

using Kind = PyNode::Kind;

constexpr int kMaxDepth = 64;
// A key that makes a name (a module, a parameter, a setting) is an identifier of a few dozen
// bytes; one of megabytes would be copied into the name of everything under it (a memoized
// 200 MB string used as twenty keys made gigabytes of names).
constexpr size_t kMaxKeyBytes = 4096;
// Objects and their numbers recorded by path: a model has thousands; past these a hostile pickle
// of millions of objects is still walked, but not recorded.
constexpr size_t kMaxObjects = 1 << 18;
constexpr size_t kMaxNumbers = 1 << 18;

// One element as a double, for each storage element type.
template <class T>
double readAs(const char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
}
double readHalf(const char* p)
{
    uint16_t h;
    std::memcpy(&h, p, 2);
    const int sign = h >> 15, exp = (h >> 10) & 31, frac = h & 1023;
    const double v = exp == 0    ? std::ldexp(frac, -24)
                     : exp == 31 ? (frac ? NAN : INFINITY)
                                 : std::ldexp(frac + 1024, exp - 25);
    return sign ? -v : v;
}
double readBFloat16(const char* p)
{
    uint16_t h;
    std::memcpy(&h, p, 2);
    const uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

constexpr std::array<StorageType, 17> kStorageTypes{{
    {"FloatStorage", "float32", 4, readAs<float>},
    {"DoubleStorage", "float64", 8, readAs<double>},
    {"HalfStorage", "float16", 2, readHalf},
    {"BFloat16Storage", "bfloat16", 2, readBFloat16},
    {"LongStorage", "int64", 8, readAs<int64_t>},
    {"IntStorage", "int32", 4, readAs<int32_t>},
    {"ShortStorage", "int16", 2, readAs<int16_t>},
    {"CharStorage", "int8", 1, readAs<int8_t>},
    {"ByteStorage", "uint8", 1, readAs<uint8_t>},
    {"BoolStorage", "bool", 1, readAs<uint8_t>},
    {"QInt8Storage", "qint8", 1, readAs<int8_t>},
    {"QUInt8Storage", "quint8", 1, readAs<uint8_t>},
    {"QInt32Storage", "qint32", 4, readAs<int32_t>},
    // sub-byte quantized types: two or four values a byte, not converted here
    {"QUInt4x2Storage", "quint4x2", 1, nullptr},
    {"QUInt2x4Storage", "quint2x4", 1, nullptr},
    {"ComplexFloatStorage", "complex64", 8, nullptr},
    {"ComplexDoubleStorage", "complex128", 16, nullptr},
}};

// Keys under which training checkpoints keep the model's weights, in the order they are tried.
constexpr std::array<std::string_view, 9> kModelKeys{
    "state_dict", "model",       "model_state_dict", "module", "net",
    "network",    "model_state", "state_dict_ema",   "ema"};

class Walker {
public:
    Walker(const PickleTree& tree, CheckpointFile& out, const std::map<std::string, TensorInfo>& persistent,
           std::string_view storageDir)
        : m_tree(tree), m_out(out), m_persistent(persistent), m_storageDir(storageDir)
    {
    }

    // The numbers (and booleans, as 1 and 0) found in objects' states, by dotted path.
    const std::vector<std::pair<std::string, double>>& objectNumbers() const { return m_numbers; }

    void walk(NodeId id, const std::string& path, int depth)
    {
        if (depth > kMaxDepth)
            return note("'" + path + "' is nested deeper than " + std::to_string(kMaxDepth) +
                        " levels: not read past that");
        const PyNode& n = m_tree.at(id);
        // A container reached a second time is the same object (the memo shares it): described
        // once, or a hostile pickle of lists of lists sharing each other grows without end; one
        // reached again from inside itself is a cycle. Tensors are leaves: a tied weight keeps
        // each of its names.
        const bool container = n.kind == Kind::Dict || n.kind == Kind::List || n.kind == Kind::Tuple ||
                               n.kind == Kind::Set || (n.kind == Kind::Call && !isTensorRebuild(id));
        if (container) {
            const auto [first, isNew] = m_seen.emplace(id, path);
            if (!isNew) {
                if (m_onPath.count(id))
                    note("'" + (path.empty() ? std::string("(root)") : path) + "' holds '" +
                         (first->second.empty() ? std::string("(root)") : first->second) +
                         "', which holds it: a cycle, cut there");
                return;
            }
            m_onPath.insert(id);
        }
        walkNode(id, n, path, depth);
        if (container) m_onPath.erase(id);
    }

private:
    void note(std::string text)
    {
        constexpr size_t kMaxNotes = 20;
        if (m_out.walkNotes.size() < kMaxNotes) m_out.walkNotes.push_back(std::move(text));
    }
    bool isTensorRebuild(NodeId id) const
    {
        const auto [module, name] = m_tree.callee(id);
        return module == "torch._utils" && name.starts_with("_rebuild_");
    }
    void walkNode(NodeId id, const PyNode& n, const std::string& path, int depth)
    {
        switch (n.kind) {
            case Kind::Dict:
                walkPairs(n.items, path, depth);
                return;
            case Kind::List:
            case Kind::Tuple:
            case Kind::Set:
                for (size_t k = 0; k < n.items.size(); ++k)
                    walk(n.items[k], join(path, std::to_string(k)), depth + 1);
                return;
            case Kind::Call:
                walkCall(id, path, depth);
                return;
            case Kind::PersistentId:
                if (m_tree.at(n.items[0]).text.size() > kMaxKeyBytes) return;
                if (const auto t = m_persistent.find(keyText(n.items[0])); t != m_persistent.end()) {
                    m_out.tensors.push_back(t->second);
                    m_out.tensors.back().name = path;
                }
                return;
            case Kind::Bool:
            case Kind::Int:
            case Kind::Float:
            case Kind::Str:
                // an object's attributes are its settings, not the checkpoint's metadata; its
                // numbers hold a converted module's scale and zero point
                if (m_out.objectClasses.count(parentPath(path)))
                    recordNumber(path, n);
                else
                    recordMetadata(path, depth, scalarText(n), n.kind == Kind::Int || n.kind == Kind::Float);
                return;
            default:
                return;
        }
    }

    static std::string join(const std::string& path, const std::string& key)
    {
        return path.empty() ? key : path + "." + key;
    }
    std::string keyText(NodeId id) const { return checkpoint::keyText(m_tree, id); }
    static std::string scalarText(const PyNode& n)
    {
        switch (n.kind) {
            case Kind::Bool:
                return n.i ? "True" : "False";
            case Kind::Int:
                return std::to_string(n.i);
            case Kind::Float:
                return fullNumber(n.f);
            default:
                return n.text.size() > 200 ? n.text.substr(0, 197) + "..." : n.text;
        }
    }
    void walkPairs(const std::vector<NodeId>& kv, const std::string& path, int depth)
    {
        for (size_t k = 0; k + 1 < kv.size(); k += 2) {
            if (const size_t size = m_tree.at(kv[k]).text.size(); size > kMaxKeyBytes) {
                note("a key of " + std::to_string(size) + " bytes under '" +
                     (path.empty() ? "(root)" : path) + "' is not a name: what it holds is not read");
                continue;
            }
            walk(kv[k + 1], join(path, keyText(kv[k])), depth + 1);
        }
    }
    // The value of key in a dict node, or none.
    std::optional<NodeId> item(NodeId dict, std::string_view key) const
    {
        const PyNode& d = m_tree.at(dict);
        if (d.kind != Kind::Dict) return std::nullopt;
        for (size_t k = 0; k + 1 < d.items.size(); k += 2)
            if (m_tree.at(d.items[k]).kind == Kind::Str && m_tree.at(d.items[k]).text == key)
                return d.items[k + 1];
        return std::nullopt;
    }
    void walkCall(NodeId id, const std::string& path, int depth)
    {
        const auto [module, name] = m_tree.callee(id);
        const PyNode& n = m_tree.at(id);
        // TorchScript's typed containers (build_tensorlist, build_intlist, restore_type_tag ...)
        // are their first argument
        if (module == "torch.jit._pickle") {
            const PyNode& args = m_tree.at(n.items[1]);
            if (args.kind == Kind::Tuple && !args.items.empty()) walk(args.items[0], path, depth + 1);
            return;
        }
        // a numpy scalar (a metric computed with numpy: "best_acc": numpy.float64(0.93))
        if (name == "scalar" && module.ends_with("core.multiarray")) {
            if (const std::optional<double> v = numpyScalar(n))
                recordMetadata(path, depth, fullNumber(*v), true);
            return;
        }
        // A TorchBind object (a packed weight): its state is (what __getstate__ returned, its
        // class's qualified name); what it holds is read at its own path.
        if (module == "torch" && name == "ScriptObject" && n.hasState) {
            const PyNode& state = m_tree.at(n.state);
            if (state.kind == Kind::Tuple && state.items.size() == 2 &&
                m_tree.at(state.items[1]).kind == Kind::Str) {
                recordClass(path, m_tree.at(state.items[1]).text);
                walk(state.items[0], path, depth + 1);
                return;
            }
        }
        if (module == "torch._utils" && (name == "_rebuild_tensor_v2" || name == "_rebuild_tensor" ||
                                         name == "_rebuild_qtensor" || name == "_rebuild_tensor_v3")) {
            if (auto t = tensorOf(n.items[1], path, name == "_rebuild_qtensor")) {
                t->storageDir = m_storageDir;
                m_out.tensors.push_back(std::move(*t));
            }
            return;
        }
        if (module == "torch._utils" &&
            (name == "_rebuild_parameter" || name == "_rebuild_parameter_with_state")) {
            const PyNode& args = m_tree.at(n.items[1]);
            if (args.kind == Kind::Tuple && !args.items.empty()) {
                const size_t before = m_out.tensors.size();
                walk(args.items[0], path, depth);
                for (size_t k = before; k < m_out.tensors.size(); ++k) m_out.tensors[k].parameter = true;
            }
            return;
        }
        if (!module.empty()) {
            std::string cls = std::string(module) + "." + std::string(name);
            recordClass(path, cls);
            if (m_classes.insert(cls).second) m_out.classes.push_back(std::move(cls));  // linear in classes
        }
        // An nn.Module pickled whole: its parameters, buffers and submodules make the state_dict
        // names; other attributes are settings, not weights.
        if (n.hasState && m_tree.at(n.state).kind == Kind::Dict && item(n.state, "_modules")) {
            recordModule(path, module, name, m_tree.at(n.state).items);
            for (std::string_view part : {"_parameters", "_buffers", "_modules"})
                if (auto d = item(n.state, part)) walk(*d, path, depth + 1);
            walkTorchBindAttributes(n.state, path, depth);
            return;
        }
        if (n.hasState) {
            if (auto versions = item(n.state, "_metadata")) recordVersions(*versions, path);
            walk(n.state, path, depth + 1);
        }
        walkPairs(n.extra, path, depth);
    }
    // state_dict()'s _metadata: an OrderedDict of module prefix -> {"version": N}
    void recordVersions(NodeId metadata, const std::string& path)
    {
        const PyNode& m = m_tree.at(metadata);
        const std::vector<NodeId>& pairs = m.kind == Kind::Dict ? m.items : m.extra;
        for (size_t k = 0; k + 1 < pairs.size() && m_out.moduleVersions.size() < kMaxObjects; k += 2) {
            if (m_tree.at(pairs[k]).kind != Kind::Str || m_tree.at(pairs[k]).text.size() > kMaxKeyBytes)
                continue;
            if (auto v = item(pairs[k + 1], "version"); v && m_tree.at(*v).kind == Kind::Int)
                m_out.moduleVersions[join(path, m_tree.at(pairs[k]).text)] = m_tree.at(*v).i;
        }
    }
    // numpy.core.multiarray.scalar(dtype, bytes): the value of a numeric numpy scalar, from its
    // dtype's code ("f8", "i4", ...; little-endian, as numpy pickles on every machine users have)
    // and its raw bytes (protocol 2 pickles bytes as _codecs.encode(text, "latin1")).
    std::optional<double> numpyScalar(const PyNode& call) const
    {
        const PyNode& args = m_tree.at(call.items[1]);
        if (args.kind != Kind::Tuple || args.items.size() < 2) return std::nullopt;
        const PyNode& dtype = m_tree.at(args.items[0]);
        if (dtype.kind != Kind::Call) return std::nullopt;
        const PyNode& dtypeArgs = m_tree.at(dtype.items[1]);
        if (dtypeArgs.kind != Kind::Tuple || dtypeArgs.items.empty()) return std::nullopt;
        const std::string& code = m_tree.at(dtypeArgs.items[0]).text;
        std::string raw = m_tree.at(args.items[1]).text;
        if (const PyNode& b = m_tree.at(args.items[1]); b.kind == Kind::Call) {
            const PyNode& encodeArgs = m_tree.at(b.items[1]);
            if (encodeArgs.kind != Kind::Tuple || encodeArgs.items.empty()) return std::nullopt;
            raw = latin1Bytes(m_tree.at(encodeArgs.items[0]).text);
        }
        static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kCodes{
            {{"f8", "float64"},
             {"f4", "float32"},
             {"f2", "float16"},
             {"i8", "int64"},
             {"i4", "int32"},
             {"i2", "int16"},
             {"i1", "int8"},
             {"u1", "uint8"}}};
        for (const auto& [numpyCode, dtypeName] : kCodes) {
            const StorageType* type = storageTypeOfDtype(dtypeName);
            if (code == numpyCode && type && raw.size() == type->bytes) return type->read(raw.data());
        }
        return std::nullopt;
    }
    // A str of code points below 256, as UTF-8, back to the bytes latin-1 encodes it to.
    static std::string latin1Bytes(const std::string& utf8)
    {
        std::string out;
        for (size_t k = 0; k < utf8.size(); ++k) {
            const auto c = static_cast<unsigned char>(utf8[k]);
            if (c < 0x80) {
                out += static_cast<char>(c);
            } else if ((c & 0xE0) == 0xC0 && k + 1 < utf8.size()) {
                out += static_cast<char>(((c & 0x1F) << 6) | (static_cast<unsigned char>(utf8[++k]) & 0x3F));
            } else {
                return {};  // beyond latin-1: not bytes
            }
        }
        return out;
    }

    // A module's packed weights are TorchBind objects kept as plain attributes (a converted
    // Linear's LinearPackedParams holds one as _packed_params), outside its parameters.
    void walkTorchBindAttributes(NodeId state, const std::string& path, int depth)
    {
        const PyNode& d = m_tree.at(state);
        for (size_t k = 0; k + 1 < d.items.size(); k += 2) {
            if (m_tree.at(d.items[k]).text.size() > kMaxKeyBytes) continue;
            const auto [module, name] = m_tree.callee(d.items[k + 1]);
            if (module == "torch" && name == "ScriptObject")
                walk(d.items[k + 1], join(path, keyText(d.items[k])), depth + 1);
        }
    }
    // A scalar near the root of a checkpoint ("epoch", "best_acc") is its metadata.
    void recordMetadata(const std::string& path, int depth, std::string text, bool numeric)
    {
        if (depth > 2 || path.empty()) return;
        m_out.metadata.emplace_back(path, std::move(text));
        if (numeric) m_out.numericMetadata.insert(path);
    }
    // A number (or a boolean, as 1 or 0) of an object's state, exact.
    void recordNumber(const std::string& path, const PyNode& n)
    {
        if (n.kind != Kind::Int && n.kind != Kind::Float && n.kind != Kind::Bool) return;
        if (m_numbers.size() < kMaxNumbers)
            m_numbers.emplace_back(path, n.kind == Kind::Float ? n.f : static_cast<double>(n.i));
    }
    void recordClass(const std::string& path, const std::string& cls)
    {
        if (m_out.objectClasses.size() < kMaxObjects) m_out.objectClasses.emplace(path, cls);
    }
    void recordModule(const std::string& path, std::string_view module, std::string_view name,
                      const std::vector<NodeId>& state)
    {
        constexpr size_t kMaxSettings = 64;  // a module's constructor stores a handful
        PickledModule& m = m_out.modules[path];
        m.className = std::string(module).append(".").append(name);
        for (size_t k = 0; k + 1 < state.size() && m.settings.size() < kMaxSettings; k += 2) {
            if (m_tree.at(state[k]).text.size() > kMaxKeyBytes) continue;  // noted by walkPairs
            const std::string key = keyText(state[k]);
            const PyNode& value = m_tree.at(state[k + 1]);
            if (key.starts_with('_') || key == "training" || key == "?") continue;
            if (value.kind == Kind::Global)
                m.settings.emplace_back(key, value.text + "." + value.text2);
            else if (value.kind == Kind::Bool || value.kind == Kind::Int || value.kind == Kind::Float ||
                     value.kind == Kind::Str)
                m.settings.emplace_back(key, scalarText(value));
            recordNumber(join(path, key), value);  // exact, for what reads a converted module's scale
        }
    }

    std::optional<TensorInfo> tensorOf(NodeId argsId, const std::string& path, bool quantized) const
    {
        const PyNode& args = m_tree.at(argsId);
        if (args.kind != Kind::Tuple || args.items.size() < 4) return std::nullopt;
        const PyNode& pid = m_tree.at(args.items[0]);
        if (pid.kind != Kind::PersistentId) return std::nullopt;
        const PyNode& id = m_tree.at(pid.items[0]);
        if (id.kind != Kind::Tuple || id.items.size() < 5 || m_tree.at(id.items[0]).text != "storage" ||
            m_tree.at(id.items[2]).text.size() > kMaxKeyBytes)  // a storage key is a short number
            return std::nullopt;
        TensorInfo t;
        t.name = path;
        const PyNode& type = m_tree.at(id.items[1]);
        const StorageType* s = type.kind == Kind::Global ? storageTypeNamed(type.text2) : nullptr;
        t.dtype = s ? std::string(s->dtype) : type.kind == Kind::Global ? type.text2 : "unknown";
        t.storage = keyText(id.items[2]);
        t.storageNumel = m_tree.at(id.items[4]).i;
        t.offset = m_tree.at(args.items[1]).i;
        for (NodeId d : m_tree.at(args.items[2]).items) t.shape.push_back(m_tree.at(d).i);
        for (NodeId d : m_tree.at(args.items[3]).items) t.stride.push_back(m_tree.at(d).i);
        if (quantized && args.items.size() > 4) t.quant = qparamsOf(args.items[4], path);
        return t;
    }

    // _rebuild_qtensor's fifth argument: (per_tensor_affine, scale, zero_point) or
    // (per_channel_affine[_float_qparams], scales tensor, zero points tensor, axis).
    std::optional<QTensorParams> qparamsOf(NodeId id, const std::string& path) const
    {
        const PyNode& q = m_tree.at(id);
        if (q.kind != Kind::Tuple || q.items.size() < 3 || m_tree.at(q.items[0]).kind != Kind::Global)
            return std::nullopt;
        QTensorParams p;
        p.scheme = m_tree.at(q.items[0]).text2;
        const auto number = [&](NodeId v) {
            const PyNode& x = m_tree.at(v);
            return x.kind == Kind::Float ? x.f : x.kind == Kind::Int ? static_cast<double>(x.i) : NAN;
        };
        if (p.scheme == "per_tensor_affine" || p.scheme == "per_tensor_symmetric") {
            p.scale = number(q.items[1]);
            const double zp = number(q.items[2]);
            p.zeroPoint = std::isfinite(zp) ? static_cast<int64_t>(zp) : 0;
            return p;
        }
        if (q.items.size() < 4) return std::nullopt;
        const auto channelTensor = [&](NodeId v, const char* what) -> std::shared_ptr<const TensorInfo> {
            const PyNode& call = m_tree.at(v);
            if (call.kind != Kind::Call || !isTensorRebuild(v)) return nullptr;
            std::optional<TensorInfo> t = tensorOf(call.items[1], path + "." + what, false);
            if (!t) return nullptr;
            t->storageDir = m_storageDir;
            return std::make_shared<const TensorInfo>(std::move(*t));
        };
        p.scales = channelTensor(q.items[1], "q_per_channel_scales");
        p.zeroPoints = channelTensor(q.items[2], "q_per_channel_zero_points");
        p.axis = static_cast<int>(m_tree.at(q.items[3]).i);
        if (!p.scales) return std::nullopt;
        return p;
    }

    const PickleTree& m_tree;
    CheckpointFile& m_out;
    const std::map<std::string, TensorInfo>& m_persistent;
    std::unordered_map<NodeId, std::string> m_seen;  // containers described, and the path they were first at
    std::unordered_set<NodeId> m_onPath;             // containers the walk is inside
    std::unordered_set<std::string> m_classes;       // m_out.classes, to look up
    std::string m_storageDir;                        // the archive folder of this pickle's storages
    std::vector<std::pair<std::string, double>> m_numbers;
};

// The typed-container helpers of TorchScript's own pickles: torch.jit.load resolves them in its
// C++ unpickler (they return their argument), no Python function runs.
bool isTorchScriptHelper(std::string_view module, std::string_view name)
{
    static constexpr std::array<std::string_view, 7> kHelpers{
        "build_intlist",        "build_tensorlist", "build_doublelist", "build_boollist",
        "build_tensor_from_id", "restore_type_tag", "build_complexlist"};
    return module == "torch.jit._pickle" &&
           std::find(kHelpers.begin(), kHelpers.end(), name) != kHelpers.end();
}

}  // namespace

void describePickle(const PickleTree& tree, CheckpointFile& out,
                    const std::map<std::string, TensorInfo>& persistent, std::string_view storageDir,
                    const std::string& rootPath)
{
    const size_t before = out.tensors.size();
    Walker walker(tree, out, persistent, storageDir);
    walker.walk(tree.root, rootPath, 0);
    nameConvertedLayouts(out, before, walker.objectNumbers());
    for (const auto& [global, use] : tree.globals) {
        const auto& [module, name] = global;
        const std::string dotted = std::string(module).append(".").append(name);
        if (out.container == "torchscript" && isTorchScriptHelper(module, name)) continue;
        switch (riskOf(module, name, use)) {
            case GlobalRisk::Runs:
                out.dangerous.push_back(dotted);
                break;
            case GlobalRisk::Class:
                // the reconstructor only builds the class it is given, which is listed itself;
                // torch.jit.load builds a TorchScript archive's __torch__ classes from the
                // archive's own TorchScript, not by importing Python modules
                if (!isReconstructor(module, name) &&
                    !(out.container == "torchscript" && module.starts_with("__torch__")))
                    out.refusedGlobals.push_back(dotted);
                break;
            case GlobalRisk::Safe:
                break;
        }
    }
    if (!rootPath.empty()) return;  // constants.pkl: the model is data.pkl's
    // The model sits under a key of the root dict ("state_dict": {...}); a bare state_dict whose
    // module is called net has keys "net.0.weight", not "net".
    const PyNode& root = tree.at(tree.root);
    const std::vector<NodeId>& pairs = root.kind == PyNode::Kind::Dict ? root.items : root.extra;
    const auto rootHasKey = [&](std::string_view key) {
        for (size_t k = 0; k + 1 < pairs.size(); k += 2)
            if (tree.at(pairs[k]).kind == PyNode::Kind::Str && tree.at(pairs[k]).text == key) return true;
        return false;
    };
    for (std::string_view key : kModelKeys) {
        const std::string prefix = std::string(key) + ".";
        if (rootHasKey(key) && std::any_of(out.tensors.begin(), out.tensors.end(),
                                           [&](const TensorInfo& t) { return t.name.starts_with(prefix); })) {
            out.modelKey = key;
            break;
        }
    }
}

const StorageType* storageTypeNamed(std::string_view className)
{
    for (const StorageType& s : kStorageTypes)
        if (s.name == className) return &s;
    return nullptr;
}

const StorageType* storageTypeOfDtype(std::string_view dtype)
{
    for (const StorageType& s : kStorageTypes)
        if (s.dtype == dtype) return &s;
    return nullptr;
}

std::string keyText(const PickleTree& tree, NodeId id)
{
    const PyNode& k = tree.at(id);
    return k.kind == Kind::Str ? k.text : k.kind == Kind::Int ? std::to_string(k.i) : "?";
}

}  // namespace qatdoctor::core::checkpoint
