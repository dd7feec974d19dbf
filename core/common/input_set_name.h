// A short name for what the user opened, shared by the window title / session header and the
// report's subtitle so both call the same work the same thing ("demo", "resnet50_qat").
#pragma once

#include <string>
#include <vector>

namespace qatdoctor::core {

// The deepest folder holding every path (absolute, lexically normal); a folder counts as itself,
// a file by its folder: "demo/logs" with "demo/model/m.onnx" gives ".../demo". "" for no paths.
std::string commonFolder(const std::vector<std::string>& paths);

// One folder: its name. One file: "folder/file". Several: the name of their common folder
// (or the first path's name when they share nothing but the root). "" for no paths.
std::string inputSetName(const std::vector<std::string>& paths);

}  // namespace qatdoctor::core
