#include "core/model/onnx_file.h"

#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <type_traits>

#include "core/model/onnx_nesting.h"

namespace qatdoctor::core::model {
namespace fs = std::filesystem;

namespace {

std::string tensorLabel(const onnx::TensorProto& t)
{
    return t.name().empty() ? std::string("<unnamed tensor>") : "tensor '" + t.name() + "'";
}

Error tensorError(const OnnxModel& m, const onnx::TensorProto& t, std::string code, const std::string& what)
{
    return makeError(std::move(code), tensorLabel(t) + " in " + m.path + ": " + what, m.path);
}

int elementSize(int32_t type)
{
    using T = onnx::TensorProto;
    switch (type) {
        case T::FLOAT:
        case T::INT32:
        case T::UINT32:
            return 4;
        case T::DOUBLE:
        case T::INT64:
        case T::UINT64:
            return 8;
        case T::FLOAT16:
        case T::BFLOAT16:
        case T::INT16:
        case T::UINT16:
            return 2;
        case T::INT8:
        case T::UINT8:
        case T::BOOL:
            return 1;
        default:
            return 0;
    }
}

float halfToFloat(uint16_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal: renormalise
            exp = 127 - 15 + 1;
            while (!(mant & 0x400u)) {
                mant <<= 1;
                --exp;
            }
            mant &= 0x3ffu;
            bits = sign | (exp << 23) | (mant << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

float bf16ToFloat(uint16_t h)
{
    const uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// A stored value as Out. Floats read as integers saturate (NaN -> 0): a float tensor asked for
// as ints may hold anything, and an out-of-range float-to-int conversion is undefined behaviour.
template <class Out, class V>
Out toOut(V v)
{
    if constexpr (std::is_integral_v<Out> && std::is_floating_point_v<V>) {
        if (v != v) return Out{};
        if (v >= static_cast<V>(std::numeric_limits<Out>::max())) return std::numeric_limits<Out>::max();
        if (v <= static_cast<V>(std::numeric_limits<Out>::lowest()))
            return std::numeric_limits<Out>::lowest();
    }
    return static_cast<Out>(v);
}

// One element of little-endian raw storage as double (exact for every type up to 32 bits).
template <class Out>
Out rawElement(const char* p, int32_t type)
{
    using T = onnx::TensorProto;
    auto load = [p](auto v) {
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    switch (type) {
        case T::FLOAT:
            return toOut<Out>(load(float{}));
        case T::DOUBLE:
            return toOut<Out>(load(double{}));
        case T::FLOAT16:
            return toOut<Out>(halfToFloat(load(uint16_t{})));
        case T::BFLOAT16:
            return toOut<Out>(bf16ToFloat(load(uint16_t{})));
        case T::INT8:
            return static_cast<Out>(load(int8_t{}));
        case T::UINT8:
            return static_cast<Out>(load(uint8_t{}));
        case T::BOOL:
            return static_cast<Out>(load(uint8_t{}) != 0);
        case T::INT16:
            return static_cast<Out>(load(int16_t{}));
        case T::UINT16:
            return static_cast<Out>(load(uint16_t{}));
        case T::INT32:
            return static_cast<Out>(load(int32_t{}));
        case T::UINT32:
            return static_cast<Out>(load(uint32_t{}));
        case T::INT64:
            return static_cast<Out>(load(int64_t{}));
        case T::UINT64:
            return static_cast<Out>(load(uint64_t{}));
        default:
            return Out{};
    }
}

struct ExternalRef {
    std::string path;
    uint64_t offset = 0;
};

// Where `need` bytes of external data are, after the confinement and size checks.
Result<ExternalRef> locateExternal(const OnnxModel& m, const onnx::TensorProto& t, uint64_t need)
{
    std::string location;
    uint64_t offset = 0;
    std::optional<uint64_t> length;
    for (const auto& kv : t.external_data()) {
        if (kv.key() == "location") {
            location = kv.value();
        } else if (kv.key() == "offset" || kv.key() == "length") {
            // the whole field, a non-negative number that fits: "16abc", "-4" and 20 digits are refused
            uint64_t v = 0;
            const std::string& text = kv.value();
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec != std::errc() || end != text.data() + text.size() || text.empty() ||
                v > (uint64_t{1} << 62))
                return tensorError(m, t, "onnx.external_bad",
                                   "external data field '" + kv.key() + "' is not a number: '" + text + "'");
            if (kv.key() == "offset")
                offset = v;
            else
                length = v;
        }
    }
    if (location.empty()) return tensorError(m, t, "onnx.external_bad", "external data without a location");
    if (length && *length != need)
        return tensorError(m, t, "onnx.tensor_size",
                           "external data length " + std::to_string(*length) + " bytes does not match " +
                               std::to_string(need) + " bytes declared by its shape and type");
    auto full = resolveExternalLocation(m.folder, location, m.path);
    if (!full) return full.error();
    std::error_code ec;
    // (stat, never open: a FIFO named as external data must not block the load)
    if (const auto st = fs::status(*full, ec); !ec && fs::exists(st) && !fs::is_regular_file(st))
        return tensorError(m, t, "onnx.external_escape", "external file " + *full + " is not a regular file");
    const uint64_t fileSize = fs::file_size(*full, ec);
    if (ec) return tensorError(m, t, "onnx.external_missing", "cannot read external file " + *full);
    if (offset > fileSize || need > fileSize - offset)
        return tensorError(m, t, "onnx.tensor_size",
                           "claims " + std::to_string(need) + " bytes at offset " + std::to_string(offset) +
                               " but external file " + *full + " has only " + std::to_string(fileSize) +
                               " bytes");
    return ExternalRef{*full, offset};
}

Result<std::string> readExternal(const OnnxModel& m, const onnx::TensorProto& t, uint64_t need)
{
    auto ref = locateExternal(m, t, need);
    if (!ref) return ref.error();
    std::string location;
    for (const auto& kv : t.external_data())
        if (kv.key() == "location") location = kv.value();
    auto bytes = readExternalRange(m.folder, location, ref->offset, need, m.path);
    if (!bytes) return tensorError(m, t, bytes.error().code, bytes.error().message);
    return bytes;
}

// Bytes a tensor's shape and type declare, or an error naming the tensor.
Result<uint64_t> declaredBytes(const OnnxModel& m, const onnx::TensorProto& t)
{
    const int esize = elementSize(t.data_type());
    if (esize == 0)
        return tensorError(
            m, t, "onnx.tensor_type",
            "element type " + std::to_string(t.data_type()) + " has no numeric values to read");
    const int64_t count = tensorElementCount(t);
    if (count < 0) return tensorError(m, t, "onnx.tensor_size", "invalid dims (negative or overflowing)");
    const uint64_t need = static_cast<uint64_t>(count) * static_cast<uint64_t>(esize);
    if (count > 0 && need / static_cast<uint64_t>(esize) != static_cast<uint64_t>(count))
        return tensorError(m, t, "onnx.tensor_size", "declared size overflows");
    return need;
}

// Appends v as the little-endian bytes of element type `type` (typed fields hold int8..int32,
// float16 and bool in int32_data, uint32 in uint64_data).
template <class V>
void appendElement(std::string& out, V v, int32_t type)
{
    using T = onnx::TensorProto;
    auto put = [&out](auto x) { out.append(reinterpret_cast<const char*>(&x), sizeof x); };
    switch (type) {
        case T::FLOAT:
            put(static_cast<float>(v));
            break;
        case T::DOUBLE:
            put(static_cast<double>(v));
            break;
        case T::INT8:
            put(static_cast<int8_t>(v));
            break;
        case T::UINT8:
            put(static_cast<uint8_t>(v));
            break;
        case T::BOOL:
            put(static_cast<uint8_t>(v != 0));
            break;
        case T::INT16:
            put(static_cast<int16_t>(v));
            break;
        case T::UINT16:
        case T::FLOAT16:
        case T::BFLOAT16:
            put(static_cast<uint16_t>(v));
            break;
        case T::INT32:
            put(static_cast<int32_t>(v));
            break;
        case T::UINT32:
            put(static_cast<uint32_t>(v));
            break;
        case T::INT64:
            put(static_cast<int64_t>(v));
            break;
        case T::UINT64:
            put(static_cast<uint64_t>(v));
            break;
        default:
            break;
    }
}

template <class Out>
Result<std::vector<Out>> tensorValues(const OnnxModel& m, const onnx::TensorProto& t)
{
    auto bytes = tensorBytes(m, t);
    if (!bytes) return bytes.error();
    const int32_t type = t.data_type();
    const int esize = elementSize(type);
    const std::string_view raw = bytes->view();
    std::vector<Out> out(raw.size() / static_cast<size_t>(esize));
    if constexpr (std::is_same_v<Out, float>) {
        if (type == onnx::TensorProto::FLOAT) {
            if (!raw.empty()) std::memcpy(out.data(), raw.data(), raw.size());
            return out;
        }
    }
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = rawElement<Out>(raw.data() + i * static_cast<size_t>(esize), type);
    return out;
}

bool hasEscapingComponent(const fs::path& p)
{
    for (const auto& part : p)
        if (part == "..") return true;
    return false;
}

}  // namespace

std::vector<int64_t> tensorDims(const onnx::TensorProto& t)
{
    return {t.dims().begin(), t.dims().end()};
}

int64_t tensorElementCount(const onnx::TensorProto& t)
{
    int64_t n = 1;
    for (int64_t d : t.dims()) {
        if (d < 0) return -1;
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
        n *= d;
    }
    return n;
}

bool isExternal(const onnx::TensorProto& t)
{
    return t.data_location() == onnx::TensorProto::EXTERNAL;
}

Result<std::string> resolveExternalLocation(const std::string& folder, const std::string& location,
                                            const std::string& modelPath)
{
    auto escape = [&](const std::string& why) {
        return makeError("onnx.external_escape",
                         "external data location '" + location + "' in " + modelPath + " refused: " + why,
                         modelPath);
    };
    if (folder.empty()) return escape("this model has no folder to read side files from");
    const fs::path loc(location);
    if (location.empty() || loc.is_absolute() || loc.has_root_name() || loc.has_root_directory())
        return escape("absolute paths are not allowed");
    if (hasEscapingComponent(loc)) return escape("'..' is not allowed");
    std::error_code ec;
    const fs::path base = fs::canonical(folder, ec);
    if (ec) return escape("the model folder cannot be resolved");
    const fs::path full = base / loc;
    if (!fs::exists(full, ec))
        return makeError("onnx.external_missing",
                         modelPath + ": external data file '" + location + "' not found next to the model",
                         modelPath);
    const fs::path real = fs::canonical(full, ec);
    if (ec) return escape("it cannot be resolved");
    // A symlink inside the folder may point anywhere; compare the resolved path component-wise.
    auto b = base.begin();
    auto r = real.begin();
    for (; b != base.end(); ++b, ++r)
        if (r == real.end() || *b != *r) return escape("it resolves outside the model's folder");
    return real.string();
}

Result<std::string> readExternalRange(const std::string& folder, const std::string& location, uint64_t offset,
                                      std::optional<uint64_t> length, const std::string& modelPath)
{
    auto checked = resolveExternalLocation(folder, location, modelPath);
    if (!checked) return checked.error();
    auto refuse = [&](const std::string& code, const std::string& why) {
        return makeError(code, "external data file '" + location + "' of " + modelPath + ": " + why,
                         modelPath);
    };
    std::error_code ec;
    const fs::path base = fs::canonical(folder, ec);
    if (ec) return refuse("onnx.external_escape", "the model folder cannot be resolved");
    // open once and judge what was opened, not the name: the name may point elsewhere by now
    const int fd = ::open((base / location).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return refuse("onnx.external_missing", std::string("cannot open: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return refuse("onnx.external_escape", "not a regular file");
    char real[4096];
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(self.c_str(), real, sizeof real - 1);
    if (n <= 0) return refuse("onnx.external_escape", "the opened file cannot be located");
    const fs::path opened(std::string(real, static_cast<size_t>(n)));
    auto b = base.begin();
    auto r = opened.begin();
    for (; b != base.end(); ++b, ++r)
        if (r == opened.end() || *b != *r)
            return refuse("onnx.external_escape", "it resolves outside the model's folder");
    const auto size = static_cast<uint64_t>(st.st_size);
    if (offset > size)
        return refuse("onnx.tensor_size", "offset " + std::to_string(offset) + " is past its end");
    const uint64_t want = length ? *length : size - offset;
    if (want > size - offset)
        return refuse("onnx.tensor_size", "holds " + std::to_string(size - offset) + " bytes after offset " +
                                              std::to_string(offset) + ", " + std::to_string(want) +
                                              " wanted");
    std::string out(static_cast<size_t>(want), '\0');
    uint64_t done = 0;
    while (done < want) {
        const ssize_t got = ::pread(fd, out.data() + done, static_cast<size_t>(want - done),
                                    static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return refuse("io.read", "short read at offset " + std::to_string(offset + done));
        done += static_cast<uint64_t>(got);
    }
    return out;
}

namespace {

// Exporters often leave node names empty (ONNX Runtime's quantizer, hand-built graphs). Each gets
// the label "#<index> <OpType>" here, once, so every message, table, JSON file and simulation
// result names the same node the same way.
void nameUnnamedNodes(onnx::GraphProto& graph)
{
    for (int i = 0; i < graph.node_size(); ++i) {
        onnx::NodeProto* node = graph.mutable_node(i);
        if (node->name().empty()) node->set_name(unnamedNodeLabel(i, node->op_type()));
    }
}

}  // namespace

std::string unnamedNodeLabel(int index, std::string_view opType)
{
    return "#" + std::to_string(index) + " " + std::string(opType);
}

Result<OnnxModel> parseOnnx(std::string_view bytes, const std::string& pathForMessages,
                            const std::string& folder)
{
    if (bytes.empty())
        return makeError("onnx.not_onnx", "not an ONNX model: " + pathForMessages + " is empty",
                         pathForMessages);
    if (bytes.size() > static_cast<size_t>(INT_MAX))
        return makeError("io.too_large",
                         pathForMessages +
                             ": over 2 GiB; such ONNX models must keep their weights in external "
                             "data files",
                         pathForMessages);
    auto proto = std::make_shared<onnx::ModelProto>();
    bool parsed = false;
    try {
        google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  static_cast<int>(bytes.size()));
        // The 64 MB default would reject ordinary large models.
        in.SetTotalBytesLimit(INT_MAX);
        in.SetRecursionLimit(kMaxOnnxNesting);
        parsed = proto->ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
    } catch (const std::exception& e) {
        return makeError("onnx.parse", pathForMessages + ": protobuf error: " + e.what(), pathForMessages);
    }
    // Every ModelProto writer puts ir_version (field 1, varint: tag 0x08) first.
    const bool modelHead = static_cast<unsigned char>(bytes[0]) == 0x08;
    if (!parsed && !modelHead)
        return makeError(
            "onnx.not_onnx",
            "not an ONNX model: " + pathForMessages + " does not start like a protobuf ModelProto",
            pathForMessages, 0, 0);
    if (!parsed && onnxNestingDepth(bytes) > kMaxOnnxNesting)
        return makeError(
            "onnx.too_deep",
            pathForMessages + ": graphs nested in graphs (If/Loop/Scan bodies) more than " +
                std::to_string(kMaxOnnxNesting / 3) + " deep, past what this reader follows " +
                "(its structure is sound; the depth is refused to keep the reader's stack bounded)",
            pathForMessages);
    if (!parsed)
        return makeError("onnx.parse",
                         "corrupt or truncated ONNX model " + pathForMessages + " (protobuf parse failed, " +
                             std::to_string(bytes.size()) + " bytes)",
                         pathForMessages);
    // Arbitrary bytes sometimes parse as a protobuf of unknown fields; a real model has a graph
    // and an opset import. The opset list is written after the graph, so a file cut exactly at a
    // field boundary also ends up here.
    if (!proto->has_graph() || proto->opset_import_size() == 0) {
        const bool looksCut = proto->has_graph() && proto->graph().node_size() > 0;
        return makeError(
            looksCut ? "onnx.truncated" : "onnx.not_onnx",
            looksCut ? "truncated ONNX model " + pathForMessages + " (no opset_import after the graph)"
                     : "not an ONNX model: " + pathForMessages + " has no graph / opset_import",
            pathForMessages);
    }
    nameUnnamedNodes(*proto->mutable_graph());
    OnnxModel m;
    for (const auto& op : proto->opset_import())
        if (op.domain().empty() || op.domain() == "ai.onnx") m.opset = op.version();
    m.proto = std::move(proto);
    m.path = pathForMessages;
    m.folder = folder;
    return m;
}

namespace {

// A read-only private mapping of a whole file: the parser copies what it keeps, so mapping saves
// the read() copy of a 100+ MB model.
class MappedFile {
public:
    ~MappedFile()
    {
        if (m_data) ::munmap(m_data, m_size);
    }
    Result<std::string_view> open(const std::string& path)
    {
        const int fd =
            ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block the open
        if (fd < 0) return makeError("io.open", "cannot open " + path + ": " + std::strerror(errno), path);
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            return makeError("io.open", path + " is not a regular file", path);
        }
        if (static_cast<uint64_t>(st.st_size) > static_cast<uint64_t>(INT_MAX)) {
            ::close(fd);
            return makeError(
                "io.too_large",
                path + " is " + std::to_string(st.st_size) +
                    " bytes; ONNX models over 2 GiB must keep their weights in external data files",
                path);
        }
        m_size = static_cast<size_t>(st.st_size);
        if (m_size == 0) {
            ::close(fd);
            return std::string_view();
        }
        void* p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
        ::close(fd);
        if (p == MAP_FAILED)
            return makeError("io.read", "cannot map " + path + ": " + std::strerror(errno), path);
        ::madvise(p, m_size, MADV_SEQUENTIAL);
        m_data = p;
        return std::string_view(static_cast<const char*>(p), m_size);
    }

private:
    void* m_data = nullptr;
    size_t m_size = 0;
};

}  // namespace

Result<OnnxModel> readOnnxFile(const std::string& path, const ProgressFn& progress)
{
    if (!reportProgress(progress, 0.0, "reading " + path))
        return makeError(kCancelledCode, "cancelled", path);
    MappedFile file;
    auto bytes = file.open(path);
    if (!bytes) return bytes.error();
    if (!reportProgress(progress, 0.1, "parsing " + path))
        return makeError(kCancelledCode, "cancelled", path);
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    auto model = parseOnnx(*bytes, path, folder.string());
    if (model) reportProgress(progress, 1.0, "parsed " + path);
    return model;
}

Result<void> checkExternalTensor(const OnnxModel& model, const onnx::TensorProto& t)
{
    if (!isExternal(t)) return Ok{};
    auto need = declaredBytes(model, t);
    if (!need) return need.error();
    auto ref = locateExternal(model, t, *need);
    if (!ref) return ref.error();
    return Ok{};
}

Result<TensorBytes> tensorBytes(const OnnxModel& m, const onnx::TensorProto& t)
{
    using T = onnx::TensorProto;
    auto needOr = declaredBytes(m, t);
    if (!needOr) return needOr.error();
    const uint64_t need = *needOr;
    const int64_t count = tensorElementCount(t);
    TensorBytes out;
    if (isExternal(t)) {
        auto r = readExternal(m, t, need);
        if (!r) return r.error();
        out.owned = std::move(*r);
        return out;
    }
    if (t.has_raw_data()) {
        if (t.raw_data().size() != need)
            return tensorError(m, t, "onnx.tensor_size",
                               "raw_data has " + std::to_string(t.raw_data().size()) +
                                   " bytes but its shape and type need " + std::to_string(need));
        out.borrowed = t.raw_data();
        return out;
    }
    // typed fields: one value per element, checked before anything is allocated
    auto packed = [&](const auto& field) -> Result<TensorBytes> {
        if (field.size() != count)
            return tensorError(m, t, "onnx.tensor_size",
                               "has " + std::to_string(field.size()) + " values but its shape needs " +
                                   std::to_string(count));
        out.owned.reserve(static_cast<size_t>(need));
        for (const auto v : field) appendElement(out.owned, v, t.data_type());
        return out;
    };
    switch (t.data_type()) {
        case T::FLOAT:
            return packed(t.float_data());
        case T::DOUBLE:
            return packed(t.double_data());
        case T::INT64:
            return packed(t.int64_data());
        case T::UINT32:
        case T::UINT64:
            return packed(t.uint64_data());
        default:
            return packed(t.int32_data());  // int8..int32, uint8, uint16, bool, float16, bfloat16
    }
}

Result<std::vector<float>> tensorAsFloats(const OnnxModel& model, const onnx::TensorProto& t)
{
    return tensorValues<float>(model, t);
}

Result<std::vector<int64_t>> tensorAsInts(const OnnxModel& model, const onnx::TensorProto& t)
{
    return tensorValues<int64_t>(model, t);
}

}  // namespace qatdoctor::core::model
