// The restricted unpickler (core/checkpoint/pickle_vm.h) and the walk of its tree
// (checkpoint_contents.h): any byte stream runs to a tree or an error within its memo, stack,
// nesting and memory limits, never runs what it names, and the walk of any tree it builds (memo
// cycles, shared subtrees, huge keys) ends within its own limits.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/checkpoint/checkpoint_contents.h"
#include "core/checkpoint/pickle_vm.h"
#include "core/common/memory_budget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace qatdoctor::core::checkpoint;
    qatdoctor::core::MemoryBudget budget(uint64_t{256} << 20);
    PickleLimits limits;
    limits.budget = &budget;
    auto tree = unpickle(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.pkl", limits);
    if (tree) {
        for (NodeId id = 0; id < static_cast<NodeId>(tree->nodes.size()); ++id) (void)tree->callee(id);
        CheckpointFile described;
        describePickle(*tree, described);
    }
    return 0;
}
