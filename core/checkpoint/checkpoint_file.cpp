#include "core/checkpoint/checkpoint_file.h"

#include <zip.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <set>
#include <string_view>

#include "core/common/file_io.h"
#include "core/common/number_text.h"

namespace qatdoctor::core::checkpoint {
namespace {

using Kind = PyNode::Kind;

constexpr uint64_t kMaxPickleBytes = 1ull << 30;  // a state_dict's pickle is kilobytes to megabytes
constexpr int kMaxDepth = 64;
// The legacy format's first pickle: LONG1 of the magic number 0x1950a86a20f9469cfc6c.
constexpr std::string_view kLegacyMagic{"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 14};

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

struct StorageType {
    std::string_view name;
    std::string_view dtype;
    size_t bytes;
    double (*read)(const char*);  // nullptr: not converted (complex)
};
constexpr std::array<StorageType, 15> kStorageTypes{{
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
    {"ComplexFloatStorage", "complex64", 8, nullptr},
    {"ComplexDoubleStorage", "complex128", 16, nullptr},
}};

const StorageType* storageOfDtype(const std::string& dtype)
{
    for (const StorageType& s : kStorageTypes)
        if (s.dtype == dtype) return &s;
    return nullptr;
}

// Keys under which training checkpoints keep the model's weights, in the order they are tried.
constexpr std::array<std::string_view, 9> kModelKeys{
    "state_dict", "model",       "model_state_dict", "module", "net",
    "network",    "model_state", "state_dict_ema",   "ema"};

struct ZipCloser {
    void operator()(zip_t* z) const { zip_close(z); }
};
struct ZipFileCloser {
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};

class Walker {
public:
    Walker(const PickleTree& tree, CheckpointFile& out) : m_tree(tree), m_out(out) {}

    void walk(NodeId id, const std::string& path, int depth)
    {
        if (depth > kMaxDepth) return;
        const PyNode& n = m_tree.at(id);
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
            case Kind::Bool:
            case Kind::Int:
            case Kind::Float:
            case Kind::Str:
                if (depth <= 2 && !path.empty()) m_out.metadata.emplace_back(path, scalarText(n));
                return;
            default:
                return;
        }
    }

private:
    static std::string join(const std::string& path, const std::string& key)
    {
        return path.empty() ? key : path + "." + key;
    }
    std::string keyText(NodeId id) const
    {
        const PyNode& k = m_tree.at(id);
        return k.kind == Kind::Str ? k.text : k.kind == Kind::Int ? std::to_string(k.i) : "?";
    }
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
        for (size_t k = 0; k + 1 < kv.size(); k += 2) walk(kv[k + 1], join(path, keyText(kv[k])), depth + 1);
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
        if (module == "torch._utils" && (name == "_rebuild_tensor_v2" || name == "_rebuild_tensor" ||
                                         name == "_rebuild_qtensor" || name == "_rebuild_tensor_v3")) {
            if (auto t = tensorOf(n.items[1], path)) m_out.tensors.push_back(std::move(*t));
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
            const std::string cls = std::string(module) + "." + std::string(name);
            if (std::find(m_out.classes.begin(), m_out.classes.end(), cls) == m_out.classes.end())
                m_out.classes.push_back(cls);
        }
        // An nn.Module pickled whole: its parameters, buffers and submodules make the state_dict
        // names; other attributes are settings, not weights.
        if (n.hasState && m_tree.at(n.state).kind == Kind::Dict && item(n.state, "_modules")) {
            for (std::string_view part : {"_parameters", "_buffers", "_modules"})
                if (auto d = item(n.state, part)) walk(*d, path, depth);
            return;
        }
        if (n.hasState) walk(n.state, path, depth + 1);
        walkPairs(n.extra, path, depth);
    }
    std::optional<TensorInfo> tensorOf(NodeId argsId, const std::string& path) const
    {
        const PyNode& args = m_tree.at(argsId);
        if (args.kind != Kind::Tuple || args.items.size() < 4) return std::nullopt;
        const PyNode& pid = m_tree.at(args.items[0]);
        if (pid.kind != Kind::PersistentId) return std::nullopt;
        const PyNode& id = m_tree.at(pid.items[0]);
        if (id.kind != Kind::Tuple || id.items.size() < 5 || m_tree.at(id.items[0]).text != "storage")
            return std::nullopt;
        TensorInfo t;
        t.name = path;
        const PyNode& type = m_tree.at(id.items[1]);
        for (const StorageType& s : kStorageTypes)
            if (type.kind == Kind::Global && type.text2 == s.name) t.dtype = s.dtype;
        if (t.dtype.empty()) t.dtype = type.kind == Kind::Global ? type.text2 : "unknown";
        t.storage = keyText(id.items[2]);
        t.storageNumel = m_tree.at(id.items[4]).i;
        t.offset = m_tree.at(args.items[1]).i;
        for (NodeId d : m_tree.at(args.items[2]).items) t.shape.push_back(m_tree.at(d).i);
        for (NodeId d : m_tree.at(args.items[3]).items) t.stride.push_back(m_tree.at(d).i);
        return t;
    }

