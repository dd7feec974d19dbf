// The one table of input formats. A new log dialect, model form or toolchain file is a new row
// here (its probe and loader live in their own folder).
#include "core/analysis.h"
#include "core/logs/log_input.h"
#include "core/model/onnx_input.h"

namespace qatdoctor::core {

const std::vector<InputLoader>& inputLoaders()
{
    static const std::vector<InputLoader> kLoaders = {
        // rows: {id, kind, probe, load}
        {"log_folder", InputKind::LogFolder, logs::probeLogFolderInput, logs::loadLogInput},
        {"log_file", InputKind::LogFile, logs::probeLogFileInput, logs::loadLogInput},
        {"onnx", InputKind::Model, model::probeOnnx, model::loadOnnxInput},
    };
    return kLoaders;
}

}  // namespace qatdoctor::core
