// A float -> calibration -> QAT -> quantized pipeline built in code with the numbers of the real
// "healthy" fixture case (tests/data/runs/healthy, MANIFEST.json key values). Tests change one
// thing at a time to show one rule's symptom.
#pragma once

#include "tests/rules/run_builder.h"

namespace qatdoctor::core::testing {

struct Pipeline {
    logs::Run floatRun, calibRun, qatRun, quantizedRun;

    Analysis analysis() const { return analysisOf({floatRun, calibRun, qatRun, quantizedRun}); }
};

inline Pipeline healthyPipeline()
{
    using logs::RunRole;
    Pipeline p;
    p.floatRun = RunBuilder("float", RunRole::Float)
                     .meta("march", "nash-e")
                     .meta("batch_size", "32")
                     .meta("world_size", "1")
                     .meta("epochs", "6")
                     .meta("lr", "0.1")
                     .meta("lr_scheduler", "StepLR")
                     .series("float_train/loss",
                             {1.38, 1.1, 0.9, 0.6, 0.45, 0.35, 0.3, 0.25, 0.2, 0.18, 0.16, 0.15, 0.14, 0.13,
                              0.128, 0.125, 0.123, 0.1218},
                             7, 8, 3)
                     .series("float_train/acc",
                             {0.3, 0.5, 0.6, 0.7, 0.8, 0.85, 0.88, 0.9, 0.92, 0.93, 0.94, 0.95, 0.955, 0.96,
                              0.96, 0.962, 0.963, 0.965},
                             7, 8, 3)
                     .series("float_val/acc", {0.8267, 0.8608, 0.9038, 0.9116, 0.9119, 0.9121}, 23, 24, 1)
                     .series("lr", {0.1, 0.1, 0.1, 0.1, 0.01, 0.01}, 7, 24)
                     .build();
    p.calibRun = RunBuilder("calibration", RunRole::Calibration)
                     .meta("march", "nash-e")
                     .meta("batch_size", "32")
                     .meta("world_size", "1")
                     .meta("epochs", "1")
                     .series("calibration/loss", {0.13, 0.12, 0.125, 0.12}, 3, 4, 0)
                     .series("calib_val/acc", {0.9116}, 15, 1, 1)
                     .build();
    p.qatRun = RunBuilder("qat", RunRole::Qat)
                   .meta("march", "nash-e")
                   .meta("batch_size", "32")
                   .meta("world_size", "1")
                   .meta("epochs", "3")
                   .meta("lr", "0.001")
                   .meta("lr_scheduler", "StepLR")
                   .series("qat_train/loss",
                           {0.0991, 0.079, 0.1115, 0.0835, 0.0854, 0.0898, 0.1014, 0.1032, 0.0874, 0.08,
                            0.075, 0.07, 0.072, 0.068, 0.066, 0.0655},
                           7, 8, 8)
                   .series("qat_val/acc", {0.9084, 0.9094, 0.9126}, 63, 64, 1)
                   .series("lr", {0.001, 0.001, 0.001, 0.0001}, 7, 48)
                   .build();
    p.quantizedRun = RunBuilder("quantized", RunRole::Quantized)
                         .meta("march", "nash-e")
                         .meta("batch_size", "256")
                         .series("val/acc", {0.9126}, 0, 1, 1)
                         .build();
    return p;
}

}  // namespace qatdoctor::core::testing
