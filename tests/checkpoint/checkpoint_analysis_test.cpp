// Checkpoints through the whole pipeline: the layer table their buffers give, the findings they
// prove (alone and in pairs), the wizard questions they answer, the report section. Fixtures:
// real torch.save files of tests/gen/make_checkpoints.py (python3-torch).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_layers.h"
#include "core/faq/auto_check.h"
#include "core/faq/faq_base.h"
#include "core/report/report_builder.h"

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;
using checkpoint::ChangeKind;
using checkpoint::TensorRole;

std::string fixture(const std::string& name)
{
    return std::string(QATDOCTOR_TEST_DATA) + "/checkpoints/" + name;
}

Analysis analyzed(const std::vector<std::string>& names)
{
    AnalyzeOptions options;
    for (const std::string& n : names) options.paths.push_back(fixture(n));
    Result<Analysis> a = analyze(options);
    EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().toString());
    return a.ok() ? std::move(a).value() : Analysis{};
}

const Finding* finding(const Analysis& a, const std::string& id)
{
    for (const Finding& f : a.findings)
        if (f.id == id) return &f;
    return nullptr;
}

bool ran(const Analysis& a, const std::string& id)
{
    return a.checksRun.count(id) > 0;
}

std::set<std::string> evidenceLayers(const Finding& f)
{
    std::set<std::string> out;
    for (const Evidence& e : f.evidence) out.insert(e.layer);
    return out;
}

const faq::FaqBase& faqBase()
{
    static const faq::FaqLoad load = faq::FaqBase::loadDirectory(std::string(QATDOCTOR_SOURCE_DIR) + "/faq");
    return load.base;
}

faq::AutoAnswer answer(const Analysis& a, const std::string& topic, const std::string& node)
{
    const faq::Topic* t = faqBase().topic(topic);
    EXPECT_NE(t, nullptr) << topic;
    const faq::Node* n = t ? t->node(node) : nullptr;
    EXPECT_NE(n, nullptr) << topic << "/" << node;
    return n ? faq::autoAnswerFor(*n, a) : faq::AutoAnswer{};
}

}  // namespace

TEST(CheckpointLayers, QuantizersReadFromTheirBuffers)
{
    const Analysis a = analyzed({"qat_calibrated.pt"});
    ASSERT_EQ(a.checkpoints.size(), 1u);
    const checkpoint::CheckpointRead& c = a.checkpoints[0];
    EXPECT_TRUE(c.quantized());
    EXPECT_EQ(c.table.format, "checkpoint");
    const model::Layer* conv = c.table.find("conv1");
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->op, "Conv2d");
    ASSERT_TRUE(conv->weightQuant && conv->outputQuant);
    ASSERT_EQ(conv->outputQuant->scales.size(), 1u);
    EXPECT_NEAR(conv->outputQuant->scales[0], 0.01306, 1e-5);
    EXPECT_EQ(conv->outputQuant->zeroPoints, (std::vector<int64_t>{95}));
    ASSERT_TRUE(conv->outputQuant->minVal && conv->outputQuant->maxVal);
    EXPECT_NEAR(*conv->outputQuant->minVal, -1.237, 1e-3);
    EXPECT_NEAR(*conv->outputQuant->maxVal, 2.094, 1e-3);
    EXPECT_EQ(conv->outputQuant->fakeQuantEnabled, true);
    EXPECT_EQ(conv->outputQuant->scaleSource, "conv1.activation_post_process.scale");
    EXPECT_NEAR(conv->weightQuant->scales[0], 0.001496, 1e-6);
    EXPECT_EQ(c.table.find("bn1")->op, "BatchNorm");
    EXPECT_EQ(c.table.find("fc")->op, "Linear");
    // the checkpoint is not the Model page's model
    EXPECT_TRUE(a.models.empty());
    // calibrated: the checks ran and found nothing
    EXPECT_TRUE(ran(a, "checkpoint.uncalibrated"));
    EXPECT_TRUE(ran(a, "model.uncalibrated_scale"));
    EXPECT_TRUE(a.findings.empty()) << a.findings.front().id;
}

