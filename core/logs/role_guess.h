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

// The files of a run whose logs name their stages (a marker, a line's label such as
// "calib_val:", a key such as "int8_acc", a record's "stage" field) have series "<stage>/<name>".
// The stage with the most points is the run's own when it holds as many points as the series
// that name no stage, or more: its series lose the prefix (before the files' copies of a metric are
// merged), the others keep it ("calibration/val/acc" in a QAT run: the calibration result the
// QAT script printed). Returns that stage, with the log's words for it.
// names: the files' names, parallel to files, for the reason ("train.log: stage marker ...").
std::optional<RoleGuess> settleStages(const std::vector<ParsedLog*>& files,
                                      const std::vector<std::string>& names = {});
// The stage settleStages settles on, the files left as they are: a live tailer keeps every
// prefix in what it accumulates and strips the own stage's while it builds the run, because the
// stage with the most points may change as a one-file pipeline goes on (float first, QAT later).
std::optional<RoleGuess> ownStage(const std::vector<const ParsedLog*>& files,
                                  const std::vector<std::string>& names = {});

// Drops "<stage>/" from the log's series names (a live update of a run whose stage is known).
void stripStagePrefix(ParsedLog& log, RunRole stage);
// "<stage>/" of a stage ("" for none), and a name without it: what a series or setting of the
// run's own stage is called in the run.
std::string stagePrefix(std::optional<RunRole> stage);
std::string withoutPrefix(const std::string& name, const std::string& prefix);

// folders: the run's folder path components, outermost first (the opened folder's own name
// included when the run is the opened folder). files: names of the files in the run's folder.
// contentStage: what settleStages found in the log itself, the surest evidence; then the hints
// (stage markers before the first metric line), file names, folder names.
RoleGuess guessRole(const std::vector<std::string>& folders, const std::vector<std::string>& files,
                    const std::vector<RoleHint>& hints,
                    const std::optional<RoleGuess>& contentStage = std::nullopt);

// The last tier of the trust order: a pipeline starts from a float model, so when the runs name
// later stages (calibration, QAT) but none is float, the one run that trains and names no stage at
// all is the float run, its reason saying so. Two unnamed training runs stay unknown: nothing
// says which of them is float.
void settleFloatByElimination(std::vector<Run>& runs);

}  // namespace qatdoctor::core::logs
