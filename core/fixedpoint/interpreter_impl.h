// Internals of Interpreter shared by interpreter.cpp (graph, float/fake modes), int_mode.cpp
// (integer domain) and layer_finder.cpp. Not part of the public API.
#pragma once

#include <onnx/onnx_pb.h>

#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/fixedpoint/int8_gemm.h"
#include "core/fixedpoint/int_ops.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/op_registry.h"

namespace qatdoctor::core::fixedpoint {

struct ValueOp;

struct NodeInfo {
    const onnx::NodeProto* proto = nullptr;
    std::vector<int> inputs;  // tensor ids, -1 = omitted
    std::vector<int> outputs;
    const OpFn* spec = nullptr;        // the specification kernel on plain tensors
    const ValueOp* valueOp = nullptr;  // what the op does on Values; null = the kernel only
    bool folded = false;               // constant, evaluated at build time
    // QLinearConv / QLinearMatMul: the float op the float mode runs on the real operands
    const onnx::NodeProto* floatForm = nullptr;
    std::string_view loweredFrom;  // a QOperator contrib op's type, on the node that computes it
};

// A convolution on the SIMD path, run when its result is first needed: by the requantization
// (requantizeValue), which can have the kernel write the 8-bit codes directly (Requant8, no
// int32 sums in memory), or by anything else reading the sums (accSums).
struct DeferredAcc {
    std::function<void(int32_t* sums, const Requant8* rq, uint8_t* codes)> run;
    std::shared_ptr<const Accumulator> sums;  // once computed
};

// An integer accumulator waiting for its requantization, with the per-channel affine map the
// deployment compiler folds into it (conv bias, Div, BatchNormalization, Mul/Add constants).
struct AccValue {
    std::shared_ptr<const Accumulator> acc;  // shared: Relu/BN/Div copies of the map keep one buffer
                                             // (only its shape until computed when deferred is set)
    std::shared_ptr<DeferredAcc> deferred;
    int axis = 1;                     // channel axis of acc.shape
    std::vector<double> scale, bias;  // real = acc * scale[c] + bias[c]
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    std::string layer;
};

// A quantized result that needs its output quantization to be computed (Add, Concat, pools,
// LUT ops): resolve(params) gives the integer tensor; toFloat() the float value when no
// quantizer follows (defaultParams set = keep the input's quantization, as pools do).
struct PendingValue {
    std::function<Tensor(const QParams&)> resolve;
    std::function<Tensor()> toFloat;
    std::optional<QParams> defaultParams;
    std::vector<int64_t> shape;  // of the result
    bool relu = false;           // clamp at the output zero point after resolving
};

struct Value {
    enum Kind { Plain, QReal, Acc, Pending };
    Kind kind = Plain;
    Tensor t;   // Plain: the tensor; QReal: integer codes
    QParams q;  // QReal: their quantization
    std::shared_ptr<AccValue> acc;
    std::shared_ptr<PendingValue> pend;
    bool bypass = false;                       // a removed quantizer's output (float mode, float what-if)
    std::optional<QParams> override16;         // output of a quantizer switched to 16 bits
    int64_t overrideMul = 1, overrideOff = 0;  // q16 = q * mul + off for following Clip bounds

    bool defined() const { return kind != Plain || !t.empty(); }
};

struct Interpreter::Impl {
    std::vector<std::string> tensorNames;
    std::map<std::string, int> tensorIds;
    std::vector<NodeInfo> nodes;                   // execution order
    std::deque<onnx::NodeProto> lowered;           // QOperator contrib ops as QDQ nodes (stable addresses)
    std::vector<std::optional<Tensor>> constants;  // per tensor id
    std::vector<int> consumers;                    // per tensor id: number of consuming nodes
    std::vector<int> inputIds, outputIds;
    std::vector<int> observedLayer;  // per tensor id: layer index or -1
    int64_t opset = 13;
    std::string folder;
    std::vector<std::optional<Tensor>> constQuant;  // per node: QuantizeLinear of constants (weights)

    // Packed int8 weights of the fast path per node, with the code buffer they were packed from
    // (runs of the same Interpreter share them; packing happens once).
    struct Packed {
        const void* source = nullptr;
        std::shared_ptr<const PackedInt8Weights> weights;
    };
    mutable std::mutex packMutex;
    mutable std::map<size_t, Packed> packed;

    int id(const std::string& name) const
    {
        auto it = tensorIds.find(name);
        return it == tensorIds.end() ? -1 : it->second;
    }
};

// What a what-if run does to a quantizer: nothing, 16 bits over the same range, or removed.
enum class QOverride { None, Int16, Skip };

// Per-run state handed to the value handlers.
struct RunContext {
    const Interpreter::Impl& impl;
    const RunOptions& options;
    const std::vector<LayerInfo>& layers;
    SimMode mode;
    ThreadPool* pool;
    RunResult& result;
    std::vector<int> layerOfNode;      // node index -> layer index or -1
    std::vector<bool> floatNode;       // float what-if: compute this node in float
    std::vector<QOverride> overrides;  // per node: what the what-if does to this quantizer
    Int8Scratch scratch{};             // buffers of the SIMD convolutions, reused across layers
};

// The sums of an accumulator value (runs a deferred convolution the first time).
const Accumulator& accSums(const AccValue& a);

// Float value of any kind (dequantizes, applies a pending accumulator, resolves defaults).
Tensor materialize(const Value& v);
// Pending with default params -> QReal; other kinds unchanged.
Value settle(const Value& v);

// The value-level op table. A handler computes a node's outputs from the interpreter's Values
// (quantized codes, pending accumulators, bypassed quantizers), or returns nullopt when it does
// not take this case; the node then goes to the next step, and last to its specification kernel
// on plain float tensors. anyMode runs in every mode (quantizers, and the ops that carry a
// quantizer's state on); intMode in the integer mode only, on nodes not computed in float.
using ValueOut = std::optional<Result<std::vector<Value>>>;
using ValueHandler = ValueOut (*)(RunContext& ctx, size_t nodeIndex, const NodeInfo& node,
                                  std::vector<Value>& in);
struct ValueOp {
    ValueHandler anyMode = nullptr;
    ValueHandler intMode = nullptr;
};
// The row of op, resolved once per node when the graph is built; nullptr: the kernel only.
const ValueOp* findValueOp(const std::string& op);
// The rows of each mode's handlers (value_ops.cpp, int_mode.cpp) fill the one table.
using ValueOpTable = std::map<std::string, ValueOp, std::less<>>;
void addQuantizerOps(ValueOpTable& table);
void addIntModeOps(ValueOpTable& table);

// The quantization parameters of a QuantizeLinear / DequantizeLinear node from its inputs.
Result<QParams> qparamsOf(const NodeInfo& node, const std::vector<Value>& in,
                          const std::vector<int64_t>& shape, DType fallback);

// QuantizeLinear in the integer mode for non-float inputs (Acc, Pending, QReal).
Result<Tensor> requantizeValue(RunContext& ctx, const Value& v, const QParams& p, const std::string& layer);

// Finds the layers of the graph (interpreter_layers.cpp).
std::vector<LayerInfo> findLayers(const Interpreter::Impl& impl);

}  // namespace qatdoctor::core::fixedpoint
