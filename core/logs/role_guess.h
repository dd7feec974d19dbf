// Which stage a run is (float, calibration, QAT, quantized evaluation), guessed from the words
// in its folder path, its file names (logs and checkpoints such as float-checkpoint-last.pth.tar)
// and hints found inside its files (training_step, log prefixes, header lines). The UI and the
// CLI's --role let the user override the guess.
#pragma once

#include <string>
#include <vector>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

struct RoleGuess {
    RunRole role = RunRole::Unknown;
    std::string reason;
};

// folders: the run's folder path components, outermost first (the opened folder's own name
// included when the run is the opened folder). files: names of the files in the run's folder.
RoleGuess guessRole(const std::vector<std::string>& folders, const std::vector<std::string>& files,
                    const std::vector<RoleHint>& hints);

}  // namespace qatdoctor::core::logs
