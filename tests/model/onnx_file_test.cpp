#include "core/model/onnx_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/common/file_io.h"
#include "core/model/model_graph.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;
namespace fs = std::filesystem;

namespace {

const std::string kNode = std::string(QATDOCTOR_ONNX_TESTDATA) + "/node/";

fs::path tempDir(const std::string& name)
{
    fs::path d =
        fs::temp_directory_path() / ("qatdoctor_model_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void writeBytes(const fs::path& p, const std::string& bytes)
{
    std::ofstream out(p, std::ios::binary);
    out << bytes;
}

// A small model whose one initializer lives in a side file at `location`.
std::string externalModel(const std::string& location, int64_t length)
{
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    g->set_name("g");
    auto* t = g->add_initializer();
    t->set_name("w");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(4);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* kv = t->add_external_data();
    kv->set_key("location");
    kv->set_value(location);
    if (length >= 0) {
        kv = t->add_external_data();
        kv->set_key("length");
        kv->set_value(std::to_string(length));
    }
    auto* n = g->add_node();
    n->set_op_type("Identity");
    n->add_input("w");
    n->add_output("y");
    return m.SerializeAsString();
}

}  // namespace

TEST(OnnxFile, ReadsQLinearConvTestModel)
{
    auto m = readOnnxFile(kNode + "test_qlinearconv/model.onnx");
    ASSERT_TRUE(m) << m.error().toString();
    EXPECT_EQ(m->opset, 10);
    ASSERT_EQ(m->proto->graph().node_size(), 1);
    EXPECT_EQ(m->proto->graph().node(0).op_type(), "QLinearConv");
}

TEST(OnnxFile, DecodesTensorStorages)
{
    // test_dequantizelinear_axis: inputs are graph inputs, values in the test_data_set pb files.
    auto bytes = readFile(kNode + "test_dequantizelinear_axis/test_data_set_0/input_1.pb");
    ASSERT_TRUE(bytes);
    onnx::TensorProto t;
    ASSERT_TRUE(t.ParseFromString(*bytes));
    OnnxModel m;
    m.path = "x.onnx";
    auto f = tensorAsFloats(m, t);
    ASSERT_TRUE(f) << f.error().toString();
    ASSERT_EQ(f->size(), 3u);
    EXPECT_EQ(*f, (std::vector<float>{2.0f, 4.0f, 5.0f}));

    auto zb = readFile(kNode + "test_dequantizelinear_axis/test_data_set_0/input_2.pb");
    ASSERT_TRUE(zb);
    onnx::TensorProto z;
    ASSERT_TRUE(z.ParseFromString(*zb));
    auto zi = tensorAsInts(m, z);
    ASSERT_TRUE(zi);
    EXPECT_EQ(*zi, (std::vector<int64_t>{84, 24, 196}));  // uint8
}

TEST(OnnxFile, TypedFieldsAndFloat16)
{
    OnnxModel m;
    m.path = "typed.onnx";
    onnx::TensorProto t;
    t.set_name("h");
    t.set_data_type(onnx::TensorProto::FLOAT16);
    t.add_dims(2);
    t.add_int32_data(0x3c00);  // 1.0
    t.add_int32_data(0xc000);  // -2.0
    auto f = tensorAsFloats(m, t);
    ASSERT_TRUE(f);
    EXPECT_EQ(*f, (std::vector<float>{1.0f, -2.0f}));

    t.add_int32_data(0);  // one value too many for dims {2}
    auto bad = tensorAsFloats(m, t);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, "onnx.tensor_size");
    EXPECT_NE(bad.error().message.find("typed.onnx"), std::string::npos);
    EXPECT_NE(bad.error().message.find("'h'"), std::string::npos);
}

TEST(OnnxFile, TruncatedFileIsAnErrorNamingTheFile)
{
    auto bytes = readFile(kNode + "test_qlinearconv/model.onnx");
    ASSERT_TRUE(bytes);
    const fs::path dir = tempDir("trunc");
    const fs::path p = dir / "cut.onnx";
    writeBytes(p, bytes->substr(0, bytes->size() / 2));
    auto m = readOnnxFile(p.string());
    ASSERT_FALSE(m);
    EXPECT_TRUE(m.error().code == "onnx.parse" || m.error().code == "onnx.truncated") << m.error().code;
    EXPECT_NE(m.error().message.find("cut.onnx"), std::string::npos);
    fs::remove_all(dir);
}

TEST(OnnxFile, NonOnnxFileIsRefused)
{
    const fs::path dir = tempDir("text");
    const fs::path p = dir / "notes.onnx";
    writeBytes(p, "Epoch[0] Step[99] GlobalStep[99] loss[0.1234]\n");
    auto m = readOnnxFile(p.string());
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("notes.onnx"), std::string::npos);
    auto empty = parseOnnx("", "empty.onnx", "");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().code, "onnx.not_onnx");
    fs::remove_all(dir);
}

