// The simulated deployment accuracy on tests/data/ladder (a QAT CNN trained, calibrated, QAT'ed,
// exported and converted with Debian's torch by tests/gen/make_ladder_dataset.py; facts.json
// holds PyTorch's own counts on the 400 labelled samples): top-1 per mode against PyTorch's,
// independence of the thread count, four shards merged equal to the whole run (through the
// result files, as merge-sim reads them), the folder form, and bad datasets named in the error.
#include "core/fixedpoint/dataset_eval.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/common/file_io.h"
#include "core/fixedpoint/dataset_eval_json.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/model_graph.h"
#include "core/model/onnx_file.h"

namespace fp = qatdoctor::core::fixedpoint;
namespace fs = std::filesystem;

namespace {

const std::string kLadder = std::string(QATDOCTOR_TEST_DATA) + "/ladder/";

std::shared_ptr<const fp::Interpreter> interpreter()
{
    static std::shared_ptr<const fp::Interpreter> kInterp = [] {
        auto model = qatdoctor::core::model::readOnnxFile(kLadder + "model.onnx");
        EXPECT_TRUE(model.ok());
        auto built = fp::Interpreter::build(*model);
        EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().toString());
        return std::shared_ptr<const fp::Interpreter>(*built);
    }();
    return kInterp;
}

nlohmann::json facts()
{
    auto text = qatdoctor::core::readFile(kLadder + "facts.json");
    EXPECT_TRUE(text.ok());
    return nlohmann::json::parse(*text);
}

fp::DatasetSource open(std::vector<std::string> paths, std::string labels)
{
    fp::DatasetSpec spec;
    spec.paths = std::move(paths);
    spec.labelsPath = std::move(labels);
    auto d = fp::DatasetSource::open(*interpreter(), spec);
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().toString());
    return std::move(*d);
}

fp::DatasetEvaluation evaluate(const fp::DatasetSource& data, fp::DatasetEvalOptions options = {})
{
    auto e = fp::evaluateDataset(*interpreter(), data, options);
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().toString());
    return e.ok() ? *e : fp::DatasetEvaluation{};
}

}  // namespace

TEST(DatasetEval, TopOneMatchesPyTorchsConvertedModel)
{
    const nlohmann::json f = facts();
    const fp::DatasetEvaluation e = evaluate(open({kLadder + "images.npy"}, kLadder + "labels.npy"));
    ASSERT_EQ(e.samples, 400u);
    ASSERT_TRUE(e.classification);
    const fp::ModeScore* fake = e.score(fp::SimMode::Fake);
    const fp::ModeScore* integer = e.score(fp::SimMode::Int);
    const fp::ModeScore* flt = e.score(fp::SimMode::Float);
    ASSERT_TRUE(fake && integer && flt);
    // the bar: within one sample in a hundred of PyTorch's converted int8 accuracy
    const int64_t torchInt8 = f["modes"]["int8"]["correct"].get<int64_t>();
    EXPECT_LE(std::abs(static_cast<int64_t>(integer->correct) - torchInt8), 4);
    // what it is today: the same count, and fake-quant the same as torch's fake-quant model
    EXPECT_EQ(integer->correct, static_cast<uint64_t>(torchInt8));
    EXPECT_EQ(fake->correct, f["modes"]["fake_quant"]["correct"].get<uint64_t>());
    // the float mode is the QAT weights without quantizers (not the model before QAT)
    EXPECT_EQ(flt->correct, f["qat_weights_fake_quant_off"]["correct"].get<uint64_t>());
    EXPECT_EQ(fake->agreeFloat, f["qat_weights_fake_quant_off"]["agree_with_fake_quant"].get<uint64_t>());
    EXPECT_EQ(e.fakeIntDisagree, f["modes"]["fake_quant"]["disagree_with_int8"].get<uint64_t>());
    // the samples that change their answer lead the worst list
    ASSERT_GE(e.worst.size(), 3u);
    for (size_t k = 0; k < 3; ++k) EXPECT_NE(e.worst[k].fakeClass, e.worst[k].intClass) << k;
    EXPECT_NE(e.worst[0].where.find("images.npy["), std::string::npos);
    const fp::Interval ci = fp::wilson95(integer->correct, integer->samples);
    EXPECT_LT(ci.low, integer->top1());
    EXPECT_GT(ci.high, integer->top1());
    EXPECT_NEAR(ci.high - ci.low, 0.073, 0.005);  // +-3.7 points at 83 % of 400
}

