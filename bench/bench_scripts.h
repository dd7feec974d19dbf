// Where the team's benchmark generators are: they are not part of the repository but kept beside
// it (a folder shared/bench next to the checkout), or wherever QATDOCTOR_BENCH_SCRIPTS points.
// A bench that needs one and cannot find it says so and which option to pass.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace qatdoctor::bench {

inline std::string benchScript(const std::string& name)
{
    if (const char* env = std::getenv("QATDOCTOR_BENCH_SCRIPTS"); env && *env)
        return (std::filesystem::path(env) / name).string();
    return (std::filesystem::path(QATDOCTOR_SOURCE_DIR).parent_path() / "shared" / "bench" / name).string();
}

}  // namespace qatdoctor::bench
