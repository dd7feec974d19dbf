// The simulator's tensor: an element type, a shape and a flat row-major buffer. The buffer is
// shared and treated as immutable once a kernel has filled it, so Identity/Reshape/Flatten and
// the interpreter's value table copy a pointer, not the data.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/dtype.h"

namespace qatdoctor::core::fixedpoint {

using model::DType;

// Bytes per element for the types the simulator computes with (0 = unsupported).
size_t elementSize(DType t);

// What a tensor allocation refused: a negative dimension, an element count that overflows, or
// more bytes than the simulation budget. Thrown by the Tensor constructor (a shape read out of a
// hostile model reaches it from any kernel) and turned into an error naming the node by the
// interpreter, which catches every exception of a node's kernels.
struct TensorLimitError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The largest single tensor the simulator allocates, in bytes: a quarter of the physical memory
// (at least 256 MiB), unless a TensorBudgetScope on this thread says otherwise.
uint64_t tensorByteBudget();

// Throws TensorLimitError when a tensor of shape and dtype could not be allocated (the check the
// constructor makes), for kernels that build index tables of the output's size first.
void checkTensorBudget(const std::vector<int64_t>& shape, DType dtype);

// Sets this thread's tensor budget for its lifetime (the interpreter's run, from --max-memory);
// 0 keeps the default. Kernels that run on pool threads keep the default there.
class TensorBudgetScope {
public:
    explicit TensorBudgetScope(uint64_t bytes);
    ~TensorBudgetScope();
    TensorBudgetScope(const TensorBudgetScope&) = delete;
    TensorBudgetScope& operator=(const TensorBudgetScope&) = delete;

private:
    uint64_t m_previous;
};

class Tensor {
public:
    Tensor() = default;
    // Uninitialised buffer of shape's element count (call fill/data to set it). Throws
    // TensorLimitError for a negative dimension, an overflowing count or a size past the budget.
    Tensor(DType dtype, std::vector<int64_t> shape);

    DType dtype() const { return m_dtype; }
    const std::vector<int64_t>& shape() const { return m_shape; }
    int64_t rank() const { return static_cast<int64_t>(m_shape.size()); }
    int64_t dim(int64_t i) const { return m_shape[static_cast<size_t>(i)]; }
    int64_t size() const { return m_size; }
    bool empty() const { return !m_data; }

    template <class T>
    T* data()
    {
        return reinterpret_cast<T*>(m_data.get());
    }
    template <class T>
    const T* data() const
    {
        return reinterpret_cast<const T*>(m_data.get());
    }

    // Same data, other shape (element counts must match: TensorLimitError otherwise).
    Tensor reshaped(std::vector<int64_t> shape) const;

    // Element i converted to double / int64 (slow path for small tensors and generic ops).
    double at(int64_t i) const;
    int64_t atInt(int64_t i) const;
    // Whole tensor converted (float32 is copied; integers are converted exactly).
    std::vector<float> toFloats() const;
    std::vector<double> toDoubles() const;
    std::vector<int64_t> toInts() const;

    // Stores v converted to the tensor's type (integers saturate, bool is v != 0).
    void set(int64_t i, double v);
    void setInt(int64_t i, int64_t v);

    static Tensor fromFloats(std::vector<int64_t> shape, const std::vector<float>& values);
    static Tensor fromInts(DType dtype, std::vector<int64_t> shape, const std::vector<int64_t>& values);
    static Tensor scalar(float v) { return fromFloats({}, {v}); }

private:
    DType m_dtype = DType::Float32;
    std::vector<int64_t> m_shape;
    int64_t m_size = 0;
    std::shared_ptr<uint8_t[]> m_data;
};

// The element count; 0 when any dimension is 0. Throws TensorLimitError when the product overflows.
int64_t shapeSize(const std::vector<int64_t>& shape);
std::string shapeString(const std::vector<int64_t>& shape);  // "1x3x224x224" ("scalar" for rank 0)

// Calls f(static_cast<T*>(nullptr)) with T the C++ type of dtype; false if not a numeric type.
template <class F>
bool dispatchType(DType t, F&& f)
{
    switch (t) {
        case DType::Float32:
            f(static_cast<float*>(nullptr));
            return true;
        case DType::Float64:
            f(static_cast<double*>(nullptr));
            return true;
        case DType::Int8:
            f(static_cast<int8_t*>(nullptr));
            return true;
        case DType::UInt8:
            f(static_cast<uint8_t*>(nullptr));
            return true;
        case DType::Int16:
            f(static_cast<int16_t*>(nullptr));
            return true;
        case DType::UInt16:
            f(static_cast<uint16_t*>(nullptr));
            return true;
        case DType::Int32:
            f(static_cast<int32_t*>(nullptr));
            return true;
        case DType::UInt32:
            f(static_cast<uint32_t*>(nullptr));
            return true;
        case DType::Int64:
            f(static_cast<int64_t*>(nullptr));
            return true;
        case DType::Bool:
            f(static_cast<bool*>(nullptr));
            return true;
        default:
            return false;
    }
}

}  // namespace qatdoctor::core::fixedpoint