TEST(DatasetEval, ThreadsDoNotChangeTheFigures)
{
    const fp::DatasetSource data = open({kLadder + "images.npy"}, kLadder + "labels.npy");
    const fp::DatasetEvaluation one = evaluate(data);
    fp::DatasetEvalOptions three;
    three.threads = 3;
    const fp::DatasetEvaluation many = evaluate(data, three);
    for (size_t k = 0; k < one.modes.size(); ++k) {
        EXPECT_EQ(one.modes[k].correct, many.modes[k].correct);
        EXPECT_EQ(one.modes[k].agreeFloat, many.modes[k].agreeFloat);
        EXPECT_EQ(one.modes[k].vsFloat.sums.errSq, many.modes[k].vsFloat.sums.errSq);  // folded in order
    }
    ASSERT_EQ(one.worst.size(), many.worst.size());
    for (size_t k = 0; k < one.worst.size(); ++k) EXPECT_EQ(one.worst[k].index, many.worst[k].index);
}

TEST(DatasetEval, FourShardsThroughTheirFilesMergeToTheWholeRun)
{
    const fp::DatasetSource data = open({kLadder + "images.npy"}, kLadder + "labels.npy");
    const fp::DatasetEvaluation whole = evaluate(data);
    std::vector<fp::DatasetEvaluation> parts;
    for (uint32_t k = 0; k < 4; ++k) {
        fp::DatasetEvalOptions o;
        o.shardIndex = k;
        o.shardCount = 4;
        const fp::DatasetEvaluation part = evaluate(data, o);
        EXPECT_EQ(part.samples, 100u);
        EXPECT_FALSE(part.complete());
        // written and read back, as merge-sim gets them
        auto back =
            fp::evaluationFromJson(fp::evaluationToJson(part).dump(), "part" + std::to_string(k) + ".json");
        ASSERT_TRUE(back.ok()) << back.error().toString();
        parts.push_back(std::move(*back));
    }
    std::swap(parts[0], parts[2]);  // any order
    {  // sixteen shards of 25: each keeps fewer than ten worst, the merge keeps ten as the whole run
        std::vector<fp::DatasetEvaluation> small;
        for (uint32_t k = 0; k < 16; ++k) {
            fp::DatasetEvalOptions o;
            o.shardIndex = k;
            o.shardCount = 16;
            o.modes = {fp::SimMode::Fake, fp::SimMode::Int};
            small.push_back(evaluate(data, o));
        }
        fp::DatasetEvalOptions all;
        all.modes = {fp::SimMode::Fake, fp::SimMode::Int};
        const fp::DatasetEvaluation reference = evaluate(data, all);
        auto m16 = fp::mergeEvaluations(small);
        ASSERT_TRUE(m16.ok()) << m16.error().toString();
        ASSERT_EQ(m16->worst.size(), reference.worst.size());
        for (size_t k = 0; k < reference.worst.size(); ++k)
            EXPECT_EQ(m16->worst[k].index, reference.worst[k].index);
    }
    auto merged = fp::mergeEvaluations(parts);
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    EXPECT_TRUE(merged->complete());
    EXPECT_EQ(merged->samples, whole.samples);
    EXPECT_EQ(merged->fakeIntDisagree, whole.fakeIntDisagree);
    for (size_t k = 0; k < whole.modes.size(); ++k) {
        EXPECT_EQ(merged->modes[k].correct, whole.modes[k].correct);
        EXPECT_EQ(merged->modes[k].agreeFloat, whole.modes[k].agreeFloat);
        EXPECT_EQ(merged->modes[k].vsFloat.count, whole.modes[k].vsFloat.count);
        EXPECT_NEAR(merged->modes[k].vsFloat.sqnrDb, whole.modes[k].vsFloat.sqnrDb, 1e-9);
    }
    ASSERT_EQ(merged->worst.size(), whole.worst.size());
    for (size_t k = 0; k < whole.worst.size(); ++k)
        EXPECT_EQ(merged->worst[k].index, whole.worst[k].index) << k;

    // a shard twice, and a part of another run, are refused naming the file
    auto twice = fp::mergeEvaluations({parts[0], parts[0]});
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);
    fp::DatasetEvaluation other = parts[1];
    other.modelPath = "other.onnx";
    auto mixed = fp::mergeEvaluations({parts[0], other});
    ASSERT_FALSE(mixed.ok());
    EXPECT_NE(mixed.error().message.find(other.file), std::string::npos);
}

