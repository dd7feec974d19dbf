// The artifact area's entry points for the input table, the CLI and the GUI's paste dialog.
#pragma once

#include <string>
#include <string_view>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core {
struct Analysis;
}

namespace qatdoctor::core::artifacts {

// Input-table probe for `print(model)` text: 90 with `(name): Type(` lines and quantizer markers
// (FakeQuantize / Observer / QuantStub / weight_fake_quant / Quantized*), 40 for a module tree
// without them, 0 otherwise.
int probePrintedModel(const std::string& path, bool isFolder, std::string_view head);

// Input-table loader: reads the file, adds a LayerTable of format "printed_module".
// Errors: io.* from reading, "printed.empty", "printed.too_deep", "artifact.binary".
Result<void> loadPrintedModel(const std::string& path, Analysis& into, const ProgressFn& progress);

// For the paste dialog: a complete Analysis (layers + findings from every check) of pasted text.
// `label` names the text in messages and evidence (e.g. "pasted model" or the saved file's path).
Result<Analysis> analyzePrintedText(std::string_view text, const std::string& label = "pasted model");

// For the paste dialog: saves the text as "<folder>/pasted_model_<n>.txt" (first free n, atomic
// write) so it can be added to the session as an ordinary input path; returns that path.
// Errors: "printed.empty" for blank text, io.* when the folder cannot be written.
Result<std::string> savePastedText(std::string_view text, const std::string& folder);

}  // namespace qatdoctor::core::artifacts
