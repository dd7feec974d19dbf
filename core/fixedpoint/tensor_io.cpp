#include "core/fixedpoint/tensor_io.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>

#include "core/common/file_io.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_file.h"

namespace qatdoctor::core::fixedpoint {

namespace {

// Element count of a shape read from a file, without int64 overflow: +inf when the non-zero
// dims alone exceed 2^50 (then even a zero dim would overflow shapeSize's running product).
double claimedElements(const std::vector<int64_t>& shape)
{
    double n = 1, nonZero = 1;
    for (int64_t d : shape) {
        n *= static_cast<double>(d);
        if (d != 0) nonZero *= static_cast<double>(d);
    }
    return nonZero > 0x1p50 ? HUGE_VAL : n;
}

Error npyError(const std::string& path, const std::string& what, int64_t offset)
{
    return makeError("simulate.npy", path + ": " + what, path, 0, offset);
}

// '<f4' -> Float32 ...; '|u1' etc. Big-endian multi-byte types are refused.
DType npyDtype(const std::string& descr)
{
    if (descr.size() < 3) return DType::Unknown;
    const char order = descr[0];
    const std::string kind = descr.substr(1);
    if (order == '>' && kind != "u1" && kind != "i1" && kind != "b1") return DType::Unknown;
    if (kind == "f4") return DType::Float32;
    if (kind == "f8") return DType::Float64;
    if (kind == "i1") return DType::Int8;
    if (kind == "u1") return DType::UInt8;
    if (kind == "i2") return DType::Int16;
    if (kind == "u2") return DType::UInt16;
    if (kind == "i4") return DType::Int32;
    if (kind == "u4") return DType::UInt32;
    if (kind == "i8") return DType::Int64;
    if (kind == "b1") return DType::Bool;
    return DType::Unknown;
}

const char* npyDescr(DType t)
{
    switch (t) {
        case DType::Float32:
            return "<f4";
        case DType::Float64:
            return "<f8";
        case DType::Int8:
            return "|i1";
        case DType::UInt8:
            return "|u1";
        case DType::Int16:
            return "<i2";
        case DType::UInt16:
            return "<u2";
        case DType::Int32:
            return "<i4";
        case DType::UInt32:
            return "<u4";
        case DType::Int64:
            return "<i8";
        case DType::Bool:
            return "|b1";
        default:
            return "<f4";
    }
}

// The .npy header: the Python literal {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 32, 32), }
// as numpy writes it, read as that literal (keys are strings; values a string, True/False or a
// tuple of non-negative ints). Anything else, a missing key or text after the closing brace
// (but the padding) is refused with what was wrong.
struct NpyHeader {
    std::string descr;
    bool fortranOrder = false;
    std::vector<int64_t> shape;
};

class HeaderReader {
public:
    explicit HeaderReader(std::string_view text) : m_text(text) {}

    std::optional<NpyHeader> read(std::string& why)
    {
        NpyHeader h;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        if (!expect('{')) return fail(why, "the header is not a dictionary");
        while (true) {
            skipSpace();
            if (peek() == '}') break;
            if (m_pos >= m_text.size() || peek() == '\n')
                return fail(why, "the header dictionary is not closed with '}'");
            std::string key;
            if (!string(key)) return fail(why, "a key is not a quoted string");
            if (!expect(':')) return fail(why, "no ':' after '" + key + "'");
            skipSpace();
            if (key == "descr") {
                if (haveDescr || !string(h.descr)) return fail(why, "'descr' is not one string");
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (haveOrder || !boolean(h.fortranOrder))
                    return fail(why, "'fortran_order' is not True or False");
                haveOrder = true;
            } else if (key == "shape") {
                if (haveShape || !tuple(h.shape, why))
                    return fail(why, why.empty() ? "'shape' is not a tuple of sizes" : why);
                haveShape = true;
            } else {
                return fail(why, "unknown key '" + key + "'");
            }
            skipSpace();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != '}')
                return fail(why, "no ',' or '}' after '" + key + "'");
        }
        ++m_pos;  // '}'
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\0'))
            ++m_pos;
        if (m_pos != m_text.size()) return fail(why, "text after the header dictionary");
        if (!haveDescr || !haveOrder || !haveShape)
            return fail(why, "the header lacks 'descr', 'fortran_order' or 'shape'");
        return h;
    }

private:
    static std::optional<NpyHeader> fail(std::string& why, std::string what)
    {
        why = std::move(what);
        return std::nullopt;
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t')) ++m_pos;
    }
    bool expect(char c)
    {
        skipSpace();
        if (peek() != c) return false;
        ++m_pos;
        return true;
    }
    bool string(std::string& out)
    {
        skipSpace();
        const char quote = peek();
        if (quote != '\'' && quote != '"') return false;
        const size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string_view::npos) return false;
        out = std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
        m_pos = end + 1;
        return true;
    }
    bool boolean(bool& out)
    {
        for (const auto& [word, value] :
             {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}})
            if (m_text.substr(m_pos, word.size()) == word) {
                m_pos += word.size();
                out = value;
                return true;
            }
        return false;
    }
    bool tuple(std::vector<int64_t>& out, std::string& why)
    {
        if (!expect('(')) return false;
        while (true) {
            skipSpace();
            if (peek() == ')') break;
            if (peek() == '-') {
                why = "a negative dimension in 'shape'";
                return false;
            }
            size_t end = m_pos;
            while (end < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[end]))) ++end;
            // a dim is at most 2^40 (like tensorFromProto); longer digit runs would overflow
            if (end == m_pos || end - m_pos > 13) return false;
            const int64_t dim = std::stoll(std::string(m_text.substr(m_pos, end - m_pos)));
            if (dim > (int64_t{1} << 40)) {
                why = "a dimension past 2^40 in 'shape'";
                return false;
            }
            out.push_back(dim);
            m_pos = end;
            skipSpace();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != ')')
                return false;
        }
        ++m_pos;  // ')'
        return true;
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

}  // namespace

