#include "core/artifacts/artifact_checks.h"

#include <algorithm>
#include <string_view>

#include "core/artifacts/printed_layers.h"
#include "core/artifacts/toolchain_files.h"
#include "core/model/model_lints.h"

namespace qatdoctor::core::artifacts {

void runArtifactChecks(const std::vector<model::LayerTable>& models, const std::vector<DataTable>& tables,
                       const std::map<std::string, std::string>& expected, CheckResults& results)
{
    std::vector<Finding> found;
    std::vector<std::string> evaluated;
    for (const model::LayerTable& t : models) {
        if (t.format == kFormatPrinted) checkPrintedModel(t, models, found, evaluated);
        if (t.format != kFormatPrinted && t.format != kFormatModelCheck) continue;
        // The model area's expected-dtype lint works on any LayerTable: the final dtypes a
        // printout or model_check_result shows answer "int16 configured but not applied".
        for (const model::ModelLint& lint : model::modelLints())
            if (std::string_view(lint.id) == "model.int16_not_applied" &&
                lint.run(model::LintInput{t, expected, nullptr}, found))
                evaluated.push_back(lint.id);
    }
    // model_check_result: the LayerTable and the section tables of the same file go together.
    std::vector<std::string> checkFiles;
    for (const DataTable& t : tables)
        if (t.kind.starts_with("model_check.") &&
            std::find(checkFiles.begin(), checkFiles.end(), t.sourcePath) == checkFiles.end())
            checkFiles.push_back(t.sourcePath);
    for (const std::string& file : checkFiles) {
        std::vector<const DataTable*> sections;
        for (const DataTable& t : tables)
            if (t.sourcePath == file && t.kind.starts_with("model_check.")) sections.push_back(&t);
        const model::LayerTable* layers = nullptr;
        for (const model::LayerTable& m : models)
            if (m.format == kFormatModelCheck && m.sourcePath == file) layers = &m;
        checkModelCheckResult(layers, sections, found, evaluated);
    }
    for (const DataTable& t : tables) {
        if (t.kind == kTableComparePerLayer || t.kind == kTableSimilarity)
            checkComparisonTable(t, found, evaluated);
        else
            checkProfilerTable(t, found, evaluated);
    }
    for (Finding& f : found) results.findings.push_back(std::move(f));
    for (std::string& id : evaluated) results.checksRun.insert(std::move(id));
}

}  // namespace qatdoctor::core::artifacts
