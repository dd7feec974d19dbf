#include "core/rules/run_end.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/rules/metrics.h"
#include "core/rules/rule_support.h"

namespace qatdoctor::core::rules {

namespace {

// Evaluations at every planned epoch: whole epochs only (HF evaluates at fractions of one, and
// a 1-based "Epoch 3/3" training line is where the last epoch starts, not where it ends).
std::optional<int> evaluatedEpochs(const logs::Run& run)
{
    for (MetricKind kind : {MetricKind::Accuracy, MetricKind::Loss}) {
        MetricRef m = findMetric(run, kind, true);
        if (!m || !m.series->hasEpoch()) continue;
        std::set<float> epochs;
        for (size_t i = 0; i < m.series->size(); ++i) {
            const std::optional<float> e = m.series->epochAt(i);
            if (!e || !std::isfinite(*e)) continue;
            if (*e != std::floor(*e)) return std::nullopt;
            epochs.insert(*e);
        }
        if (!epochs.empty()) return static_cast<int>(epochs.size());
    }
    return std::nullopt;
}

}  // namespace

bool pointsAfter(const logs::Run& run, const logs::RunEvent& event)
{
    for (const auto& [name, s] : run.series) {
        if (s.empty()) continue;
        const logs::PointSource last = s.sourceAt(s.size() - 1);
        if (last.file == event.file && last.lineOrRecord > event.line) return true;
    }
    return false;
}

namespace {

// Whether the run trained on after its final line: a training series it had before gets points
// after the line, or a loss starts there (HAT's END banner of one stage, then the next stage's
// "qat/loss"). What frameworks print after it is no training: YOLO validates best.pt and sums up
// the fused model ("Model Summary: 280 layers" reads as a number).
bool trainingWentOn(const logs::Run& run, const logs::RunEvent& end)
{
    for (const auto& [name, s] : run.series) {
        if (s.empty()) continue;
        const MetricName metric = classifyMetric(name);
        if (metric.eval) continue;
        const logs::PointSource last = s.sourceAt(s.size() - 1);
        if (last.file != end.file || last.lineOrRecord <= end.line) continue;
        const logs::PointSource first = s.sourceAt(0);
        const bool before = first.file != end.file || first.lineOrRecord < end.line;
        if (before || metric.kind == MetricKind::Loss) return true;
    }
    return false;
}

}  // namespace

std::optional<RunEnd> runEnd(const logs::Run& run)
{
    const auto last = std::find_if(run.events.rbegin(), run.events.rend(), [](const logs::RunEvent& e) {
        return e.kind == logs::RunEvent::Kind::Finished;
    });
    if (last != run.events.rend() && !trainingWentOn(run, *last)) {
        const std::string text = last->text.substr(0, 200);
        return RunEnd{{"最后一行：" + text, "final line: " + text}, eventEvidence(run, *last)};
    }
    if (run.metadata.count("train_runtime") || run.series.count("train_runtime"))
        return RunEnd{{"训练器的收尾汇总（train_runtime）", "the trainer's closing summary (train_runtime)"},
                      runEvidence(run)};
    const auto planned = plannedEpochs(run);
    const auto done = evaluatedEpochs(run);
    if (planned && done && *planned >= 1 && *done >= static_cast<int>(*planned)) {
        const std::string n = std::to_string(*done);
        return RunEnd{{"计划的 " + n + " 个 epoch 都已评测", "all " + n + " planned epochs evaluated"},
                      runEvidence(run)};
    }
    return std::nullopt;
}

}  // namespace qatdoctor::core::rules
