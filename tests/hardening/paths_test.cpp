// Paths read from files stay inside the file's folder (no '..', no absolute paths, no symlinks
// out, also through a symlinked sub-folder), and writes never replace an existing file unasked.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <string>

#include "core/artifacts/artifacts_api.h"
#include "core/common/file_io.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;

// A float [4] tensor stored in an external file at location, with optional offset/length text.
onnx::TensorProto externalTensor(const std::string& location, const std::string& offset = "0",
                                 const std::string& length = "16")
{
    onnx::TensorProto t;
    t.set_name("w");
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(4);
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    for (const auto& [k, v] : {std::pair<std::string, std::string>{"location", location},
                               {"offset", offset},
                               {"length", length}}) {
        auto* e = t.add_external_data();
        e->set_key(k);
        e->set_value(v);
    }
    return t;
}

std::string modelWith(const onnx::TensorProto& weight)
{
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    g->set_name("g");
    *g->add_initializer() = weight;
    auto* n = g->add_node();
    n->set_op_type("Conv");
    n->add_input("x");
    n->add_input("w");
    n->add_output("y");
    g->add_input()->set_name("x");
    g->add_output()->set_name("y");
    return m.SerializeAsString();
}

// root/secret.bin (outside), root/model/{w.bin, link.bin -> ../secret.bin, sub -> ../outside/}.
struct Layout {
    TempDir root{"confine"};
    std::string model = root / "model";
    Layout()
    {
        fs::create_directories(model);
        fs::create_directories(root / "outside");
        const std::string floats(16, '\0');
        writeBytes(root / "secret.bin", floats);
        writeBytes(root / "outside/w.bin", floats);
        writeBytes(model + "/w.bin", floats);
        fs::create_symlink(root / "secret.bin", model + "/link.bin");
        fs::create_directory_symlink(root / "outside", model + "/sub");
    }
    std::vector<std::string> escapes() const
    {
        return {"../secret.bin", root / "secret.bin", "link.bin",
                "sub/w.bin",     "./../secret.bin",   "sub/../../secret.bin"};
    }
};

TEST(Paths, OnnxExternalDataIsConfinedToTheModelFolder)
{
    Layout l;
    for (const std::string& loc : l.escapes()) {
        const std::string path = l.model + "/m.onnx";
        writeBytes(path, modelWith(externalTensor(loc)));
        auto table = model::loadOnnxLayerTable(path);
        ASSERT_FALSE(table) << loc;
        EXPECT_EQ(table.error().code, "onnx.external_escape") << loc;
        EXPECT_NE(table.error().message.find("m.onnx"), std::string::npos) << table.error().message;
    }
    writeBytes(l.model + "/ok.onnx", modelWith(externalTensor("w.bin")));
    EXPECT_TRUE(model::loadOnnxLayerTable(l.model + "/ok.onnx"));
}

TEST(Paths, SimulatorExternalDataIsConfinedToTheModelFolder)
{
    Layout l;
    for (const std::string& loc : l.escapes()) {
        auto t = fixedpoint::tensorFromProto(externalTensor(loc), l.model);
        EXPECT_FALSE(t) << loc;
    }
    auto ok = fixedpoint::tensorFromProto(externalTensor("w.bin"), l.model);
    ASSERT_TRUE(ok) << ok.error().toString();
    EXPECT_EQ(ok->size(), 4);
}

