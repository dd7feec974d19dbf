#include "core/faq/check_ids.h"

#include <algorithm>
#include <array>

namespace qatdoctor::core::faq {
namespace {

constexpr std::array<std::string_view, 32> kCheckIds = {
    "env.no_gpu",
    "calib.low_accuracy",
    "calib.multi_gpu",
    "qat.worse_than_calibration",
    "qat.start_loss_high",
    "qat.trend_mismatch",
    "qat.quantized_gap",
    "qat.no_quantized_eval",
    "qat.not_learning",
    "loss.nonfinite",
    "loss.divergence",
    "run.crashed",
    "float.not_converged",
    "float.overfit",
    "train.batch_scaled_lr_unchanged",
    "train.aggressive_lr_schedule",
    "config.march",
    "input.colour_format",
    "model.output_low_precision",
    "model.shared_quant_params",
    "model.uncalibrated_scale",
    "model.aux_branch",
    "model.float_fallback",
    "model.int16_not_applied",
    "model.custom_gridsample",
    "consistency.similarity_drop",
    "consistency.truncation",
    "consistency.rounding",
    "simulation.first_bad_layer",
    "simulation.lut_error",
    "checkpoint.uncalibrated",
    "checkpoint.fake_quant_disabled",
};

}  // namespace

std::span<const std::string_view> knownCheckIds()
{
    return kCheckIds;
}

bool isKnownCheckId(std::string_view id)
{
    return std::find(kCheckIds.begin(), kCheckIds.end(), id) != kCheckIds.end();
}

}  // namespace qatdoctor::core::faq
