// The restricted unpickler (core/checkpoint/pickle_vm.h): any byte stream runs to a tree or an
// error, within its memo, stack and nesting limits, and never runs what it names.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/checkpoint/pickle_vm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace qatdoctor::core::checkpoint;
    auto tree = unpickle(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.pkl");
    if (tree) {
        for (NodeId id = 0; id < static_cast<NodeId>(tree->nodes.size()); ++id) (void)tree->callee(id);
    }
    return 0;
}
