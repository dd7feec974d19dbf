// The vocabulary shared by every log format: which keys are step/epoch counters, which are
// hyper-parameters (run metadata), which words mark validation lines or a training stage, and
// how a logged key becomes a series name ("val_acc" -> "val/acc", "train/loss" -> "loss").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/logs/run.h"
#include "core/logs/stage_words.h"

namespace qatdoctor::core::logs {

// System: a number that describes the machine or the progress of the job, not the model
// (eta, time, data_time, memory, throughput, runtimes): never a series.
enum class KeyKind { Metric, GlobalStep, Step, Epoch, WallTime, System };

// How a key is used (case-insensitive): global_step/GlobalStep, step/iter/iteration,
// epoch, wall_time/timestamp, a system field; everything else is a metric.
KeyKind classifyKey(std::string_view key);

// A line whose counters and metric names are written in Chinese ("第 1/12 轮 迭代 20/62 损失: 0.6",
// "验证集 准确率：93.7%") rewritten with the words every parser knows ("epoch 1/12 iter 20/62 loss:
// 0.6", "val acc: 93.7%"); false (out untouched) when the line holds none of them.
bool rewriteChineseCounters(std::string_view line, std::string& out);

// Words that count the steps of an epoch only when written with their total ("calibration batch
// 4/16", "it 30/200"); alone ("batch: 32") they are something else.
bool countsWithTotal(std::string_view key);

// batch_size, lr, world_size, march, epochs, optimizer, ... (kept as Run::metadata when they
// appear outside metric lines).
bool isHyperParameter(std::string_view key);

// lr, base_lr, learning_rate, lr0...: an evaluation line repeats the training lr, which is no
// result of the evaluation.
bool isLearningRateKey(std::string_view key);

// A word that marks evaluation results: val, valid, validation, eval, test, *_val, val_*.
bool isValidationWord(std::string_view word);

// The series name for a logged key: path components "train" dropped, validation components
// ("val", "eval", "test", "val_acc" ...) moved to a "val/" prefix; validation=true (the line
// is an evaluation line) adds the prefix too.
std::string seriesName(std::string_view key, bool validation);

// The full series name of a logged key read in a stage's context: the stage the key itself names
// (stage_words.h: "int8_acc", "qat_train/loss", a TensorBoard tag "calib/acc") wins over the
// context's (a line's label or prefix, a stage marker, a record's field); the name is
// "<stage>/[<deploy step>/]<series name>". A key naming a stage that only evaluates (calibration,
// the quantized model, a deployment step) is an evaluation. keyStage (optional) is set when the
// key named the stage.
std::string stagedSeriesName(std::string_view key, bool validation, std::optional<RunRole> stage,
                             std::string_view deployStep, bool* keyStage = nullptr);

}  // namespace qatdoctor::core::logs
