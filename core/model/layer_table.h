// The per-layer view every model form is read into: ONNX graphs, printed PyTorch modules and the
// toolchain's model_check_result tables. Pages, lints, the CLI and the report read only this.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/model/dtype.h"

namespace qatdoctor::core::model {

// How one tensor is quantized. axis = -1 means per-tensor (scales.size() == 1).
struct QuantParams {
    DType dtype = DType::Unknown;
    std::vector<float> scales;
    std::vector<int64_t> zeroPoints;
    // torch's weight-only scheme (per_channel_affine_float_qparams: an Embedding's) keeps
    // real-valued zero points; they are here and zeroPoints stays empty
    std::vector<double> realZeroPoints;
    int axis = -1;
    std::optional<int64_t> qmin;  // reduced ranges (e.g. Quantize -> Clip -> Dequantize)
    std::optional<int64_t> qmax;
    int bits = 0;          // the quantizer's own bit width when its levels say less (a 1-bit BipolarQuant: 2
                           // levels, no range); 0 = from qmin / qmax, else the dtype (quantBits())
    std::string observer;  // observer / quantizer kind when known ("MinMaxObserver", "HzQuantize")
    std::optional<bool> fakeQuantEnabled;  // printed models only
    std::optional<bool> observerEnabled;   // printed models only
    std::optional<double> minVal;          // observed range when known (printed models, statistics)
    std::optional<double> maxVal;
    std::optional<double> averagingConstant;  // a moving-average observer's, when saved (whole modules)
    std::string scaleSource;  // where the scale lives (ONNX initializer, observer module path):
                              // two quantizers with one source share one observer

    bool perChannel() const { return axis >= 0 && scales.size() > 1; }
};

// Where a layer came from in its source, to navigate and to cite as evidence.
struct SourceRef {
    std::string file;
    int64_t line = 0;  // 1-based for text sources
    std::string node;  // ONNX node name for graphs
};

// One compute op (Conv, Gemm, MatMul, Add, ...) with its quantizers.
struct Layer {
    std::string name;  // exporter's module path where present, else node name
    std::string op;    // "Conv", "Gemm", "ConvReLU2d", "QuantStub", ...
    std::vector<DType> inputDtypes;
    DType weightDtype = DType::Unknown;  // Unknown when the op has no weight
    std::optional<QuantParams> weightQuant;
    DType outputDtype = DType::Unknown;
    std::optional<QuantParams> outputQuant;  // nullopt = output not quantized (float / int32)
    std::vector<std::string> inputs;         // tensor names (graph sources only)
    std::vector<std::string> outputs;
    std::vector<std::string> flags;  // short tags: "graph_output", "fused", "shared", "cpu"...
    SourceRef source;
};

class ModelGraph;  // core/model/model_graph.h (ONNX sources only)

// LayerTable::quantization of a graph without any quantizer.
inline constexpr const char* kNotQuantized = "none";

struct LayerTable {
    std::string sourcePath;  // the model or text file the table was read from
    std::string format;      // "onnx", "printed_module", "model_check_result", ...
    std::vector<Layer> layers;
    std::vector<std::string> graphInputs;
    std::vector<std::string> graphOutputs;
    std::vector<Warning> warnings;  // damaged-but-usable parts of the source
    int64_t opset = 0;              // ONNX default-domain opset (0 = not ONNX / unknown)
    std::string producer;           // "pytorch 1.13.0" when the source says so
    std::string quantization;       // ONNX: the form its quantizers take (quantizationForm()), "" unknown
    // The graph the table was built from (ONNX only; null for text sources): connectivity for
    // the lints and the graph view, and weights read on demand. Shared, immutable.
    std::shared_ptr<const ModelGraph> graph;

    const Layer* find(const std::string& name) const;
};

// A quantizer's bit width: bits when set, else the levels from qmin to qmax (a narrow 4-bit
// -7..7 is 4 bits), else its dtype's width; 0 when none is known.
int quantBits(const QuantParams& quant);

// "per-tensor" / "per-channel(axis=0)" / "" (no weight).
std::string granularityName(const Layer& layer);
// A layer's weight or output dtype in a table cell, with the quantizer's bit width when it is
// narrower than the type ("uint4 (2-bit)", "int4 (1-bit)"); "-" for Unknown.
std::string dtypeCellText(DType dtype, const std::optional<QuantParams>& quant);
// A quantizer's scales in a table cell: "0.0123", "0.001..0.02 x64" (per channel), "-" (none).
std::string scalesText(const std::optional<QuantParams>& quant);
// Its zero point: "128", "-" (none, or one per channel).
std::string zeroPointText(const std::optional<QuantParams>& quant);
// Its observed range: "[-1.5, 3.2]", "-" (not known, or never observed).
std::string observedRangeText(const std::optional<QuantParams>& quant);
// A layer's quantizers' dtypes, weight / output: "int8 / uint8", "- / uint8" (no weight
// quantizer), "? / ?" (bit widths not known, as in a state_dict).
std::string quantDtypesText(const Layer& layer);

}  // namespace qatdoctor::core::model