    const PickleTree& m_tree;
    CheckpointFile& m_out;
};

void describe(const PickleTree& tree, CheckpointFile& out)
{
    Walker(tree, out).walk(tree.root, "", 0);
    for (const auto& [module, name] : tree.globals)
        if (isDangerousGlobal(module, name))
            out.dangerous.push_back(std::string(module).append(".").append(name));
    for (std::string_view key : kModelKeys) {
        const std::string prefix = std::string(key) + ".";
        if (std::any_of(out.tensors.begin(), out.tensors.end(),
                        [&](const TensorInfo& t) { return t.name.starts_with(prefix); })) {
            out.modelKey = key;
            break;
        }
    }
}

Result<CheckpointFile> readZip(const std::string& path)
{
    int code = 0;
    std::unique_ptr<zip_t, ZipCloser> z(zip_open(path.c_str(), ZIP_RDONLY, &code));
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        Error err{"checkpoint.zip", path + ": not a readable zip archive (" + zip_error_strerror(&e) + ")",
                  path};
        zip_error_fini(&e);
        return err;
    }
    CheckpointFile out;
    out.path = path;
    out.container = "zip";
    const zip_int64_t entries = zip_get_num_entries(z.get(), 0);
    zip_int64_t pickleIndex = -1;
    for (zip_int64_t i = 0; i < entries; ++i) {
        const std::string name = zip_get_name(z.get(), static_cast<zip_uint64_t>(i), 0);
        const size_t slash = name.find('/');
        if (slash == std::string::npos) continue;
        const std::string rest = name.substr(slash + 1);
        if (rest == "constants.pkl")
            return Error{"checkpoint.format",
                         path + ": a TorchScript archive (torch.jit.save), not a torch.save checkpoint",
                         path};
        if (rest == "data.pkl" && pickleIndex < 0) {
            pickleIndex = i;
            out.archiveRoot = name.substr(0, slash);
        }
    }
    if (pickleIndex < 0)
        return Error{"checkpoint.format",
                     path + ": a zip archive without <folder>/data.pkl: not a torch.save file", path};
    zip_stat_t st;
    if (zip_stat_index(z.get(), static_cast<zip_uint64_t>(pickleIndex), 0, &st) != 0 ||
        st.size > kMaxPickleBytes)
        return Error{"checkpoint.zip", path + ": data.pkl is unreadable or larger than 1 GiB", path};
    std::unique_ptr<zip_file_t, ZipFileCloser> f(
        zip_fopen_index(z.get(), static_cast<zip_uint64_t>(pickleIndex), 0));
    std::string bytes(st.size, '\0');
    if (!f || zip_fread(f.get(), bytes.data(), st.size) != static_cast<zip_int64_t>(st.size))
        return Error{"checkpoint.zip", path + ": cannot read " + out.archiveRoot + "/data.pkl", path};
    Result<PickleTree> tree = unpickle(bytes, path + ": " + out.archiveRoot + "/data.pkl");
    if (!tree) return tree.error();
    describe(*tree, out);
    return out;
}

