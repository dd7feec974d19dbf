// loss.nonfinite: a NaN or Inf in any logged loss or metric. The first one is what matters (the
// rest usually follows from it), so the finding points at the earliest step.
#include <algorithm>
#include <cmath>

#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {
namespace {

struct FirstBad {
    MetricRef metric;
    size_t index = 0;
};

// Earlier step first; on the same step prefer loss series, then a point from a text log (the
// place a user reads; the same value often also sits in a CSV / JSONL / tfevents side file),
// then the earlier line.
bool earlier(const logs::Run& run, const FirstBad& a, const FirstBad& b)
{
    const double sa = a.metric.series->step[a.index], sb = b.metric.series->step[b.index];
    if (sa != sb) return sa < sb;
    const bool la = classifyMetric(a.metric.name).kind == MetricKind::Loss;
    const bool lb = classifyMetric(b.metric.name).kind == MetricKind::Loss;
    if (la != lb) return la;
    const logs::PointSource pa = a.metric.series->sourceAt(a.index), pb = b.metric.series->sourceAt(b.index);
    auto isText = [&](const logs::PointSource& p) {
        return p.file < run.files.size() && run.files[p.file].format == "text";
    };
    if (isText(pa) != isText(pb)) return isText(pa);
    if (pa.lineOrRecord != pb.lineOrRecord) return pa.lineOrRecord < pb.lineOrRecord;
    return a.metric.name < b.metric.name;
}

const Text kTrainingAdvice = {
    "从该步起损失或指标变为 NAN / INF。可能原因：输入数据本身存在 NAN、浮点模型尚未收敛、"
    "未正确执行 Calibration 初始化、学习率过大或 fake quant / observer 状态异常。"
    "建议先确认输入数据没有异常值，再确认浮点模型已经收敛、已完成 Calibration 并正确加载其参数；"
    "如果学习率过大，可优先调低学习率，必要时增加梯度裁剪。",
    "From this step on a loss or metric is NaN/Inf. Likely causes: NaN in the input data, "
    "a float model that has not converged, calibration not run or not loaded, a too large "
    "learning rate, or wrong fake-quant / observer states. First make sure the input data "
    "holds no abnormal values, then that the float model converged and the calibration "
    "parameters are loaded; if the learning rate is too large, lower it and add gradient "
    "clipping if needed."};

const Text kEvaluationAdvice = {
    "评测结果中出现 NAN / INF，但训练 loss 始终为有限值，且下一次评测恢复正常：通常是该次评测读到的数据有异常"
    "（例如图片在读取时被改写、标注为空），而不是训练本身的问题。建议检查该次评测所用的验证数据中是否存在 "
    "NAN "
    "等异常值；若每次评测都出现，再按 NAN 问题排查输入数据。",
    "An evaluation's loss or score is NaN/Inf while the training loss stays finite and the next "
    "evaluation is finite again: usually the data read for that one evaluation was abnormal (an "
    "image rewritten while it was read, an empty annotation), not the training itself. Check the "
    "validation data of that evaluation for NaN or other abnormal values; if every evaluation "
    "shows it, treat it as a NaN problem in the input data."};

// How bad the non-finite values are: in a training series, or an evaluation loss that never
// recovers, the run is broken (error); an evaluation loss that is finite again at its next
// evaluation, or an evaluation score such as COCO's APs (NaN by design when a category is empty),
// is a note (info).
Severity nonFiniteSeverity(const std::vector<FirstBad>& bad)
{
    Severity worst = Severity::Info;
    for (const FirstBad& b : bad) {
        const MetricName m = classifyMetric(b.metric.name);
        const logs::Series& s = *b.metric.series;
        const bool recovered = std::isfinite(s.value[s.size() - 1]);
        Severity here = Severity::Info;
        if (!m.eval || (m.kind == MetricKind::Loss && !recovered)) here = Severity::Error;
        // an evaluation loss finite again at the next evaluation: a glitch in the data of that
        // one evaluation that training never saw, a note (finding_catalogue.h)
        else if (m.kind == MetricKind::Loss)
            here = Severity::Info;
        worst = std::max(worst, here);
    }
    return worst;
}

}  // namespace

RuleOutcome checkLossNonfinite(const logs::LogSet& a, const Thresholds&)
{
    RuleOutcome out;
    for (const logs::Run& run : a.runs) {
        std::vector<FirstBad> bad;
        for (const auto& [name, s] : run.series) {
            if (s.empty()) continue;
            out.ran = true;
            for (size_t i = 0; i < s.size(); ++i) {
                if (std::isfinite(s.value[i])) continue;
                bad.push_back({MetricRef{name, &s}, i});
                break;
            }
        }
        if (bad.empty()) continue;
        const Severity severity = nonFiniteSeverity(bad);
        std::sort(bad.begin(), bad.end(),
                  [&](const FirstBad& x, const FirstBad& y) { return earlier(run, x, y); });
        const FirstBad& first = bad.front();
        const double step = first.metric.series->step[first.index];
        const std::string where = run.name + ", " + first.metric.name + " = " +
                                  shortNumber(first.metric.series->value[first.index]) + " at step " +
                                  shortNumber(step);
        const bool training =
            severity == Severity::Error || std::any_of(bad.begin(), bad.end(), [](const FirstBad& b) {
                return !classifyMetric(b.metric.name).eval;
            });
        Finding f = makeFinding(
            "loss.nonfinite", severity, stageForRole(run.role),
            training
                ? Text{"训练中出现 NAN / INF（" + where + "）", "NaN/Inf during training (" + where + ")"}
                : Text{"评测结果中出现 NAN / INF，训练本身保持有限值（" + where + "）",
                       "NaN/Inf in an evaluation, training itself stays finite (" + where + ")"},
            training ? kTrainingAdvice : kEvaluationAdvice, "qat.nan_loss");
        // finite again at the next evaluation, and training never saw it: a glitch in the data
        // read for that one evaluation, not where trouble starts
        f.recovered = !training;
        for (size_t i = 0; i < bad.size() && i < 4; ++i)
            f.evidence.push_back(
                pointEvidence(run, bad[i].metric, bad[i].index,
                              i == 0 ? Text{"第一个非有限值", "first non-finite value"} : Text{}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
