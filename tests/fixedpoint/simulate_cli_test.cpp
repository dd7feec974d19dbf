// qatdoctor-cli simulate on committed fixtures and on Debian's ONNX node test data: the JSON
// form (timing_ms with --repeat, --threads, --mode, --requant, --int16), --inputs DIR,
// --save-outputs (MODE_OUTPUTNAME.npy in the output's dtype, read back), and usage errors that
// exit 2 naming the offending file. Most cases call runCli in-process; one runs the real binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli_command.h"
#include "core/common/file_io.h"
#include "core/fixedpoint/tensor_io.h"
#include "tests/cli/cli_run.h"

using namespace qatdoctor::cli;
namespace fp = qatdoctor::core::fixedpoint;
namespace fs = std::filesystem;

namespace {

const std::string kModels = std::string(QATDOCTOR_TEST_DATA) + "/models/";
const std::string kQuantizeLinear = std::string(QATDOCTOR_ONNX_TESTDATA) + "/node/test_quantizelinear";

using qatdoctor::cli::test_support::cli;
using qatdoctor::cli::test_support::CliRun;

nlohmann::json runJson(std::vector<std::string> args)
{
    args.insert(args.begin(), "simulate");
    args.push_back("--json");
    const CliRun r = cli(args);
    EXPECT_EQ(r.code, kExitOk) << r.err;
    return r.code == kExitOk ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

fp::Tensor readTensor(const std::string& path)
{
    auto t = fp::readTensorFile(path);
    EXPECT_TRUE(t.ok()) << path << ": " << (t.ok() ? "" : t.error().toString());
    return t.ok() ? *t : fp::Tensor();
}

std::vector<double> outputValues(const nlohmann::json& j, const std::string& mode)
{
    std::vector<double> v;
    for (const auto& x : j["outputs"][mode][0]["values"]) v.push_back(x.get<double>());
    return v;
}

fs::path freshDir(const std::string& name)
{
    const fs::path d =
        fs::temp_directory_path() / ("qatdoctor_simulate_cli_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    return d;
}

}  // namespace

TEST(SimulateCli, JsonShapeWithRepeatThreadsAndDataSetFolder)
{
    const auto j = runJson({kModels + "qat_qdq.onnx", "--inputs", kModels + "qat_qdq_dataset", "--repeat",
                            "3", "--threads", "2"});
    ASSERT_TRUE(j.contains("timing_ms"));
    for (const char* m : {"float", "fake", "int"}) {
        ASSERT_TRUE(j["timing_ms"].contains(m)) << m;
        EXPECT_GT(j["timing_ms"][m].get<double>(), 0.0) << m;
    }
    EXPECT_EQ(j["threads"], 2);
    EXPECT_EQ(j["requant"], "float");
    EXPECT_EQ(j["modes"].size(), 3u);
    ASSERT_EQ(j["inputs"].size(), 1u);
    EXPECT_EQ(j["inputs"][0]["name"], "input");
    EXPECT_EQ(j["inputs"][0]["shape"], nlohmann::json::array({1, 3, 32, 32}));
    EXPECT_NE(j["inputs"][0]["source"].get<std::string>().find("qat_qdq_dataset/input_0.pb"),
              std::string::npos);
    std::vector<std::string> names;
    for (const auto& l : j["layers"]) {
        names.push_back(l["name"]);
        for (const char* pair : {"float_fake", "fake_int", "float_int"})
            EXPECT_TRUE(l.contains(pair)) << pair;
    }
    EXPECT_EQ(names, (std::vector<std::string>{"conv1", "conv2", "add", "fc"}));
    EXPECT_EQ(j["outputs"]["fake"][0]["name"], "logits");
    EXPECT_EQ(j["outputs"]["fake"][0]["dtype"], "float32");
    // fake mode = the ONNX specification = the data set's expected output, bit for bit
    const fp::Tensor want = readTensor(kModels + "qat_qdq_dataset/output_0.pb");
    const std::vector<double> fake = outputValues(j, "fake");
    ASSERT_EQ(static_cast<int64_t>(fake.size()), want.size());
    for (int64_t i = 0; i < want.size(); ++i)
        EXPECT_EQ(static_cast<float>(fake[static_cast<size_t>(i)]), want.data<float>()[i]) << i;
    EXPECT_TRUE(j["output_agreement"].contains("fake_int"));
}

TEST(SimulateCli, ThreadCountDoesNotChangeResults)
{
    const auto one = runJson(
        {kModels + "qat_qdq_bn.onnx", "--input", kModels + "qat_qdq_bn.input_0.npy", "--threads", "1"});
    const auto two = runJson(
        {kModels + "qat_qdq_bn.onnx", "--input", kModels + "qat_qdq_bn.input_0.npy", "--threads", "3"});
    for (const char* m : {"float", "fake", "int"}) EXPECT_EQ(outputValues(one, m), outputValues(two, m)) << m;
    EXPECT_EQ(two["threads"], 3);
}

TEST(SimulateCli, ModeRequantAndInt16)
{
    const std::string model = kModels + "qat_qdq.onnx", input = kModels + "qat_qdq.input_0.npy";
    const auto intOnly = runJson({model, "--input", input, "--mode", "int"});
    EXPECT_EQ(intOnly["modes"], nlohmann::json::array({"int"}));
    EXPECT_EQ(intOnly["timing_ms"].size(), 1u);
    EXPECT_TRUE(intOnly["timing_ms"].contains("int"));
    EXPECT_FALSE(intOnly["outputs"].contains("fake"));

    const auto fixed = runJson({model, "--input", input, "--requant", "fixed"});
    EXPECT_EQ(fixed["requant"], "fixed");
    EXPECT_TRUE(fixed["requant_diff_lsb"].is_number());

    // the what-if: conv2's output at 16 bits brings it closer to float (int mode), conv1 unchanged
    const auto base = runJson({model, "--input", input});
    const auto wide = runJson({model, "--input", input, "--int16", "conv2"});
    auto sqnr = [](const nlohmann::json& j, size_t layer) {
        return j["layers"][layer]["float_int"]["sqnr_db"].get<double>();
    };
    EXPECT_EQ(wide["layers"][1]["name"], "conv2");
    EXPECT_GT(sqnr(wide, 1), sqnr(base, 1) + 2.0);
    EXPECT_EQ(sqnr(wide, 0), sqnr(base, 0));
    EXPECT_EQ(outputValues(base, "float"), outputValues(wide, "float"));
}

// The same input three ways: the committed .npy, a batch of four whose first sample it is (the
// others differ), and raw float32 bytes with --shape. All three give the same outputs (the first
// sample's); the batch's figures cover its four samples.
TEST(SimulateCli, BatchedNpyAndRawInputsGiveTheSameRun)
{
    const std::string model = kModels + "qat_qdq.onnx", input = kModels + "qat_qdq.input_0.npy";
    const fp::Tensor one = readTensor(input);
    ASSERT_EQ(one.dim(0), 1);
    std::vector<int64_t> shape = one.shape();
    shape[0] = 4;
    std::vector<float> values = one.toFloats();
    const size_t n = values.size();
    for (size_t k = 1; k < 4; ++k)
        for (size_t i = 0; i < n; ++i) values.push_back(values[i] * float(k + 1) - 0.25f);
    const fs::path dir = freshDir("batch");
    fs::create_directories(dir);
    const std::string batch = (dir / "batch4.npy").string(), raw = (dir / "one.raw").string();
    ASSERT_TRUE(
        qatdoctor::core::writeFileAtomic(batch, fp::writeNpy(fp::Tensor::fromFloats(shape, values)), true)
            .ok());
    const std::vector<float> first = one.toFloats();
    ASSERT_TRUE(
        qatdoctor::core::writeFileAtomic(
            raw, std::string(reinterpret_cast<const char*>(first.data()), first.size() * sizeof(float)), true)
            .ok());
    std::string dims;
    for (int64_t d : one.shape()) dims += (dims.empty() ? "" : ",") + std::to_string(d);

    const auto fromNpy = runJson({model, "--input", input});
    const auto fromBatch = runJson({model, "--input", batch});
    const auto fromRaw = runJson({model, "--input", raw, "--shape", dims});
    for (const char* m : {"float", "fake", "int"}) {
        ASSERT_FALSE(outputValues(fromNpy, m).empty()) << m;
        EXPECT_EQ(outputValues(fromBatch, m), outputValues(fromNpy, m)) << m;
        EXPECT_EQ(outputValues(fromRaw, m), outputValues(fromNpy, m)) << m;
    }
    ASSERT_EQ(fromBatch["notes"].size(), 1u);
    EXPECT_NE(fromBatch["notes"][0].get<std::string>().find("a batch of 4; 4 samples of 1 simulated"),
              std::string::npos)
        << fromBatch["notes"][0];
    EXPECT_TRUE(fromNpy["notes"].empty());
    // the outputs are the first sample's; the figures cover all four
    EXPECT_EQ(fromNpy["samples"], 1);
    EXPECT_EQ(fromBatch["samples"], 4);
    const auto& oneLayer = fromNpy["layers"][0]["fake_int"];
    const auto& fourLayers = fromBatch["layers"][0]["fake_int"];
    EXPECT_EQ(fourLayers["count"].get<int64_t>(), 4 * oneLayer["count"].get<int64_t>());
    EXPECT_GE(fourLayers["max_abs"].get<double>(), oneLayer["max_abs"].get<double>());
    EXPECT_NE(fourLayers["mse"].get<double>(), oneLayer["mse"].get<double>());
    // a raw file whose size does not match the shape is refused, naming it
    const CliRun bad = cli({"simulate", model, "--input", raw, "--shape", "1,3,8,9"});
    EXPECT_EQ(bad.code, kExitUsage);
    EXPECT_NE(bad.err.find("one.raw"), std::string::npos) << bad.err;
    fs::remove_all(dir);
}

TEST(SimulateCli, MaxMemoryBoundsEveryTensor)
{
    // qat_qdq's activations are a few KB each: fine by default, refused under 1 KiB, naming a node
    const std::string model = kModels + "qat_qdq.onnx";
    EXPECT_EQ(cli({"simulate", model, "--mode", "fake"}).code, 0);
    const CliRun small = cli({"simulate", model, "--mode", "fake", "--max-memory", "1K"});
    EXPECT_NE(small.code, 0);
    EXPECT_NE(small.err.find("qat_qdq.onnx"), std::string::npos) << small.err;
    EXPECT_NE(small.err.find("budget of 1.0 KiB"), std::string::npos) << small.err;
    EXPECT_NE(small.err.find("node '"), std::string::npos) << small.err;
    EXPECT_EQ(cli({"simulate", model, "--max-memory", "lots"}).code, kExitUsage);
    // without --simulate it bounds what reading the files may hold (a checkpoint's pickle and buffers)
    EXPECT_EQ(cli({"analyze", model, "--max-memory", "1G"}).code, 0);
    EXPECT_EQ(cli({"analyze", model, "--max-memory", "lots"}).code, kExitUsage);
    // a raw input of a negative shape: an error, not an abort
    EXPECT_EQ(cli({"simulate", model, "--input", model, "--shape", "-1,3,8,8"}).code, kExitUsage);
}

TEST(SimulateCli, SaveOutputsWritesEachModeInItsOwnDtype)
{
    // QuantizeLinear node test: three graph inputs from input_0..2.pb, a uint8 graph output
    const fs::path dir = freshDir("save");
    const CliRun r = cli({"simulate", kQuantizeLinear + "/model.onnx", "--inputs",
                          kQuantizeLinear + "/test_data_set_0", "--save-outputs", dir.string()});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const fp::Tensor want = readTensor(kQuantizeLinear + "/test_data_set_0/output_0.pb");
    ASSERT_EQ(want.dtype(), fp::DType::UInt8);
    for (const char* m : {"fake", "int"}) {
        const fp::Tensor got = readTensor((dir / (std::string(m) + "_y.npy")).string());
        ASSERT_EQ(got.dtype(), fp::DType::UInt8) << m;
        ASSERT_EQ(got.shape(), want.shape()) << m;
        for (int64_t i = 0; i < want.size(); ++i) EXPECT_EQ(got.atInt(i), want.atInt(i)) << m << " " << i;
    }
    // float mode removes the quantizer: its output is the float input itself
    const fp::Tensor x = readTensor(kQuantizeLinear + "/test_data_set_0/input_0.pb");
    const fp::Tensor flt = readTensor((dir / "float_y.npy").string());
    ASSERT_EQ(flt.dtype(), fp::DType::Float32);
    ASSERT_EQ(flt.size(), x.size());
    for (int64_t i = 0; i < x.size(); ++i) EXPECT_EQ(flt.data<float>()[i], x.data<float>()[i]);

    // a float graph output: fake_logits.npy equals the data set's output; existing files are kept
    const CliRun q = cli({"simulate", kModels + "qat_qdq.onnx", "--inputs", kModels + "qat_qdq_dataset",
                          "--mode", "fake", "--save-outputs", dir.string()});
    ASSERT_EQ(q.code, kExitOk) << q.err;
    const fp::Tensor logits = readTensor((dir / "fake_logits.npy").string());
    const fp::Tensor ref = readTensor(kModels + "qat_qdq_dataset/output_0.pb");
    ASSERT_EQ(logits.shape(), ref.shape());
    for (int64_t i = 0; i < ref.size(); ++i) EXPECT_EQ(logits.data<float>()[i], ref.data<float>()[i]);
    EXPECT_FALSE(fs::exists(dir / "int_logits.npy"));
    const CliRun again =
        cli({"simulate", kModels + "qat_qdq.onnx", "--mode", "fake", "--save-outputs", dir.string()});
    EXPECT_EQ(again.code, kExitUsage);
    EXPECT_NE(again.err.find("fake_logits.npy"), std::string::npos) << again.err;
    const CliRun forced = cli(
        {"simulate", kModels + "qat_qdq.onnx", "--mode", "fake", "--save-outputs", dir.string(), "--force"});
    EXPECT_EQ(forced.code, kExitOk) << forced.err;
    // all modes into a folder holding the last of their files: refused before any is written
    fs::rename(dir / "fake_logits.npy", dir / "int_logits.npy");
    const CliRun all = cli({"simulate", kModels + "qat_qdq.onnx", "--save-outputs", dir.string()});
    EXPECT_EQ(all.code, kExitUsage);
    EXPECT_FALSE(fs::exists(dir / "fake_logits.npy"));
    EXPECT_FALSE(fs::exists(dir / "float_logits.npy"));
    fs::remove_all(dir);
}

TEST(SimulateCli, BadInputsExitTwoNamingTheFile)
{
    const std::string model = kModels + "qat_qdq.onnx";
    struct Case {
        std::vector<std::string> args;
        std::string named;
    };
    const Case cases[] = {
        {{"simulate", model, "--input", "/no/such/input.npy"}, "/no/such/input.npy"},
        {{"simulate", model, "--input", kModels + "qat_qdq.torch_int8.npy"},
         "qat_qdq.torch_int8.npy"},                                                    // 1x10
        {{"simulate", model, "--input", kModels + "not_onnx.onnx"}, "not_onnx.onnx"},  // raw without --shape
        {{"simulate", model, "--input", kModels + "qat_qdq.onnx", "--shape", "1,3,32,32"},
         "qat_qdq.onnx"},  // size
        {{"simulate", model, "--inputs", "/no/such/data_set"}, "/no/such/data_set"},
        {{"simulate", model, "--int16", "no_such_layer"}, "no_such_layer"},
        {{"simulate", kModels + "truncated.onnx"}, "truncated.onnx"},
        {{"simulate", model, "--mode", "turbo"}, "--mode"},
        {{"simulate", model, "--threads", "0"}, "--threads"},
    };
    for (const Case& c : cases) {
        const CliRun r = cli(c.args);
        EXPECT_EQ(r.code, kExitUsage) << c.named;
        EXPECT_NE(r.err.find(c.named), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << c.named;
    }
}

namespace {

int runBinary(const std::string& cmd, std::string& out)
{
    std::unique_ptr<FILE, int (*)(FILE*)> p(::popen(cmd.c_str(), "r"), ::pclose);
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p.get())) out.append(buf, n);
    const int status = ::pclose(p.release());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(SimulateCli, ImageOptionsNeedAnImageAndADecoder)
{
    const std::string model = kModels + "qat_qdq.onnx";
    const std::string png = std::string(QATDOCTOR_TEST_DATA) + "/fixedpoint/scene_48x40.png";
    // runCli in-process has no image decoder installed (only the executable's main() does)
    const CliRun noDecoder = cli({"simulate", model, "--image", png});
    EXPECT_EQ(noDecoder.code, kExitUsage);
    EXPECT_NE(noDecoder.err.find("scene_48x40.png"), std::string::npos) << noDecoder.err;
    EXPECT_NE(noDecoder.err.find("without the GUI"), std::string::npos) << noDecoder.err;
    const CliRun noImage = cli({"simulate", model, "--compare-color", "rgb,yuv444"});
    EXPECT_EQ(noImage.code, kExitUsage);
    EXPECT_NE(noImage.err.find("--image"), std::string::npos);
    const CliRun badForm = cli({"simulate", model, "--image", png, "--compare-color", "rgb,hsv"});
    EXPECT_EQ(badForm.code, kExitUsage);
    EXPECT_NE(badForm.err.find("--compare-color"), std::string::npos);
    const CliRun badScale = cli({"simulate", model, "--image", png, "--pixel-scale", "-1"});
    EXPECT_EQ(badScale.code, kExitUsage);
    EXPECT_NE(badScale.err.find("--pixel-scale"), std::string::npos);
}

#ifdef QATDOCTOR_CLI_DECODES_IMAGES
TEST(SimulateCli, RealBinaryComparesRgbAndYuvOnARealImage)
{
    const std::string png = std::string(QATDOCTOR_TEST_DATA) + "/fixedpoint/scene_48x40.png";
    std::string out;
    const int code =
        runBinary(std::string(QATDOCTOR_CLI_BIN) + " simulate '" + kModels + "qat_qdq.onnx' --image '" + png +
                      "' --compare-color rgb,yuv444 --pixel-scale 0.0078125 --json",
                  out);
    ASSERT_EQ(code, 0) << out;
    const auto j = nlohmann::json::parse(out);
    const auto& c = j["colour_comparison"];
    EXPECT_EQ(c["trained"], "rgb");
    EXPECT_EQ(c["fed"], "yuv444");
    EXPECT_EQ(c["mode"], "int");
    EXPECT_EQ(c["first_bad_layer"], "conv1");
    ASSERT_EQ(c["layers"].size(), 4u);
    for (const auto& row : c["layers"])
        EXPECT_LT(row["mismatch"]["sqnr_db"].get<double>() + 10.0,
                  row["quantization"]["sqnr_db"].get<double>())
            << row;
    ASSERT_EQ(c["outputs"].size(), 1u);
    EXPECT_EQ(c["outputs"][0]["name"], "logits");

    // the same image as a plain input in one colour form
    std::string plain;
    ASSERT_EQ(runBinary(std::string(QATDOCTOR_CLI_BIN) + " simulate '" + kModels + "qat_qdq.onnx' --image '" +
                            png + "' --color yuv444 --json --mode int",
                        plain),
              0)
        << plain;
    const auto p = nlohmann::json::parse(plain);
    EXPECT_EQ(p["inputs"][0]["source"], png + " (yuv444)");
    EXPECT_EQ(p["inputs"][0]["shape"], nlohmann::json::array({1, 3, 32, 32}));

    std::string err;
    EXPECT_EQ(runBinary(std::string(QATDOCTOR_CLI_BIN) + " simulate '" + kModels + "qat_qdq.onnx' --image '" +
                            kModels + "qat_qdq.onnx' 2>&1",
                        err),
              2);
    EXPECT_NE(err.find("cannot decode"), std::string::npos) << err;
}
#endif

TEST(SimulateCli, RealBinaryJsonAndExitCodes)
{
    auto run = runBinary;
    std::string out;
    const int ok = run(std::string(QATDOCTOR_CLI_BIN) + " simulate '" + kModels + "qat_qdq.onnx' --inputs '" +
                           kModels + "qat_qdq_dataset' --json --repeat 2 --mode fake",
                       out);
    ASSERT_EQ(ok, 0) << out;
    const auto j = nlohmann::json::parse(out);
    EXPECT_TRUE(j["timing_ms"]["fake"].is_number());
    std::string err;
    const int bad = run(std::string(QATDOCTOR_CLI_BIN) + " simulate '" + kModels +
                            "qat_qdq.onnx' --input /no/such/x.npy 2>&1",
                        err);
    EXPECT_EQ(bad, 2);
    EXPECT_NE(err.find("/no/such/x.npy"), std::string::npos) << err;
}

// simulate --dataset in shards written with --out, merged by merge-sim: the same counts as the
// whole run; the text table; a shard missing or a bad --shard is a usage error naming it.
TEST(SimulateCli, DatasetShardsMergeToTheWholeRun)
{
    const std::string ladder = std::string(QATDOCTOR_TEST_DATA) + "/ladder/";
    const std::vector<std::string> dataset = {
        "simulate", ladder + "model.onnx", "--dataset", ladder + "images.npy",
        "--labels", ladder + "labels.npy", "--quiet"};
    std::vector<std::string> whole = dataset;
    whole.push_back("--json");
    const CliRun w = cli(whole);
    ASSERT_EQ(w.code, kExitOk) << w.err;
    const auto wj = nlohmann::json::parse(w.out);
    EXPECT_EQ(wj["modes"]["int"]["correct"], 333);
    EXPECT_EQ(wj["modes"]["fake"]["correct"], 335);

    const fs::path dir = fs::temp_directory_path() / "qatdoctor_simulate_dataset_cli";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::vector<std::string> parts;
    for (int k = 0; k < 3; ++k) {
        std::vector<std::string> a = dataset;
        const std::string out = (dir / ("part" + std::to_string(k) + ".json")).string();
        for (const std::string& s :
             {std::string("--shard"), std::to_string(k) + "/3", std::string("--out"), out})
            a.push_back(s);
        const CliRun r = cli(a);
        ASSERT_EQ(r.code, kExitOk) << r.err;
        EXPECT_NE(r.out.find("of 3: 13"), std::string::npos) << r.out;  // "Shard k of 3: 134 / 133 samples"
        parts.push_back(out);
    }
    // an existing --out is refused before the evaluation runs (no "Shard" figures printed)
    std::vector<std::string> again = dataset;
    for (const std::string& s : {std::string("--shard"), std::string("0/3"), std::string("--out"), parts[0]})
        again.push_back(s);
    const CliRun exists = cli(again);
    EXPECT_EQ(exists.code, kExitUsage);
    EXPECT_NE(exists.err.find("exists (--force replaces it)"), std::string::npos) << exists.err;
    EXPECT_EQ(exists.out.find("Shard"), std::string::npos) << exists.out;
    const CliRun missing = cli({"merge-sim", parts[0], parts[2]});
    EXPECT_EQ(missing.code, kExitUsage);
    EXPECT_NE(missing.err.find("shards missing: 1 of 3"), std::string::npos) << missing.err;
    const CliRun merged = cli({"merge-sim", parts[2], parts[0], parts[1], "--json"});
    ASSERT_EQ(merged.code, kExitOk) << merged.err;
    const auto mj = nlohmann::json::parse(merged.out);
    for (const char* mode : {"float", "fake", "int"}) {
        EXPECT_EQ(mj["modes"][mode]["correct"], wj["modes"][mode]["correct"]) << mode;
        EXPECT_EQ(mj["modes"][mode]["agree_float"], wj["modes"][mode]["agree_float"]) << mode;
    }
    EXPECT_EQ(mj["fake_int_disagree"], wj["fake_int_disagree"]);
    EXPECT_EQ(mj["samples"], 400);

    const CliRun text = cli(dataset);
    EXPECT_NE(text.out.find("Fake-quant vs integer: 3 of 400 samples change their answer"), std::string::npos)
        << text.out;
    std::vector<std::string> badShard = dataset;
    badShard.insert(badShard.end(), {"--shard", "3/3"});
    EXPECT_EQ(cli(badShard).code, kExitUsage);
    std::vector<std::string> badLabels = dataset;
    badLabels[5] = ladder + "model.onnx";
    const CliRun bl = cli(badLabels);
    EXPECT_EQ(bl.code, kExitUsage);
    EXPECT_NE(bl.err.find("model.onnx"), std::string::npos) << bl.err;
    fs::remove_all(dir);
}
