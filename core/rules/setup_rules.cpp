// Set-up facts read from log lines and run metadata: env.no_gpu (CUDA unavailable),
// calib.multi_gpu (calibration on several GPUs) and config.march (runs set different marches;
// config.march_not_logged is the hint that a QAT run's log does not say).
#include <algorithm>
#include <cctype>
#include <map>

#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

std::string lower(const std::string& s)
{
    std::string out = s;
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Phrases torch, CUDA and typical training scripts print when no GPU can be used.
constexpr const char* kNoGpuPhrases[] = {
    "cuda is not available",
    "found no nvidia driver",
    "no cuda gpus are available",
    "cuda.is_available() is false",
    "cuda driver version is insufficient",
    "no nvidia gpu",
    "falling back to cpu",
    "cuda initialization: ",
    "could not load dynamic library 'libcuda",
};

bool mentionsNoGpu(const std::string& text)
{
    const std::string l = lower(text);
    return std::any_of(std::begin(kNoGpuPhrases), std::end(kNoGpuPhrases),
                       [&](const char* p) { return l.find(p) != std::string::npos; });
}

std::optional<std::string> marchOf(const logs::Run& run)
{
    return metadataText(run, {"march", "bpu_march", "MARCH", "march_name"});
}

}  // namespace

RuleOutcome checkEnvNoGpu(const logs::LogSet& a, const Thresholds&)
{
    RuleOutcome out;
    std::vector<Evidence> evidence;
    for (const logs::Run& run : a.runs) {
        if (run.files.empty()) continue;
        out.ran = true;
        for (const logs::RunEvent& e : run.events)
            if (mentionsNoGpu(e.text) && evidence.size() < 4) evidence.push_back(eventEvidence(run, e));
    }
    if (evidence.empty()) return out;
    Finding f = makeFinding(
        "env.no_gpu", Severity::Warning, Stage::Environment,
        {"训练环境无法使用 GPU（" + evidence.front().run + "）",
         "Training could not use a GPU (" + evidence.front().run + ")"},
        {"日志显示 CUDA / GPU 不可用，训练退回到 CPU。常见原因是 GPU Docker "
         "环境未正确配置。建议对照环境部署中 "
         "GPU Docker 部分的说明，确认 Docker 启动方式、GPU 设备映射和驱动环境是否符合要求。",
         "The log says CUDA / the GPU is unavailable and training fell back to the CPU. The usual "
         "cause is a GPU Docker environment that is not set up correctly. Follow the GPU Docker part "
         "of the environment set-up guide: check how the container is started, the GPU device "
         "mapping and the driver environment."},
        "env.docker_gpu");
    f.evidence = std::move(evidence);
    out.findings.push_back(std::move(f));
    return out;
}

RuleOutcome checkCalibMultiGpu(const logs::LogSet& a, const Thresholds&)
{
    RuleOutcome out;
    for (const logs::Run* run : runsWithRole(a, logs::RunRole::Calibration)) {
        auto world = worldSize(*run);
        if (!world) continue;
        out.ran = true;
        if (*world <= 1) continue;
        const std::string what = run->name + ", world_size " + shortNumber(*world);
        Finding f = makeFinding(
            "calib.multi_gpu", Severity::Error, Stage::Calibration,
            {"Calibration 使用了多卡（" + what + "）", "Calibration ran on several GPUs (" + what + ")"},
            {"由于底层限制，Calibration 目前不支持多卡：各卡的统计范围不会同步，得到的量化参数不可靠。"
             "请使用单卡进行 Calibration 操作。",
             "Because of an underlying limitation, calibration does not support several GPUs: the "
             "ranges each GPU observes are not synchronised, so the resulting quantization parameters "
             "are unreliable. Run calibration on a single GPU."},
            "method.multi_gpu_calibration");
        f.evidence.push_back(runEvidence(*run, "world_size: " + shortNumber(*world)));
        out.findings.push_back(std::move(f));
    }
    return out;
}

RuleOutcome checkConfigMarch(const logs::LogSet& a, const Thresholds&)
{
    RuleOutcome out;
    std::map<std::string, std::vector<const logs::Run*>> byMarch;
    std::vector<const logs::Run*> missing;
    for (const logs::Run& run : a.runs) {
        if (run.metadata.empty()) continue;
        if (auto m = marchOf(run))
            byMarch[lower(*m)].push_back(&run);
        else if (run.role == logs::RunRole::Qat)
            missing.push_back(&run);
    }
    const bool anyQat = !runsWithRole(a, logs::RunRole::Qat).empty();
    if (!anyQat || (byMarch.empty() && missing.empty())) return out;
    // Checked when the logged marches can be compared: two that differ, or every QAT run's own.
    // A QAT run that does not log its march leaves the question open (not checked), whatever
    // the other runs say.
    out.ran = byMarch.size() > 1 || (!byMarch.empty() && missing.empty());
    const Text advice = {
        "march 与实际部署处理器不一致可能导致模型编译失败或部署精度不一致。请根据目标处理器选择正确的 BPU "
        "架构，"
        "并在 Calibration、QAT 和导出各阶段保持一致，例如 J6 需要使用 "
        "Nash：horizon.march.set_march(\"nash-e\")。",
        "A march that does not match the deployment processor can make compilation fail or deployment "
        "accuracy differ. Choose the BPU architecture of the target processor and use the same one in "
        "calibration, QAT and export; for example J6 needs Nash: horizon.march.set_march(\"nash-e\")."};
    // A setting that is not logged is no evidence that it is wrong: a hint, once, naming the runs.
    if (!missing.empty()) {
        std::string names;
        for (const logs::Run* run : missing) names += (names.empty() ? "" : ", ") + run->name;
        Finding f = makeFinding("config.march_not_logged", Severity::Info, Stage::Qat,
                                {"QAT 运行的日志未记录 march（" + names + "），无法核对",
                                 "The QAT run's log does not record its march (" + names + "): not checked"},
                                advice, "settings.march");
        for (const logs::Run* run : missing)
            f.evidence.push_back(runEvidence(
                *run, Text{"记录的配置中没有 'march'", "the logged configuration has no 'march'"}));
        out.findings.push_back(std::move(f));
    }
    if (byMarch.size() > 1) {
        std::string list;
        for (const auto& [march, runs] : byMarch) list += (list.empty() ? "" : ", ") + march;
        Finding f = makeFinding(
            "config.march", Severity::Warning, Stage::Qat,
            {"各阶段的 march 不一致（" + list + "）", "Runs use different march settings (" + list + ")"},
            advice, "settings.march");
        for (const auto& [march, runs] : byMarch)
            for (const logs::Run* r : runs) f.evidence.push_back(runEvidence(*r, "march: " + march));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
