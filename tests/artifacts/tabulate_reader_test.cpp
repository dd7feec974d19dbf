// The tabulate reader on inline tables in every layout the toolchain prints, and on damage.
#include "core/artifacts/tabulate_reader.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/artifacts/csv_table.h"
#include "core/artifacts/fixed_width_table.h"

namespace qatdoctor::core::artifacts {
namespace {

TableScan scan(const std::string& text)
{
    return readTables(splitLines(text), "t.txt");
}

bool anyWarning(const TableScan& s, const std::string& part)
{
    for (const Warning& w : s.warnings)
        if (w.message.find(part) != std::string::npos && w.file == "t.txt") return true;
    return false;
}

TEST(TabulateReader, PsqlWithTitleAndCaseInsensitiveColumns)
{
    const std::string text =
        "Weight qconfig:\n"
        "+--------+---------------+\n"
        "| Name   |   Similarity |\n"
        "|--------+---------------|\n"
        "| conv.w |    0.9999000 |\n"
        "| fc.w   |    0.9100000 |\n"
        "+--------+---------------+\n";
    TableScan s = scan(text);
    ASSERT_EQ(s.tables.size(), 1u);
    const TextTable& t = s.tables[0];
    EXPECT_EQ(t.title, "Weight qconfig:");
    EXPECT_EQ(t.style, "psql");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.column({"SIMILARITY"}), 1);
    EXPECT_EQ(t.cell(1, t.column({"name"})), "fc.w");
    EXPECT_EQ(t.rowLines[1], 6);
    EXPECT_TRUE(s.warnings.empty());
}

TEST(TabulateReader, PsqlMultiLineHeaderIsJoined)
{
    const std::string text =
        "+-----+-------------+\n"
        "|   a |   Acc Error |\n"
        "|     |   (N scale) |\n"
        "|-----+-------------|\n"
        "|   1 |          16 |\n"
        "+-----+-------------+\n";
    TableScan s = scan(text);
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].columns[1], "Acc Error (N scale)");
    EXPECT_EQ(s.tables[0].cell(0, 1), "16");
}

TEST(TabulateReader, PipeRowsWithoutBordersUseFirstRowAsHeader)
{
    TableScan s = scan("| Module Name | out dtype |\n| quant | ['qint8'] |\n| dequant | [torch.float32] |\n");
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].columns[0], "Module Name");
    ASSERT_EQ(s.tables[0].rows.size(), 2u);
    EXPECT_EQ(s.tables[0].cell(1, 1), "[torch.float32]");
}

TEST(TabulateReader, SimpleStyleWithEmptyCellsAndChineseText)
{
    // Chinese characters take two terminal columns; tabulate pads by columns, not bytes.
    const std::string text =
        "name      deploy device    type\n"
        "--------  ---------------  ------\n"
        "主干卷积  BPU              module\n"
        "nms                        function\n"
        "\n"
        "trailing text\n";
    TableScan s = scan(text);
    ASSERT_EQ(s.tables.size(), 1u);
    const TextTable& t = s.tables[0];
    EXPECT_EQ(t.style, "simple");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.cell(0, 0), "主干卷积");
    EXPECT_EQ(t.cell(0, 1), "BPU");
    EXPECT_EQ(t.cell(1, 1), "");
    EXPECT_EQ(t.cell(1, 2), "function");
    EXPECT_TRUE(s.warnings.empty());
}

TEST(TabulateReader, SimpleStyleBackToBackTablesSplitAtTheNextHeader)
{
    const std::string text =
        "name    type\n------  ----\nconv    Conv\n"
        "name    called times\n------  ------------\nadd                2\n";
    TableScan s = scan(text);
    ASSERT_EQ(s.tables.size(), 2u);
    EXPECT_EQ(s.tables[0].rows.size(), 1u);
    EXPECT_EQ(s.tables[1].columns[1], "called times");
    EXPECT_EQ(s.tables[1].cell(0, 1), "2");
}

TEST(TabulateReader, MissingClosingBorderKeepsRowsWithWarning)
{
    TableScan s = scan("+---+---+\n| a | b |\n|---+---|\n| 1 | 2 |\n| 3 | 4 |\n");
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].rows.size(), 2u);
    EXPECT_TRUE(anyWarning(s, "t.txt:5: table 'a' ends without its closing border"));
}

TEST(TabulateReader, CutRowIsDroppedWithWarning)
{
    TableScan s = scan("+---+---+\n| a | b |\n|---+---|\n| 1 | 2 |\n| 3 | 4\n");
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].rows.size(), 1u);
    EXPECT_TRUE(anyWarning(s, "t.txt:5: row ends without its closing '|'"));
}