TEST(DatasetEval, BatchFilesInAFolderAreTheSameSamples)
{
    const fp::DatasetEvaluation whole = evaluate(open({kLadder + "images.npy"}, kLadder + "labels.npy"));
    const fp::DatasetSource folder = open({kLadder + "batches"}, kLadder + "batches/labels.npy");
    // labels.npy beside the parts is not a batch of inputs: only part_*.npy are samples
    EXPECT_EQ(folder.size(), 400u);
    EXPECT_EQ(folder.where(100), kLadder + "batches/part_1.npy[0]");
    const fp::DatasetEvaluation e = evaluate(folder);
    for (size_t k = 0; k < whole.modes.size(); ++k) EXPECT_EQ(e.modes[k].correct, whole.modes[k].correct);
}

TEST(DatasetEval, BadDatasetsAreNamed)
{
    fp::DatasetSpec spec;
    spec.paths = {kLadder + "images.npy"};
    spec.labelsPath = kLadder + "batches/part_0.npy";  // floats of another shape
    auto wrongLabels = fp::DatasetSource::open(*interpreter(), spec);
    ASSERT_FALSE(wrongLabels.ok());
    EXPECT_NE(wrongLabels.error().message.find("part_0.npy"), std::string::npos);

    // a truncated batch: named with the offset where its data starts
    const fs::path dir = fs::temp_directory_path() / "qatdoctor_dataset_eval_test";
    fs::create_directories(dir);
    auto bytes = qatdoctor::core::readFile(kLadder + "batches/part_0.npy");
    ASSERT_TRUE(bytes.ok());
    const std::string cut = (dir / "cut.npy").string();
    ASSERT_TRUE(qatdoctor::core::writeFileAtomic(cut, bytes->substr(0, bytes->size() - 100)).ok());
    spec.paths = {cut};
    spec.labelsPath.clear();
    auto truncated = fp::DatasetSource::open(*interpreter(), spec);
    ASSERT_FALSE(truncated.ok());
    EXPECT_EQ(truncated.error().code, "simulate.npy");
    EXPECT_NE(truncated.error().message.find("cut.npy"), std::string::npos);

    // labels of another count
    const std::string few = (dir / "few.npy").string();
    fp::Tensor three(fp::DType::Int64, {3});
    for (int64_t i = 0; i < 3; ++i) three.data<int64_t>()[i] = i;
    ASSERT_TRUE(qatdoctor::core::writeFileAtomic(few, fp::writeNpy(three)).ok());
    spec.paths = {kLadder + "images.npy"};
    spec.labelsPath = few;
    auto count = fp::DatasetSource::open(*interpreter(), spec);
    ASSERT_FALSE(count.ok());
    EXPECT_NE(count.error().message.find("3 labels for 400 samples"), std::string::npos);

    // labels whose header says another count: refused from the header, before the data (here a
    // header of 4,000,000 labels over no data at all: not a truncation error after reading it)
    const std::string claimed = (dir / "claimed.npy").string();
    {
        std::string npy = fp::writeNpy(three);
        const size_t at = npy.find("(3,)");
        ASSERT_NE(at, std::string::npos);
        npy.replace(at, 4, "(4000000,)");
        ASSERT_TRUE(qatdoctor::core::writeFileAtomic(claimed, npy).ok());
    }
    spec.labelsPath = claimed;
    auto header = fp::DatasetSource::open(*interpreter(), spec);
    ASSERT_FALSE(header.ok());
    EXPECT_NE(header.error().message.find("4000000 labels for 400 samples"), std::string::npos)
        << header.error().message;

    // a FIFO named like an image is never opened: its decoder would wait for a writer forever
    const std::string fifo = (dir / "sample.png").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    spec.paths = {fifo};
    spec.labelsPath.clear();
    auto blocking = fp::DatasetSource::open(*interpreter(), spec);
    ASSERT_FALSE(blocking.ok());
    EXPECT_NE(blocking.error().message.find("not a regular file"), std::string::npos)
        << blocking.error().message;

    // a shard that does not exist
    fp::DatasetEvalOptions o;
    o.shardIndex = 4;
    o.shardCount = 4;
    EXPECT_FALSE(fp::evaluateDataset(*interpreter(), open({kLadder + "images.npy"}, ""), o).ok());
    fs::remove_all(dir);
}

