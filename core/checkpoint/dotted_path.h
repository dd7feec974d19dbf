// The dotted paths a checkpoint names its tensors and objects by ("features.0.weight"): their
// parent and their last segment, for every reader of the pickle.
#pragma once

#include <string>

namespace qatdoctor::core::checkpoint {

// "conv1.weight_fake_quant.scale" -> "scale"; a path without a dot is its own last segment.
inline std::string lastSegment(const std::string& path)
{
    const size_t dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

// "conv1.weight_fake_quant.scale" -> "conv1.weight_fake_quant"; "" for a path without a dot.
inline std::string parentPath(const std::string& path)
{
    const size_t dot = path.rfind('.');
    return dot == std::string::npos ? std::string{} : path.substr(0, dot);
}

}  // namespace qatdoctor::core::checkpoint