TEST(Paths, ExternalDataIsARegularFileReadOnceInItsRange)
{
    Layout l;
    // a FIFO beside the model hung the simulator's reader forever: refused at once, both readers
    ASSERT_EQ(::mkfifo((l.model + "/fifo.bin").c_str(), 0600), 0);
    auto sim = fixedpoint::tensorFromProto(externalTensor("fifo.bin"), l.model);
    ASSERT_FALSE(sim);
    EXPECT_NE(sim.error().message.find("not a regular file"), std::string::npos) << sim.error().message;
    writeBytes(l.model + "/fifo.onnx", modelWith(externalTensor("fifo.bin")));
    EXPECT_FALSE(model::loadOnnxLayerTable(l.model + "/fifo.onnx"));
    // only the tensor's own range is read: the floats at offset 16 of a 32-byte file
    std::string two(32, '\0');
    const float one = 1.0f;
    for (int i = 0; i < 4; ++i) std::memcpy(two.data() + 16 + 4 * i, &one, 4);
    writeBytes(l.model + "/two.bin", two);
    auto second = fixedpoint::tensorFromProto(externalTensor("two.bin", "16", "16"), l.model);
    ASSERT_TRUE(second) << second.error().toString();
    EXPECT_EQ(second->toFloats(), (std::vector<float>{1, 1, 1, 1}));
    auto bytes = model::readExternalRange(l.model, "two.bin", 16, std::nullopt, "m.onnx");
    ASSERT_TRUE(bytes);
    EXPECT_EQ(bytes->size(), 16u);
    auto past = model::readExternalRange(l.model, "two.bin", 24, 16, "m.onnx");
    ASSERT_FALSE(past);
    EXPECT_NE(past.error().message.find("m.onnx"), std::string::npos);
}

TEST(Paths, SimulatorExternalDataWithBadNumbersIsAnError)
{
    Layout l;
    for (const auto& [offset, length] :
         std::vector<std::pair<std::string, std::string>>{{"abc", "16"},
                                                          {"0", "x"},
                                                          {"-4", "16"},
                                                          {"0", "99999999999999999999999"},
                                                          {"9223372036854775807", "16"},
                                                          {"8", "9223372036854775807"}}) {
        auto t = fixedpoint::tensorFromProto(externalTensor("w.bin", offset, length), l.model);
        EXPECT_FALSE(t) << offset << " " << length;
    }
}

TEST(Paths, AtomicWriteNeverReplacesUnasked)
{
    TempDir dir("atomic");
    const std::string path = dir / "report.html";
    ASSERT_TRUE(writeFileAtomic(path, "first", false));
    auto again = writeFileAtomic(path, "second", false);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, "io.exists");
    EXPECT_NE(again.error().message.find("report.html"), std::string::npos);
    EXPECT_EQ(readBytes(path), "first");
    ASSERT_TRUE(writeFileAtomic(path, "third", true));
    EXPECT_EQ(readBytes(path), "third");
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++files;
    EXPECT_EQ(files, 1u);  // no temp file left behind
}

TEST(Paths, AtomicWriteReplacesRegularFilesOnlyAndTakesLongNames)
{
    TempDir dir("atomic_kinds");
    // a FIFO (or a device) the user named by mistake is never replaced, even with --force
    const std::string fifo = dir / "report.pdf";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto refused = core::writeFileAtomic(fifo, "x", true);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, "io.not_regular");
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    // a legal 250-character name: the temporary file's name is short and its own
    const std::string longName = dir / (std::string(246, 'r') + ".pdf");
    EXPECT_TRUE(core::writeFileAtomic(longName, "report", false)) << longName.size();
    EXPECT_EQ(*core::readFile(longName, 100), "report");
    // what a killed write left behind (older than ten minutes) is cleaned up by the next write
    const std::string stale = dir / ".qatdoctor-write-abc123";
    writeBytes(stale, "half a report");
    const struct timeval old[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};  // an hour ago
    ASSERT_EQ(::utimes(stale.c_str(), old), 0);
    EXPECT_TRUE(core::writeFileAtomic(dir / "next.json", "{}", false));
    EXPECT_FALSE(fs::exists(stale));
    // and nothing of ours stays after a write
    for (const auto& e : fs::directory_iterator(dir.path()))
        EXPECT_EQ(e.path().filename().string().rfind(".qatdoctor-write-", 0), std::string::npos) << e.path();
}

TEST(Paths, PastedTextNeverReplacesAFile)
{
    TempDir dir("paste");
    writeBytes(dir / "pasted_model_1.txt", "mine");
    auto saved = artifacts::savePastedText("Net(\n  (conv): Conv2d(3, 8, kernel_size=(3, 3))\n)\n",
                                           dir.path().string());
    ASSERT_TRUE(saved) << saved.error().toString();
    EXPECT_NE(*saved, dir / "pasted_model_1.txt");
    EXPECT_EQ(readBytes(dir / "pasted_model_1.txt"), "mine");
}

}  // namespace
}  // namespace qatdoctor::test
