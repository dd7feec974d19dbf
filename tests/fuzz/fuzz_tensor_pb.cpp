// Serialized ONNX TensorProto simulator inputs (input_0.pb of ONNX test data sets).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/fixedpoint/tensor_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace qatdoctor::core::fixedpoint;
    (void)parseTensorProto(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.pb");
    return 0;
}
