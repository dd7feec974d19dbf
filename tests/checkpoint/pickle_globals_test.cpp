// The unsafe-pickle check is weights_only's allowlist: streams written byte by byte that call,
// build or only name globals, protocol 2's GLOBAL and protocol 4's STACK_GLOBAL with dotted names.
#include "core/checkpoint/pickle_globals.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/checkpoint/checkpoint_contents.h"
#include "core/checkpoint/pickle_vm.h"

namespace qatdoctor::core::checkpoint {
namespace {

using namespace std::string_literals;

std::string shortUnicode(const std::string& s)
{
    return "\x8c"s + static_cast<char>(s.size()) + s;
}

// module.name('x') as protocol 2 (GLOBAL) or protocol 4 (STACK_GLOBAL, dotted names allowed)
std::string callPickle(const std::string& module, const std::string& name, bool protocol4)
{
    const std::string global =
        protocol4 ? shortUnicode(module) + shortUnicode(name) + "\x93"s : "c" + module + "\n" + name + "\n";
    return (protocol4 ? "\x80\x04"s : "\x80\x02"s) + global + shortUnicode("x") + "\x85R."s;
}

CheckpointFile describe(const std::string& pickle)
{
    Result<PickleTree> t = unpickle(pickle, "test.pt");
    EXPECT_TRUE(t.ok()) << t.error().toString();
    CheckpointFile f;
    if (t) describePickle(*t, f);
    return f;
}

bool has(const std::vector<std::string>& list, const std::string& name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

struct Called {
    const char* module;
    const char* name;
    bool protocol4;
};

// Every one of these runs something when torch.load (weights_only=False) loads the pickle.
TEST(PickleGlobals, EveryCalledGlobalOutsideTheAllowlistIsNamed)
{
    const Called cases[] = {
        {"torch.serialization", "os.system", true},
        {"builtins", "eval.__call__", true},
        {"_posixsubprocess", "fork_exec", false},
        {"timeit", "timeit", false},
        {"pdb", "run", false},
        {"cProfile", "run", false},
        {"types", "FunctionType", false},
        {"io", "open", false},
        {"operator", "methodcaller", false},
        {"torch.hub", "load", false},
        {"torch.utils.cpp_extension", "load_inline", false},
        {"builtins", "breakpoint", false},
        {"my_project.tools", "prepare", false},      // unknown: not on the allowlist, so named
        {"torch.nn.modules.conv", "Conv2d", false},  // a class called with arguments runs __init__
    };
    for (const Called& c : cases) {
        const CheckpointFile f = describe(callPickle(c.module, c.name, c.protocol4));
        const std::string dotted = std::string(c.module) + "." + c.name;
        EXPECT_TRUE(has(f.dangerous, dotted)) << dotted;
        EXPECT_FALSE(has(f.refusedGlobals, dotted)) << dotted;
    }
}

// A dangerous global only kept as a value is named too: any later call of it would run.
TEST(PickleGlobals, ASystemGlobalKeptAsAValueIsNamed)
{
    const CheckpointFile f = describe("\x80\x02}X\x02\x00\x00\x00"s + "fncbuiltins\neval\ns."s);
    EXPECT_TRUE(has(f.dangerous, "builtins.eval"));
}

// What torch.save writes for tensors, dicts and dtypes is safe; whole modules are classes a
// weights_only load refuses, listed apart from the globals that would run.
TEST(PickleGlobals, AllowlistedGlobalsAreSafeAndConstructedClassesAreListedApart)
{
    EXPECT_TRUE(isWeightsOnlyGlobal("torch._utils", "_rebuild_tensor_v2"));
    EXPECT_TRUE(isWeightsOnlyGlobal("torch", "FloatStorage"));
    EXPECT_TRUE(isWeightsOnlyGlobal("torch", "qint8"));
    EXPECT_TRUE(isWeightsOnlyGlobal("collections", "OrderedDict"));
    EXPECT_FALSE(isWeightsOnlyGlobal("torch", "load"));
    EXPECT_FALSE(isWeightsOnlyGlobal("torch.nn.modules.conv", "Conv2d"));

    // collections.OrderedDict() then a NEWOBJ'd __main__.Net built from a dict (protocol 2)
    const CheckpointFile newobj = describe("\x80\x02"s + "c__main__\nNet\n)\x81}b."s);
    EXPECT_TRUE(newobj.dangerous.empty());
    EXPECT_TRUE(has(newobj.refusedGlobals, "__main__.Net"));

    // copyreg._reconstructor(Net, object, None) then BUILD: the protocol-2 form of the same
    const CheckpointFile reconstructed =
        describe("\x80\x02"s + "ccopy_reg\n_reconstructor\nc__main__\nNet\nc__builtin__\nobject\nN\x87R}b."s);
    EXPECT_TRUE(reconstructed.dangerous.empty());
    EXPECT_EQ(reconstructed.refusedGlobals, std::vector<std::string>{"__main__.Net"});

    const CheckpointFile dict = describe(callPickle("collections", "OrderedDict", false));
    EXPECT_TRUE(dict.dangerous.empty());
    EXPECT_TRUE(dict.refusedGlobals.empty());
}

TEST(PickleGlobals, ACalledUseOutranksAnEarlierConstruction)
{
    EXPECT_EQ(riskOf("my_project", "Net", GlobalUse::Constructed), GlobalRisk::Class);
    EXPECT_EQ(riskOf("my_project", "Net", GlobalUse::Called), GlobalRisk::Runs);
    EXPECT_EQ(riskOf("torch", "float32", GlobalUse::Named), GlobalRisk::Safe);
    EXPECT_EQ(riskOf("torch", "Size", GlobalUse::Called), GlobalRisk::Safe);
    EXPECT_EQ(riskOf("torch", "os.system", GlobalUse::Named), GlobalRisk::Runs);
}

}  // namespace
}  // namespace qatdoctor::core::checkpoint
