#include "app/cli/faq_dir.h"

#include <filesystem>
#include <system_error>

namespace qatdoctor::cli {

std::string defaultFaqDir()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "qatdoctor" / "faq";
        if (fs::is_directory(installed, ec)) return installed.string();
    }
    return (fs::path(QATDOCTOR_SOURCE_DATA_DIR) / "faq").string();
}

}  // namespace qatdoctor::cli
