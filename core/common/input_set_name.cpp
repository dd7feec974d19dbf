#include "core/common/input_set_name.h"

#include <filesystem>
#include <system_error>

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;

fs::path absoluteNormal(const std::string& p)
{
    std::error_code ec;
    fs::path a = fs::absolute(fs::path(p), ec);
    if (ec) a = fs::path(p);
    a = a.lexically_normal();
    if (!a.has_filename() && a.has_parent_path() && a != a.root_path()) a = a.parent_path();  // "x/" -> "x"
    return a;
}

}  // namespace

std::string commonFolder(const std::vector<std::string>& paths)
{
    if (paths.empty()) return {};
    // A folder counts as itself, a file by the folder holding it: "demo" with "demo/model/m.onnx"
    // (a project folder and the files read from it) is "demo", not its parent.
    const fs::path first = absoluteNormal(paths.front());
    std::error_code ec;
    fs::path common = fs::is_directory(first, ec) ? first : first.parent_path();
    for (const std::string& p : paths) {
        const fs::path a = absoluteNormal(p);
        fs::path prefix;
        auto ci = common.begin();
        for (auto ai = a.begin(); ci != common.end() && ai != a.end() && *ci == *ai; ++ci, ++ai)
            prefix /= *ai;
        common = prefix;
    }
    return common.string();
}

std::string inputSetName(const std::vector<std::string>& paths)
{
    if (paths.empty()) return {};
    const fs::path folder = fs::path(commonFolder(paths));
    const std::string folderName = folder.filename().string();
    if (paths.size() == 1) {
        const fs::path only = absoluteNormal(paths.front());
        std::error_code ec;
        if (fs::is_directory(only, ec)) return only.filename().string();
        return folderName.empty() ? only.filename().string() : folderName + "/" + only.filename().string();
    }
    return folderName.empty() ? absoluteNormal(paths.front()).filename().string() : folderName;
}

}  // namespace qatdoctor::core
