// NumPy .npy simulator inputs (header dictionary, dtype, shape, data length).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/fixedpoint/tensor_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace qatdoctor::core::fixedpoint;
    auto t = parseNpy(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.npy");
    if (t) (void)writeNpy(*t);
    return 0;
}
