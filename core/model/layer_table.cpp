#include "core/model/layer_table.h"

#include <algorithm>

#include "core/common/number_text.h"

namespace qatdoctor::core::model {

const Layer* LayerTable::find(const std::string& name) const
{
    for (const Layer& l : layers)
        if (l.name == name) return &l;
    return nullptr;
}

int quantBits(const QuantParams& quant)
{
    if (quant.bits > 0) return quant.bits;
    if (quant.qmin && quant.qmax && *quant.qmax > *quant.qmin) {
        int bits = 0;
        for (int64_t levels = *quant.qmax - *quant.qmin + 1; (int64_t{1} << bits) < levels;) ++bits;
        return bits;
    }
    return bitWidth(quant.dtype);
}

std::string dtypeCellText(DType dtype, const std::optional<QuantParams>& quant)
{
    if (dtype == DType::Unknown) return "-";
    std::string text = dtypeName(dtype);
    if (quant && quant->dtype == dtype) {
        const int bits = quantBits(*quant);
        if (bits > 0 && bits < bitWidth(dtype)) text += " (" + std::to_string(bits) + "-bit)";
    }
    return text;
}

std::string granularityName(const Layer& layer)
{
    if (!layer.weightQuant) return {};
    if (layer.weightQuant->perChannel())
        return "per-channel(axis=" + std::to_string(layer.weightQuant->axis) + ")";
    return "per-tensor";
}

std::string scalesText(const std::optional<QuantParams>& q)
{
    if (!q || q->scales.empty()) return "-";
    if (q->scales.size() == 1) return shortNumber(q->scales.front());
    const auto [lo, hi] = std::minmax_element(q->scales.begin(), q->scales.end());
    return shortNumber(*lo) + ".." + shortNumber(*hi) + " x" + std::to_string(q->scales.size());
}

std::string quantDtypesText(const Layer& layer)
{
    const auto one = [](const std::optional<QuantParams>& q) -> std::string {
        if (!q) return "-";
        return q->dtype == DType::Unknown ? "?" : dtypeName(q->dtype);
    };
    return one(layer.weightQuant) + " / " + one(layer.outputQuant);
}

std::string zeroPointText(const std::optional<QuantParams>& q)
{
    return q && q->zeroPoints.size() == 1 ? std::to_string(q->zeroPoints.front()) : "-";
}

std::string observedRangeText(const std::optional<QuantParams>& q)
{
    if (!q || !q->minVal || !q->maxVal) return "-";
    return "[" + shortNumber(*q->minVal) + ", " + shortNumber(*q->maxVal) + "]";
}

}  // namespace qatdoctor::core::model
