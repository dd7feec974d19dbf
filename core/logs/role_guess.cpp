#include "core/logs/role_guess.h"

#include <map>

#include "core/logs/metric_names.h"

namespace qatdoctor::core::logs {

std::string stagePrefix(std::optional<RunRole> stage)
{
    return stage && *stage != RunRole::Unknown ? std::string(roleName(*stage)) + "/" : std::string();
}

std::string withoutPrefix(const std::string& name, const std::string& prefix)
{
    return !prefix.empty() && name.starts_with(prefix) ? name.substr(prefix.size()) : name;
}

void stripStagePrefix(ParsedLog& log, RunRole stage)
{
    const std::string prefix = stagePrefix(stage);
    for (std::string& name : log.names) name = withoutPrefix(name, prefix);
    log.invalidateNameIndex();
    // the run's own settings too (the other stages' keep their prefix)
    std::map<std::string, std::string> metadata;
    for (auto& [key, value] : log.metadata) metadata.emplace(withoutPrefix(key, prefix), std::move(value));
    log.metadata = std::move(metadata);
}

std::optional<RoleGuess> settleStages(const std::vector<ParsedLog*>& files,
                                      const std::vector<std::string>& names)
{
    std::optional<RoleGuess> own = ownStage({files.begin(), files.end()}, names);
    if (own)
        for (ParsedLog* f : files) stripStagePrefix(*f, own->role);
    return own;
}

std::optional<RoleGuess> ownStage(const std::vector<const ParsedLog*>& files,
                                  const std::vector<std::string>& names)
{
    constexpr RunRole kStages[] = {RunRole::Float, RunRole::Calibration, RunRole::Qat, RunRole::Quantized};
    std::map<RunRole, size_t> points;
    for (const ParsedLog* f : files)
        for (size_t i = 0; i < f->names.size(); ++i)
            for (RunRole r : kStages)
                if (f->names[i].starts_with(std::string(roleName(r)) + "/")) points[r] += f->series[i].size();
    if (points.empty()) return std::nullopt;
    RunRole own = points.begin()->first;
    for (const auto& [r, n] : points)
        if (n > points[own]) own = r;
    // the evidence: the log's own words for that stage (a banner, a --stage line, a log prefix)
    for (size_t i = 0; i < files.size(); ++i)
        for (const RoleHint& h : files[i]->roleHints)
            if (h.role == own)
                return RoleGuess{own, (i < names.size() ? names[i] + ": " : std::string()) + h.reason};
    return RoleGuess{own, std::string("the log's lines name the stage ") + roleName(own)};
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
