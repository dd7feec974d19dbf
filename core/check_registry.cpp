// The one table of checks run after loading: training rules, model lints, artifact checks.
#include "core/analysis.h"

namespace qatdoctor::core {

const std::vector<Check>& checks()
{
    static const std::vector<Check> kChecks = {
        // rows: {id, run}
    };
    return kChecks;
}

}  // namespace qatdoctor::core
