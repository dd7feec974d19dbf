#include "core/fixedpoint/dataset_source.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/common/error_codes.h"
#include "core/common/file_io.h"
#include "core/common/folder_walk.h"
#include "core/common/text.h"

namespace qatdoctor::core::fixedpoint {
namespace {

namespace fs = std::filesystem;

constexpr size_t kNpyHeadBytes = size_t{64} << 10;
// A dataset folder may hold a million images; the walk's default guard is for project folders.
constexpr FolderWalkLimits kDatasetWalk{size_t{10'000'000}, 1};

Error datasetError(const std::string& path, const std::string& what)
{
    return makeError(codes::kSimulateDataset, path + ": " + what, path);
}

std::string lowerExtension(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

bool isImage(const std::string& path)
{
    const std::string ext = lowerExtension(path);
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".ppm";
}

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? "," : "") + std::to_string(shape[i]);
    return out + "]";
}

// The element count, nullopt when it overflows (a header may claim any shape).
std::optional<uint64_t> elements(const std::vector<int64_t>& shape)
{
    uint64_t n = 1;
    for (int64_t d : shape)
        if (d < 0 || __builtin_mul_overflow(n, static_cast<uint64_t>(d), &n)) return std::nullopt;
    return n;
}

// How many samples of `sample` an array of `shape` holds: the same shape with a larger first
// dimension (a batch), or the sample without its batch dimension (one). 0 = it cannot be read so.
uint64_t samplesIn(const std::vector<int64_t>& shape, const std::vector<int64_t>& sample)
{
    if (shape.size() + 1 == sample.size() && sample[0] == 1 &&
        std::equal(shape.begin(), shape.end(), sample.begin() + 1))
        return 1;
    if (shape.size() != sample.size() || sample.empty() || sample[0] <= 0 || shape[0] % sample[0] != 0)
        return 0;
    if (!std::equal(shape.begin() + 1, shape.end(), sample.begin() + 1)) return 0;
    return static_cast<uint64_t>(shape[0] / sample[0]);
}

// A tensor converted to the model input's element type (a uint8 image batch for a float model).
Tensor converted(const Tensor& t, DType to)
{
    if (t.dtype() == to) return t;
    Tensor out(to, t.shape());
    for (int64_t i = 0; i < t.size(); ++i) {
        const double v = t.at(i);
        switch (to) {
            case DType::Float32:
                out.data<float>()[i] = static_cast<float>(v);
                break;
            case DType::UInt8:
                out.data<uint8_t>()[i] = static_cast<uint8_t>(std::clamp(std::nearbyint(v), 0.0, 255.0));
                break;
            case DType::Int8:
                out.data<int8_t>()[i] = static_cast<int8_t>(std::clamp(std::nearbyint(v), -128.0, 127.0));
                break;
            default:
                out.data<float>()[i] = static_cast<float>(v);  // unreachable: checked when opened
        }
    }
    return out;
}

// The labels' header is checked before their data is read: a file of the wrong shape, element
// type or count is refused from its first bytes, not after reading a gigabyte.
Result<std::vector<int64_t>> readLabels(const std::string& path, uint64_t samples)
{
    auto head = readFileHead(path, kNpyHeadBytes);
    if (!head) return head.error();
    auto layout = parseNpyLayout(*head, path);
    if (!layout) return layout.error();
    const auto& shape = layout->shape;
    if (!(shape.size() == 1 || (shape.size() == 2 && shape[1] == 1)))
        return datasetError(
            path, "labels must be one class index per sample (shape [N] or [N,1]), not " + shapeText(shape));
    if (elementSize(layout->dtype) == 0 || layout->dtype == DType::Bool)
        return datasetError(path, "labels must be integers (or whole floats), not this element type");
    if (shape[0] < 0 || static_cast<uint64_t>(shape[0]) != samples)
        return datasetError(path,
                            std::to_string(shape[0]) + " labels for " + std::to_string(samples) + " samples");
    auto bytes = readFile(path, uint64_t{1} << 30);
    if (!bytes) return bytes.error();
    auto t = parseNpy(*bytes, path);
    if (!t) return t.error();
    const auto& s = t->shape();
    const bool column = s.size() == 1 || (s.size() == 2 && s[1] == 1);
    if (!column)
        return datasetError(
            path, "labels must be one class index per sample (shape [N] or [N,1]), not " + shapeText(s));
    std::vector<int64_t> out(static_cast<size_t>(t->size()));
    for (int64_t i = 0; i < t->size(); ++i) {
        const double v = t->at(i);
        if (!(v >= 0) || v != std::floor(v) || v > 1e9)
            return datasetError(
                path, "label " + std::to_string(i) + " is " + std::to_string(v) + ", not a class index");
        out[static_cast<size_t>(i)] = static_cast<int64_t>(v);
    }
    return out;
}

}  // namespace