TEST(CheckpointLayers, AWholePickledQatModelKeepsItsBitWidths)
{
    const Analysis a = analyzed({"qat_calibrated.pt", "qat_whole_module.pt"});
    ASSERT_EQ(a.checkpoints.size(), 2u);
    const checkpoint::CheckpointRead& stateDict = a.checkpoints[0];
    const checkpoint::CheckpointRead& whole = a.checkpoints[1];
    EXPECT_TRUE(stateDict.bitWidthsMissing());
    EXPECT_EQ(stateDict.table.find("conv1")->weightQuant->dtype, model::DType::Unknown);
    EXPECT_FALSE(whole.bitWidthsMissing());
    const model::Layer* conv = whole.table.find("conv1");
    ASSERT_NE(conv, nullptr);
    ASSERT_TRUE(conv->weightQuant && conv->outputQuant);
    // qnnpack's default QAT qconfig: weights qint8 symmetric, activations quint8 affine
    EXPECT_EQ(conv->weightQuant->dtype, model::DType::Int8);
    EXPECT_EQ(conv->weightQuant->qmin, -128);
    EXPECT_EQ(conv->weightQuant->qmax, 127);
    EXPECT_EQ(conv->outputQuant->dtype, model::DType::UInt8);
    EXPECT_EQ(conv->outputQuant->qmax, 255);
    EXPECT_EQ(conv->weightDtype, model::DType::Int8);
    EXPECT_EQ(conv->outputDtype, model::DType::UInt8);
    EXPECT_EQ(conv->outputQuant->observer, "MovingAverageMinMaxObserver");
    ASSERT_TRUE(conv->outputQuant->averagingConstant);
    EXPECT_DOUBLE_EQ(*conv->outputQuant->averagingConstant, 0.01);
    EXPECT_EQ(model::quantDtypesText(*conv), "int8 / uint8");
    // the same numbers as its state_dict, ops by their classes
    EXPECT_EQ(conv->outputQuant->scales, stateDict.table.find("conv1")->outputQuant->scales);
    EXPECT_EQ(conv->op, "Conv2d");
    EXPECT_EQ(whole.table.find("bn1")->op, "BatchNorm2d");
    EXPECT_EQ(model::quantDtypesText(*whole.table.find("bn1")), "- / uint8");
    const auto fq = whole.file.modules.find("conv1.weight_fake_quant");
    ASSERT_NE(fq, whole.file.modules.end());
    EXPECT_EQ(fq->second.className, "torch.ao.quantization.fake_quantize.FusedMovingAvgObsFakeQuantize");
    ASSERT_NE(fq->second.setting("qscheme"), nullptr);
    EXPECT_EQ(*fq->second.setting("qscheme"), "torch.per_tensor_symmetric");
    EXPECT_EQ(fq->second.setting("training"), nullptr) << "nn.Module's own flag is no setting";
    const nlohmann::json j = checkpointToJson(whole);
    EXPECT_EQ(j["layers"][0]["weight_quant"]["dtype"], "int8");
    EXPECT_EQ(j["layers"][0]["output_quant"]["averaging_constant"], 0.01);
}

TEST(CheckpointLayers, TrainingCheckpointFindsTheModelPart)
{
    const Analysis a = analyzed({"training_ckpt.pth"});
    ASSERT_EQ(a.checkpoints.size(), 1u);
    const checkpoint::CheckpointRead& c = a.checkpoints[0];
    EXPECT_EQ(c.file.modelKey, "state_dict");
    EXPECT_FALSE(c.quantized());
    // modules by their names inside the model part; optimizer state is no row
    ASSERT_NE(c.table.find("conv1"), nullptr);
    EXPECT_EQ(c.table.find("conv1")->weightDtype, model::DType::Float32);
    for (const model::Layer& l : c.table.layers)
        EXPECT_EQ(l.name.find("optimizer"), std::string::npos) << l.name;
}

TEST(CheckpointLints, UncalibratedCheckpointIsNamedWithItsKeys)
{
    const Analysis a = analyzed({"qat_uncalibrated.pt"});
    const Finding* f = finding(a, "checkpoint.uncalibrated");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_EQ(evidenceLayers(*f), (std::set<std::string>{"conv1", "bn1", "fc"}));
    EXPECT_NE(f->evidence[0].detail.find("conv1.activation_post_process.scale = 1"), std::string::npos);
    EXPECT_NE(f->evidence[0].detail.find("never set"), std::string::npos);
    EXPECT_NE(finding(a, "model.uncalibrated_scale"), nullptr);  // the model lint on its table
    const model::Layer* conv = a.checkpoints[0].table.find("conv1");
    EXPECT_NE(std::find(conv->flags.begin(), conv->flags.end(), checkpoint::kFlagObserverNeverRan),
              conv->flags.end());
}

