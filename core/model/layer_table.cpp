#include "core/model/layer_table.h"

namespace qatdoctor::core::model {

const Layer* LayerTable::find(const std::string& name) const
{
    for (const Layer& l : layers)
        if (l.name == name) return &l;
    return nullptr;
}

std::string granularityName(const Layer& layer)
{
    if (!layer.weightQuant) return {};
    if (layer.weightQuant->perChannel())
        return "per-channel(axis=" + std::to_string(layer.weightQuant->axis) + ")";
    return "per-tensor";
}

}  // namespace qatdoctor::core::model
