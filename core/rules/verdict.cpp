#include "core/rules/verdict.h"

#include <cmath>

namespace qatdoctor::core::rules {
namespace {

// Pipeline order for the verdict; environment last (a CPU fallback rarely explains accuracy).
int verdictRank(Stage s)
{
    switch (s) {
        case Stage::Float:
            return 0;
        case Stage::Calibration:
            return 1;
        case Stage::Qat:
            return 2;
        case Stage::Export:
            return 3;
        case Stage::Deployment:
            return 4;
        case Stage::Environment:
            return 5;
    }
    return 5;
}

Text stagePhrase(Stage s)
{
    switch (s) {
        case Stage::Float:
            return {"浮点训练阶段", "float training"};
        case Stage::Calibration:
            return {"Calibration 阶段", "calibration"};
        case Stage::Qat:
            return {"QAT 训练阶段", "QAT training"};
        case Stage::Export:
            return {"导出阶段（QAT 到 quantized 模型）", "export (QAT to the quantized model)"};
        case Stage::Deployment:
            return {"部署阶段", "deployment"};
        case Stage::Environment:
            return {"训练环境", "the training environment"};
    }
    return {"", ""};
}

Text sideAdvice(Stage s)
{
    switch (s) {
        case Stage::Float:
        case Stage::Calibration:
        case Stage::Qat:
            return {"这是训练侧问题，建议先在训练阶段解决，再看导出和部署。",
                    "This is a training-side problem: fix it before looking at export or deployment."};
        case Stage::Export:
            return {"训练侧未见异常，建议按导出一致性问题排查，而不是继续训练。",
                    "Training looks fine: follow export consistency rather than training longer."};
        case Stage::Deployment:
            return {"训练和导出未见异常，建议排查部署链路（输入格式、前后处理、板端适配）。",
                    "Training and export look fine: check the deployment chain (input format, pre- and "
                    "post-processing, board-side adaptation)."};
        case Stage::Environment:
            return {"建议先修复训练环境。", "Fix the environment first."};
    }
    return {"", ""};
}

// A finding seen in the training runs shows the trouble happening; a model or toolchain lint
// shows a risk in the artefact. At equal stage and severity the observed one explains more.
bool observedInRuns(const Finding& f)
{
    for (const Evidence& e : f.evidence)
        if (!e.run.empty()) return true;
    return false;
}

// Whether every run the finding's evidence names has no known stage (and it names one at least).
bool onlyInRunsOfUnknownStage(const Finding& f, const logs::LogSet& logs)
{
    bool any = false;
    for (const Evidence& e : f.evidence) {
        if (e.run.empty()) continue;
        const logs::Run* run = nullptr;
        for (const logs::Run& r : logs.runs)
            if (r.name == e.run) run = &r;
        if (!run || run->role != logs::RunRole::Unknown) return false;
        any = true;
    }
    return any;
}

// The damage first: an error (a quantized model at chance, a NaN loss) leads the warnings, so a
// harmless note about an earlier stage (a batch/lr remark on a QAT run that reached float's
// accuracy) never hides a broken model. Among equals, the root-most stage: what goes wrong first
// explains what follows.
// How far past its threshold a finding is, relative to the threshold (a drop of 0.73 against
// 0.1 is 6.3); facts without a strength count as just past it.
double relativeStrength(const Finding& f)
{
    if (!f.strength) return 0;
    const double threshold = std::fabs(f.strength->threshold);
    const double margin = f.strength->margin();
    return threshold > 0 ? margin / threshold : margin;
}

bool leads(const Finding& f, const Finding& than)
{
    if (f.severity != than.severity) return f.severity > than.severity;
    if (verdictRank(f.stage) != verdictRank(than.stage))
        return verdictRank(f.stage) < verdictRank(than.stage);
    if (observedInRuns(f) != observedInRuns(than)) return observedInRuns(f);
    return relativeStrength(f) > relativeStrength(than);
}

// A float or calibration problem explains the QAT trouble that follows it (a poor calibration,
// then a QAT NaN): when QAT trouble leads, the root-most of those leads instead.
bool upstreamOfQat(const Finding& f)
{
    return f.stage == Stage::Float || f.stage == Stage::Calibration;
}

bool leadsUpstream(const Finding& f, const Finding& than)
{
    if (verdictRank(f.stage) != verdictRank(than.stage))
        return verdictRank(f.stage) < verdictRank(than.stage);
    return leads(f, than);
}

}  // namespace

Verdict computeVerdict(const CheckResults& analysis, const logs::LogSet& logs,
                       const std::string& leadingFindingId)
{
    Verdict v;
    const Finding* lead = nullptr;
    size_t problems = 0;
    size_t recovered = 0;
    for (const Finding& f : analysis.findings) {
        if (f.severity == Severity::Info) continue;
        if (f.recovered) {
            ++recovered;
            continue;
        }
        ++problems;
        if (!lead || leads(f, *lead)) lead = &f;
    }
    if (lead && lead->stage == Stage::Qat) {
        const Finding* upstream = nullptr;
        for (const Finding& f : analysis.findings)
            if (f.severity != Severity::Info && !f.recovered && upstreamOfQat(f) &&
                (!upstream || leadsUpstream(f, *upstream)))
                upstream = &f;
        if (upstream) lead = upstream;
    }
    // the ladder's first bad step: where the accuracy is first lost
    const Finding* step = nullptr;
    for (const Finding& f : analysis.findings)
        if (!leadingFindingId.empty() && f.id == leadingFindingId && f.severity != Severity::Info &&
            !f.recovered && (!step || leads(f, *step)))
            step = &f;
    if (step && lead && lead != step) {
        // the step says where; a problem at that stage or earlier and at least as severe says why
        // (a NaN loss or calibration not loaded, before the QAT accuracy they ruined)
        const bool upstreamLeads =
            verdictRank(lead->stage) <= verdictRank(step->stage) && lead->severity >= step->severity;
        if (!upstreamLeads) lead = step;
    }
    if (!lead) {
        const bool anything = !analysis.checksRun.empty();
        v.text = anything
                     ? Text{"已运行 " + std::to_string(analysis.checksRun.size()) + " 项检查，未发现问题。",
                            "No problem found: " + std::to_string(analysis.checksRun.size()) +
                                " checks ran on the loaded data."}
                     : Text{"没有可检查的数据：请加载训练日志文件夹、模型或工具链输出文件。",
                            "Nothing could be checked: load a training log folder, a model or "
                            "toolchain output files."};
        if (recovered > 0) {
            v.text.zh += "另有 " + std::to_string(recovered) + " 处数据异常已自行恢复，列在发现中。";
            v.text.en += " " + std::to_string(recovered) + " passing glitch" + (recovered > 1 ? "es" : "") +
                         " in the data recovered by " + (recovered > 1 ? "themselves" : "itself") +
                         " (listed among the findings).";
        }
        return v;
    }
    v.clear = false;
    v.stage = lead->stage;
    v.findingId = lead->id;
    // A training-stage finding seen only in runs of no known stage cannot say "QAT training"
    const bool trainingStage =
        lead->stage == Stage::Float || lead->stage == Stage::Calibration || lead->stage == Stage::Qat;
    v.stageUnknown = trainingStage && onlyInRunsOfUnknownStage(*lead, logs);
    const Text where =
        v.stageUnknown ? Text{"训练阶段（阶段未知）", "training (stage unknown)"} : stagePhrase(lead->stage);
    const Text side = sideAdvice(lead->stage);
    std::string othersZh, othersEn;
    if (problems > 1) {
        othersZh = "（另有 " + std::to_string(problems - 1) + " 项发现）";
        othersEn = " (" + std::to_string(problems - 1) + " more finding" + (problems > 2 ? "s" : "") + ")";
    }
    v.text.zh = "问题最可能始于" + where.zh + "：" + lead->title.zh + othersZh + "。" + side.zh;
    v.text.en =
        "Trouble most likely starts in " + where.en + ": " + lead->title.en + othersEn + ". " + side.en;
    return v;
}

}  // namespace qatdoctor::core::rules