TEST(CheckpointLints, FakeQuantOffInAQatCheckpoint)
{
    const Analysis a = analyzed({"qat_fq_disabled.pt"});
    const Finding* f = finding(a, "checkpoint.fake_quant_disabled");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(evidenceLayers(*f), (std::set<std::string>{"conv1", "fc"}));
    EXPECT_EQ(f->faq, "qat.weights_not_updating");
    // all on: decided, nothing found
    const Analysis on = analyzed({"qat_calibrated.pt"});
    EXPECT_TRUE(ran(on, "checkpoint.fake_quant_disabled"));
    EXPECT_EQ(finding(on, "checkpoint.fake_quant_disabled"), nullptr);
}

TEST(CheckpointLints, NanAndInfInTheWeights)
{
    const Analysis a = analyzed({"float_nan.pt"});
    const Finding* f = finding(a, "checkpoint.nonfinite_weights");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(f->evidence.size(), 1u);
    EXPECT_EQ(f->evidence[0].layer, "conv1");
    EXPECT_EQ(f->evidence[0].detail, "conv1.weight: 2 of 108 values non-finite, first NaN at index 1");
    EXPECT_EQ(f->stage, Stage::Float);  // the file name says so
    EXPECT_TRUE(ran(analyzed({"float_state_dict.pt"}), "checkpoint.nonfinite_weights"));
}

TEST(CheckpointLints, MaliciousPickleIsReportedAndNeverRun)
{
    const std::string marker = "/tmp/qatdoctor_pwned_by_checkpoint";
    fs::remove(marker);
    const Analysis a = analyzed({"malicious.pt"});
    const Finding* f = finding(a, "checkpoint.unsafe_pickle");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::Error);
    EXPECT_NE(f->evidence.at(0).detail.find("system"), std::string::npos);
    EXPECT_FALSE(fs::exists(marker));
}

TEST(CheckpointLints, HostileSizesAreRefusedWithoutAllocating)
{
    const Analysis a = analyzed({"hostile_sizes.pt"});
    ASSERT_EQ(a.checkpoints.size(), 1u);
    const checkpoint::CheckpointFile& f = a.checkpoints[0].file;
    ASSERT_EQ(f.tensors.size(), 1u);
    EXPECT_EQ(f.tensors[0].shape, (std::vector<int64_t>{int64_t{1} << 40}));
    const Result<std::vector<double>> v = checkpoint::readTensor(f, f.tensors[0]);
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.error().message.find("hostile_sizes.pt: tensor w"), std::string::npos) << v.error().message;
}

TEST(CheckpointLints, ZeroStridesAndHugeOffsetsAreRefusedBeforeAllocating)
{
    Result<checkpoint::CheckpointFile> f = checkpoint::readCheckpoint(fixture("float_state_dict.pt"));
    ASSERT_TRUE(f.ok());
    checkpoint::TensorInfo t = *f->find("conv1.bias");  // a real storage of 4 floats
    checkpoint::TensorReader reader(*f);
    std::string out;
    t.shape = {int64_t{1} << 26};
    t.stride = {0};  // 256 MiB from 4 bytes
    Result<void> r = reader.readPacked(t, out);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("zero strides"), std::string::npos) << r.error().message;
    EXPECT_LT(out.capacity(), size_t{1} << 20);
    t.shape = {};
    t.stride = {};
    t.offset = int64_t{1} << 62;
    t.storageNumel = (int64_t{1} << 62) + 1;
    EXPECT_FALSE(reader.readPacked(t, out).ok());
    t.shape = {int64_t{1} << 40, int64_t{1} << 40};
    EXPECT_EQ(t.numel(), std::numeric_limits<int64_t>::max());  // saturates, no overflow
}

TEST(CheckpointDiff, FrozenWeightsProveQatNotLearning)
{
    // given in reverse: the file names put calibration first
    const Analysis a = analyzed({"qat_frozen.pt", "qat_calibrated.pt"});
    ASSERT_EQ(a.checkpointDiffs.size(), 1u);
    const checkpoint::CheckpointDiff& d = a.checkpointDiffs[0];
    EXPECT_EQ(fs::path(d.pathA).filename(), "qat_calibrated.pt");
    EXPECT_EQ(d.count(TensorRole::Weight), 6u);
    EXPECT_EQ(d.count(TensorRole::Weight, ChangeKind::Same), 6u);
    EXPECT_GT(d.count(TensorRole::Quantizer, ChangeKind::Changed), 0u);  // observers kept observing
    const Finding* f = finding(a, "qat.not_learning");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->evidence.size(), 6u);
    EXPECT_EQ(f->evidence[0].detail.rfind("conv1.weight byte-identical to ", 0), 0u) << f->evidence[0].detail;
}