Result<NpyLayout> parseNpyLayout(std::string_view bytes, const std::string& path)
{
    if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY")
        return npyError(path, "not a .npy file (no magic)", 0);
    const auto major = static_cast<uint8_t>(bytes[6]), minor = static_cast<uint8_t>(bytes[7]);
    // numpy has written versions 1.0, 2.0 and 3.0 (3.0: the header in UTF-8); nothing else
    if (major < 1 || major > 3 || minor != 0)
        return npyError(
            path, "unknown .npy format version " + std::to_string(major) + "." + std::to_string(minor), 6);
    size_t headerLen = 0, offset = 0;
    if (major == 1) {
        headerLen =
            static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
        offset = 10;
    } else {
        if (bytes.size() < 12) return npyError(path, "truncated header", 8);
        uint32_t len = 0;
        std::memcpy(&len, bytes.data() + 8, 4);
        headerLen = len;
        offset = 12;
    }
    if (offset + headerLen > bytes.size())
        return npyError(path, "truncated header", static_cast<int64_t>(offset));
    std::string why;
    const std::optional<NpyHeader> header = HeaderReader(bytes.substr(offset, headerLen)).read(why);
    if (!header) return npyError(path, "bad header: " + why, static_cast<int64_t>(offset));
    const DType dtype = npyDtype(header->descr);
    if (dtype == DType::Unknown)
        return npyError(path, "unsupported dtype '" + header->descr + "'", static_cast<int64_t>(offset));
    if (header->fortranOrder)
        return npyError(path, "Fortran-order arrays are not supported", static_cast<int64_t>(offset));
    return NpyLayout{dtype, header->shape, offset + headerLen};
}

Result<Tensor> parseNpy(std::string_view bytes, const std::string& path)
{
    auto layout = parseNpyLayout(bytes, path);
    if (!layout) return layout.error();
    const DType dtype = layout->dtype;
    const std::vector<int64_t>& shape = layout->shape;
    const size_t dataOffset = layout->dataOffset;
    // Checked before allocating: a header may claim any shape (100 GB) over a few data bytes.
    const double claimed = claimedElements(shape) * static_cast<double>(elementSize(dtype));
    if (static_cast<double>(bytes.size() - dataOffset) < claimed)
        return npyError(path,
                        "data truncated: " + std::to_string(bytes.size() - dataOffset) + " of " +
                            std::to_string(claimed) + " bytes",
                        static_cast<int64_t>(dataOffset));
    Tensor t(dtype, shape);
    const size_t need = static_cast<size_t>(t.size()) * elementSize(dtype);
    if (need) std::memcpy(t.data<uint8_t>(), bytes.data() + dataOffset, need);
    return t;
}

std::string writeNpy(const Tensor& t)
{
    std::string shape = "(";
    for (size_t i = 0; i < t.shape().size(); ++i) shape += (i ? ", " : "") + std::to_string(t.shape()[i]);
    shape += t.rank() == 1 ? ",)" : ")";
    std::string header = std::string("{'descr': '") + npyDescr(t.dtype()) +
                         "', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>((header.size() >> 8) & 0xff);
    out += header;
    const size_t n = static_cast<size_t>(t.size()) * elementSize(t.dtype());
    if (n) out.append(reinterpret_cast<const char*>(t.data<uint8_t>()), n);
    return out;
}

