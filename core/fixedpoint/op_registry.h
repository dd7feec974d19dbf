// The specification kernels: every op evaluated exactly as the ONNX specification says (float
// arithmetic in float32, integer ops exactly). The float and fake-quant modes run only these;
// the integer mode runs them for ops outside the quantized domain (CPU fallback).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/common/result.h"
#include "core/fixedpoint/kernel_checks.h"
#include "core/fixedpoint/tensor.h"
#include "core/fixedpoint/thread_pool.h"

namespace onnx {
class NodeProto;
}

namespace qatdoctor::core::fixedpoint {

struct OpCall {
    const onnx::NodeProto& node;
    const std::vector<Tensor>& inputs;  // empty Tensor (empty()) for an omitted optional input
    int64_t opset = 13;
    ThreadPool* pool = nullptr;  // null = single-threaded
    std::string folder;          // for Constant tensors with external data

    bool hasInput(size_t i) const { return i < inputs.size() && !inputs[i].empty(); }
    // Input i, which the op requires: a node that does not give it (a crafted model may drop any
    // input) throws KernelInputError, reported against the node by the interpreter.
    const Tensor& in(size_t i) const
    {
        if (!hasInput(i)) throw KernelInputError("input " + std::to_string(i) + " is missing");
        return inputs[i];
    }
};

using OpFn = std::function<Result<std::vector<Tensor>>(const OpCall& call)>;

struct OpEntry {
    const char* op;
    OpFn run;
};

// Ops of the default ONNX domain the simulator evaluates (sorted by op name).
const std::vector<OpEntry>& specOps();
const OpFn* findSpecOp(const std::string& opType);

// Pieces the table is built from (ops_*.cpp), one per family.
void addMathOps(std::vector<OpEntry>& table);
void addNnOps(std::vector<OpEntry>& table);
void addShapeOps(std::vector<OpEntry>& table);
void addQuantOps(std::vector<OpEntry>& table);

// Error naming the node, for kernels.
Error opError(const onnx::NodeProto& node, const std::string& what);
// The same with code "simulate.unsupported": a feature of the op the simulator does not model.
Error unsupported(const onnx::NodeProto& node, const std::string& what);

}  // namespace qatdoctor::core::fixedpoint
