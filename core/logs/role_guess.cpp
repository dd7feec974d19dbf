#include "core/logs/role_guess.h"

#include <map>

#include "core/logs/stage_words.h"

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
    // Points per stage the log's content names, and points it names no stage for. A stage is the
    // run's own only when it holds more points than the unnamed ones: a QAT log whose training
    // lines name nothing and that prints one "calib_val:" line is no calibration run.
    std::map<RunRole, size_t> points;
    size_t unnamed = 0, unnamedTraining = 0;
    for (const ParsedLog* f : files)
        for (size_t i = 0; i < f->names.size(); ++i) {
            bool named = false;
            for (RunRole r : kStages)
                if (f->names[i].starts_with(std::string(roleName(r)) + "/")) {
                    points[r] += f->series[i].size();
                    named = true;
                }
            if (named) continue;
            unnamed += f->series[i].size();
            if (!f->names[i].starts_with("val/") && !f->names[i].starts_with("test/"))
                unnamedTraining += f->series[i].size();
        }
    if (points.empty()) return std::nullopt;
    RunRole own = points.begin()->first;
    for (const auto& [r, n] : points)
        if (n > points[own]) own = r;
    // a stage that only evaluates (calibration, the quantized model) is no run's own while the
    // run trains under no stage's name: the training is another stage's
    const bool evaluates = own == RunRole::Calibration || own == RunRole::Quantized;
    if (points[own] < unnamed || (evaluates && unnamedTraining > 0)) {
        // The lines name no stage for the training but evaluate one trainable stage again and
        // again (torchvision's "Evaluate QAT model" every epoch, beside "Evaluate Quantized
        // model"): the model being trained is that one. A single evaluation (a float baseline a
        // QAT script prints once) says nothing about what trains.
        std::optional<RunRole> trained;
        size_t trainable = 0;
        for (RunRole r : {RunRole::Float, RunRole::Qat}) {
            if (!points.count(r)) continue;
            ++trainable;
            for (const ParsedLog* f : files)
                for (size_t i = 0; i < f->names.size(); ++i)
                    if (f->names[i].starts_with(stagePrefix(r)) && f->series[i].size() >= 2) trained = r;
        }
        if (!trained || trainable != 1) return std::nullopt;
        own = *trained;
        for (size_t i = 0; i < files.size(); ++i)
            for (const auto& [name, why] : files[i]->stageReasons)
                if (name.starts_with(stagePrefix(own)))
                    return RoleGuess{
                        own, "repeated evaluations of the " + std::string(roleName(own)) +
                                 " model: " + (i < names.size() ? names[i] + ": " : std::string()) + why};
        return RoleGuess{own, "repeated evaluations of the " + std::string(roleName(own)) + " model"};
    }
    // the evidence: the log's own words for that stage (a marker, a label, a key)
    for (size_t i = 0; i < files.size(); ++i)
        for (const RoleHint& h : files[i]->roleHints)
            if (h.role == own)
                return RoleGuess{own, (i < names.size() ? names[i] + ": " : std::string()) + h.reason};
    const std::string prefix = stagePrefix(own);
    for (size_t i = 0; i < files.size(); ++i)
        for (const auto& [name, why] : files[i]->stageReasons)
            if (name.starts_with(prefix))
                return RoleGuess{own, (i < names.size() ? names[i] + ": " : std::string()) + why};
    return RoleGuess{own, std::string("the log's lines name the stage ") + roleName(own)};
}

RoleGuess guessRole(const std::vector<std::string>& folders, const std::vector<std::string>& files,
                    const std::vector<RoleHint>& hints, const std::optional<RoleGuess>& contentStage)
{
    // In order of trust: what the log's lines say (its series' stages, then its stage markers
    // before any metric), then the names of its files, then its folders (the weakest: a folder
    // named after an experiment, "B_fc_weight_only_fp32_output", may hold a QAT run).
    if (contentStage) return *contentStage;
    for (const RoleHint& h : hints)
        if (h.role != RunRole::Unknown) return {h.role, h.reason};
    // Checkpoints before logs: HAT names them <stage>-checkpoint-*.pth.tar.
    for (int pass = 0; pass < 2; ++pass) {
        for (const std::string& f : files) {
            const bool ckpt = f.find("checkpoint") != std::string::npos || f.ends_with(".pth") ||
                              f.ends_with(".pth.tar") || f.ends_with(".ckpt") || f.ends_with(".pt");
            if (ckpt != (pass == 0)) continue;
            if (auto r = stageOfWord(f, kInPath))
                return {*r, (ckpt ? "checkpoint name '" : "file name '") + f + "'"};
        }
    }
    // The innermost folder that names a stage: users and HAT name the output folder after the
    // training step.
    for (auto it = folders.rbegin(); it != folders.rend(); ++it)
        if (auto r = stageOfWord(*it, kInPath)) return {*r, "folder name '" + *it + "'"};
    return {RunRole::Unknown, "no stage word in the log's lines or its file or folder names"};
}

namespace {

// A run trains when it logs a training loss over several points (not only an evaluation).
bool trains(const Run& run)
{
    constexpr size_t kMinTrainingPoints = 3;
    for (const auto& [name, series] : run.series)
        if (name.find('/') == std::string::npos && name.find("loss") != std::string::npos &&
            series.value.size() >= kMinTrainingPoints)
            return true;
    return false;
}

}  // namespace

void settleFloatByElimination(std::vector<Run>& runs)
{
    Run* unnamed = nullptr;
    bool later = false;
    for (Run& r : runs) {
        if (r.role == RunRole::Float) return;
        later = later || r.role == RunRole::Calibration || r.role == RunRole::Qat;
        if (r.role != RunRole::Unknown || !trains(r)) continue;
        if (unnamed) return;
        unnamed = &r;
    }
    if (!unnamed || !later) return;
    unnamed->role = RunRole::Float;
    unnamed->roleReason =
        "by elimination: the only training run that names no stage, beside runs named "
        "calibration or QAT (a pipeline starts from float)";
}

}  // namespace qatdoctor::core::logs
