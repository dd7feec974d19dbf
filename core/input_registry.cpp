// The one table of input formats. A new log dialect, model form or toolchain file is a new row
// here (its probe and loader live in their own folder).
#include "core/analysis.h"
#include "core/folder_input.h"
#include "core/logs/log_input.h"
#include "core/model/onnx_input.h"
#include "core/artifacts/artifacts_api.h"
#include "core/artifacts/toolchain_files.h"

namespace qatdoctor::core {

namespace {

// One row per toolchain debug file kind (core/artifacts/toolchain_files.h).
InputLoader toolchainRow(artifacts::ToolchainKind kind)
{
    return {artifacts::toolchainKindId(kind), InputKind::Artifact,
            [kind](const std::string& path, bool isFolder, std::string_view head) {
                return isFolder ? 0 : artifacts::probeToolchainFile(kind, path, head);
            },
            [kind](const std::string& path, Analysis& into, const ProgressFn& progress) {
                return artifacts::loadToolchainFile(kind, path, into, progress);
            }};
}

}  // namespace

const std::vector<InputLoader>& inputLoaders()
{
    static const std::vector<InputLoader> kLoaders = {
        // rows: {id, kind, probe, load}
        {"log_folder", InputKind::LogFolder, probeProjectFolder, loadProjectFolder},
        {"log_file", InputKind::LogFile, logs::probeLogFileInput, logs::loadLogInput},
        {"onnx", InputKind::Model, model::probeOnnx, model::loadOnnxInput},
        {"printed_module", InputKind::Model, artifacts::probePrintedModel, artifacts::loadPrintedModel},
        toolchainRow(artifacts::ToolchainKind::ModelCheckResult),
        toolchainRow(artifacts::ToolchainKind::ComparePerLayer),
        toolchainRow(artifacts::ToolchainKind::Sensitivity),
        toolchainRow(artifacts::ToolchainKind::Statistic),
        toolchainRow(artifacts::ToolchainKind::Similarity),
        toolchainRow(artifacts::ToolchainKind::WeightComparison),
        toolchainRow(artifacts::ToolchainKind::DeployDevice),
    };
    return kLoaders;
}

}  // namespace qatdoctor::core
