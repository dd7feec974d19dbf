#include "core/checkpoint/tensor_stats.h"

#include <algorithm>
#include <cmath>

namespace qatdoctor::core::checkpoint {
namespace {

constexpr size_t kFirstValues = 8;

// A quantized tensor's integers as real values: (q - zero_point) * scale, per tensor or per
// channel along its axis (row-major: the channel of element k is (k / inner) % channels).
Result<void> dequantize(const CheckpointFile& file, TensorReader& reader, const TensorInfo& t,
                        std::vector<double>& values)
{
    const QTensorParams& q = *t.quant;
    if (!q.perChannel()) {
        for (double& v : values) v = (v - static_cast<double>(q.zeroPoint)) * q.scale;
        return Ok{};
    }
    Result<std::vector<double>> scales = reader.values(*q.scales);
    if (!scales) return scales.error();
    std::vector<double> zeros(scales->size(), 0.0);
    if (q.zeroPoints) {
        Result<std::vector<double>> z = reader.values(*q.zeroPoints);
        if (!z) return z.error();
        zeros = std::move(*z);
    }
    if (q.axis < 0 || static_cast<size_t>(q.axis) >= t.shape.size() ||
        static_cast<int64_t>(scales->size()) != t.shape[static_cast<size_t>(q.axis)] ||
        zeros.size() != scales->size())
        return Error{"checkpoint.tensor",
                     file.path + ": tensor " + t.name +
                         ": its per-channel scales do not match its shape along axis " +
                         std::to_string(q.axis),
                     file.path};
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(q.axis) + 1; d < t.shape.size(); ++d) inner *= t.shape[d];
    const auto channels = static_cast<int64_t>(scales->size());
    for (size_t k = 0; k < values.size(); ++k) {
        const auto c = static_cast<size_t>((static_cast<int64_t>(k) / inner) % channels);
        values[k] = (values[k] - zeros[c]) * (*scales)[c];
    }
    return Ok{};
}

TensorStats statsOf(const std::vector<double>& values)
{
    TensorStats s;
    s.read = true;
    s.count = static_cast<int64_t>(values.size());
    double sum = 0;
    int64_t finite = 0;
    s.min = INFINITY;
    s.max = -INFINITY;
    for (double v : values) {
        if (std::isnan(v)) {
            ++s.nan;
        } else if (std::isinf(v)) {
            ++(v > 0 ? s.posInf : s.negInf);
        } else {
            s.min = std::min(s.min, v);
            s.max = std::max(s.max, v);
            sum += v;
            ++finite;
        }
    }
    if (finite == 0) s.min = s.max = 0;
    s.mean = finite ? sum / static_cast<double>(finite) : 0;
    s.first.assign(values.begin(),
                   values.begin() + static_cast<std::ptrdiff_t>(std::min(kFirstValues, values.size())));
    return s;
}

}  // namespace

std::vector<TensorStats> readTensorStats(const CheckpointFile& file, MemoryBudget& budget)
{
    std::vector<TensorStats> out;
    out.reserve(file.tensors.size());
    TensorReader reader(file);
    for (const TensorInfo& t : file.tensors) {
        // held at once: the packed bytes and the values as doubles
        const uint64_t bytes =
            t.packedBytes() +
            static_cast<uint64_t>(std::min<int64_t>(t.numel(), int64_t{1} << 40)) * sizeof(double);
        if (!budget.take(bytes)) {
            TensorStats s;
            s.problem = budget.refusal("tensor " + t.name, bytes) + ": not read";
            out.push_back(std::move(s));
            continue;
        }
        Result<std::vector<double>> values = reader.values(t);
        Result<void> real = values && t.quant ? dequantize(file, reader, t, *values) : Result<void>(Ok{});
        if (!values || !real) {
            TensorStats s;
            s.problem = !values ? values.error().message : real.error().message;
            out.push_back(std::move(s));
        } else {
            out.push_back(statsOf(*values));
            out.back().dequantized = t.quant.has_value();
        }
        budget.give(bytes);
    }
    return out;
}

}  // namespace qatdoctor::core::checkpoint