Result<CheckpointFile> readLegacy(const std::string& path, const std::string& bytes)
{
    CheckpointFile out;
    out.path = path;
    out.container = "legacy";
    size_t at = 0;
    // magic, protocol version, system info, the object, the storage keys: five pickles in a row
    PickleTree main, keys;
    for (int k = 0; k < 5; ++k) {
        Result<PickleTree> t =
            unpickle(std::string_view(bytes).substr(at), path + ": pickle " + std::to_string(k + 1));
        if (!t) return t.error();
        at += t->end;
        if (k == 3) main = std::move(*t);
        if (k == 4) keys = std::move(*t);
    }
    describe(main, out);
    // then each storage in the order of the keys: an 8-byte element count and its bytes
    std::map<std::string, size_t> elementBytes;
    for (const TensorInfo& t : out.tensors) elementBytes[t.storage] = dtypeSize(t.dtype);
    for (NodeId k : keys.at(keys.root).items) {
        const std::string key = keys.at(k).text;
        uint64_t numel = 0;
        const std::string storage = std::string(path).append(": storage ").append(key);
        if (at + 8 > bytes.size()) return Error{"checkpoint.format", storage + " is cut off", path};
        std::memcpy(&numel, bytes.data() + at, 8);
        at += 8;
        out.legacyOffsets[key] = at;
        const size_t esz = elementBytes.count(key) ? elementBytes[key] : 0;
        if (esz == 0 || numel > (bytes.size() - at) / esz)
            return Error{"checkpoint.format", storage + " is larger than the file", path, 0,
                         static_cast<int64_t>(at)};
        at += numel * esz;
    }
    return out;
}

}  // namespace

int64_t TensorInfo::numel() const
{
    // the shape comes from the pickle: a negative dimension counts as none, a product past
    // int64 saturates instead of overflowing
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d <= 0) return 0;
        if (n > std::numeric_limits<int64_t>::max() / d) return std::numeric_limits<int64_t>::max();
        n *= d;
    }
    return n;
}

