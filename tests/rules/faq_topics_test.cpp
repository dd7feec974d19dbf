// Every rule's FAQ topic exists in faq/*.json and is the topic of the seed question the rule
// answers (matched by the seed heading, so a renamed topic id is caught here).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/common/file_io.h"
#include "core/rules/rule.h"
#include "tests/rules/healthy_fixture.h"

namespace qatdoctor::core::rules {
namespace {

namespace fs = std::filesystem;

// topic id -> seed heading
std::map<std::string, std::string> faqHeadings()
{
    std::map<std::string, std::string> out;
    for (const auto& entry : fs::directory_iterator(std::string(QATDOCTOR_SOURCE_DIR) + "/faq")) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 3 || !std::isdigit(static_cast<unsigned char>(name[0])) || !name.ends_with(".json"))
            continue;
        auto text = readFile(entry.path().string());
        if (!text) continue;
        auto doc = nlohmann::json::parse(*text, nullptr, false);
        if (doc.is_discarded()) continue;
        for (const auto& t : doc.value("topics", nlohmann::json::array()))
            out[t.value("id", "")] = t.contains("source") ? t["source"].value("heading", "") : "";
    }
    return out;
}

// The seed heading each finding's advice comes from (the seed FAQs 000 and 004).
const std::map<std::string, std::string> kExpectedHeading = {
    {"loss.nonfinite", "QAT 初始 loss 很大、训练中出现 NAN / INF，应如何处理？"},
    {"loss.divergence", "QAT 初始 loss 很大、训练中出现 NAN / INF，应如何处理？"},
    {"qat.start_loss_high", "QAT 初始 loss 很大、训练中出现 NAN / INF，应如何处理？"},
    {"float.not_converged", "QAT 初始 loss 很大、训练中出现 NAN / INF，应如何处理？"},
    {"train.aggressive_lr_schedule", "QAT 初始 loss 很大、训练中出现 NAN / INF，应如何处理？"},
    {"qat.trend_mismatch", "QAT 训练时的现象，是否应与 float 训练基本一致？"},
    {"qat.worse_than_calibration", "QAT 精度不升反降，甚至比 Calibration 更差，应如何处理？"},
    {"qat.quantized_gap", "QAT 与 quantized 模型精度不一致，应如何处理？"},
    {"qat.no_quantized_eval", "为什么仅使用 qat model 做精测和训练监控，可能无法及时发现部署侧精度异常？"},
    {"qat.not_learning", "load calibration 之后，QAT 训练为什么权重参数不更新？"},
    {"calib.low_accuracy", "Calibration 精度差，是否说明 QAT 精度大概率也会偏低？"},
    {"train.batch_scaled_lr_unchanged", "开启多机训练后精度变差，应如何处理？"},
    {"calib.multi_gpu", "Calibration 过程使用多卡。"},
    {"env.no_gpu", "Docker 容器无法使用 Nvidia 资源？"},
    {"config.march", "没有正确设置 march，会带来什么问题？"},
    {"config.march_not_logged", "没有正确设置 march，会带来什么问题？"},
    {"float.overfit", "浮点模型过拟合会影响 QAT 吗？"},
};

TEST(RuleFaqTopics, EveryFindingLinksTheTopicOfItsSeedQuestion)
{
    const auto headings = faqHeadings();
    ASSERT_FALSE(headings.empty());
    // Produce every finding at least once and check its topic.
    testing::Pipeline p = testing::healthyPipeline();
    p.qatRun.series["qat_train/loss"].value.set(0, 5.0f);
    p.qatRun.series["qat_train/loss"].value.set(3, NAN);
    p.qatRun.series["qat_train/loss"].value.set(9, 900.0f);
    p.qatRun.metadata["lr_scheduler"] = "OneCycleLR";
    p.qatRun.metadata.erase("march");
    p.qatRun.events.push_back({logs::RunEvent::Kind::Traceback, "Traceback\nValueError: x", 0, 99, 8.0});
    p.qatRun.series["qat_val/acc"] = testing::makeSeries({0.5}, 63, 64, 1);
    p.floatRun.series["float_val/acc"] = testing::makeSeries({0.2, 0.3, 0.4}, 23, 24, 1);
    p.floatRun.events.push_back({logs::RunEvent::Kind::Warning, "CUDA is not available", 0, 2, std::nullopt});
    p.calibRun.series["calib_val/acc"].value = {0.35f};
    p.calibRun.metadata["world_size"] = "2";
    logs::Run wide = p.qatRun;
    wide.name = "qat_4gpu";
    wide.metadata["world_size"] = "4";
    wide.metadata["march"] = "bayes";  // against float's nash-e: config.march
    Analysis a = testing::analysisOf({p.floatRun, p.calibRun, p.qatRun, wide});
    runTrainingRules(a.logs, defaultThresholds(), a);
    // A second pipeline for the accuracy comparisons, the trend and the frozen QAT run.
    testing::Pipeline q = testing::healthyPipeline();
    q.floatRun.series["float_val/acc"] = testing::makeSeries({0.5, 0.6, 0.92}, 23, 24, 1);
    q.qatRun.series["qat_val/acc"] = testing::makeSeries({0.8, 0.8, 0.8}, 63, 64, 1);
    q.quantizedRun.series["quantized_val/acc"] = testing::makeSeries({0.5});
    auto& loss = q.qatRun.series["qat_train/loss"].value;
    for (size_t i = 0; i < loss.size(); ++i) loss.set(i, static_cast<float>(0.1 * (1.0 + 0.1 * i)));
    Analysis b = q.analysis();
    runTrainingRules(b.logs, defaultThresholds(), b);
    a.findings.insert(a.findings.end(), b.findings.begin(), b.findings.end());
    std::set<std::string> seen;
    for (const Finding& f : a.findings) {
        seen.insert(f.id);
        if (f.id == "run.crashed") {
            EXPECT_EQ(f.faq, "");  // no FAQ question about crashes
            continue;
        }
        auto want = kExpectedHeading.find(f.id);
        ASSERT_NE(want, kExpectedHeading.end()) << f.id;
        auto got = headings.find(f.faq);
        ASSERT_NE(got, headings.end()) << f.id << " links unknown topic " << f.faq;
        EXPECT_EQ(got->second, want->second) << f.id << " -> " << f.faq;
    }
    for (const char* id :
         {"loss.nonfinite", "loss.divergence", "run.crashed", "qat.start_loss_high", "qat.no_quantized_eval",
          "calib.low_accuracy", "calib.multi_gpu", "env.no_gpu", "config.march", "config.march_not_logged",
          "train.aggressive_lr_schedule", "train.batch_scaled_lr_unchanged", "float.overfit",
          "float.not_converged", "qat.trend_mismatch", "qat.worse_than_calibration", "qat.quantized_gap",
          "qat.not_learning"})
        EXPECT_TRUE(seen.count(id)) << id;
}

}  // namespace
}  // namespace qatdoctor::core::rules
