// Which stage a run is (float, calibration, QAT, quantized evaluation), guessed from the words
// in its folder path, its file names (logs and checkpoints such as float-checkpoint-last.pth.tar)
// and hints found inside its files (training_step, log prefixes, header lines). The UI and the
// CLI's --role let the user override the guess.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

struct RoleGuess {
    RunRole role = RunRole::Unknown;
    std::string reason;
};

// A run whose log names its stages (ParseState::stage) has series "<stage>/<name>". The stage
// with the most points is the run's own: its series lose the prefix, the others keep it
// ("calibration/val/acc" in a QAT run: the calibration result the QAT script printed). Returns
// that stage, with the reason, when the log named any.
std::optional<RoleGuess> settleStages(Run& run, const std::vector<RoleHint>& hints);

// folders: the run's folder path components, outermost first (the opened folder's own name
// included when the run is the opened folder). files: names of the files in the run's folder.
// contentStage: what settleStages found in the log itself, the surest evidence.
RoleGuess guessRole(const std::vector<std::string>& folders, const std::vector<std::string>& files,
                    const std::vector<RoleHint>& hints, const std::optional<RoleGuess>& contentStage = std::nullopt);

}  // namespace qatdoctor::core::logs
