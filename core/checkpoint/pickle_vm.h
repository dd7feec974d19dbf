// A restricted unpickler: the pickle opcodes (protocols 0-5) run as a small stack machine that
// builds a tree of plain values and never imports, calls or executes anything. A GLOBAL is kept
// as its (module, name); a REDUCE / NEWOBJ / BUILD as the callable with its arguments and state,
// so a module tree of unknown classes still shows; the few globals a checkpoint needs to be
// understood (OrderedDict, tensor and parameter rebuilds) are recognised by name, not run.
// Written from the opcode table of the format's public documentation (CPython's pickletools).
//
// The tree is an arena of nodes addressed by index: the memo may share nodes, a hostile pickle
// may even make cycles, and nothing is freed recursively. Limits on nodes, memo, stack and
// string sizes turn a hostile or damaged stream into an error naming the byte offset.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/checkpoint/pickle_globals.h"
#include "core/common/memory_budget.h"
#include "core/common/result.h"

namespace qatdoctor::core::checkpoint {

using NodeId = uint32_t;

struct PyNode {
    enum class Kind : uint8_t {
        None,
        Bool,
        Int,
        Float,
        Str,
        Bytes,  // scalars (a Python int beyond 64 bits: Str of its digits)
        Tuple,
        List,
        Dict,
        Set,           // containers: items (a Dict holds key, value pairs in order)
        Global,        // text = module, text2 = name
        Call,          // items[0] = callable, items[1] = args; REDUCE and NEWOBJ
        PersistentId,  // items[0] = the id (a torch storage: a tuple)
    };
    Kind kind = Kind::None;
    int64_t i = 0;  // Bool, Int
    double f = 0;   // Float
    std::string text, text2;
    std::vector<NodeId> items;
    // BUILD's state, and the items SETITEM(S)/APPEND(S) added to a Call (an object of an unknown
    // class filled like a dict or a list).
    NodeId state = 0;
    bool hasState = false;
    std::vector<NodeId> extra;
};

struct PickleLimits {
    size_t maxNodes = 8'000'000;
    size_t maxMemo = 8'000'000;
    size_t maxStack = 1'000'000;
    size_t maxMarks = 100'000;
    // Charged with every value's node and text (a pickle string is copied once into its node);
    // past it the run stops with "checkpoint.budget". None = only the limits above.
    MemoryBudget* budget = nullptr;
};

struct PickleTree {
    std::vector<PyNode> nodes;
    NodeId root = 0;
    size_t end = 0;  // bytes of the stream read up to and including STOP (pickles may follow)
    // every (module, name) named, with its strongest use
    std::map<std::pair<std::string, std::string>, GlobalUse> globals;

    const PyNode& at(NodeId id) const { return nodes[id]; }
    // The callable's (module, name) when node is a Call of a Global; empty otherwise.
    std::pair<std::string_view, std::string_view> callee(NodeId id) const;
};

// Runs the pickle in bytes. `label` names the stream in errors ("model.pt: data.pkl").
Result<PickleTree> unpickle(std::string_view bytes, const std::string& label,
                            const PickleLimits& limits = {});

}  // namespace qatdoctor::core::checkpoint
