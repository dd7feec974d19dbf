#include "core/fixedpoint/sim_inputs.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "core/common/file_io.h"
#include "core/fixedpoint/tensor_io.h"

namespace qatdoctor::core::fixedpoint {
namespace {

// Fits a tensor to the model's declared shape: adds a missing batch dimension, or splits a larger
// batch into samples of the model's batch size (the simulator compares one sample at a time).
Result<std::vector<Tensor>> fitShape(Tensor t, const std::vector<int64_t>& want, const std::string& source,
                                     std::vector<std::string>& notes)
{
    if (want.empty()) return std::vector<Tensor>{t};
    if (t.rank() + 1 == static_cast<int64_t>(want.size())) {
        std::vector<int64_t> s = t.shape();
        s.insert(s.begin(), 1);
        return std::vector<Tensor>{t.reshaped(s)};
    }
    if (t.rank() != static_cast<int64_t>(want.size()) || want[0] < 1 || t.dim(0) <= want[0])
        return std::vector<Tensor>{t};
    std::vector<int64_t> s = t.shape();
    const int64_t whole = t.dim(0) / want[0];
    const int64_t kept = std::min<int64_t>(whole, static_cast<int64_t>(kMaxSamples));
    const size_t bytes = static_cast<size_t>(t.size() / t.dim(0) * want[0]) * elementSize(t.dtype());
    s[0] = want[0];
    std::vector<Tensor> samples;
    for (int64_t k = 0; k < kept; ++k) {
        Tensor one(t.dtype(), s);
        std::memcpy(one.data<uint8_t>(), t.data<uint8_t>() + static_cast<size_t>(k) * bytes, bytes);
        samples.push_back(std::move(one));
    }
    std::string note = source + ": a batch of " + std::to_string(t.dim(0)) + "; ";
    if (kept == 1)
        note += "took the first " + std::to_string(want[0]);
    else
        note += std::to_string(kept) + " samples of " + std::to_string(want[0]) +
                " simulated one after another, the figures cover them all";
    if (kept * want[0] < t.dim(0)) note += " (" + std::to_string(t.dim(0) - kept * want[0]) + " left out)";
    notes.push_back(note);
    return samples;
}

Result<PreparedInputs> prepareInputsUnguarded(const Interpreter& interp, const InputSpec& spec);

}  // namespace

Result<PreparedInputs> prepareInputs(const Interpreter& interp, const InputSpec& spec)
{
    // an input the model declares 1e6 x 1e6 x 1e6 (or a --shape past memory) is refused by the
    // tensor budget: an error naming the model, not an abort
    try {
        return prepareInputsUnguarded(interp, spec);
    } catch (const std::exception& e) {
        return makeError("simulate.input", interp.path() + ": the inputs cannot be prepared: " + e.what(),
                         interp.path());
    }
}

namespace {

Result<PreparedInputs> prepareInputsUnguarded(const Interpreter& interp, const InputSpec& spec)
{
    PreparedInputs out;
    const size_t n = interp.inputNames().size();
    std::vector<std::string> files = spec.files;
    if (files.empty() && !spec.folder.empty()) {
        for (size_t i = 0; i < n; ++i) {
            const std::string f =
                (std::filesystem::path(spec.folder) / ("input_" + std::to_string(i) + ".pb")).string();
            if (!std::filesystem::exists(f))
                return makeError("simulate.input",
                                 spec.folder + ": no input_" + std::to_string(i) + ".pb for input '" +
                                     interp.inputNames()[i] + "'",
                                 spec.folder);
            files.push_back(f);
        }
    }
    if (!files.empty() && files.size() != n)
        return makeError("simulate.input", interp.path() + " has " + std::to_string(n) + " inputs, " +
                                               std::to_string(files.size()) + " input files given");
    std::vector<std::vector<Tensor>> perInput;  // per graph input: its samples
    for (size_t i = 0; i < n; ++i) {
        const auto& want = interp.inputShapes()[i];
        if (files.empty()) {
            std::vector<int64_t> shape = want;
            for (int64_t& d : shape)
                if (d < 0) d = 1;
            const DType t =
                interp.inputTypes()[i] == DType::Unknown ? DType::Float32 : interp.inputTypes()[i];
            perInput.push_back({randomTensor(t, shape, spec.seed + i)});
            out.sources.push_back("random(seed=" + std::to_string(spec.seed + i) + ")");
            continue;
        }
        const std::string& f = files[i];
        const std::string ext = std::filesystem::path(f).extension().string();
        Result<Tensor> t = Tensor();
        if (ext == ".npy" || ext == ".pb") {
            t = readTensorFile(f);
        } else {
            if (spec.rawShape.empty())
                return makeError("simulate.input", f + ": raw input needs a shape (--shape)", f);
            auto bytes = readFile(f);
            if (!bytes) return bytes.error();
            t = parseRaw(*bytes, spec.rawDtype, spec.rawShape, f);
        }
        if (!t) return t.error();
        auto samples = fitShape(*t, want, f, out.notes);
        if (!samples) return samples.error();
        const Tensor& fitted = samples->front();
        bool fits = want.empty() || fitted.rank() == static_cast<int64_t>(want.size());
        for (size_t d = 0; fits && d < want.size(); ++d)
            fits = want[d] < 0 || want[d] == fitted.dim(static_cast<int64_t>(d));
        if (!fits)
            return makeError("simulate.input",
                             f + ": shape " + shapeString(t->shape()) + " does not fit input '" +
                                 interp.inputNames()[i] + "' of " + interp.path() + " (" + shapeString(want) +
                                 ")",
                             f);
        perInput.push_back(std::move(*samples));
        out.sources.push_back(f);
    }
    // Sample k takes each input's k-th sample; an input of one sample is shared by all. Inputs
    // with different batch sizes keep the common count.
    size_t count = 0;
    for (const auto& samples : perInput)
        if (samples.size() > 1) count = count ? std::min(count, samples.size()) : samples.size();
    count = std::max<size_t>(count, 1);
    for (size_t k = 0; k < count; ++k) {
        std::vector<Tensor> set;
        for (const auto& samples : perInput) set.push_back(samples.size() > 1 ? samples[k] : samples[0]);
        if (k == 0)
            out.tensors = std::move(set);
        else
            out.moreSamples.push_back(std::move(set));
    }
    return out;
}

}  // namespace

}  // namespace qatdoctor::core::fixedpoint
