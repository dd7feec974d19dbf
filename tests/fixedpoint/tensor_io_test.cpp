#include "core/fixedpoint/tensor_io.h"

#include <gtest/gtest.h>

#include "core/common/file_io.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

TEST(TensorIo, ReadsTorchNpyWithBatchDimension)
{
    auto t = readTensorFile(std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.input_0.npy");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->shape(), (std::vector<int64_t>{1, 3, 32, 32}));
    EXPECT_EQ(t->dtype(), DType::Float32);
}

TEST(TensorIo, PbAndNpyOfTheSameInputAgree)
{
    auto pb = readTensorFile(std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq_dataset/input_0.pb");
    auto npy = readTensorFile(std::string(QATDOCTOR_TEST_DATA) + "/models/qat_qdq.input_0.npy");
    ASSERT_TRUE(pb.ok() && npy.ok());
    EXPECT_EQ(pb->toFloats(), npy->toFloats());
}

TEST(TensorIo, NpyRoundTripKeepsDtype)
{
    const Tensor t = Tensor::fromInts(DType::UInt8, {2, 3}, {0, 1, 2, 253, 254, 255});
    auto back = parseNpy(writeNpy(t), "mem.npy");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->dtype(), DType::UInt8);
    EXPECT_EQ(back->shape(), t.shape());
    EXPECT_EQ(back->toInts(), t.toInts());
    const Tensor s = Tensor::fromFloats({4}, {1, 2, 3, 4});
    EXPECT_EQ(parseNpy(writeNpy(s), "m.npy")->toFloats(), s.toFloats());
}

TEST(TensorIo, BadInputsNameTheFile)
{
    auto bad = parseNpy("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'", "broken.npy");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("broken.npy"), std::string::npos);
    auto raw = parseRaw(std::string(10, '\0'), DType::Float32, {1, 3}, "x.bin");
    ASSERT_FALSE(raw.ok());
    EXPECT_NE(raw.error().message.find("x.bin"), std::string::npos);
    EXPECT_TRUE(parseRaw(std::string(12, '\0'), DType::Float32, {1, 3}, "x.bin").ok());
    auto pb = parseTensorProto("not a proto at all \xff\xff", "in.pb");
    EXPECT_FALSE(pb.ok());
}

namespace {

// A version-1.0 .npy holding header (as numpy pads it) and data.
std::string npyBytes(const std::string& header, const std::string& data, char major = 1, char minor = 0)
{
    std::string h = header;
    while ((10 + h.size() + 1) % 64 != 0) h += ' ';
    h += '\n';
    std::string out = "\x93NUMPY";
    out += major;
    out += minor;
    out += static_cast<char>(h.size() & 0xff);
    out += static_cast<char>(h.size() >> 8);
    return out + h + data;
}

}  // namespace

TEST(TensorIo, NpyHeaderIsReadAsThePythonLiteralItIs)
{
    const std::string eight(8 * 4, '\0');
    // as numpy writes it, and with the keys in another order and double quotes
    auto ok =
        parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }", eight), "a.npy");
    ASSERT_TRUE(ok) << ok.error().toString();
    EXPECT_EQ(ok->shape(), (std::vector<int64_t>{2, 4}));
    auto reordered =
        parseNpy(npyBytes("{\"shape\": (8,), \"fortran_order\": False, \"descr\": \"<f4\"}", eight), "b.npy");
    ASSERT_TRUE(reordered) << reordered.error().toString();
    EXPECT_EQ(reordered->shape(), (std::vector<int64_t>{8}));
    // what the old substring reader took: a minus sign dropped, 'shape' inside another value,
    // an unterminated dictionary, a format version numpy never wrote
    const struct {
        std::string bytes, why;
    } bad[] = {
        {npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 8), }", eight),
         "negative dimension"},
        {npyBytes("{'descr': '<f4', 'fortran_order': False, 'note': 'shape': (2, 4), }", eight),
         "unknown key 'note'"},
        {npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), ", eight), "not closed"},
        {npyBytes("{'descr': '<f4', 'shape': (2, 4), }", eight), "lacks"},
        {npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), }", eight, 9, 9), "version 9.9"},
    };
    for (const auto& b : bad) {
        auto r = parseNpy(b.bytes, "bad.npy");
        ASSERT_FALSE(r) << b.why;
        EXPECT_NE(r.error().message.find(b.why), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find("bad.npy"), std::string::npos);
    }
}

TEST(TensorIo, SeededRandomIsReproducible)
{
    const Tensor a = randomTensor(DType::Float32, {1, 3, 8, 8}, 7),
                 b = randomTensor(DType::Float32, {1, 3, 8, 8}, 7);
    EXPECT_EQ(a.toFloats(), b.toFloats());
    EXPECT_NE(a.toFloats(), randomTensor(DType::Float32, {1, 3, 8, 8}, 8).toFloats());
}

#include "core/fixedpoint/colour.h"

TEST(Colour, RgbBgrAndCenteredYuv444)
{
    const uint8_t px[6] = {255, 0, 0, 128, 128, 128};  // red, grey
    const Tensor rgb = imageToTensor(px, 1, 2, ColourFormat::Rgb);
    EXPECT_EQ(rgb.shape(), (std::vector<int64_t>{1, 3, 1, 2}));
    EXPECT_EQ(rgb.toFloats(), (std::vector<float>{255, 128, 0, 128, 0, 128}));
    EXPECT_EQ(imageToTensor(px, 1, 2, ColourFormat::Bgr).toFloats(),
              (std::vector<float>{0, 128, 0, 128, 255, 128}));
    // red: Y = 76, U = 85, V = 255; grey: Y = U = V = 128; then minus 128
    EXPECT_EQ(imageToTensor(px, 1, 2, ColourFormat::Yuv444Centered).toFloats(),
              (std::vector<float>{76 - 128, 0, 85 - 128, 0, 127, 0}));
    EXPECT_EQ(parseColourFormat("yuv444"), ColourFormat::Yuv444Centered);
    EXPECT_FALSE(parseColourFormat("hsv").has_value());
}
