#include "core/checkpoint/checkpoint_file.h"

#include <zip.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <set>
#include <string_view>

#include "core/checkpoint/checkpoint_contents.h"
#include "core/checkpoint/checkpoint_legacy.h"
#include "core/checkpoint/offset_file.h"
#include "core/common/file_io.h"
#include "core/common/number_text.h"

namespace qatdoctor::core::checkpoint {
namespace {

// count bytes of an open entry into `into`, grown as they arrive: an archive whose directory claims
// a gigabyte it does not hold fails at its end instead of making a zero-filled gigabyte first.
bool readZipEntry(zip_file_t* f, uint64_t count, std::string& into)
{
    constexpr uint64_t kChunk = uint64_t{16} << 20;
    into.clear();
    while (into.size() < count) {
        const uint64_t want = std::min(kChunk, count - into.size());
        const size_t at = into.size();
        into.resize(at + want);
        const zip_int64_t got = zip_fread(f, into.data() + at, want);
        if (got != static_cast<zip_int64_t>(want)) return false;
    }
    return true;
}

using Kind = PyNode::Kind;

constexpr uint64_t kMaxPickleBytes = 1ull << 30;  // a state_dict's pickle is kilobytes to megabytes

struct ZipCloser {
    void operator()(zip_t* z) const { zip_close(z); }
};
struct ZipFileCloser {
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};

// Reads and describes one pickle of the archive, "<root>/<name>.pkl", its storages under
// "<root>/<name>/" (data.pkl's tensors are named from its root, constants.pkl's "constants.N").
Result<void> readPickleEntry(zip_t* z, zip_int64_t index, const std::string& name, MemoryBudget& budget,
                             CheckpointFile& out)
{
    const std::string& path = out.path;
    const std::string entry = out.archiveRoot + "/" + name + ".pkl";
    zip_stat_t st;
    if (zip_stat_index(z, static_cast<zip_uint64_t>(index), 0, &st) != 0 || st.size > kMaxPickleBytes)
        return Error{"checkpoint.zip", path + ": " + entry + " is unreadable or larger than 1 GiB", path};
    if (!budget.take(st.size))
        return Error{"checkpoint.budget", path + ": " + budget.refusal(entry, st.size), path};
    std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen_index(z, static_cast<zip_uint64_t>(index), 0));
    std::string bytes;
    if (!f || !readZipEntry(f.get(), st.size, bytes))
        return Error{
            "checkpoint.zip",
            path + ": cannot read " + entry + " (the archive claims " + std::to_string(st.size) + " bytes)",
            path};
    PickleLimits limits;
    limits.budget = &budget;
    Result<PickleTree> tree = unpickle(bytes, path + ": " + entry, limits);
    if (!tree) return tree.error();
    describePickle(*tree, out, {}, name, name == "data" ? std::string{} : name);
    return Ok{};
}

Result<CheckpointFile> readZip(const std::string& path, MemoryBudget& budget)
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
    zip_int64_t pickleIndex = -1, constantsIndex = -1;
    for (zip_int64_t i = 0; i < entries; ++i) {
        const std::string name = zip_get_name(z.get(), static_cast<zip_uint64_t>(i), 0);
        const size_t slash = name.find('/');
        if (slash == std::string::npos) continue;
        const std::string rest = name.substr(slash + 1);
        if (rest == "constants.pkl" && constantsIndex < 0) constantsIndex = i;
        if (rest == "data.pkl" && pickleIndex < 0) {
            pickleIndex = i;
            out.archiveRoot = name.substr(0, slash);
        }
    }
    if (pickleIndex < 0)
        return Error{"checkpoint.format",
                     path + ": a zip archive without <folder>/data.pkl: not a torch.save file", path};
    // torch.jit.save's archive: data.pkl holds the module tree (its tensors by attribute name),
    // constants.pkl the tensors its code uses; the code itself is text, never run
    if (constantsIndex >= 0) out.container = "torchscript";
    Result<void> data = readPickleEntry(z.get(), pickleIndex, "data", budget, out);
    if (!data) return data.error();
    if (constantsIndex >= 0) {
        Result<void> constants = readPickleEntry(z.get(), constantsIndex, "constants", budget, out);
        if (!constants) return constants.error();
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

model::DType TensorInfo::type() const
{
    return model::parseDType(dtype).value_or(model::DType::Unknown);
}

uint64_t TensorInfo::packedBytes() const
{
    return static_cast<uint64_t>(std::min<int64_t>(numel(), int64_t{1} << 40)) * dtypeSize(dtype);
}

const std::string* PickledModule::setting(std::string_view name) const
{
    for (const auto& [key, value] : settings)
        if (key == name) return &value;
    return nullptr;
}

bool CheckpointFile::zipped() const
{
    return container == "zip" || container == "torchscript";
}

bool CheckpointFile::holdsQuantizedTensors() const
{
    return std::any_of(tensors.begin(), tensors.end(),
                       [](const TensorInfo& t) { return t.quant.has_value(); });
}

bool QTensorParams::floatZeroPoints() const
{
    return zeroPoints && model::isFloat(zeroPoints->type());
}

const char* checkpointKindName(const CheckpointFile& file)
{
    if (file.container == "torchscript") return "torchscript";
    if (file.modelKey.empty() && file.modules.count("")) return "whole_module";
    if (!file.modelKey.empty() || !file.metadata.empty()) return "training_checkpoint";
    return "state_dict";
}

const TensorInfo* CheckpointFile::find(const std::string& name) const
{
    for (const TensorInfo& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

size_t dtypeSize(const std::string& dtype)
{
    const StorageType* s = storageTypeOfDtype(dtype);
    return s ? s->bytes : 0;
}

int probeCheckpoint(std::string_view head)
{
    constexpr int kSure = 90;
    if (startsLegacyStream(head) || startsTorchTar(head)) return kSure;
    // a zip local file header: the name's length at offset 26, the name at 30
    if (!head.starts_with("PK\x03\x04") || head.size() < 30) return 0;
    const size_t length = static_cast<unsigned char>(head[26]) | static_cast<unsigned char>(head[27]) << 8;
    if (head.size() < 30 + length) return 0;
    const std::string_view name = head.substr(30, length);
    // torch.save writes "<folder>/data.pkl" first; torch.jit.save its storages ("<folder>/data/0")
    // or, in older versions, "<folder>/version"
    const size_t slash = name.find('/');
    if (slash == std::string_view::npos || slash == 0) return 0;
    const std::string_view rest = name.substr(slash + 1);
    if (rest == "data.pkl") return kSure;
    constexpr int kLikely = 70;
    const bool storage = rest.starts_with("data/") && rest.size() > 5 &&
                         rest.find_first_not_of("0123456789", 5) == std::string_view::npos;
    return storage || rest == "version" || rest == "constants.pkl" ? kLikely : 0;
}

Result<CheckpointFile> readCheckpoint(const std::string& path, MemoryBudget* budget)
{
    MemoryBudget own;
    MemoryBudget& b = budget ? *budget : own;
    Result<std::string> head = readFileHead(path, size_t{64} << 10);  // a tar's first headers
    if (!head) return head.error();
    if (head->starts_with("PK\x03\x04")) return readZip(path, b);
    if (startsLegacyStream(*head)) return readLegacyStream(path, b);
    if (startsTorchTar(*head)) return readLegacyTar(path, b);
    return Error{
        "checkpoint.format",
        path +
            ": neither a torch.save zip archive nor a legacy torch.save stream or tar (first bytes do not "
            "match)",
        path};
}

struct TensorReader::Impl {
    explicit Impl(const CheckpointFile& f) : file(f) {}
    const CheckpointFile& file;
    std::unique_ptr<zip_t, ZipCloser> zip;
    std::optional<OffsetFile> stream;  // the legacy and tar forms
    bool opened = false;
    std::string scratch;  // a strided tensor's storage span, before its elements are gathered
};

TensorReader::TensorReader(const CheckpointFile& file) : m_impl(std::make_unique<Impl>(file)) {}
TensorReader::~TensorReader() = default;

// The storage bytes [first, first + count) of a tensor's storage, through the archive or stream
// opened once per reader (a layer table reads hundreds of small tensors; reopening the zip for
// each would parse its directory each time).
Result<void> TensorReader::storageBytes(const TensorInfo& tensor, uint64_t first, uint64_t count,
                                        const std::string& what, std::string& bytes)
{
    Impl& m = *m_impl;
    const CheckpointFile& file = m.file;
    if (!m.opened) {
        m.opened = true;
        if (file.zipped()) {
            int code = 0;
            m.zip.reset(zip_open(file.path.c_str(), ZIP_RDONLY, &code));
        } else if (Result<OffsetFile> f = OffsetFile::open(file.path)) {
            m.stream = std::move(*f);
        }
    }
    // filled as the bytes arrive (readZipEntry), never sized to what the archive claims first
    if (file.zipped()) {
        const std::string entry = file.archiveRoot + "/" + tensor.storageDir + "/" + tensor.storage;
        zip_stat_t st;
        if (!m.zip || zip_stat(m.zip.get(), entry.c_str(), 0, &st) != 0 || st.size < count ||
            st.size - count < first)
            return Error{"checkpoint.zip", what + ": " + entry + " is missing or smaller than its storage",
                         file.path};
        // torch.save stores its entries uncompressed: their raw bytes are the data, read without
        // libzip's CRC pass over every weight (a third of a diff's time); a compressed entry
        // (not written by torch.save) is inflated, and read up to `first`
        const zip_flags_t raw = st.comp_method == ZIP_CM_STORE ? ZIP_FL_COMPRESSED : 0;
        std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen(m.zip.get(), entry.c_str(), raw));
        const bool placed =
            f && (first == 0 || zip_fseek(f.get(), static_cast<zip_int64_t>(first), SEEK_SET) == 0);
        if (!placed || !readZipEntry(f.get(), count, bytes))
            return Error{"checkpoint.zip", what + ": cannot read " + entry, file.path};
        return Ok{};
    }
    const auto at = file.legacyOffsets.find(tensor.storage);
    const uint64_t size = m.stream ? m.stream->size() : 0;
    if (at == file.legacyOffsets.end() || at->second > size || count > size - at->second ||
        first > size - at->second - count)
        return Error{"checkpoint.format", what + ": its storage is not in the file", file.path};
    if (!m.stream->read(at->second + first, count, size, what, bytes))
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
    const StorageType* type = storageTypeOfDtype(t.dtype);
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
        if (contiguous) return storageBytes(t, first, span, what, out);
        if (Result<void> read = storageBytes(t, first, span, what, m_impl->scratch); !read) return read;
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
    const StorageType* type = storageTypeOfDtype(dtype);
    if (!type || !type->read) return false;
    for (size_t k = 0; k < count; ++k) out[k] = type->read(packed + k * type->bytes);
    return true;
}

Result<std::vector<double>> readTensor(const CheckpointFile& file, const TensorInfo& t)
{
    return TensorReader(file).values(t);
}

}  // namespace qatdoctor::core::checkpoint
