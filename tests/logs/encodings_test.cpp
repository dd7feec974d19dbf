// Logs that are text in another form: UTF-16 with a BOM (PowerShell's "> train.log"), a UTF-8
// BOM, CR-only line ends, and a head with a few NUL-damaged lines. Each was refused whole as
// "no training log" before; each must read as the same log written plainly.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/logs/text_decoding.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

// A fresh folder under the system temp dir, removed with it.
struct TempFolder {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("qatdoctor_enc_" + std::to_string(::getpid()) + "_" +
                         ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                           .string();
    TempFolder() { std::filesystem::create_directories(path); }
    ~TempFolder() { std::filesystem::remove_all(path); }
};

const std::string kPlain =
    "Epoch[0] Step[1] GlobalStep[1] qat_train: loss[0.9] acc[0.5]\n"
    "Epoch[0] Step[2] GlobalStep[2] qat_train: loss[0.7] acc[0.6]\n"
    "Epoch[0] Step[3] GlobalStep[3] qat_train: loss[0.5] acc[0.7]\n";

std::string utf16(const std::string& ascii, bool littleEndian, bool crlf)
{
    std::string out = littleEndian ? "\xff\xfe" : "\xfe\xff";
    for (char c : ascii) {
        if (c == '\n' && crlf) out += littleEndian ? std::string("\r\0", 2) : std::string("\0\r", 2);
        out += littleEndian ? std::string(1, c) + '\0' : std::string(1, '\0') + c;
    }
    return out;
}

void expectSameLog(const std::string& bytes, const std::string& what)
{
    TempFolder dir;
    const std::string path = dir.path + "/train.log";
    std::ofstream(path, std::ios::binary) << bytes;
    auto set = readLogFile(path);
    ASSERT_TRUE(set) << what << ": " << set.error().toString();
    ASSERT_EQ(set->runs.size(), 1u) << what;
    const Series& loss = seriesOf(set->runs[0], "loss");
    ASSERT_EQ(loss.size(), 3u) << what;
    EXPECT_FLOAT_EQ(loss.value.back(), 0.5f) << what;
    EXPECT_EQ(loss.step.back(), 3) << what;
}

TEST(LogEncodings, Utf16WithABomReadsAsTheSameLog)
{
    expectSameLog(utf16(kPlain, true, true), "UTF-16LE with CRLF");
    expectSameLog(utf16(kPlain, false, false), "UTF-16BE");
    EXPECT_EQ(logTextEncoding(utf16(kPlain, true, false)), "UTF-16LE");
    // a character outside the BMP (a surrogate pair) and a lone surrogate
    const std::string pair =
        std::string("\xff\xfe", 2) + std::string("\x3d\xd8\x00\xde", 4) + std::string("\x00\xd8", 2);
    EXPECT_EQ(*decodeLogText(pair), "\xf0\x9f\x98\x80\xef\xbf\xbd");
}

TEST(LogEncodings, BomAndCrOnlyLineEnds)
{
    expectSameLog("\xef\xbb\xbf" + kPlain, "UTF-8 with BOM");
    std::string cr = kPlain;
    for (char& c : cr)
        if (c == '\n') c = '\r';
    expectSameLog(cr, "CR line ends");
    EXPECT_FALSE(decodeLogText(kPlain));  // plain UTF-8 is read as it is, not copied
}

TEST(LogEncodings, GbkLogsOfChineseWindowsAreDecoded)
{
    // "训练" (training) in GBK is D1 B5 C1 B7: invalid UTF-8, valid GB18030
    const std::string gbk = "\xd1\xb5\xc1\xb7";
    const std::string log = "task_name: " + gbk + "\n" + kPlain;
    EXPECT_EQ(logTextEncoding(log), "GB18030");
    const std::optional<std::string> text = decodeLogText(log);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->substr(0, 17), "task_name: \xe8\xae\xad\xe7\xbb\x83");
    expectSameLog(log, "GBK");
    // valid UTF-8 Chinese is left alone
    EXPECT_EQ(logTextEncoding("task_name: \xe8\xae\xad\xe7\xbb\x83\n" + kPlain), "");
}

TEST(LogEncodings, WesternWindowsLogsAreDecodedAsWindows1252)
{
    // "Genauigkeit f\xfcr Schritt" and "R\xe9sultat" (Latin-1 / Windows-1252): letters that stand
    // alone between ASCII bytes, invalid UTF-8, and no GB18030 either (0xfc then 'r')
    const std::string log = "description: Genauigkeit f\xfcr Schritt 1, R\xe9sultat \x80 5\n" + kPlain;
    EXPECT_EQ(logTextEncoding(log), "Windows-1252");
    const std::optional<std::string> text = decodeLogText(log);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->substr(0, text->find('\n')),
              "description: Genauigkeit f\xc3\xbcr Schritt 1, R\xc3\xa9sultat \xe2\x82\xac 5");
    expectSameLog(log, "Windows-1252");
}

TEST(LogEncodings, ADamagedByteInAUtf8LogIsNotTakenForALegacyEncoding)
{
    // UTF-8 Chinese, then one stray byte: still UTF-8 (the Chinese must not become mojibake)
    const std::string log = "task_name: \xe8\xae\xad\xe7\xbb\x83 \xff\n" + kPlain;
    EXPECT_EQ(logTextEncoding(log), "");
    EXPECT_FALSE(decodeLogText(log));
    expectSameLog(log, "damaged UTF-8");
    // GBK words (runs of two-byte characters) with one lone byte among them stay GB18030
    const std::string gbk = "task_name: \xd1\xb5\xc1\xb7 \xc4\xa3\xd0\xcd A\xb0\xa1\n" + kPlain;
    EXPECT_EQ(logTextEncoding(gbk), "GB18030");
}

TEST(LogEncodings, AFewDamagedLinesDoNotMakeTheLogBinary)
{
    // a crash left a run of NUL bytes on one line near the start
    std::string damaged = kPlain.substr(0, kPlain.find('\n') + 1) + std::string(100, '\0') + "\n" +
                          kPlain.substr(kPlain.find('\n') + 1);
    TempFolder dir;
    const std::string path = dir.path + "/train.log";
    std::ofstream(path, std::ios::binary) << damaged;
    auto set = readLogFile(path);
    ASSERT_TRUE(set) << set.error().toString();
    EXPECT_EQ(seriesOf(set->runs.at(0), "loss").size(), 3u);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test
