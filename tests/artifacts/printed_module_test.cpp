// The printed-module parser on inline snippets: pasted fragments, elisions, damage.
#include "core/artifacts/printed_module.h"

#include <gtest/gtest.h>

#include "core/artifacts/printed_layers.h"

namespace qatdoctor::core::artifacts {
namespace {

using model::DType;

// The FAQ's own form: a fragment without the root line, indentation lost in pasting.
const char* kFragment = R"((1): ConvModule2d(
(0): Conv2d(
64, 3, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)
(weight_fake_quant): FakeQuantize(
fake_quant_enabled=tensor([1], dtype=torch.uint8), observer_enabled=tensor([1], dtype=torch.uint8),
quant_min=-128, quant_max=127, dtype=qint8, qscheme=torch.per_channel_symmetric, ch_axis=0,
scale=tensor([0.5, 0.25, ..., 0.125]), zero_point=tensor([0, 0, ..., 0])
(activation_post_process): MovingAveragePerChannelMinMaxObserver(min_val=tensor([]), max_val=tensor([]))
)
)
)
)";

TEST(PrintedModule, FragmentWithoutRootAndElidedScales)
{
    auto table = readPrintedModel(kFragment, "paste.txt");
    ASSERT_TRUE(table.ok()) << table.error().message;
    ASSERT_EQ(table->layers.size(), 1u);
    const model::Layer& l = table->layers[0];
    EXPECT_EQ(l.name, "1.0");
    EXPECT_EQ(l.op, "Conv2d");
    EXPECT_EQ(l.source.line, 2);
    EXPECT_EQ(l.weightDtype, DType::Int8);
    ASSERT_TRUE(l.weightQuant.has_value());
    EXPECT_EQ(l.weightQuant->axis, 0);
    EXPECT_EQ(l.weightQuant->scales.size(), 3u);
    EXPECT_EQ(l.weightQuant->qmin, -128);
    EXPECT_TRUE(*l.weightQuant->fakeQuantEnabled);
    EXPECT_EQ(l.weightQuant->observer, "MovingAveragePerChannelMinMaxObserver");
    EXPECT_EQ(l.outputDtype, DType::Int32);  // no activation fake quant: high-precision output
    auto has = [&](const char* f) { return std::find(l.flags.begin(), l.flags.end(), f) != l.flags.end(); };
    EXPECT_TRUE(has("high_precision_output"));
    EXPECT_TRUE(has("scales_elided"));
    EXPECT_TRUE(has("uncalibrated"));  // min_val=tensor([])
}

TEST(PrintedModule, TruncatedPrintoutKeepsLayersWithWarning)
{
    const std::string text =
        "Net(\n  (quant): QuantStub(\n    (activation_post_process): FakeQuantize(\n"
        "      fake_quant_enabled=tensor([1]), observer_enabled=tensor([1]), scale=tensor([0.1]),"
        " zero_point=tensor([0]), dtype=torch.quint8\n    )\n  )\n  (conv): Conv2d(\n    3, 8,";
    auto table = readPrintedModel(text, "cut.txt");
    ASSERT_TRUE(table.ok());
    ASSERT_FALSE(table->layers.empty());
    EXPECT_EQ(table->layers[0].name, "quant");
    EXPECT_EQ(table->layers[0].outputDtype, DType::UInt8);
    ASSERT_FALSE(table->warnings.empty());
    EXPECT_NE(table->warnings[0].message.find("cut.txt:1: the printout ends inside 'Net'"), std::string::npos)
        << table->warnings[0].message;
}

TEST(PrintedModule, DamagedInputsFailWithTheFileNamed)
{
    auto empty = readPrintedModel("  \n\n", "e.txt");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().message, "e.txt: the text is empty");

    auto prose = readPrintedModel("just some words\nno modules here\n", "p.txt");
    ASSERT_FALSE(prose.ok());
    EXPECT_NE(prose.error().message.find("p.txt: no printed module lines"), std::string::npos);

    std::string junk("(a): B(\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0e\x0f\x10", 20);
    auto binary = readPrintedModel(junk, "b.txt");
    ASSERT_FALSE(binary.ok());
    EXPECT_NE(binary.error().message.find("b.txt: binary data at byte"), std::string::npos);

    std::string deep;
    for (int i = 0; i < kMaxModuleDepth + 5; ++i) deep += "(m" + std::to_string(i) + "): Sequential(\n";
    auto tooDeep = readPrintedModel(deep, "d.txt");
    ASSERT_FALSE(tooDeep.ok());
    EXPECT_EQ(tooDeep.error().code, "printed.too_deep");
    EXPECT_NE(tooDeep.error().message.find("d.txt:129: modules nested deeper than 128"), std::string::npos)
        << tooDeep.error().message;
}

TEST(PrintedModule, HugeSingleLineTensorDoesNotBreakIt)
{
    std::string scale = "scale=tensor([";
    for (int i = 0; i < 200000; ++i) scale += "0.0010, ";
    scale += "0.0010])";
    const std::string text =
        "(fc): Linear(\n  in_features=8, out_features=200001, bias=True\n"
        "  (weight_fake_quant): FakeQuantize(\n    dtype=torch.qint8, qscheme=torch.per_channel_symmetric, " +
        scale + ", zero_point=tensor([0])\n  )\n)\n";
    auto table = readPrintedModel(text, "h.txt");
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->layers.size(), 1u);
    EXPECT_EQ(table->layers[0].weightQuant->scales.size(), 200001u);
}

TEST(PrintedModule, ArgumentsAndNumbers)
{
    ArgList a = splitArgs("3, 16, kernel_size=(3, 3), scale=tensor([0.1, 0.2]), name='a,b'");
    ASSERT_EQ(a.positional.size(), 2u);
    ASSERT_NE(a.find("kernel_size"), nullptr);
    EXPECT_EQ(*a.find("kernel_size"), "(3, 3)");
    EXPECT_EQ(*a.find("name"), "'a,b'");
    NumberList n = parseNumbers("tensor([1., 2.5e-05,\n  ..., -inf])");
    EXPECT_TRUE(n.elided);
    ASSERT_EQ(n.values.size(), 3u);
    EXPECT_DOUBLE_EQ(n.values[1], 2.5e-05);
    EXPECT_TRUE(parseNumbers("tensor([])").empty);
    EXPECT_EQ(parseNumbers("0.0159").values.size(), 1u);
    EXPECT_EQ(parseNumbers("tensor([1], dtype=torch.uint8)").values.front(), 1.0);
}

}  // namespace
}  // namespace qatdoctor::core::artifacts