TEST(DatasetEval, ResultFilesOfAnotherKindAreRefused)
{
    EXPECT_FALSE(fp::evaluationFromJson("{\"qatdoctor_evaluation\": 2}", "x.json").ok());
    EXPECT_FALSE(fp::evaluationFromJson("{\"qatdoctor_evaluation\": 1}", "x.json").ok());
    EXPECT_FALSE(fp::evaluationFromJson("[[[[[[[[[[1]]]]]]]]]]", "x.json").ok());
    auto bad = fp::evaluationFromJson("{\"qatdoctor_evaluation\": 1,\n \"model\": ", "y.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().line, 2);
    // a shard listed twice would pass for a complete run
    fp::DatasetEvaluation e = evaluate(open({kLadder + "batches/part_0.npy"}, ""));
    nlohmann::json twice = fp::evaluationToJson(e);
    twice["shards"] = {0, 0};
    twice["shard_count"] = 2;
    EXPECT_FALSE(fp::evaluationFromJson(twice.dump(), "twice.json").ok());

    // what a part claims is checked before a merge trusts it (#48 items 6, 15): each message names
    // the field
    const nlohmann::json good = fp::evaluationToJson(e);
    {
        const auto r = fp::evaluationFromJson(good.dump(), "good.json");
        ASSERT_TRUE(r.ok()) << r.error().toString();
    }
    struct Claim {
        const char* why;
        std::function<void(nlohmann::json&)> edit;
        const char* named;
    };
    const Claim claims[] = {
        {"shard_count past --shard's limit", [](nlohmann::json& j) { j["shard_count"] = 4000000000u; },
         "shard_count"},
        {"a float count", [](nlohmann::json& j) { j["samples"] = 1e300; }, "samples"},
        {"a negative count", [](nlohmann::json& j) { j["dataset_size"] = -5; }, "dataset_size"},
        {"more samples than the shard holds", [](nlohmann::json& j) { j["dataset_size"] = 1; }, "samples"},
        {"a mode with other samples",
         [](nlohmann::json& j) {
             for (auto& [name, mode] : j["modes"].items())
                 mode["samples"] = mode["samples"].get<uint64_t>() - 1;
         },
         "samples"},
        {"a float class index", [](nlohmann::json& j) { j["worst"][0]["label"] = 2.5; }, "label"},
    };
    for (const Claim& c : claims) {
        nlohmann::json j = good;
        c.edit(j);
        const auto r = fp::evaluationFromJson(j.dump(), "part.json");
        ASSERT_FALSE(r.ok()) << c.why;
        EXPECT_NE(r.error().message.find(c.named), std::string::npos) << c.why << ": " << r.error().message;
    }
    EXPECT_TRUE(fp::looksLikeEvaluation("  {\"qatdoctor_evaluation\": 1"));
    EXPECT_FALSE(fp::looksLikeEvaluation("{\"schema\": 1}"));
}