TEST(CheckpointDiff, TrainedWeightsChangedWithMeasuredSizes)
{
    const Analysis a = analyzed({"qat_calibrated.pt", "qat_trained.pt"});
    ASSERT_EQ(a.checkpointDiffs.size(), 1u);
    const checkpoint::CheckpointDiff& d = a.checkpointDiffs[0];
    EXPECT_EQ(d.count(TensorRole::Weight, ChangeKind::Changed), 6u);
    const auto conv = std::find_if(d.tensors.begin(), d.tensors.end(),
                                   [](const auto& t) { return t.name == "conv1.weight"; });
    ASSERT_NE(conv, d.tensors.end());
    EXPECT_NEAR(conv->relL2, 0.01633, 1e-4);
    EXPECT_NEAR(conv->maxAbs, 0.004751, 1e-5);
    EXPECT_TRUE(ran(a, "qat.not_learning"));
    EXPECT_EQ(finding(a, "qat.not_learning"), nullptr);
    EXPECT_EQ(finding(a, "checkpoint.keys_changed"), nullptr);
    EXPECT_NE(checkpoint::diffSummary(d).en.find("6 of 6 weights changed"), std::string::npos);
}

TEST(CheckpointDiff, FloatToQatGainsKeysButProvesNothingAboutLearning)
{
    const Analysis a = analyzed({"float_state_dict.pt", "qat_calibrated.pt"});
    ASSERT_EQ(a.checkpointDiffs.size(), 1u);
    // prepare_qat copies the float weights: unchanged by design, so no qat.not_learning
    EXPECT_FALSE(ran(a, "qat.not_learning"));
    const Finding* keys = finding(a, "checkpoint.keys_changed");
    ASSERT_NE(keys, nullptr);
    EXPECT_EQ(keys->title.en, "The checkpoints' keys differ: 35 gained, 0 lost");
}

TEST(CheckpointDiff, CalibrationLeavesWeightsAloneWithoutBlame)
{
    // prepared -> calibrated: observers ran, weights stay; that is no "not learning"
    const Analysis a = analyzed({"qat_calibrated.pt", "qat_uncalibrated.pt"});
    ASSERT_EQ(a.checkpointDiffs.size(), 1u);
    EXPECT_EQ(fs::path(a.checkpointDiffs[0].pathA).filename(), "qat_uncalibrated.pt");
    EXPECT_EQ(a.checkpointDiffs[0].count(TensorRole::Weight, ChangeKind::Same), 6u);
    EXPECT_FALSE(ran(a, "qat.not_learning"));
    // observers from +inf / -inf to finite values: no finite size
    for (const checkpoint::TensorChange& t : a.checkpointDiffs[0].tensors)
        if (t.name == "conv1.activation_post_process.activation_post_process.min_val") {
            EXPECT_TRUE(std::isnan(t.relL2));
            EXPECT_EQ(checkpoint::relativeChangeText(t.relL2), "non-finite");
        }
}

TEST(CheckpointWizard, TheThreeQuestionsAnswerThemselves)
{
    const Analysis frozen = analyzed({"qat_calibrated.pt", "qat_frozen.pt"});
    EXPECT_EQ(answer(frozen, "qat.weights_not_updating", "q_frozen").outcome, faq::AutoOutcome::Found);
    const Analysis trained = analyzed({"qat_calibrated.pt", "qat_trained.pt"});
    EXPECT_EQ(answer(trained, "qat.weights_not_updating", "q_frozen").outcome, faq::AutoOutcome::Clear);

    const Analysis uncalibrated = analyzed({"qat_uncalibrated.pt"});
    const faq::AutoAnswer loaded = answer(uncalibrated, "qat.behaviour_vs_float", "q_calib_loaded");
    EXPECT_EQ(loaded.outcome, faq::AutoOutcome::Found);
    ASSERT_NE(loaded.answer, nullptr);
    EXPECT_EQ(loaded.answer->id, "no");
    EXPECT_EQ(answer(uncalibrated, "op.uncalibrated_ops", "q_default").outcome, faq::AutoOutcome::Found);
    EXPECT_EQ(answer(trained, "qat.behaviour_vs_float", "q_calib_loaded").outcome, faq::AutoOutcome::Clear);

    const Analysis off = analyzed({"qat_fq_disabled.pt"});
    const faq::AutoAnswer flags = answer(off, "qat.weights_not_updating", "q_flags");
    EXPECT_EQ(flags.outcome, faq::AutoOutcome::Found);
    ASSERT_NE(flags.answer, nullptr);
    EXPECT_EQ(flags.answer->id, "no");
}