TEST(TabulateReader, RaggedRowsArePaddedOrCut)
{
    TableScan s = scan("| a | b | c |\n| 1 | 2 |\n| 1 | 2 | 3 | 4 |\n");
    ASSERT_EQ(s.tables.size(), 1u);
    ASSERT_EQ(s.tables[0].rows.size(), 2u);
    EXPECT_EQ(s.tables[0].rows[0].size(), 3u);
    EXPECT_EQ(s.tables[0].cell(0, 2), "");
    EXPECT_TRUE(anyWarning(s, "t.txt:2: row has 2 cells, the header has 3; missing cells left empty"));
    EXPECT_TRUE(anyWarning(s, "t.txt:3: row has 4 cells, the header has 3; extra cells dropped"));
}

TEST(TabulateReader, HugeLineIsSkippedWithWarning)
{
    std::string text = "| a | b |\n| 1 | 2 |\n";
    text += "| " + std::string(kMaxTableLineBytes + 10, 'x') + " | 3 |\n";
    text += "| c | d |\n";
    TableScan s = scan(text);
    EXPECT_TRUE(anyWarning(s, "t.txt:3: line is"));
    ASSERT_GE(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].rows.size(), 1u);
}

TEST(TabulateReader, TextWithoutTablesGivesNone)
{
    EXPECT_TRUE(scan("hello\n\nworld ---- ok\n").tables.empty());
    EXPECT_TRUE(scan("").tables.empty());
}

TEST(CsvTable, QuotedCellsAndRaggedRows)
{
    TableScan s = readCsvTable(",mod_name,COSINE\n0,\"a,b\",0.5\n1,c\n", "t.txt");
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].cell(0, 1), "a,b");
    EXPECT_EQ(s.tables[0].column({"cosine"}), 2);
    EXPECT_EQ(s.tables[0].cell(1, 2), "");
    EXPECT_TRUE(anyWarning(s, "t.txt:3: row has 2 cells"));
}

TEST(TextLines, DisplayWidthAndNumbers)
{
    EXPECT_EQ(displayWidth("ab"), 2);
    EXPECT_EQ(displayWidth("检测头"), 6);
    EXPECT_EQ(byteAtColumn("检测头x", 4), 6u);
    EXPECT_EQ(*parseNumber("1."), 1.0);
    EXPECT_TRUE(std::isinf(*parseNumber("-inf")));
    EXPECT_FALSE(parseNumber("0.5abc").has_value());
    EXPECT_TRUE(binaryOffset(std::string("ab\0cd", 5)).has_value());
    EXPECT_FALSE(binaryOffset("普通文本\n").has_value());
}

// A header that claims 100,000 columns over short rows (#48 item 5): the rows stay as wide as
// they are, the claim is named; a real header of a few empty columns is kept whole.
TEST(TabulateReader, AHeaderClaimingHundredsOfThousandsOfColumnsDoesNotWidenTheRows)
{
    std::string header = "|", rule = "|";
    for (int c = 0; c < 100000; ++c) {
        header += " c" + std::to_string(c) + " |";
        rule += "---|";
    }
    std::string text = header + "\n" + rule + "\n";
    for (int r = 0; r < 1000; ++r) text += "| conv" + std::to_string(r) + " | 0.99 |\n";
    const TableScan s = scan(text);
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_EQ(s.tables[0].columns.size(), 2u);
    EXPECT_EQ(s.tables[0].rows.size(), 1000u);
    EXPECT_EQ(s.tables[0].rows[999].size(), 2u);
    EXPECT_TRUE(anyWarning(s, "widest row"));

    std::string fixed = "";
    for (int c = 0; c < 50000; ++c) fixed += "col" + std::to_string(c) + "  ";
    fixed += "\n" + std::string(fixed.size() - 1, '-') + "\n";
    for (int r = 0; r < 1000; ++r) fixed += "node" + std::to_string(r) + "    0.5\n";
    const TableScan f = readFixedWidthTables(splitLines(fixed), "f.txt");
    ASSERT_EQ(f.tables.size(), 1u);
    EXPECT_LE(f.tables[0].columns.size(), 3u);
    EXPECT_EQ(f.tables[0].rows.size(), 1000u);

    const TableScan few =
        scan("| layer | cosine | note |\n|---|---|---|\n| conv1 | 0.99 |\n| conv2 | 0.98 | |\n");
    ASSERT_EQ(few.tables.size(), 1u);
    EXPECT_EQ(few.tables[0].columns.size(), 3u);  // a real header keeps its columns
    EXPECT_EQ(few.tables[0].rows[0].size(), 3u);
}

}  // namespace
}  // namespace qatdoctor::core::artifacts