DType simulatedDtype(int32_t onnxType)
{
    const DType t = model::dtypeFromOnnx(onnxType);
    return t == DType::Float16 || t == DType::BFloat16 ? DType::Unknown : t;
}

Result<Tensor> tensorFromProto(const onnx::TensorProto& p, const std::string& folder)
{
    const DType dtype = simulatedDtype(p.data_type());
    if (dtype == DType::Unknown)
        return makeError("simulate.tensor", "tensor '" + p.name() + "': unsupported element type " +
                                                std::to_string(p.data_type()));
    std::vector<int64_t> shape(p.dims().begin(), p.dims().end());
    for (int64_t d : shape)
        if (d < 0 || d > (int64_t{1} << 40))
            return makeError("simulate.tensor", "tensor '" + p.name() + "': bad dimension");
    if (p.data_location() == onnx::TensorProto::EXTERNAL && folder.empty())
        return makeError("simulate.tensor", "tensor '" + p.name() + "' uses external data");
    // the model's decoder: every storage, the size checks before allocating, external data
    // confined to the folder and read in its range only
    model::OnnxModel where;
    where.folder = folder;
    where.path = "the model";  // (the interpreter prefixes its errors with the model's path)
    auto bytes = model::tensorBytes(where, p);
    if (!bytes) return makeError("simulate.tensor", bytes.error().message, bytes.error().file);
    Tensor t(dtype, shape);
    const std::string_view raw = bytes->view();
    if (raw.size() != static_cast<size_t>(t.size()) * elementSize(dtype))
        return makeError("simulate.tensor", "tensor '" + p.name() + "': " + std::to_string(raw.size()) +
                                                " bytes of data, shape " + shapeString(shape) +
                                                " needs more");
    if (!raw.empty()) std::memcpy(t.data<uint8_t>(), raw.data(), raw.size());
    return t;
}

Result<Tensor> parseTensorProto(std::string_view bytes, const std::string& path)
{
    onnx::TensorProto p;
    if (!p.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return makeError("simulate.pb", path + ": not a serialized ONNX TensorProto", path);
    auto t = tensorFromProto(p, {});
    if (!t) return makeError("simulate.pb", path + ": " + t.error().message, path);
    return t;
}

Result<Tensor> parseRaw(std::string_view bytes, DType dtype, const std::vector<int64_t>& shape,
                        const std::string& path)
{
    Tensor t(dtype, shape);
    const size_t need = static_cast<size_t>(t.size()) * elementSize(dtype);
    if (elementSize(dtype) == 0) return makeError("simulate.raw", path + ": unsupported dtype", path);
    if (bytes.size() != need)
        return makeError("simulate.raw",
                         path + ": " + std::to_string(bytes.size()) + " bytes, shape " + shapeString(shape) +
                             " of " + model::dtypeName(dtype) + " needs " + std::to_string(need),
                         path);
    if (need) std::memcpy(t.data<uint8_t>(), bytes.data(), need);
    return t;
}

Tensor randomTensor(DType dtype, const std::vector<int64_t>& shape, uint64_t seed)
{
    Tensor t(dtype, shape);
    std::mt19937_64 rng(seed);
    if (dtype == DType::Float32 || dtype == DType::Float64) {
        // sum of 4 uniforms: bounded, roughly N(0,1), identical on every platform
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (int64_t i = 0; i < t.size(); ++i) {
            double s = 0;
            for (int k = 0; k < 4; ++k) s += static_cast<double>(rng() >> 11) * 0x1.0p-53;
            (void)u;
            t.set(i, (s - 2.0) * std::sqrt(3.0));
        }
    } else {
        for (int64_t i = 0; i < t.size(); ++i) t.setInt(i, static_cast<int64_t>(rng() % 256) - 128);
    }
    return t;
}

Result<Tensor> readTensorFile(const std::string& path)
{
    auto bytes = readFile(path);
    if (!bytes) return bytes.error();
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".npy") return parseNpy(*bytes, path);
    if (ext == ".pb") return parseTensorProto(*bytes, path);
    if (bytes->size() >= 6 && bytes->substr(0, 6) == "\x93NUMPY") return parseNpy(*bytes, path);
    return makeError("simulate.input",
                     path + ": unknown input format (expected .npy or .pb; raw files need a shape)", path);
}

}  // namespace qatdoctor::core::fixedpoint