TEST(CheckpointFolder, AProjectFolderFindsItsCheckpointsAndComparesThemInStageOrder)
{
    const fs::path dir = fs::temp_directory_path() / "qatdoctor_checkpoint_folder_test";
    fs::remove_all(dir);
    fs::create_directories(dir / "ckpt");
    fs::copy_file(fixture("qat_calibrated.pt"), dir / "ckpt" / "calib.pth");
    fs::copy_file(fixture("qat_frozen.pt"), dir / "ckpt" / "qat_epoch_10.pth");
    fs::copy_file(fixture("qat_frozen.pt"), dir / "ckpt" / "qat_epoch_2.pth");
    AnalyzeOptions options;
    options.paths = {dir.string()};
    Result<Analysis> a = analyze(options);
    ASSERT_TRUE(a.ok()) << a.error().toString();
    ASSERT_EQ(a->checkpoints.size(), 3u);
    ASSERT_EQ(a->checkpointDiffs.size(), 2u);
    EXPECT_EQ(fs::path(a->checkpointDiffs[0].pathA).filename(), "calib.pth");
    EXPECT_EQ(fs::path(a->checkpointDiffs[0].pathB).filename(), "qat_epoch_2.pth");
    EXPECT_EQ(fs::path(a->checkpointDiffs[1].pathB).filename(), "qat_epoch_10.pth");
    EXPECT_NE(finding(*a, "qat.not_learning"), nullptr);
    // the JSON carries both
    const nlohmann::json j = analysisToJson(*a, Lang::En);
    EXPECT_EQ(j["checkpoints"].size(), 3u);
    EXPECT_EQ(j["checkpoint_diffs"][0]["weights"]["same"], 6);
    fs::remove_all(dir);
}

TEST(CheckpointFolder, AConvertedModelIsNoTrainingStep)
{
    // QAT -> a converted (int8) model changes form, not by training: no "not learning" there;
    // "prepared_qat_epoch5" is a QAT checkpoint, not the model right after prepare
    const fs::path dir = fs::temp_directory_path() / "qatdoctor_checkpoint_stage_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(fixture("qat_frozen.pt"), dir / "model_int8.pt");
    fs::copy_file(fixture("qat_calibrated.pt"), dir / "prepared_qat_epoch5.pt");
    AnalyzeOptions options;
    options.paths = {dir.string()};
    Result<Analysis> a = analyze(options);
    ASSERT_TRUE(a.ok()) << a.error().toString();
    ASSERT_EQ(a->checkpointDiffs.size(), 1u);
    EXPECT_EQ(fs::path(a->checkpointDiffs[0].pathA).filename(), "prepared_qat_epoch5.pt");
    EXPECT_FALSE(ran(*a, "qat.not_learning"));
    fs::remove_all(dir);
}

TEST(CheckpointReport, SectionListsQuantizersAndChanges)
{
    const Analysis a = analyzed({"qat_calibrated.pt", "qat_trained.pt"});
    report::ReportOptions options;
    options.sections = {"checkpoint"};
    options.hashInputs = false;
    Result<report::ReportDocument> doc = report::buildReport(a, options);
    ASSERT_TRUE(doc.ok());
    ASSERT_EQ(doc->sections.size(), 1u);
    std::string text;
    for (const report::Block& b : doc->sections[0].blocks) {
        text += b.text + "\n";
        for (const auto& row : b.table.rows)
            for (const std::string& cell : row) text += cell + "|";
    }
    EXPECT_NE(text.find("conv1|Conv2d|? / ?|0.001496|0.01306|95|[-1.237, 2.094]"), std::string::npos) << text;
    EXPECT_NE(text.find("6 of 6 weights changed"), std::string::npos);
    EXPECT_NE(text.find("bn1.bias|changed|from 0|"), std::string::npos) << text;
}

}  // namespace qatdoctor::core
