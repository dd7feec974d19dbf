// Turns a parsed module printout into the per-layer table every model form is read into
// (format "printed_module"): one Layer per module that carries quantizers, is a stub or a
// converted quantized module, with its weight and output quantizers read from the FakeQuantize /
// observer / FakeCast fields.
#pragma once

#include <string>
#include <string_view>

#include "core/artifacts/printed_module.h"
#include "core/common/result.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::artifacts {

// Layer flags set by this reader (besides "fused"):
//   "converted"              a converted quantized module (QuantizedConv2d ...)
//   "high_precision_output"  `(activation_post_process): None` (or no output quantizer) on a weighted layer
//   "uncalibrated"           a quantizer with scale 1.0 everywhere or min_val=inf / tensor([])
//   "scales_elided"          the printout skipped scale values with "..."
//   "not_quantized"          a compute module without any quantizer in a model that has them
//   "standalone_quantizer"   an FX-style `activation_post_process_N` module at container level
inline constexpr const char* kFormatPrinted = "printed_module";

model::LayerTable layersFromPrinted(const PrintedModule& printed, const std::string& path);

// parsePrintedModule + layersFromPrinted; the parser's warnings end up in the table.
Result<model::LayerTable> readPrintedModel(std::string_view text, const std::string& path);

// Quantizer kinds as printed: FakeQuantize family, FakeCast, observers, `None`.
bool isFakeQuantType(std::string_view type);
bool isObserverType(std::string_view type);
bool isQuantizerType(std::string_view type);

}  // namespace qatdoctor::core::artifacts
