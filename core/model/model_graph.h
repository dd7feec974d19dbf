// A graph IR over an ONNX ModelProto: tensors with their producer and consumers, nodes with
// resolved tensor ids, constant values resolved through Constant / Identity / Cast /
// ConstantOfShape (PyTorch 1.13 shares 1-element scales through Identity nodes; converted int8
// models keep every weight in Constant nodes), and one propagated dtype per tensor.
//
// Built once, then immutable: safe to read from several threads. Weight values are not decoded
// here; read them on demand with constFloats() (external data is read then).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/model/dtype.h"
#include "core/model/onnx_file.h"

namespace qatdoctor::core::model {

struct GraphTensor {
    std::string name;
    int producer = -1;           // node index, -1 for initializers / graph inputs
    std::vector<int> consumers;  // node indices
    const onnx::TensorProto* initializer = nullptr;
    bool graphInput = false;  // a real input (not an initializer listed as input)
    bool graphOutput = false;
    DType dtype = DType::Unknown;  // declared or propagated element type
};

struct GraphNode {
    const onnx::NodeProto* proto = nullptr;
    std::string name;         // node name, or "#<index> <op>" when the exporter left it empty
    std::string op;           // op_type
    std::string domain;       // "" for the default domain
    std::vector<int> inputs;  // tensor ids, -1 for an omitted optional input
    std::vector<int> outputs;
};

// A small constant (scale, zero point, clip bound, shape) decoded to doubles.
struct ConstValue {
    DType dtype = DType::Unknown;
    std::vector<int64_t> dims;
    std::vector<double> values;
};

DType dtypeFromOnnx(int32_t elemType);
// The PyTorch module an exported node belongs to, as named_modules() and qconfig name it:
// "/conv1/bn/BatchNormalization" -> "conv1.bn"; "/layer1/layer1.0/conv1/Conv" -> "layer1.0.conv1";
// "/Add" -> ""; "Conv_0" -> "". The one module-path rule of the model page, the lints, the graph
// view and the simulator.
std::string modulePathFromNodeName(std::string_view nodeName);
// The module a parameter belongs to: "fc.weight", "fc.bias" and ONNX Runtime's
// "fc.weight_quantized" -> "fc"; names that say nothing ("onnx::MatMul_12", "x.7") -> "".
std::string moduleFromParameterName(std::string_view name);
// The name a layer gets on every page and in the simulator: the exporter's module path from the
// node name, else the module of the observer its output scale belongs to
// ("conv1.activation_post_process.scale"), else the module of the first parameter it reads whose
// name says one (old exporters' "Gemm_2" reading "head.weight"); "" when none does.
std::string layerModuleName(std::string_view nodeName, std::string_view outputScaleSource,
                            const std::vector<std::string>& parameterNames);

class ModelGraph {
public:
    // Indexes the model. Errors: "cancelled" only (dangling names become graph inputs of
    // unknown dtype and a warning).
    static Result<std::shared_ptr<ModelGraph>> build(OnnxModel model, const ProgressFn& progress = {});

    const OnnxModel& model() const { return m_model; }
    const std::vector<GraphNode>& nodes() const { return m_nodes; }
    const std::vector<GraphTensor>& tensors() const { return m_tensors; }
    const std::vector<int>& graphInputs() const { return m_inputs; }
    const std::vector<int>& graphOutputs() const { return m_outputs; }
    const std::vector<Warning>& warnings() const { return m_warnings; }

    int tensorId(std::string_view name) const;  // -1 when unknown
    const GraphTensor& tensor(int id) const { return m_tensors[static_cast<size_t>(id)]; }
    const GraphNode& node(int id) const { return m_nodes[static_cast<size_t>(id)]; }
    int producer(int tensor) const
    {
        return tensor < 0 ? -1 : m_tensors[static_cast<size_t>(tensor)].producer;
    }
    const std::vector<int>& consumers(int tensor) const;

    // Integer / float / string attribute of a node.
    static std::optional<int64_t> attrInt(const GraphNode& n, std::string_view name);
    static std::optional<double> attrFloat(const GraphNode& n, std::string_view name);

    // True when the tensor is a compile-time constant (initializer, Constant, or Identity /
    // Cast / ConstantOfShape of one). Structural: nothing is decoded.
    bool isConst(int tensor) const;
    // The initializer name or "<Constant node>:<tensor>" a constant comes from through Identity
    // and Cast; "" when not constant. Two quantizers with the same root share one observer.
    std::string constRoot(int tensor) const;
    // Decoded value of a constant with at most maxElements elements; nullopt otherwise or on a
    // read error (weights are read with constFloats()).
    std::optional<ConstValue> constValue(int tensor, size_t maxElements = 1u << 16) const;
    // All values of a constant as floats, read on demand (weights for histograms).
    Result<std::vector<float>> constFloats(int tensor) const;
    // Dims of a constant tensor's storage (initializer or Constant attribute), empty if unknown.
    std::vector<int64_t> constDims(int tensor) const;

private:
    void propagateDtypes();
    const onnx::TensorProto* constTensorProto(int tensor) const;

    OnnxModel m_model;
    std::vector<GraphNode> m_nodes;
    std::vector<GraphTensor> m_tensors;
    std::unordered_map<std::string, int> m_byName;
    std::vector<int> m_inputs;
    std::vector<int> m_outputs;
    std::vector<Warning> m_warnings;
};

}  // namespace qatdoctor::core::model
