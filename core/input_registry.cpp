// The one table of input formats. A new log dialect, model form or toolchain file is a new row
// here (its probe and loader live in their own folder).
#include "core/analysis.h"

namespace qatdoctor::core {

const std::vector<InputLoader>& inputLoaders()
{
    static const std::vector<InputLoader> kLoaders = {
        // rows: {id, kind, probe, load}
    };
    return kLoaders;
}

}  // namespace qatdoctor::core
