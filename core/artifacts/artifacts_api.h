// The artifact area's entry points for the input table (core/input_registry.cpp), the CLI and the
// GUI's paste dialog (core::analyzePrintedText).
#pragma once

#include <string>
#include <string_view>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::artifacts {

// Input-table probe for `print(model)` text: 90 with `(name): Type(` lines and quantizer markers
// (FakeQuantize / Observer / QuantStub / weight_fake_quant / Quantized*), 40 for a module tree
// without them, 0 otherwise.
int probePrintedModel(const std::string& path, std::string_view head);

// Reads the file into a LayerTable of format "printed_module".
// Errors: io.* from reading, "printed.empty", "printed.too_deep", "artifact.binary".
Result<model::LayerTable> readPrintedModelFile(const std::string& path, const ProgressFn& progress);

// For the paste dialog: saves the text as "<folder>/pasted_model_<n>.txt" (first free n, atomic
// write) so it can be added to the session as an ordinary input path; returns that path.
// Errors: "printed.empty" for blank text, io.* when the folder cannot be written.
Result<std::string> savePastedText(std::string_view text, const std::string& folder);

}  // namespace qatdoctor::core::artifacts
