// The one table of checks run after loading: training rules, model lints, artifact checks.
#include "core/analysis.h"
#include "core/model/onnx_input.h"

namespace qatdoctor::core {

const std::vector<Check>& checks()
{
    static const std::vector<Check> kChecks = {
        // rows: {id, run}
        {"model.lints", model::runOnnxModelLints},
    };
    return kChecks;
}

}  // namespace qatdoctor::core
