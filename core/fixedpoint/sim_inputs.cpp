#include "core/fixedpoint/sim_inputs.h"

#include <cstring>
#include <filesystem>

#include "core/common/file_io.h"
#include "core/fixedpoint/tensor_io.h"

namespace qatdoctor::core::fixedpoint {
namespace {

// Fits a tensor to the model's declared shape: adds a missing batch dimension, or takes the
// first sample of a larger batch (the simulator compares one sample at a time).
Result<Tensor> fitShape(Tensor t, const std::vector<int64_t>& want, const std::string& source,
                        std::vector<std::string>& notes)
{
    if (want.empty()) return t;
    if (t.rank() + 1 == static_cast<int64_t>(want.size())) {
        std::vector<int64_t> s = t.shape();
        s.insert(s.begin(), 1);
        return t.reshaped(s);
    }
    if (t.rank() == static_cast<int64_t>(want.size()) && want[0] >= 1 && t.dim(0) > want[0]) {
        std::vector<int64_t> s = t.shape();
        const int64_t per = t.size() / t.dim(0);
        s[0] = want[0];
        Tensor one(t.dtype(), s);
        std::memcpy(one.data<uint8_t>(), t.data<uint8_t>(), static_cast<size_t>(per * want[0]) * elementSize(t.dtype()));
        notes.push_back(source + ": took the first " + std::to_string(want[0]) + " of a batch of " + std::to_string(t.dim(0)));
        return one;
    }
    return t;
}

}  // namespace

Result<PreparedInputs> prepareInputs(const Interpreter& interp, const InputSpec& spec)
{
    PreparedInputs out;
    const size_t n = interp.inputNames().size();
    std::vector<std::string> files = spec.files;
    if (files.empty() && !spec.folder.empty()) {
        for (size_t i = 0; i < n; ++i) {
            const std::string f = (std::filesystem::path(spec.folder) / ("input_" + std::to_string(i) + ".pb")).string();
            if (!std::filesystem::exists(f))
                return makeError("simulate.input", spec.folder + ": no input_" + std::to_string(i) + ".pb for input '" +
                                                       interp.inputNames()[i] + "'", spec.folder);
            files.push_back(f);
        }
    }
    if (!files.empty() && files.size() != n)
        return makeError("simulate.input", interp.path() + " has " + std::to_string(n) + " inputs, " +
                                               std::to_string(files.size()) + " input files given");
    for (size_t i = 0; i < n; ++i) {
        const auto& want = interp.inputShapes()[i];
        if (files.empty()) {
            std::vector<int64_t> shape = want;
            for (int64_t& d : shape)
                if (d < 0) d = 1;
            const DType t = interp.inputTypes()[i] == DType::Unknown ? DType::Float32 : interp.inputTypes()[i];
            out.tensors.push_back(randomTensor(t, shape, spec.seed + i));
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
        auto fitted = fitShape(*t, want, f, out.notes);
        if (!fitted) return fitted.error();
        bool fits = want.empty() || fitted->rank() == static_cast<int64_t>(want.size());
        for (size_t d = 0; fits && d < want.size(); ++d) fits = want[d] < 0 || want[d] == fitted->dim(static_cast<int64_t>(d));
        if (!fits)
            return makeError("simulate.input", f + ": shape " + shapeString(t->shape()) + " does not fit input '" +
                                                   interp.inputNames()[i] + "' of " + interp.path() + " (" +
                                                   shapeString(want) + ")", f);
        out.tensors.push_back(*fitted);
        out.sources.push_back(f);
    }
    return out;
}

}  // namespace qatdoctor::core::fixedpoint
