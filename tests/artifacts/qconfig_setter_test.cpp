// QconfigSetter's save_dir files with the model they configured: the modules set to int16 in
// qconfig_dtypes.pt.py are checked against the dtypes model_check_result.txt shows, and the
// change log says why one fell back. A dump is parsed, never run, whatever it holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/analysis.h"
#include "core/artifacts/python_literal.h"

using namespace qatdoctor::core;

namespace {

const std::string kDir = std::string(QATDOCTOR_TEST_DATA) + "/toolchain/";

const Finding* findingOf(const Analysis& a, const std::string& id)
{
    for (const Finding& f : a.findings)
        if (f.id == id) return &f;
    return nullptr;
}

}  // namespace

TEST(QconfigSetter, ConfiguredInt16ThatTheModelDoesNotShowIsNotApplied)
{
    AnalyzeOptions options;
    options.paths = {kDir + "qconfig_dtypes.pt.py", kDir + "model_check_result.txt",
                     kDir + "qconfig_changelogs.txt"};
    auto a = analyze(options);
    ASSERT_TRUE(a.ok()) << a.error().toString();
    EXPECT_EQ(a->expectedDtypes.count("neck.lateral.0"), 1u);
    const Finding* notApplied = findingOf(*a, "model.int16_not_applied");
    ASSERT_NE(notApplied, nullptr);
    std::vector<std::string> layers;
    for (const Evidence& e : notApplied->evidence) layers.push_back(e.layer);
    EXPECT_NE(std::find(layers.begin(), layers.end(), "neck.lateral.0"), layers.end());
    // head.reg is int16 in both: configured and applied
    EXPECT_EQ(std::find(layers.begin(), layers.end(), "head.reg"), layers.end());
    const Finding* fallback = findingOf(*a, "qconfig.int16_fallback");
    ASSERT_NE(fallback, nullptr);
    EXPECT_NE(fallback->evidence.at(0).detail.find("conv+add fused"), std::string::npos);
}

TEST(QconfigSetter, NestingPastTheLimitIsRefusedWithTheLine)
{
    std::string deep = "x = {'m':\n";
    for (int i = 0; i < 200; ++i) deep += "[";
    auto v = artifacts::parsePythonLiteral(deep, "deep.pt.py");
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.error().message.find("deep.pt.py:2: nested deeper than 64 levels"), std::string::npos)
        << v.error().message;
    auto ok =
        artifacts::parsePythonLiteral("{'a': (qint8, 'qint16'), \"b\": [1, -2.5e-3], 'c': None,}", "f.py");
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    ASSERT_EQ(ok->entries.size(), 3u);
    EXPECT_EQ(ok->entries[0].value.items.at(1).text, "qint16");
    EXPECT_EQ(ok->entries[1].value.items.at(1).text, "-2.5e-3");
}

// The literal is read as Python reads it (#48 item 13): escapes decoded, a repeated key's last
// value kept with a warning, line numbers right after a backslash-newline, a BOM and CR-only line
// ends accepted.
TEST(PythonLiteral, ReadsPythonAsPython)
{
    auto v = artifacts::parsePythonLiteral("{'\\u4e2d\\x2e': 1, 'a\\tb': 2, 'q': '\\101\\n'}", "e.py");
    ASSERT_TRUE(v.ok()) << v.error().toString();
    EXPECT_EQ(v->entries.at(0).key.text, "中.");
    EXPECT_EQ(v->entries.at(1).key.text, "a\tb");
    EXPECT_EQ(v->entries.at(2).value.text, "A\n");

    std::vector<Warning> warnings;
    auto twice =
        artifacts::parsePythonLiteral("{\n'conv': 'qint8',\n'conv': 'qint16',\n}", "t.py", &warnings);
    ASSERT_TRUE(twice.ok());
    ASSERT_EQ(twice->entries.size(), 1u);
    EXPECT_EQ(twice->entries[0].value.text, "qint16");
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].line, 3);

    auto joined = artifacts::parsePythonLiteral("{'a': 'one \\\ntwo',\n'b': 1,\n'c': (}", "j.py");
    ASSERT_FALSE(joined.ok());
    EXPECT_EQ(joined.error().line, 4) << joined.error().toString();

    auto bomCr = artifacts::parsePythonLiteral("\xEF\xBB\xBF{'a': 1,\r'b': 2,\r'c': }", "cr.py");
    ASSERT_FALSE(bomCr.ok());
    EXPECT_EQ(bomCr.error().line, 3) << bomCr.error().toString();
    auto bomOk = artifacts::parsePythonLiteral("\xEF\xBB\xBF{'a': 1,\r\n'b': 2}\r\n", "crlf.py");
    ASSERT_TRUE(bomOk.ok()) << bomOk.error().toString();
    EXPECT_EQ(bomOk->entries.at(1).key.line, 2);
}
