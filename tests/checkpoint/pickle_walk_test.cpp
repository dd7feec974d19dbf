// The walk of a pickle's tree under cycles and sharing (issue #48): an object holding itself is cut
// with a note naming it, a memo-shared subtree is described once, a tied tensor keeps its names.
#include <gtest/gtest.h>

#include <string>

#include "core/checkpoint/checkpoint_contents.h"
#include "core/checkpoint/pickle_vm.h"

namespace qatdoctor::core::checkpoint {
namespace {

using namespace std::string_literals;

std::string unicode(const std::string& s)
{
    return "X"s + static_cast<char>(s.size()) + "\0\0\0"s + s;
}

CheckpointFile walked(const std::string& pickle)
{
    Result<PickleTree> t = unpickle(pickle, "cycle.pt");
    EXPECT_TRUE(t.ok()) << t.error().toString();
    CheckpointFile f;
    if (t) describePickle(*t, f);
    return f;
}

// net = Net(); net.__dict__ = {'_modules': {'self': net}}: a module that holds itself
TEST(PickleWalk, AModuleHoldingItselfIsCutWithANote)
{
    const std::string p = "\x80\x02"s + "c__main__\nNet\n)\x81q\x00}("s + unicode("_modules") + "}("s +
                          unicode("self") + "h\x00uub."s;
    const CheckpointFile f = walked(p);
    ASSERT_FALSE(f.walkNotes.empty());
    EXPECT_NE(f.walkNotes[0].find("cycle"), std::string::npos) << f.walkNotes[0];
    EXPECT_NE(f.walkNotes[0].find("self"), std::string::npos) << f.walkNotes[0];
}

// net.__dict__ = {'_modules': {}, '_parameters': net}: the walk steps into the same object with
// no key between (a stack overflow before the walk counted this step)
TEST(PickleWalk, AModuleWhoseParametersAreItselfIsCut)
{
    const std::string p = "\x80\x02"s + "c__main__\nNet\n)\x81q\x00}("s + unicode("_modules") + "}"s +
                          unicode("_parameters") + "h\x00ub."s;
    const CheckpointFile f = walked(p);
    ASSERT_EQ(f.walkNotes.size(), 1u);
    EXPECT_NE(f.walkNotes[0].find("cycle"), std::string::npos) << f.walkNotes[0];
}

// a = A(); b = B(); a._modules = {'b': b}; b._modules = {'a': a}
TEST(PickleWalk, TwoModulesHoldingEachOtherAreCut)
{
    const std::string p = "\x80\x02"s + "c__main__\nA\n)\x81q\x00}("s + unicode("_modules") + "}("s +
                          unicode("b") + "c__main__\nB\n)\x81q\x01}("s + unicode("_modules") + "}("s +
                          unicode("a") + "h\x00uubuub."s;
    const CheckpointFile f = walked(p);
    ASSERT_EQ(f.walkNotes.size(), 1u);
    EXPECT_NE(f.walkNotes[0].find("b.a"), std::string::npos) << f.walkNotes[0];
}

// L0 = [1, 2]; Li = [L(i-1), L(i-1)] for 24 levels: 2^24 paths to one list, walked once each
TEST(PickleWalk, AMemoSharedTreeIsWalkedOnce)
{
    std::string p = "\x80\x02"s + "(K\x01K\x02lq\x00"s;
    for (int i = 1; i <= 24; ++i)
        p +=
            "(h"s + static_cast<char>(i - 1) + "h"s + static_cast<char>(i - 1) + "lq"s + static_cast<char>(i);
    p += "}("s + unicode("deep") + "h\x18u.";
    const CheckpointFile f = walked(p);
    EXPECT_TRUE(f.walkNotes.empty());  // sharing is no cycle
    EXPECT_LE(f.metadata.size(), 2u);
}

}  // namespace
}  // namespace qatdoctor::core::checkpoint
