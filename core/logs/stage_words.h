// The one vocabulary of stage words: how logs, metric keys, TensorBoard tags, record fields,
// headers and file and folder names name a pipeline stage (float, calibration, QAT, the
// quantized model) or a deployment step beyond them (pre_export, board), in English and Chinese.
// Every reader and rule that asks "which stage does this name" asks here, so a word added to the
// table is understood everywhere at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::core::logs {

// Where a word is read. A word may be a stage in one place and not another: "converted" in a
// sentence names the converted model, "quant" is HAT's folder word but inside a metric key
// ("quant_loss") it is not a stage.
enum StageContext : uint8_t {
    kInText = 1,  // prose: headers, stage markers, the label before a line's metrics, record values
    kInKey = 2,   // a metric key, a TensorBoard tag, a log prefix ("calib_val:"), a CSV column
    kInPath = 4,  // a file or folder name (the weakest evidence)
};

// A stage named in a text: the four stages (role), or a deployment step beyond them (deployStep:
// "pre_export" or "board"; role Unknown then), and where the words are.
struct StageMention {
    RunRole role = RunRole::Unknown;
    std::string_view deployStep;
    size_t begin = 0, end = 0;  // byte range of the words in the text
};

// The first stage the text names in that context (words matched whole, case-insensitive,
// phrases before single words; Chinese terms by substring). In paths, a precision word next to
// a part of the model ("fp32_output", "float_fc") describes that part, not the run's stage.
std::optional<StageMention> firstStageMention(std::string_view text, uint8_t context);

// Every stage the text names, in order (the same matching as firstStageMention).
std::vector<StageMention> stageMentions(std::string_view text, uint8_t context);

// The stage of the four a text names (deployment steps are not one of them).
std::optional<RunRole> stageOfWord(std::string_view word, uint8_t context = kInText | kInKey | kInPath);
// The deployment step a word names ("pre_export_val" -> "pre_export", "hbm_eval" -> "board"), "".
std::string_view deployStepOfWord(std::string_view word, uint8_t context = kInText | kInKey | kInPath);

// A metric key with its stage words taken out: "int8_val_acc" -> quantized, "val_acc";
// "qat_train/loss" -> qat, "train/loss"; "hbm_acc" -> board, "acc". Empty stage when the key
// names none (or nothing but a stage: "qat" alone is no metric).
struct KeyStage {
    std::optional<RunRole> role;
    std::string_view deployStep;
    std::string rest;  // the key without the stage words
};
KeyStage splitKeyStage(std::string_view key);

// The stages whose results are always evaluations: nothing trains in calibration, the quantized
// model or a deployment step ("calib_acc" is the calibrated model's evaluation).
bool stageOnlyEvaluates(std::optional<RunRole> role, std::string_view deployStep);

// A field whose value names a stage: a record's {"event": "calibration"}, {"stage": "qat"}, a
// setting "training_step: qat" or HAT's "HAT_TRAINING_STEP=float", "phase=calibration".
bool isStageField(std::string_view key);

// How a stage word reads to people, for reasons ("quantized (int8)").
std::string stageWordsText(const StageMention& m, std::string_view text);

// Words of a text split at non-alphanumerics (ASCII), with their byte offsets.
struct WordSpan {
    std::string_view word;
    size_t begin = 0;
};
std::vector<WordSpan> wordsOf(std::string_view text);

}  // namespace qatdoctor::core::logs
