// Which globals a pickle names are safe to load, judged the way torch.load(weights_only=True)
// judges them: an allowlist (tensor and storage rebuilds, dtypes, OrderedDict ...), not a list of
// known-bad names. Every other global is either called when the pickle is loaded (REDUCE, INST,
// OBJ: arbitrary code) or a class constructed from a state (NEWOBJ, copyreg's reconstructor: its
// module is imported, its __setstate__ runs), which a weights_only load refuses too.
#pragma once

#include <cstdint>
#include <string_view>

namespace qatdoctor::core::checkpoint {

// How a pickle uses a global, the strongest use wins.
enum class GlobalUse : uint8_t {
    Named,        // only a value (a dtype in a state, a function kept as an attribute)
    Constructed,  // a class whose instance is built from a state, never called with arguments
    Called,       // called with arguments when loaded
};

enum class GlobalRisk : uint8_t {
    Safe,   // weights_only accepts it
    Class,  // weights_only refuses it; loading imports its module and builds it
    Runs,   // loading would call it, or it reaches the system whatever its use
};

// torch.load(weights_only=True)'s allowlist.
bool isWeightsOnlyGlobal(std::string_view module, std::string_view name);
// Globals whose module reaches processes, files, the network or the interpreter itself, in any use
// (protocol 4's dotted names included: ("torch.serialization", "os.system") is os.system).
bool isDangerousGlobal(std::string_view module, std::string_view name);
// copyreg's helpers that build an instance of the class they are given (protocol 2's objects).
bool isReconstructor(std::string_view module, std::string_view name);

GlobalRisk riskOf(std::string_view module, std::string_view name, GlobalUse use);

}  // namespace qatdoctor::core::checkpoint
