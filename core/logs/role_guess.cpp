#include "core/logs/role_guess.h"

#include "core/logs/metric_names.h"

namespace qatdoctor::core::logs {

RoleGuess guessRole(const std::vector<std::string>& folders, const std::vector<std::string>& files,
                    const std::vector<RoleHint>& hints)
{
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