Result<DatasetSource> DatasetSource::open(const Interpreter& interp, const DatasetSpec& spec)
{
    DatasetSource d;
    if (interp.inputNames().size() != 1)
        return makeError(codes::kSimulateInput,
                         interp.path() + ": a dataset evaluation needs a model with one input (it has " +
                             std::to_string(interp.inputNames().size()) + ")",
                         interp.path());
    d.m_shape = interp.inputShapes()[0];
    if (!d.m_shape.empty() && d.m_shape[0] < 0)
        d.m_shape[0] = 1;  // a dynamic batch runs one sample at a time
    if (std::any_of(d.m_shape.begin(), d.m_shape.end(), [](int64_t dim) { return dim < 0; }))
        return makeError(codes::kSimulateInput,
                         interp.path() +
                             ": a dataset evaluation needs the model's input shape fixed but for the "
                             "batch (it is " +
                             shapeText(d.m_shape) + ")",
                         interp.path());
    d.m_dtype = interp.inputTypes()[0];
    if (d.m_dtype != DType::Float32 && d.m_dtype != DType::UInt8 && d.m_dtype != DType::Int8)
        return makeError(codes::kSimulateInput,
                         interp.path() +
                             ": a dataset evaluation feeds float32 or 8-bit "
                             "inputs; this model's input is another type",
                         interp.path());
    d.m_colour = spec.colour;
    d.m_pixelScale = spec.pixelScale;
    d.m_decode = spec.decode;
    if (spec.paths.empty()) return makeError(codes::kSimulateDataset, "no dataset given");
    if (const auto count = elements(d.m_shape); count && *count == 0)
        return makeError(codes::kSimulateInput,
                         interp.path() + ": the model's input " + shapeText(d.m_shape) +
                             " has no elements: there is no sample to feed",
                         interp.path());
    for (const std::string& path : spec.paths) {
        std::error_code ec;
        const bool folder = fs::is_directory(path, ec);
        auto added = folder ? d.addFolder(path, spec.labelsPath) : d.addFile(path, -1);
        if (!added) return added.error();
        d.m_sources.push_back(path);
    }
    if (d.m_size == 0) return datasetError(spec.paths.front(), "no samples found");
    const bool classFolders =
        std::any_of(d.m_parts.begin(), d.m_parts.end(), [](const Part& p) { return p.classIndex >= 0; });
    if (!spec.labelsPath.empty()) {
        auto labels = readLabels(spec.labelsPath, d.m_size);
        if (!labels) return labels.error();
        if (labels->size() != d.m_size)
            return datasetError(spec.labelsPath, std::to_string(labels->size()) + " labels for " +
                                                     std::to_string(d.m_size) + " samples");
        d.m_labels = std::move(*labels);
        d.m_labelsPath = spec.labelsPath;
    } else if (classFolders) {
        // every sample needs its class: class folders and other files do not mix without labels
        if (std::any_of(d.m_parts.begin(), d.m_parts.end(), [](const Part& p) { return p.classIndex < 0; }))
            return datasetError(spec.paths.front(),
                                "class folders of images and other sample files need --labels "
                                "to mix (the files have no class)");
        d.m_labels.reserve(d.m_size);
        for (const Part& p : d.m_parts) d.m_labels.insert(d.m_labels.end(), p.count, p.classIndex);
        d.m_labelsPath = "class folders";
    }
    return d;
}

Result<void> DatasetSource::addFile(const std::string& path, int64_t classIndex)
{
    // a FIFO named like an image would block its decoder forever; a device never ends
    std::error_code regularEc;
    if (!fs::is_regular_file(path, regularEc))
        return datasetError(path, fs::exists(path, regularEc)
                                      ? "not a regular file (a FIFO, device or socket): not read"
                                      : "no such file");
    Part part;
    part.path = path;
    part.first = m_size;
    part.classIndex = classIndex;
    const std::string ext = lowerExtension(path);
    if (isImage(path)) {
        if (!m_decode)
            return makeError(codes::kSimulateImage, path + ": no image decoder in this build", path);
        if (m_shape.size() != 4 || m_shape[1] != 3 || m_dtype != DType::Float32)
            return makeError(codes::kSimulateInput,
                             path + ": images need a model with one float input of shape [N,3,H,W], not " +
                                 shapeText(m_shape),
                             path);
        part.kind = Kind::Image;
    } else if (ext == ".pb") {
        part.kind = Kind::TensorProto;  // one sample; its shape is checked when read
    } else if (ext == ".npy") {
        auto head = readFileHead(path, kNpyHeadBytes);
        if (!head) return head.error();
        auto layout = parseNpyLayout(*head, path);
        if (!layout) return layout.error();
        if (elementSize(layout->dtype) == 0 || layout->dtype == DType::Bool)
            return datasetError(path, "unsupported element type for an input");
        const uint64_t n = samplesIn(layout->shape, m_shape);
        if (n == 0)
            return makeError(codes::kSimulateInput,
                             path + ": an array of shape " + shapeText(layout->shape) +
                                 " is no batch of the model's input " + shapeText(m_shape),
                             path);
        std::error_code ec;
        const uint64_t fileSize = fs::file_size(path, ec);
        const std::optional<uint64_t> count = elements(m_shape);
        uint64_t sampleBytes = 0, dataBytes = 0, end = 0;
        const bool fits = count &&
                          !__builtin_mul_overflow(*count, elementSize(layout->dtype), &sampleBytes) &&
                          !__builtin_mul_overflow(n, sampleBytes, &dataBytes) &&
                          !__builtin_add_overflow(layout->dataOffset, dataBytes, &end);
        if (ec || !fits || fileSize < end)
            return makeError(codes::kSimulateNpy,
                             path + ": data truncated: " + std::to_string(n) + " samples of " +
                                 std::to_string(sampleBytes) + " bytes do not fit",
                             path, 0, static_cast<int64_t>(layout->dataOffset));
        part.layout = *layout;
        part.count = n;
    } else {
        return datasetError(path, "not a dataset file (.npy, .pb or an image)");
    }
    m_size += part.count;
    m_parts.push_back(std::move(part));
    return {};
}

