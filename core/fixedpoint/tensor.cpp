#include "core/fixedpoint/tensor.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/common/memory_budget.h"
#include "core/common/number_text.h"

namespace qatdoctor::core::fixedpoint {

size_t elementSize(DType t)
{
    switch (t) {
        case DType::Float32:
        case DType::Int32:
        case DType::UInt32:
            return 4;
        case DType::Float64:
        case DType::Int64:
            return 8;
        case DType::Int16:
        case DType::UInt16:
        case DType::Float16:
        case DType::BFloat16:
            return 2;
        case DType::Int8:
        case DType::UInt8:
        case DType::Bool:
            return 1;
        default:
            return 0;
    }
}

int64_t shapeSize(const std::vector<int64_t>& shape)
{
    // A zero anywhere makes the product 0 whatever the other dimensions are: look for it before
    // multiplying, or huge dimensions next to it overflow on the way (a fuzzed Tile did).
    for (int64_t d : shape)
        if (d == 0) return 0;
    int64_t n = 1;
    for (int64_t d : shape)
        if (__builtin_mul_overflow(n, d, &n))
            throw TensorLimitError("tensor shape " + shapeString(shape) + " overflows");
    return n;
}

std::string shapeString(const std::vector<int64_t>& shape)
{
    if (shape.empty()) return "scalar";
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
    return s;
}

namespace {

thread_local uint64_t t_budget = 0;  // 0 = the default

}  // namespace

uint64_t tensorByteBudget()
{
    return t_budget ? t_budget : defaultMemoryBudget();
}

TensorBudgetScope::TensorBudgetScope(uint64_t bytes) : m_previous(t_budget)
{
    if (bytes) t_budget = bytes;
}

TensorBudgetScope::~TensorBudgetScope()
{
    t_budget = m_previous;
}

// The element count of shape, refusing what no allocation should attempt.
static int64_t checkedSize(const std::vector<int64_t>& shape, DType dtype)
{
    int64_t n = 1;
    bool zero = false;
    for (int64_t d : shape) {
        if (d < 0) throw TensorLimitError("tensor shape " + shapeString(shape) + " has a negative dimension");
        zero = zero || d == 0;
    }
    if (zero) return 0;
    const uint64_t budget = tensorByteBudget();
    const uint64_t element = std::max<uint64_t>(1, elementSize(dtype));
    for (int64_t d : shape) {
        if (static_cast<uint64_t>(n) > budget / element / static_cast<uint64_t>(d))
            throw TensorLimitError("tensor of shape " + shapeString(shape) +
                                   " would exceed the simulation memory budget of " + byteSizeText(budget) +
                                   " (--max-memory)");
        n *= d;
    }
    return n;
}

void checkTensorBudget(const std::vector<int64_t>& shape, DType dtype)
{
    (void)checkedSize(shape, dtype);
}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape)
    : m_dtype(dtype), m_shape(std::move(shape)), m_size(checkedSize(m_shape, dtype))
{
    const size_t bytes = static_cast<size_t>(m_size) * elementSize(dtype);
    // +64: vector kernels may read a little past the end of the last row
    m_data = std::shared_ptr<uint8_t[]>(new uint8_t[bytes + 64]);
}

Tensor Tensor::reshaped(std::vector<int64_t> shape) const
{
    // a shape computed from a hostile model's attributes must not let a kernel read past the data
    if (shapeSize(shape) != m_size)
        throw TensorLimitError("cannot view " + shapeString(m_shape) + " as " + shapeString(shape));
    Tensor t = *this;
    t.m_shape = std::move(shape);
    return t;
}

template <class T>
static T saturateTo(double v)
{
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0;
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        if (std::isnan(v)) return 0;
        if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
        if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(v);
    }
}

double Tensor::at(int64_t i) const
{
    double v = 0;
    dispatchType(m_dtype, [&](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        v = static_cast<double>(data<T>()[i]);
    });
    return v;
}

int64_t Tensor::atInt(int64_t i) const
{
    int64_t v = 0;
    dispatchType(m_dtype, [&](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_floating_point_v<T>)
            v = static_cast<int64_t>(data<T>()[i]);
        else
            v = static_cast<int64_t>(data<T>()[i]);
    });
    return v;
}

void Tensor::set(int64_t i, double v)
{
    dispatchType(m_dtype, [&](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        data<T>()[i] = saturateTo<T>(v);
    });
}

void Tensor::setInt(int64_t i, int64_t v)
{
    dispatchType(m_dtype, [&](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_same_v<T, int64_t>)
            data<T>()[i] = v;
        else
            data<T>()[i] = saturateTo<T>(static_cast<double>(v));
    });
}

std::vector<float> Tensor::toFloats() const
{
    std::vector<float> out(static_cast<size_t>(m_size));
    if (m_dtype == DType::Float32) {
        if (m_size) std::memcpy(out.data(), data<float>(), out.size() * 4);
        return out;
    }
    for (int64_t i = 0; i < m_size; ++i) out[static_cast<size_t>(i)] = static_cast<float>(at(i));
    return out;
}

std::vector<double> Tensor::toDoubles() const
{
    std::vector<double> out(static_cast<size_t>(m_size));
    for (int64_t i = 0; i < m_size; ++i) out[static_cast<size_t>(i)] = at(i);
    return out;
}

std::vector<int64_t> Tensor::toInts() const
{
    std::vector<int64_t> out(static_cast<size_t>(m_size));
    for (int64_t i = 0; i < m_size; ++i) out[static_cast<size_t>(i)] = atInt(i);
    return out;
}

Tensor Tensor::fromFloats(std::vector<int64_t> shape, const std::vector<float>& values)
{
    Tensor t(DType::Float32, std::move(shape));
    assert(static_cast<int64_t>(values.size()) == t.size());
    if (!values.empty()) std::memcpy(t.data<float>(), values.data(), values.size() * 4);
    return t;
}

Tensor Tensor::fromInts(DType dtype, std::vector<int64_t> shape, const std::vector<int64_t>& values)
{
    Tensor t(dtype, std::move(shape));
    assert(static_cast<int64_t>(values.size()) == t.size());
    for (size_t i = 0; i < values.size(); ++i) t.setInt(static_cast<int64_t>(i), values[i]);
    return t;
}

}  // namespace qatdoctor::core::fixedpoint
