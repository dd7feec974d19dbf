#include "core/checkpoint/checkpoint_legacy.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "core/checkpoint/checkpoint_contents.h"
#include "core/checkpoint/offset_file.h"
#include "core/checkpoint/pickle_vm.h"

namespace qatdoctor::core::checkpoint {
namespace {

using Kind = PyNode::Kind;

// LONG1 of the magic number 0x1950a86a20f9469cfc6c, the legacy stream's first pickle.
constexpr std::string_view kLegacyMagic{"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 14};
constexpr int64_t kMaxRecords = 10'000'000;  // storages or tensors in one file
constexpr size_t kTarBlock = 512;
// the members torch.save wrote into its tar, in the order it wrote them
constexpr std::string_view kTarMembers[] = {"sys_info", "pickle", "tensors", "storages"};

std::optional<int64_t> rootInt(const PickleTree& t)
{
    const PyNode& n = t.at(t.root);
    return n.kind == Kind::Int ? std::optional<int64_t>(n.i) : std::nullopt;
}

// The items of the root when it is a tuple (or list) of at least `size` items.
const std::vector<NodeId>* rootTuple(const PickleTree& t, NodeId id, size_t size)
{
    const PyNode& n = t.at(id);
    return (n.kind == Kind::Tuple || n.kind == Kind::List) && n.items.size() >= size ? &n.items : nullptr;
}

// --- tar -------------------------------------------------------------------------------------

struct TarMember {
    std::string name;
    uint64_t data = 0, size = 0;
};

struct TarListing {
    std::vector<TarMember> members;
    bool endBlockSeen = false;  // false: the file stopped after a member (cut off, or a lax writer)
};

std::string_view field(std::string_view header, size_t offset, size_t length)
{
    const std::string_view f = header.substr(offset, length);
    return f.substr(0, f.find('\0'));
}

// A header's number: octal digits, or big-endian base-256 when the first byte's high bit is set
// (GNU tar's form for sizes of 8 GiB and more).
std::optional<uint64_t> tarNumber(std::string_view f)
{
    uint64_t v = 0;
    if (!f.empty() && (static_cast<uint8_t>(f[0]) & 0x80)) {
        for (size_t k = 1; k < f.size(); ++k) {
            if (v >> 56) return std::nullopt;
            v = v << 8 | static_cast<uint8_t>(f[k]);
        }
        return v;
    }
    size_t k = 0;
    while (k < f.size() && f[k] == ' ') ++k;
    for (; k < f.size() && f[k] >= '0' && f[k] <= '7'; ++k) {
        if (v >> 60) return std::nullopt;
        v = v * 8 + static_cast<uint64_t>(f[k] - '0');
    }
    return v;
}

// The checksum of a tar header: the sum of its bytes with the checksum field counted as spaces.
bool tarChecksumOk(std::string_view header)
{
    const std::optional<uint64_t> stored = tarNumber(header.substr(148, 8));
    uint64_t sum = 0;
    for (size_t k = 0; k < kTarBlock; ++k)
        sum += (k >= 148 && k < 156) ? uint64_t{' '} : static_cast<uint8_t>(header[k]);
    return stored && *stored == sum;
}

std::string memberName(std::string name)
{
    while (name.starts_with("./")) name.erase(0, 2);
    return name;
}

// Decimal digits only, up to max; none otherwise.
std::optional<uint64_t> decimal(std::string_view digits, uint64_t max)
{
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc{} || end != digits.data() + digits.size() || v > max) return std::nullopt;
    return v;
}

// Extended headers (PAX 'x' and 'g', GNU 'L' long names) describe the member after them.
bool isExtendedHeader(char type)
{
    return type == 'x' || type == 'g' || type == 'L';
}

// Where the header after a member of `size` bytes whose data starts at `data` begins.
uint64_t nextHeader(uint64_t data, uint64_t size)
{
    return data + (size + kTarBlock - 1) / kTarBlock * kTarBlock;
}

// What extended headers say of the next member, overriding its own header's fields.
struct PendingOverride {
    std::string name;
    bool hasSize = false;
    uint64_t size = 0;
};

// The records of a PAX extended header ("<length> <key>=<value>\n"): path and size.
void readPax(std::string_view body, PendingOverride& next)
{
    for (size_t pos = 0; pos < body.size();) {
        const size_t space = body.find(' ', pos);
        if (space == std::string_view::npos) return;
        const std::optional<uint64_t> length = decimal(body.substr(pos, space - pos), body.size() - pos);
        if (!length || *length <= space - pos) return;
        std::string_view record = body.substr(space + 1, pos + *length - space - 1);
        if (record.ends_with('\n')) record.remove_suffix(1);
        const size_t eq = record.find('=');
        if (eq != std::string_view::npos && record.substr(0, eq) == "path") next.name = record.substr(eq + 1);
        if (eq != std::string_view::npos && record.substr(0, eq) == "size") {
            // an unreadable size is taken as larger than any file, so the member reads as cut off
            next.hasSize = true;
            next.size = decimal(record.substr(eq + 1), UINT64_MAX).value_or(UINT64_MAX);
        }
        pos += *length;
    }
}

Result<TarListing> tarMembers(const OffsetFile& file, const std::string& path)
{
    constexpr size_t kMaxMembers = 4096;        // torch writes four
    constexpr uint64_t kMaxExtended = 1 << 20;  // a PAX record or GNU long name
    TarListing listing;
    std::vector<TarMember>& members = listing.members;
    PendingOverride next;
    // an archive may end without its two zero blocks: the end of the file ends it too
    for (uint64_t offset = 0; offset + kTarBlock <= file.size();) {
        const std::string where = path + ": tar header";
        Result<std::string> header = file.bytes(offset, kTarBlock, file.size(), where);
        if (!header) return header.error();
        if (std::all_of(header->begin(), header->end(), [](char c) { return c == '\0'; })) {
            listing.endBlockSeen = true;
            break;
        }
        if (!tarChecksumOk(*header))
            return Error{"checkpoint.format",
                         where + " is damaged (its checksum does not match)" + byteAt(offset), path, 0,
                         static_cast<int64_t>(offset)};
        const std::optional<uint64_t> headerSize = tarNumber(std::string_view(*header).substr(124, 12));
        const uint64_t size = next.hasSize ? next.size : headerSize.value_or(UINT64_MAX);
        const uint64_t data = offset + kTarBlock;
        if (size > file.size() - data)
            return Error{"checkpoint.truncated", where + ": its member is cut off" + byteAt(offset), path, 0,
                         static_cast<int64_t>(offset)};
        const char type = (*header)[156];
        if (isExtendedHeader(type)) {
            if (size > kMaxExtended)
                return Error{"checkpoint.format",
                             where + ": an extended header larger than 1 MiB" + byteAt(offset), path, 0,
                             static_cast<int64_t>(offset)};
            Result<std::string> body = file.bytes(data, size, file.size(), where);
            if (!body) return body.error();
            if (type == 'x') readPax(*body, next);
            if (type == 'L') next.name = std::string(field(*body, 0, body->size()));
        } else {
            std::string name(field(*header, 0, 100));
            const std::string_view prefix = field(*header, 345, 155);
            if (field(*header, 257, 5) == "ustar" && !prefix.empty())
                name.insert(0, std::string(prefix) + "/");
            members.push_back({memberName(next.name.empty() ? name : next.name), data, size});
            next = {};
            if (members.size() > kMaxMembers)
                return Error{"checkpoint.format", path + ": a tar archive of more than 4096 members", path};
        }
        offset = nextHeader(data, size);
    }
    return listing;
}

struct StorageSpan {
    uint64_t offset = 0;  // of its first byte in the file
    int64_t numel = 0;
    const StorageType* type = nullptr;
};

// The pickle at offset, with offset moved past it.
Result<PickleTree> nextPickle(const OffsetFile& file, uint64_t& offset, uint64_t end, const std::string& what,
                              MemoryBudget* budget = nullptr)
{
    Result<PickleTree> t = file.pickle(offset, end, what, budget);
    if (t) offset += t->end;
    return t;
}

// The pickled count of records a storages or tensors member starts with.
Result<int64_t> recordCount(const OffsetFile& file, uint64_t& offset, uint64_t end, const std::string& where,
                            const std::string& path, const char* records)
{
    Result<PickleTree> count = nextPickle(file, offset, end, where + ", its count");
    if (!count) return count.error();
    const std::optional<int64_t> n = rootInt(*count);
    if (!n || *n < 0 || *n > kMaxRecords)
        return Error{"checkpoint.format", where + " does not start with a count of " + records, path};
    return *n;
}

// The storages member: per storage a pickled (key, location, type), its count and bytes; then
// the views, (view key, root key, offset, numel), storages sharing another's bytes.
Result<std::map<std::string, StorageSpan>> tarStorages(const OffsetFile& file, const TarMember& m,
                                                       const std::string& path)
{
    const std::string where = path + ": tar member storages";
    const uint64_t end = m.data + m.size;
    uint64_t offset = m.data;
    const Result<int64_t> n = recordCount(file, offset, end, where, path, "storages");
    if (!n) return n.error();
    std::map<std::string, StorageSpan> spans;
    for (int64_t k = 0; k < *n; ++k) {
        const std::string what = where + ", storage " + std::to_string(k + 1);
        Result<PickleTree> record = nextPickle(file, offset, end, what);
        if (!record) return record.error();
        const std::vector<NodeId>* items = rootTuple(*record, record->root, 3);
        const PyNode* type = items ? &record->at((*items)[2]) : nullptr;
        const StorageType* storageType =
            type && type->kind == Kind::Global ? storageTypeNamed(type->text2) : nullptr;
        if (!storageType)
            return Error{"checkpoint.format",
                         what + " is not a (key, location, storage type) of a known type" + byteAt(offset),
                         path, 0, static_cast<int64_t>(offset)};
        Result<int64_t> numel = file.integer(offset, end, what);
        if (!numel) return numel.error();
        offset += 8;
        if (*numel < 0 || static_cast<uint64_t>(*numel) > (end - offset) / storageType->bytes)
            return Error{"checkpoint.truncated",
                         what + " is larger than what is left of its member" + byteAt(offset), path, 0,
                         static_cast<int64_t>(offset)};
        spans[keyText(*record, (*items)[0])] = {offset, *numel, storageType};
        offset += static_cast<uint64_t>(*numel) * storageType->bytes;
    }
    Result<PickleTree> views = file.pickle(offset, end, where + ", its views");
    if (!views) return views.error();
    const PyNode& list = views->at(views->root);
    for (NodeId v :
         list.kind == Kind::List || list.kind == Kind::Tuple ? list.items : std::vector<NodeId>{}) {
        const std::vector<NodeId>* items = rootTuple(*views, v, 4);
        const auto root = items ? spans.find(keyText(*views, (*items)[1])) : spans.end();
        const int64_t first = items ? views->at((*items)[2]).i : -1,
                      numel = items ? views->at((*items)[3]).i : -1;
        if (root == spans.end() || first < 0 || numel < 0 || first > root->second.numel ||
            numel > root->second.numel - first)
            return Error{"checkpoint.format", where + ": a storage view outside the storage it views", path};
        StorageSpan view = root->second;
        view.offset += static_cast<uint64_t>(first) * view.type->bytes;
        view.numel = numel;
        spans[keyText(*views, (*items)[0])] = view;
    }
    return spans;
}

// The tensors member: per tensor a pickled (key, storage key, tensor type), then its rank as a
// 4-byte integer padded to 8, its sizes, strides and storage offset as 8-byte integers.
Result<std::map<std::string, TensorInfo>> tarTensors(const OffsetFile& file, const TarMember& m,
                                                     const std::map<std::string, StorageSpan>& spans,
                                                     const std::string& path)
{
    constexpr int32_t kMaxRank = 64;
    const std::string where = path + ": tar member tensors";
    const uint64_t end = m.data + m.size;
    uint64_t offset = m.data;
    const Result<int64_t> n = recordCount(file, offset, end, where, path, "tensors");
    if (!n) return n.error();
    std::map<std::string, TensorInfo> tensors;
    for (int64_t k = 0; k < *n; ++k) {
        const std::string what = where + ", tensor " + std::to_string(k + 1);
        Result<PickleTree> record = nextPickle(file, offset, end, what);
        if (!record) return record.error();
        Result<std::string> rank = file.bytes(offset, 8, end, what);
        if (!rank) return rank.error();
        int32_t ndim;
        std::memcpy(&ndim, rank->data(), 4);
        offset += 8;
        const std::vector<NodeId>* items = rootTuple(*record, record->root, 2);
        if (!items || ndim < 0 || ndim > kMaxRank)
            return Error{"checkpoint.format",
                         what + " is not a (key, storage, type) with a rank up to 64" + byteAt(offset), path,
                         0, static_cast<int64_t>(offset)};
        const auto dims = static_cast<uint64_t>(ndim);
        Result<std::string> layout = file.bytes(offset, 16 * dims + 8, end, what);
        if (!layout) return layout.error();
        offset += 16 * dims + 8;
        if (record->at((*items)[1]).kind == Kind::None) continue;  // a tensor without storage holds nothing
        const std::string storage = keyText(*record, (*items)[1]);
        const auto span = spans.find(storage);
        if (span == spans.end()) {
            std::string message = what;
            message.append(" names storage ").append(storage).append(", which the file does not hold");
            return Error{"checkpoint.format", std::move(message), path};
        }
        TensorInfo t;
        t.dtype = span->second.type->dtype;
        t.storage = storage;
        t.storageNumel = span->second.numel;
        for (uint64_t d = 0; d < dims; ++d) {
            t.shape.push_back(littleEndian64(layout->data() + 8 * d));
            t.stride.push_back(littleEndian64(layout->data() + 8 * (dims + d)));
        }
        t.offset = littleEndian64(layout->data() + 16 * dims);
        tensors[keyText(*record, (*items)[0])] = std::move(t);
    }
    return tensors;
}

// sys_info says which machine wrote the file; the raw integers and storages follow its byte order.
Result<void> checkByteOrder(const OffsetFile& file, const TarMember& m, const std::string& path)
{
    Result<PickleTree> info = file.pickle(m.data, m.data + m.size, path + ": tar member sys_info");
    if (!info) return info.error();
    const PyNode& d = info->at(info->root);
    for (size_t k = 0; d.kind == Kind::Dict && k + 1 < d.items.size(); k += 2)
        if (keyText(*info, d.items[k]) == "little_endian" && info->at(d.items[k + 1]).kind == Kind::Bool &&
            info->at(d.items[k + 1]).i == 0)
            return Error{"checkpoint.format", path + ": written on a big-endian machine, not read", path};
    return Ok{};
}

}  // namespace

bool startsLegacyStream(std::string_view head)
{
    return head.starts_with(kLegacyMagic);
}

bool startsTorchTar(std::string_view head)
{
    // Python's tarfile puts a PAX header ("././@PaxHeader") before a member whose mtime is a
    // float, as torch's was: the member's own header follows the extended one
    for (size_t offset = 0; offset + kTarBlock <= head.size();) {
        const std::string_view header = head.substr(offset, kTarBlock);
        if (!tarChecksumOk(header)) return false;
        const char type = header[156];
        if (!isExtendedHeader(type)) {
            const std::string name = memberName(std::string(field(header, 0, 100)));
            const std::string_view base = std::string_view(name).substr(name.rfind('/') + 1);
            return std::find(std::begin(kTarMembers), std::end(kTarMembers), base) != std::end(kTarMembers);
        }
        const std::optional<uint64_t> size = tarNumber(header.substr(124, 12));
        if (!size || *size > head.size()) return false;
        offset = nextHeader(offset + kTarBlock, *size);
    }
    return false;
}

Result<CheckpointFile> readLegacyStream(const std::string& path, MemoryBudget& budget)
{
    Result<OffsetFile> file = OffsetFile::open(path);
    if (!file) return file.error();
    CheckpointFile out;
    out.path = path;
    out.container = "legacy";
    uint64_t offset = 0;
    // magic, protocol version, system info, the object, the storage keys: five pickles in a row
    PickleTree main, keys;
    for (int k = 0; k < 5; ++k) {
        Result<PickleTree> t =
            nextPickle(*file, offset, file->size(), path + ": pickle " + std::to_string(k + 1), &budget);
        if (!t) return t.error();
        if (k == 3) main = std::move(*t);
        if (k == 4) keys = std::move(*t);
    }
    describePickle(main, out);
    // then each storage in the order of the keys: an 8-byte element count and its bytes
    std::map<std::string, size_t> elementBytes;
    for (const TensorInfo& t : out.tensors) elementBytes[t.storage] = dtypeSize(t.dtype);
    for (NodeId k : keys.at(keys.root).items) {
        const std::string key = keyText(keys, k);
        const std::string storage = std::string(path).append(": storage ").append(key);
        Result<int64_t> numel = file->integer(offset, file->size(), storage + "'s element count");
        if (!numel) return numel.error();
        offset += 8;
        const auto esz = elementBytes.find(key);
        if (esz == elementBytes.end() || esz->second == 0)
            return Error{"checkpoint.format",
                         storage + " belongs to no tensor of a known element type" + byteAt(offset), path, 0,
                         static_cast<int64_t>(offset)};
        if (*numel < 0 || static_cast<uint64_t>(*numel) > (file->size() - offset) / esz->second)
            return Error{"checkpoint.truncated",
                         storage + " is larger than what is left of the file" + byteAt(offset), path, 0,
                         static_cast<int64_t>(offset)};
        out.legacyOffsets[key] = offset;
        offset += static_cast<uint64_t>(*numel) * esz->second;
    }
    return out;
}

Result<CheckpointFile> readLegacyTar(const std::string& path, MemoryBudget& budget)
{
    Result<OffsetFile> file = OffsetFile::open(path);
    if (!file) return file.error();
    Result<TarListing> listing = tarMembers(*file, path);
    if (!listing) return listing.error();
    auto member = [&](std::string_view name) -> const TarMember* {
        for (const TarMember& m : listing->members)
            if (m.name == name) return &m;
        return nullptr;
    };
    const TarMember *storages = member("storages"), *tensors = member("tensors"), *pickle = member("pickle");
    if (!storages || !tensors || !pickle) {
        const std::string missing =
            path + ": a tar archive without the members storages, tensors and pickle torch.save wrote";
        if (listing->endBlockSeen) return Error{"checkpoint.format", missing, path};
        return Error{"checkpoint.truncated",
                     missing + "; it stops after " + std::to_string(file->size()) +
                         " bytes without the tar's end blocks: cut off?",
                     path, 0, static_cast<int64_t>(file->size())};
    }
    if (const TarMember* info = member("sys_info"))
        if (Result<void> order = checkByteOrder(*file, *info, path); !order) return order.error();
    Result<std::map<std::string, StorageSpan>> spans = tarStorages(*file, *storages, path);
    if (!spans) return spans.error();
    Result<std::map<std::string, TensorInfo>> byKey = tarTensors(*file, *tensors, *spans, path);
    if (!byKey) return byKey.error();
    Result<PickleTree> main =
        file->pickle(pickle->data, pickle->data + pickle->size, path + ": tar member pickle", &budget);
    if (!main) return main.error();
    CheckpointFile out;
    out.path = path;
    out.container = "tar";
    describePickle(*main, out, *byKey);
    for (const auto& [key, span] : *spans) out.legacyOffsets[key] = span.offset;
    return out;
}

}  // namespace qatdoctor::core::checkpoint
