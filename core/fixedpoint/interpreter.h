// The model interpreter behind the simulator. One ONNX graph, three ways of running it:
//   Float - every QuantizeLinear/DequantizeLinear pair removed (the float model the QAT weights
//           came from; weights stored as integers are still dequantized);
//   Fake  - every op exactly as the ONNX specification says (= ONNX Runtime on the QDQ model,
//           = PyTorch's fake-quant model);
//   Int   - the deployed model: quantized ops in integer arithmetic (int32/int64 accumulators,
//           Conv -> Div -> BatchNormalization folded, requantization by float multiply or
//           integer multiplier + shift, look-up tables for nonlinear ops); anything outside the
//           quantized domain falls back to float, as a CPU fallback would.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/fixedpoint/quantize.h"
#include "core/fixedpoint/tensor.h"
#include "core/model/model_graph.h"

namespace qatdoctor::core::fixedpoint {

class ThreadPool;

enum class SimMode { Float, Fake, Int };
const char* simModeName(SimMode m);

// A compute op of the graph and the tensor that shows its result (after its activation and
// output quantizer), the unit of every per-layer comparison.
struct LayerInfo {
    std::string name;                      // module path ("layer1.0.conv1"), else the node name
    std::string op;                        // "Conv", "Gemm", "Add", "Sigmoid", ...
    std::string node;                      // ONNX node name
    size_t nodeIndex = 0;                  // position in execution order
    std::string observed;                  // tensor compared between modes
    std::vector<size_t> outputQuantizers;  // QuantizeLinear nodes of the output chain
    std::vector<size_t> weightQuantizers;  // QuantizeLinear/DequantizeLinear of the weight
    std::string weight;                    // weight tensor name ("" = none)
    float outputScale = 0;                 // output quantizer scale (0 = output not quantized)
    int64_t outputZeroPoint = 0;           // and its zero point (observed codes compare as reals)
    DType outputDtype = DType::Float32;
    bool nonlinear = false;  // a LUT candidate
    bool widenable = false;  // has a QuantizeLinear (output or weight) the int16 what-if can widen
};

struct LutReport {
    std::string layer;
    std::string op;
    int inputBits = 8;
    int entries = 256;                   // table entries (segments + 1 for 16-bit)
    double inputMin = 0, inputMax = 0;   // observed input range (real units)
    double maxError = 0, meanError = 0;  // |LUT output - float function| over the observed codes
    double maxErrorLsb = 0;              // in output quantization steps
    std::vector<double> curveX, curveExact, curveLut;  // up to 256 samples for plotting
};

struct RunOptions {
    RequantMode requant = RequantMode::Float;
    std::set<std::string> int16Layers;  // layer names whose quantizers become 16-bit
    std::set<std::string> floatLayers;  // layer names computed in float (quantizers removed)
    bool keepLayerOutputs = true;
    uint64_t maxTensorBytes = 0;  // largest tensor a kernel may allocate (0 = tensorByteBudget())
};

struct RunResult {
    SimMode mode = SimMode::Fake;
    std::vector<Tensor> outputs;               // graph outputs in graph order, own dtype
    std::vector<Tensor> layerOutputs;          // per LayerInfo, as float32 (empty if not run)
    std::map<std::string, int64_t> overflows;  // layer -> accumulator results outside int32
    std::vector<LutReport> luts;
    std::vector<std::string> fallbacks;  // int mode: ops computed in float ("node (op)")
};

class Interpreter {
public:
    // Decodes initializers, orders the nodes and finds the layers, on the graph the model area
    // already built (its tensor ids are the interpreter's; the model is not read again). Errors
    // name the model file and the node: unsupported ops ("simulate.unsupported"), cycles,
    // unreadable tensors.
    static Result<std::shared_ptr<Interpreter>> build(std::shared_ptr<const model::ModelGraph> graph);
    // ModelGraph::build, then the above: for callers holding only a parsed file.
    static Result<std::shared_ptr<Interpreter>> build(const model::OnnxModel& model);

    const std::vector<LayerInfo>& layers() const { return m_layers; }
    const std::vector<std::string>& inputNames() const { return m_inputs; }
    const std::vector<std::vector<int64_t>>& inputShapes() const { return m_inputShapes; }  // -1 = dynamic
    const std::vector<DType>& inputTypes() const { return m_inputTypes; }
    const std::vector<std::string>& outputNames() const { return m_outputs; }
    const std::string& path() const { return m_graph->model().path; }
    const model::ModelGraph& graph() const { return *m_graph; }

    // inputs in inputNames() order. Thread-safe: runs share nothing mutable.
    Result<RunResult> run(SimMode mode, const std::vector<Tensor>& inputs, const RunOptions& options,
                          ThreadPool* pool, const ProgressFn& progress = {}) const;

    // Float weight of a layer (before its quantizer) and the quantizer the model applies to it.
    struct Weight {
        Tensor values;
        std::optional<QParams> quant;
    };
    Result<Weight> layerWeight(const LayerInfo& layer) const;

    // Internals shared with interpreter_*.cpp.
    struct Impl;

private:
    Interpreter() = default;
    static Result<std::shared_ptr<Interpreter>> buildGraph(std::shared_ptr<const model::ModelGraph> graph);
    // run() without its guard; currentNode follows the node being computed, so that an
    // exception from a kernel can be reported against it.
    Result<RunResult> runNodes(SimMode mode, const std::vector<Tensor>& inputs, const RunOptions& options,
                               ThreadPool* pool, const ProgressFn& progress, size_t& currentNode) const;
    std::shared_ptr<const model::ModelGraph> m_graph;  // owns the proto the nodes point into
    std::vector<LayerInfo> m_layers;
    std::vector<std::string> m_inputs, m_outputs;
    std::vector<std::vector<int64_t>> m_inputShapes;
    std::vector<DType> m_inputTypes;
    std::shared_ptr<Impl> m_impl;
};

}  // namespace qatdoctor::core::fixedpoint
