// The restricted unpickler on streams written byte by byte: what it builds, and hostile or
// damaged streams ending in an error that names the byte, never a crash or a run.
#include "core/checkpoint/pickle_vm.h"

#include <gtest/gtest.h>

namespace qatdoctor::core::checkpoint {
namespace {

using Kind = PyNode::Kind;
using namespace std::string_literals;  // "..."s keeps the NUL bytes of a pickle

TEST(PickleVm, BuildsDictsOfScalarsAndKeepsCallsUnrun)
{
    // {'epoch': 3, 'x': os.system('rm -rf /')}  (protocol 2)
    const std::string p =
        "\x80\x02}q\x00(X\x05\x00\x00\x00"
        "epochK\x03X\x01\x00\x00\x00x"s +
        "cposix\nsystem\nq\x01X\x08\x00\x00\x00rm -rf /\x85R"s + "u."s;
    Result<PickleTree> t = unpickle(p, "test");
    ASSERT_TRUE(t.ok()) << t.error().toString();
    const PyNode& root = t->at(t->root);
    ASSERT_EQ(root.kind, Kind::Dict);
    ASSERT_EQ(root.items.size(), 4u);
    EXPECT_EQ(t->at(root.items[1]).i, 3);
    EXPECT_EQ(t->at(root.items[3]).kind, Kind::Call);
    EXPECT_EQ(t->callee(root.items[3]).second, "system");
    EXPECT_TRUE(t->globals.count({"posix", "system"}));
    EXPECT_TRUE(isDangerousGlobal("posix", "system"));
    EXPECT_TRUE(isDangerousGlobal("builtins", "eval"));
    EXPECT_FALSE(isDangerousGlobal("collections", "OrderedDict"));
    EXPECT_FALSE(isDangerousGlobal("torch._utils", "_rebuild_tensor_v2"));
}

TEST(PickleVm, APython2OrderedDictKeepsItsItems)
{
    // OrderedDict([['a', 1], ['b', 2]]): Python 2 passed the items as the call's argument
    const std::string p =
        "\x80\x02"
        "ccollections\nOrderedDict\n"
        "]("  // the global, a list, MARK
        "](U\x01"
        "a"
        "K\x01"
        "e"  // ['a', 1]
        "](U\x01"
        "b"
        "K\x02"
        "e"
        "e"         // ['b', 2], the outer APPENDS
        "\x85R."s;  // a 1-tuple of it, REDUCE, STOP
    Result<PickleTree> t = unpickle(p, "test");
    ASSERT_TRUE(t.ok()) << t.error().toString();
    const PyNode& root = t->at(t->root);
    ASSERT_EQ(root.kind, Kind::Dict);
    ASSERT_EQ(root.items.size(), 4u);
    EXPECT_EQ(t->at(root.items[0]).text, "a");
    EXPECT_EQ(t->at(root.items[1]).i, 1);
    EXPECT_EQ(t->at(root.items[2]).text, "b");
    EXPECT_EQ(t->at(root.items[3]).i, 2);
}

TEST(PickleVm, DamagedStreamsNameTheByte)
{
    struct Case {
        std::string bytes, message;
    };
    const Case cases[] = {
        {"\x80\x02"s, "ends before STOP"},
        {"\x80\x02X\xff\xff\xff\x7f"s, "ends inside an opcode"},
        {"\x80\x02h\x05."s, "memo key 5 not defined"},
        {"\x80\x02u."s, "no MARK"},
        {"\x80\x02\xff"s, "unknown opcode 0xff"},
        {"\x80\x02R."s, "stack underflow"},
        {"\x80\x09."s, "protocol 9"},
    };
    for (const Case& c : cases) {
        Result<PickleTree> t = unpickle(c.bytes, "bad.pkl");
        ASSERT_FALSE(t.ok()) << c.message;
        EXPECT_NE(t.error().message.find(c.message), std::string::npos) << t.error().message;
        EXPECT_NE(t.error().message.find("at byte"), std::string::npos);
        EXPECT_EQ(t.error().message.rfind("bad.pkl", 0), 0u);
    }
}

TEST(PickleVm, DeepNestingAndMemoCyclesStayWithinLimits)
{
    // a list appended to itself through the memo (a cycle), then 200000 nested lists
    std::string p =
        "\x80\x02]q\x00h\x00"
        "a"s;
    for (int k = 0; k < 200000; ++k) p += "]";  // pushes
    for (int k = 0; k < 199999; ++k) p += "a";  // each appended into the one below: deep nesting
    p += "0.";
    Result<PickleTree> t = unpickle(p, "deep.pkl");
    ASSERT_TRUE(t.ok()) << t.error().toString();  // built as an arena: nothing recursive to overflow
    PickleLimits small;
    small.maxNodes = 1000;
    Result<PickleTree> limited = unpickle(p, "deep.pkl", small);
    ASSERT_FALSE(limited.ok());
    EXPECT_NE(limited.error().message.find("more than 1000 values"), std::string::npos);
}

}  // namespace
}  // namespace qatdoctor::core::checkpoint
