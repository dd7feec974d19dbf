#include "core/logs/role_guess.h"

#include <map>

#include "core/logs/metric_names.h"

namespace qatdoctor::core::logs {

std::optional<RoleGuess> settleStages(Run& run, const std::vector<RoleHint>& hints)
{
    constexpr RunRole kStages[] = {RunRole::Float, RunRole::Calibration, RunRole::Qat, RunRole::Quantized};
    std::map<RunRole, size_t> points;
    for (const auto& [name, s] : run.series)
        for (RunRole r : kStages)
            if (name.starts_with(std::string(roleName(r)) + "/")) points[r] += s.size();
    if (points.empty()) return std::nullopt;
    RunRole own = points.begin()->first;
    for (const auto& [r, n] : points)
        if (n > points[own]) own = r;
    const std::string prefix = std::string(roleName(own)) + "/";
    std::map<std::string, Series> renamed;
    for (auto& [name, s] : run.series) {
        std::string n = name.starts_with(prefix) ? name.substr(prefix.size()) : name;
        auto it = renamed.find(n);
        if (it == renamed.end()) renamed.emplace(std::move(n), std::move(s));
        else it->second.append(s);  // the same metric logged before any stage marker and after
    }
    run.series = std::move(renamed);
    std::string reason = std::string("the log names its stage ") + roleName(own);
    for (const RoleHint& h : hints)
        if (h.role == own && h.reason.find("stage marker") != std::string::npos) {
            reason = h.reason;
            break;
        }
    return RoleGuess{own, reason};
}

RoleGuess guessRole(const std::vector<std::string>& folders, const std::vector<std::string>& files,
                    const std::vector<RoleHint>& hints, const std::optional<RoleGuess>& contentStage)
{
    if (contentStage) return *contentStage;
    // The innermost folder that names a stage is the best evidence: users and HAT name the
    // output folder after the training step.
    for (auto it = folders.rbegin(); it != folders.rend(); ++it)
        if (auto r = stageOfWord(*it)) return {*r, "folder name '" + *it + "'"};
    // Checkpoints before logs: HAT names them <stage>-checkpoint-*.pth.tar.
    for (int pass = 0; pass < 2; ++pass) {
        for (const std::string& f : files) {
            const bool ckpt = f.find("checkpoint") != std::string::npos || f.ends_with(".pth") ||
                              f.ends_with(".pth.tar") || f.ends_with(".ckpt") || f.ends_with(".pt");
            if (ckpt != (pass == 0)) continue;
            if (auto r = stageOfWord(f)) return {*r, (ckpt ? "checkpoint name '" : "file name '") + f + "'"};
        }
    }
    for (const RoleHint& h : hints)
        if (h.role != RunRole::Unknown) return {h.role, h.reason};
    return {RunRole::Unknown, "no stage word in the folder or file names or the log's header lines"};
}

}  // namespace qatdoctor::core::logs