const TensorInfo* CheckpointFile::find(const std::string& name) const
{
    for (const TensorInfo& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

size_t dtypeSize(const std::string& dtype)
{
    const StorageType* s = storageOfDtype(dtype);
    return s ? s->bytes : 0;
}

int probeCheckpoint(std::string_view head)
{
    constexpr int kSure = 90;
    if (head.starts_with(kLegacyMagic)) return kSure;
    // a zip local file header: the name's length at offset 26, the name at 30
    if (!head.starts_with("PK\x03\x04") || head.size() < 30) return 0;
    const size_t length = static_cast<unsigned char>(head[26]) | static_cast<unsigned char>(head[27]) << 8;
    if (head.size() < 30 + length) return 0;
    const std::string_view name = head.substr(30, length);
    return name.ends_with("/data.pkl") ? kSure : 0;
}

Result<CheckpointFile> readCheckpoint(const std::string& path)
{
    Result<std::string> head = readFileHead(path, 64);
    if (!head) return head.error();
    if (head->starts_with("PK\x03\x04")) return readZip(path);
    if (head->starts_with(kLegacyMagic)) {
        Result<std::string> bytes = readFile(path);
        if (!bytes) return bytes.error();
        return readLegacy(path, *bytes);
    }
    return Error{
        "checkpoint.format",
        path + ": neither a torch.save zip archive nor a legacy torch.save stream (first bytes do not match)",
        path};
}

struct TensorReader::Impl {
    explicit Impl(const CheckpointFile& f) : file(f) {}
    const CheckpointFile& file;
    std::unique_ptr<zip_t, ZipCloser> zip;
    std::unique_ptr<FILE, int (*)(FILE*)> stream{nullptr, &std::fclose};
    uint64_t fileSize = 0;
    bool opened = false;
    std::string scratch;  // a strided tensor's storage span, before its elements are gathered
};

TensorReader::TensorReader(const CheckpointFile& file) : m_impl(std::make_unique<Impl>(file)) {}
TensorReader::~TensorReader() = default;

// The storage bytes [first, first + count) of a storage, through the archive or stream opened once
// per reader (a layer table reads hundreds of small tensors; reopening the zip for each would parse
// its directory each time).
Result<void> TensorReader::storageBytes(const std::string& storage, uint64_t first, uint64_t count,
                                        const std::string& what, std::string& bytes)
{
    Impl& m = *m_impl;
    const CheckpointFile& file = m.file;
    if (!m.opened) {
        m.opened = true;
        if (file.container == "zip") {
            int code = 0;
            m.zip.reset(zip_open(file.path.c_str(), ZIP_RDONLY, &code));
        } else {
            std::error_code ec;
            m.fileSize = std::filesystem::file_size(file.path, ec);
            if (!ec) m.stream.reset(std::fopen(file.path.c_str(), "rb"));
        }
    }
    // sized only once the archive or file is known to hold that many bytes; a buffer reused from
    // the tensor before is not cleared (its pages are not touched twice)
    if (file.container == "zip") {
        const std::string entry = file.archiveRoot + "/data/" + storage;
        zip_stat_t st;
        if (!m.zip || zip_stat(m.zip.get(), entry.c_str(), 0, &st) != 0 || st.size < count ||
            st.size - count < first)
            return Error{"checkpoint.zip", what + ": " + entry + " is missing or smaller than its storage",
                         file.path};
        bytes.resize(count);
        // torch.save stores its entries uncompressed: their raw bytes are the data, read without
        // libzip's CRC pass over every weight (a third of a diff's time); a compressed entry
        // (not written by torch.save) is inflated, and read up to `first`
        const zip_flags_t raw = st.comp_method == ZIP_CM_STORE ? ZIP_FL_COMPRESSED : 0;
        std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen(m.zip.get(), entry.c_str(), raw));
        const bool placed =
            f && (first == 0 || zip_fseek(f.get(), static_cast<zip_int64_t>(first), SEEK_SET) == 0);
        if (!placed || zip_fread(f.get(), bytes.data(), count) != static_cast<zip_int64_t>(count))
            return Error{"checkpoint.zip", what + ": cannot read " + entry, file.path};
        return Ok{};
    }
    const auto at = file.legacyOffsets.find(storage);
    if (at == file.legacyOffsets.end() || !m.stream || at->second > m.fileSize ||
        count > m.fileSize - at->second || first > m.fileSize - at->second - count)
        return Error{"checkpoint.format", what + ": its storage is not in the file", file.path};
    bytes.resize(count);
    if (std::fseek(m.stream.get(), static_cast<long>(at->second + first), SEEK_SET) != 0 ||
        std::fread(bytes.data(), 1, count, m.stream.get()) != count)
        return Error{"checkpoint.format", what + ": cannot read its storage", file.path};
    return Ok{};
}

Result<std::string> TensorReader::packedBytes(const TensorInfo& t)
{
    std::string out;
    Result<void> read = readPacked(t, out);
    if (!read) return read.error();
    return out;
}

Result<void> TensorReader::readPacked(const TensorInfo& t, std::string& out)
{
    const StorageType* type = storageOfDtype(t.dtype);
    const size_t esz = type ? type->bytes : 0;
    const std::string what = m_impl->file.path + ": tensor " + t.name;
    if (esz == 0)
        return Error{"checkpoint.dtype", what + " has dtype " + t.dtype + ", not read", m_impl->file.path};
    // The elements span [offset, offset + sum((shape-1)*stride)] of the storage. Every figure
    // comes from the pickle, so each is checked before it sizes anything.
    constexpr int64_t kMaxElements = int64_t{1} << 31;
    if (t.stride.size() != t.shape.size() || t.offset < 0 || t.storageNumel < 0 ||
        t.offset > kMaxElements * 4)
        return Error{"checkpoint.tensor", what + " has an inconsistent shape, stride or offset",
                     m_impl->file.path};
    int64_t last = t.offset, count = 1;
    bool contiguous = true;
    int64_t expected = 1;
    for (size_t d = t.shape.size(); d-- > 0;) {
        if (t.shape[d] < 0 || t.stride[d] < 0 || t.shape[d] > kMaxElements || t.stride[d] > kMaxElements)
            return Error{"checkpoint.tensor", what + " has a negative or huge dimension", m_impl->file.path};
        if (t.shape[d] == 0) {
            out.clear();
            return Ok{};
        }
        count *= t.shape[d];
        if (count > kMaxElements)
            return Error{"checkpoint.tensor", what + " has more than 2^31 elements", m_impl->file.path};
        last += (t.shape[d] - 1) * t.stride[d];
        if (last > kMaxElements * 4)
            return Error{"checkpoint.tensor", what + " reaches past its storage", m_impl->file.path};
        if (t.shape[d] > 1 && t.stride[d] != expected) contiguous = false;
        expected *= t.shape[d];
    }
    if (last >= t.storageNumel)
        return Error{"checkpoint.tensor", what + " reaches past its storage", m_impl->file.path};
    // a contiguous tensor is one slice of its storage; a strided one reads its whole span
    const uint64_t first = static_cast<uint64_t>(t.offset) * esz;
    const uint64_t span = static_cast<uint64_t>(last - t.offset + 1) * esz;
    // What a read may allocate, whatever the pickle or a deflated entry claims: a stride-0
    // tensor over one element would otherwise become gigabytes from a few bytes of file.
    constexpr uint64_t kMaxBytes = uint64_t{1} << 31;
    const uint64_t packed = static_cast<uint64_t>(count) * esz;
    if (packed > kMaxBytes || span > kMaxBytes)
        return Error{"checkpoint.tensor", what + " is larger than 2 GiB, not read", m_impl->file.path};
    constexpr uint64_t kSmallExpansion = uint64_t{64} << 20;
    if (packed > kSmallExpansion && packed / 16 > span)
        return Error{"checkpoint.tensor",
                     what + " repeats " + std::to_string(span) + " stored bytes into " +
                         std::to_string(packed) + " (zero strides), not read",
                     m_impl->file.path};
    try {
        if (contiguous) return storageBytes(t.storage, first, span, what, out);
        if (Result<void> read = storageBytes(t.storage, first, span, what, m_impl->scratch); !read)
            return read;
        out.resize(packed);
    } catch (const std::bad_alloc&) {
        return Error{"checkpoint.tensor", what + ": not enough memory to read it", m_impl->file.path};
    }
    const std::string& bytes = m_impl->scratch;
    std::vector<int64_t> index(t.shape.size(), 0);
    for (size_t k = 0; k < static_cast<size_t>(count); ++k) {
        int64_t e = 0;
        for (size_t d = 0; d < index.size(); ++d) e += index[d] * t.stride[d];
        std::memcpy(out.data() + k * esz, bytes.data() + static_cast<size_t>(e) * esz, esz);
        for (size_t d = index.size(); d-- > 0;) {
            if (++index[d] < t.shape[d]) break;
            index[d] = 0;
        }
    }
    return Ok{};
}

Result<std::vector<double>> TensorReader::values(const TensorInfo& t)
{
    // as doubles a tensor grows up to eight times: big ones are read packed, a block at a time
    constexpr int64_t kMaxValues = int64_t{1} << 27;  // 1 GiB of doubles
    if (t.numel() > kMaxValues)
        return Error{"checkpoint.tensor",
                     m_impl->file.path + ": tensor " + t.name + " has too many elements to convert at once",
                     m_impl->file.path};
    Result<std::string> packed = packedBytes(t);
    if (!packed) return packed.error();
    const size_t esz = dtypeSize(t.dtype);
    std::vector<double> out(esz ? packed->size() / esz : 0);
    if (!decodeElements(t.dtype, packed->data(), out.size(), out.data()))
        return Error{"checkpoint.dtype",
                     m_impl->file.path + ": tensor " + t.name + " has dtype " + t.dtype + ", not read",
                     m_impl->file.path};
    return out;
}

bool decodeElements(const std::string& dtype, const char* packed, size_t count, double* out)
{
    // the element reader is chosen once per call, not per element
    const StorageType* type = storageOfDtype(dtype);
    if (!type || !type->read) return false;
    for (size_t k = 0; k < count; ++k) out[k] = type->read(packed + k * type->bytes);
    return true;
}

Result<std::vector<double>> readTensor(const CheckpointFile& file, const TensorInfo& t)
{
    return TensorReader(file).values(t);
}

}  // namespace qatdoctor::core::checkpoint