Result<void> DatasetSource::addFolder(const std::string& path, const std::string& labelsPath)
{
    auto isLabels = [&](const std::string& file) {
        std::error_code ec;
        return !labelsPath.empty() && fs::equivalent(file, labelsPath, ec);
    };
    const FolderWalk walk = walkFolder(path, kDatasetWalk);
    if (walk.capped) return datasetError(path, "more than 10 million entries");
    std::vector<std::string> files, folders;
    for (const FolderEntry& e : walk.entries) {
        if (e.depth != 0) continue;
        if (e.kind == FolderEntry::Kind::Folder) folders.push_back(e.path);
        const std::string ext = lowerExtension(e.path);
        if (e.kind == FolderEntry::Kind::File && (ext == ".npy" || ext == ".pb" || isImage(e.path)) &&
            !isLabels(e.path))
            files.push_back(e.path);
    }
    // part_2.npy before part_10.npy: the order of the samples is the order of the labels
    std::sort(files.begin(), files.end(), naturalLess);
    std::sort(folders.begin(), folders.end());
    if (files.empty() && !folders.empty()) {  // a folder of images per class
        for (size_t c = 0; c < folders.size(); ++c) {
            std::vector<std::string> images;
            for (const FolderEntry& e : walkFolder(folders[c], kDatasetWalk).entries)
                if (e.depth == 0 && e.kind == FolderEntry::Kind::File && isImage(e.path))
                    images.push_back(e.path);
            std::sort(images.begin(), images.end(), naturalLess);
            for (const std::string& image : images)
                if (auto added = addFile(image, static_cast<int64_t>(c)); !added) return added;
        }
        return {};
    }
    for (const std::string& f : files)
        if (auto added = addFile(f, -1); !added) return added;
    return {};
}

const DatasetSource::Part& DatasetSource::partOf(uint64_t i) const
{
    auto it = std::upper_bound(m_parts.begin(), m_parts.end(), i,
                               [](uint64_t v, const Part& p) { return v < p.first; });
    return *std::prev(it);
}

std::string DatasetSource::where(uint64_t i) const
{
    const Part& p = partOf(i);
    if (p.kind == Kind::Npy) return p.path + "[" + std::to_string(i - p.first) + "]";
    return p.path;
}

Result<Tensor> DatasetSource::sample(uint64_t i) const
{
    if (i >= m_size)
        return makeError(codes::kSimulateDataset, "sample " + std::to_string(i) + " out of range");
    const Part& p = partOf(i);
    switch (p.kind) {
        case Kind::Npy: {
            // checked when the file was opened: the whole batch fits the file, so this fits too
            const size_t bytes = static_cast<size_t>(*elements(m_shape)) * elementSize(p.layout.dtype);
            auto data = readFileRange(p.path, p.layout.dataOffset + (i - p.first) * bytes, bytes);
            if (!data) return data.error();
            Tensor t(p.layout.dtype, m_shape);
            std::memcpy(t.data<uint8_t>(), data->data(), bytes);
            return converted(t, m_dtype);
        }
        case Kind::TensorProto: {
            auto t = readTensorFile(p.path);
            if (!t) return t.error();
            if (samplesIn(t->shape(), m_shape) != 1)
                return makeError(codes::kSimulateInput,
                                 p.path + ": shape " + shapeText(t->shape()) + " is not the model's input " +
                                     shapeText(m_shape),
                                 p.path);
            return converted(t->reshaped(m_shape), m_dtype);
        }
        case Kind::Image: {
            auto image = m_decode(p.path, m_shape[3], m_shape[2]);
            if (!image) return image.error();
            Tensor t = imageToTensor(image->rgb.data(), image->height, image->width, m_colour);
            if (m_pixelScale != 1.0f)
                for (int64_t k = 0; k < t.size(); ++k) t.data<float>()[k] *= m_pixelScale;
            return t;
        }
    }
    return makeError(codes::kSimulateDataset, "unreachable");
}

}  // namespace qatdoctor::core::fixedpoint