TEST(OnnxFile, ExternalDataReadLazilyInsideFolder)
{
    const fs::path dir = tempDir("ext");
    const float w[4] = {1.5f, -2.0f, 0.25f, 8.0f};
    writeBytes(dir / "w.bin", std::string(reinterpret_cast<const char*>(w), sizeof w));
    writeBytes(dir / "m.onnx", externalModel("w.bin", 16));
    auto m = readOnnxFile((dir / "m.onnx").string());
    ASSERT_TRUE(m) << m.error().toString();
    auto f = tensorAsFloats(*m, m->proto->graph().initializer(0));
    ASSERT_TRUE(f) << f.error().toString();
    EXPECT_EQ(*f, (std::vector<float>{1.5f, -2.0f, 0.25f, 8.0f}));
    fs::remove_all(dir);
}

TEST(OnnxFile, ExternalDataEscapesAreRefused)
{
    const fs::path root = tempDir("escape");
    const fs::path dir = root / "model";
    fs::create_directories(dir);
    writeBytes(root / "secret.bin", std::string(16, 'x'));
    fs::create_symlink(root / "secret.bin", dir / "link.bin");
    for (const std::string& loc :
         std::vector<std::string>{"../secret.bin", (root / "secret.bin").string(), "link.bin"}) {
        writeBytes(dir / "m.onnx", externalModel(loc, 16));
        auto m = readOnnxFile((dir / "m.onnx").string());
        ASSERT_TRUE(m);
        auto f = tensorAsFloats(*m, m->proto->graph().initializer(0));
        ASSERT_FALSE(f) << loc;
        EXPECT_EQ(f.error().code, "onnx.external_escape") << loc;
        EXPECT_NE(f.error().message.find("m.onnx"), std::string::npos);
    }
    fs::remove_all(root);
}

TEST(OnnxFile, ExternalDataShorterThanClaimedIsRefused)
{
    const fs::path dir = tempDir("short");
    writeBytes(dir / "w.bin", std::string(8, '\0'));  // 2 floats, 4 claimed
    writeBytes(dir / "m.onnx", externalModel("w.bin", -1));
    auto m = readOnnxFile((dir / "m.onnx").string());
    ASSERT_TRUE(m);
    auto f = tensorAsFloats(*m, m->proto->graph().initializer(0));
    ASSERT_FALSE(f);
    EXPECT_EQ(f.error().code, "onnx.tensor_size");
    EXPECT_NE(f.error().message.find("only 8 bytes"), std::string::npos);
    fs::remove_all(dir);
}

// The module an exported node belongs to, as PyTorch names it (named_modules(), qconfig, --expect):
// the exporter repeats a list's name in its children's scopes.
TEST(ModulePath, PyTorchScopesGiveTheModuleName)
{
    EXPECT_EQ(modulePathFromNodeName("/conv1/bn/BatchNormalization"), "conv1.bn");
    EXPECT_EQ(modulePathFromNodeName("/layer1/layer1.0/conv1/Conv"), "layer1.0.conv1");
    EXPECT_EQ(modulePathFromNodeName("/backbone/layer1/layer1.0/conv1/Conv"), "backbone.layer1.0.conv1");
    EXPECT_EQ(modulePathFromNodeName("/features/features.0/features.0.0/Conv"), "features.0.0");
    EXPECT_EQ(modulePathFromNodeName("/layer1/layer10/Conv"), "layer1.layer10");  // not a child: no dot
    EXPECT_EQ(modulePathFromNodeName("/a//b/Relu"), "a.b");
    EXPECT_EQ(modulePathFromNodeName("/Add"), "");
    EXPECT_EQ(modulePathFromNodeName("Conv_0"), "");
}
