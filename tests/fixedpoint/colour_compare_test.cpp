// The RGB-vs-YUV444 comparison on a real image (tests/data/fixedpoint/scene_32x32.rgb, drawn by
// tests/gen/make_colour_image.py) and the committed QAT model qat_qdq.onnx (input 1x3x32x32).
#include "core/fixedpoint/colour_compare.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/common/file_io.h"
#include "core/fixedpoint/simulation_json.h"
#include "core/model/onnx_file.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

std::shared_ptr<Interpreter> loadModel(const std::string& name)
{
    auto m = model::readOnnxFile(std::string(QATDOCTOR_TEST_DATA) + "/models/" + name);
    EXPECT_TRUE(m.ok());
    auto i = Interpreter::build(*m);
    EXPECT_TRUE(i.ok());
    return *i;
}

std::string sceneBytes()
{
    auto b = readFile(std::string(QATDOCTOR_TEST_DATA) + "/fixedpoint/scene_32x32.rgb");
    EXPECT_TRUE(b.ok());
    EXPECT_EQ(b->size(), 32u * 32u * 3u);
    return *b;
}

}  // namespace

TEST(ColourForms, CenteredYuvOfKnownPixels)
{
    const uint8_t px[6] = {255, 255, 255, 255, 0, 0};  // white, red
    const Tensor t = imageToTensor(px, 1, 2, ColourFormat::Yuv444Centered);
    const float* v = t.data<float>();
    EXPECT_EQ(v[0], 127.0f);                              // Y white = 255 - 128
    EXPECT_EQ(v[2], 0.0f);                                // U white
    EXPECT_EQ(v[4], 0.0f);                                // V white
    EXPECT_EQ(v[1], std::nearbyint(0.299f * 255) - 128);  // Y red
    EXPECT_EQ(v[5], 255.0f - 128.0f);                     // V red: 0.5*255 + 128 -> 255 (clamped)
    const Tensor bgr = imageToTensor(px, 1, 2, ColourFormat::Bgr);
    EXPECT_EQ(bgr.data<float>()[1], 0.0f);    // channel 0 of the red pixel is its blue
    EXPECT_EQ(bgr.data<float>()[5], 255.0f);  // channel 2 its red
}

TEST(ColourForms, YuvFedToAnRgbModelBreaksAtTheFirstLayer)
{
    auto interp = loadModel("qat_qdq.onnx");
    const std::string px = sceneBytes();
    ColourCompareOptions opt;  // trained rgb, fed yuv444, int mode
    opt.threads = 2;
    opt.pixelScale = 1.0f / 128;  // the model's input quantizer covers about -4..4
    auto c = compareColourForms(*interp, reinterpret_cast<const uint8_t*>(px.data()), 32, 32, opt);
    ASSERT_TRUE(c.ok()) << c.error().toString();
    ASSERT_EQ(c->layers.size(), interp->layers().size());
    EXPECT_EQ(c->layers[0].layer, "conv1");
    EXPECT_EQ(c->firstBadLayer, "conv1");
    for (const auto& row : c->layers) {
        EXPECT_GT(row.mismatch.count, 0) << row.layer;
        // the colour mistake is far larger than the quantization error on the right form
        EXPECT_LT(row.mismatch.sqnrDb + 10.0, row.quantization.sqnrDb) << row.layer;
        EXPECT_LT(row.mismatch.cosine, 0.99) << row.layer;
        EXPECT_GT(row.quantization.cosine, 0.99) << row.layer;
    }
    ASSERT_EQ(c->outputMismatch.size(), 1u);
    EXPECT_LT(c->outputMismatch[0].sqnrDb, c->outputQuantization[0].sqnrDb);
    ASSERT_TRUE(c->top1Trained && c->top1Fed);
    const auto j = colourComparisonToJson(*c);
    EXPECT_EQ(j["trained"], "rgb");
    EXPECT_EQ(j["fed"], "yuv444");
    EXPECT_EQ(j["mode"], "int");
    EXPECT_EQ(j["first_bad_layer"], "conv1");
    EXPECT_EQ(j["layers"].size(), c->layers.size());
    EXPECT_TRUE(j["layers"][0]["mismatch"]["sqnr_db"].is_number());
}

TEST(ColourForms, SameFormAgreesExactlyAndWrongSizeIsRefused)
{
    auto interp = loadModel("qat_qdq.onnx");
    const std::string px = sceneBytes();
    ColourCompareOptions opt;
    opt.fed = ColourFormat::Rgb;
    opt.mode = SimMode::Fake;
    auto same = compareColourForms(*interp, reinterpret_cast<const uint8_t*>(px.data()), 32, 32, opt);
    ASSERT_TRUE(same.ok());
    EXPECT_TRUE(same->firstBadLayer.empty());
    for (const auto& row : same->layers) {
        EXPECT_EQ(row.mismatch.maxAbs, 0.0) << row.layer;
        EXPECT_TRUE(std::isinf(row.mismatch.sqnrDb)) << row.layer;
    }
    auto bad = compareColourForms(*interp, reinterpret_cast<const uint8_t*>(px.data()), 16, 64, opt);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, "simulate.colour");
    EXPECT_NE(bad.error().message.find("qat_qdq.onnx"), std::string::npos);
    EXPECT_NE(bad.error().message.find("16x64"), std::string::npos);
}
