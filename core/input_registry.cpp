// The one table of input formats, and the one place where what the format areas read is put into
// an Analysis. A new log dialect, model form or toolchain file is a new row here (its probe and
// reader live in their own folder and return their own types: LogSet, LayerTable, DataTables).
#include "core/analysis.h"
#include "core/artifacts/artifacts_api.h"
#include "core/artifacts/toolchain_files.h"
#include "core/checkpoint/checkpoint_layers.h"
#include "core/checkpoint/checkpoint_lints.h"
#include "core/common/error_codes.h"
#include "core/common/file_io.h"
#include "core/fixedpoint/dataset_eval_json.h"
#include "core/folder_input.h"
#include "core/logs/log_input.h"
#include "core/model/onnx_input.h"
#include "core/model/onnx_layer_table.h"

namespace qatdoctor::core {

namespace {

Result<void> loadLogInput(const std::string& path, Analysis& into, const ProgressFn& progress)
{
    Result<logs::LogSet> set = logs::readLogInput(path, progress);
    if (!set) return set.error();
    logs::appendLogSet(into.logs, std::move(*set));
    return Ok{};
}

Result<void> addModel(Result<model::LayerTable> table, Analysis& into)
{
    if (!table) return table.error();
    into.models.push_back(std::move(*table));
    return Ok{};
}

// One row per toolchain debug file kind (core/artifacts/toolchain_files.h).
InputLoader toolchainRow(artifacts::ToolchainKind kind)
{
    return {artifacts::toolchainKindId(kind), InputKind::Artifact,
            [kind](const std::string& path, std::string_view head) {
                return artifacts::probeToolchainFile(kind, path, head);
            },
            [kind](const std::string& path, Analysis& into, const ProgressFn& progress) -> Result<void> {
                Result<artifacts::ToolchainRead> read = artifacts::readToolchainFile(kind, path, progress);
                if (!read) return read.error();
                for (DataTable& t : read->tables) into.tables.push_back(std::move(t));
                if (read->layers) into.models.push_back(std::move(*read->layers));
                for (Warning& w : read->warnings) into.warnings.push_back(std::move(w));
                // configured int16 modules; an --expect file the user gave wins
                for (auto& [module, dtype] : read->expectedDtypes) into.expectedDtypes.emplace(module, dtype);
                return Ok{};
            }};
}

}  // namespace

const std::vector<InputLoader>& inputLoaders()
{
    static const std::vector<InputLoader> kLoaders = {
        // rows: {id, kind, probe, load}
        {"log_folder", InputKind::LogFolder, nullptr, nullptr, probeProjectFolder, loadProjectFolder},
        {"log_file", InputKind::LogFile, logs::probeLogFileInput, loadLogInput},
        {"onnx", InputKind::Model, model::probeOnnx,
         [](const std::string& path, Analysis& into, const ProgressFn& progress) {
             return addModel(model::loadOnnxLayerTable(path, progress), into);
         }},
        {"printed_module", InputKind::Model, artifacts::probePrintedModel,
         [](const std::string& path, Analysis& into, const ProgressFn& progress) {
             return addModel(artifacts::readPrintedModelFile(path, progress), into);
         }},
        {"checkpoint", InputKind::Model,
         [](const std::string&, std::string_view head) { return checkpoint::probeCheckpoint(head); },
         [](const std::string& path, Analysis& into, const ProgressFn&) -> Result<void> {
             Result<checkpoint::CheckpointRead> read = checkpoint::readCheckpointLayers(path, into.maxMemory);
             if (!read) return read.error();
             checkpoint::TensorReader reader(read->file);
             checkpoint::runCheckpointLints({read->file, read->table, reader, &into.warnings}, read->findings,
                                            read->evaluated);
             // the table's damage goes to the analysis; its note on bit widths stays with the table
             for (const Warning& w : read->table.warnings)
                 if (w.code != codes::kCheckpointBitWidth) into.warnings.push_back(w);
             into.checkpoints.push_back(std::move(*read));
             return Ok{};
         }},
        // a dataset evaluation's result (`simulate --dataset --out`): the ladder's simulated rungs
        {"evaluation", InputKind::Artifact,
         [](const std::string&, std::string_view head) {
             return fixedpoint::looksLikeEvaluation(head) ? 95 : 0;
         },
         [](const std::string& path, Analysis& into, const ProgressFn&) -> Result<void> {
             Result<std::string> text = readFile(path, uint64_t{64} << 20);
             if (!text) return text.error();
             Result<fixedpoint::DatasetEvaluation> e = fixedpoint::evaluationFromJson(*text, path);
             if (!e) return e.error();
             into.evaluations.push_back(std::move(*e));
             return Ok{};
         }},
        toolchainRow(artifacts::ToolchainKind::ModelCheckResult),
        toolchainRow(artifacts::ToolchainKind::ComparePerLayer),
        toolchainRow(artifacts::ToolchainKind::Sensitivity),
        toolchainRow(artifacts::ToolchainKind::Statistic),
        toolchainRow(artifacts::ToolchainKind::Similarity),
        toolchainRow(artifacts::ToolchainKind::WeightComparison),
        toolchainRow(artifacts::ToolchainKind::DeployDevice),
        toolchainRow(artifacts::ToolchainKind::MapperNodes),
        toolchainRow(artifacts::ToolchainKind::NodeSensitivity),
        toolchainRow(artifacts::ToolchainKind::QconfigDtypes),
        toolchainRow(artifacts::ToolchainKind::QconfigChangelog),
        toolchainRow(artifacts::ToolchainKind::VerifierConsistency),
        toolchainRow(artifacts::ToolchainKind::VerifierCosine),
    };
    return kLoaders;
}

}  // namespace qatdoctor::core
