// run.crashed: a run that ends with an error or a traceback before its planned end.
#include "core/rules/rule_checks.h"
#include "core/rules/rule_support.h"
#include "core/rules/run_end.h"

namespace qatdoctor::core::rules {
namespace {

using Kind = logs::RunEvent::Kind;

// The exception line of a traceback: its last non-empty line.
std::string exceptionLine(const std::string& text)
{
    size_t end = text.size();
    while (end > 0) {
        size_t start = text.rfind('\n', end - 1);
        start = start == std::string::npos ? 0 : start + 1;
        std::string line = text.substr(start, end - start);
        if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
        if (start == 0) break;
        end = start - 1;
    }
    return {};
}

}  // namespace

RuleOutcome checkRunCrashed(const logs::LogSet& a, const Thresholds&)
{
    RuleOutcome out;
    for (const logs::Run& run : a.runs) {
        if (run.files.empty()) continue;
        out.ran = true;
        // a run that printed its framework's final line ended normally, whatever it logged before
        const std::optional<RunEnd> end = runEnd(run);
        if (end && !end->where.file.empty() && end->where.line > 0) continue;
        // the first traceback the run did not survive (one with training lines after it, a
        // DataLoader worker's at an epoch's end, was survived)
        const logs::RunEvent* traceback = nullptr;
        const logs::RunEvent* error = nullptr;
        for (const logs::RunEvent& e : run.events) {
            if (e.kind == Kind::Traceback && !traceback && !pointsAfter(run, e)) traceback = &e;
            if (e.kind == Kind::Error && !error) error = &e;
        }
        if (!traceback && !error) continue;
        const auto planned = plannedEpochs(run);
        const auto done = completedEpochs(run);
        const bool known = planned && done;
        if (known && *done >= static_cast<int>(*planned)) continue;  // finished: a logged, survived error
        if (!known && !traceback) continue;                          // an ERROR line alone may be harmless
        std::string progress;
        if (known) progress = std::to_string(*done) + "/" + std::to_string(static_cast<int>(*planned));
        const std::string exc = traceback ? exceptionLine(traceback->text) : error->text;
        const std::string what = run.name + (progress.empty() ? "" : ", epochs " + progress);
        Finding f = makeFinding(
            "run.crashed", Severity::Error, stageForRole(run.role),
            {"训练异常中止（" + what + "）", "Run crashed (" + what + ")"},
            {"该运行在计划结束前因错误退出：" + exc +
                 "。其后的曲线与精度不代表训练结果；请先修复该错误（通常是数据或环境问题）再继续排查精度。",
             "The run stopped with an error before its planned end: " + exc +
                 ". Curves and accuracy after this point do not describe a finished training; fix "
                 "the error (usually data or environment) before looking at accuracy."},
            "");
        if (traceback) {
            Evidence e = eventEvidence(run, *traceback);
            e.detail = exc;
            f.evidence.push_back(std::move(e));
        }
        if (error && (!traceback || error->line != traceback->line))
            f.evidence.push_back(eventEvidence(run, *error));
        if (known)
            f.evidence.push_back(
                runEvidence(run, Text{"计划 " + std::to_string(static_cast<int>(*planned)) +
                                          " 个 epoch，完成了 " + std::to_string(*done) + " 个",
                                      "completed " + std::to_string(*done) + " of " +
                                          std::to_string(static_cast<int>(*planned)) + " planned epochs"}));
        out.findings.push_back(std::move(f));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
