// The runs as the rules see them: a run holding another stage's series ("calibration/val/acc"
// printed by a QAT script, every stage of a one-file pipeline) is that stage's run too, under the
// same name (evidence points into the real run: the series keep their names), with that stage's
// settings; the run itself keeps the rest. So every rule, and the stage ladder, reads a stage's
// facts wherever they were logged.
#pragma once

#include <vector>

#include "core/logs/run.h"

namespace qatdoctor::core::rules {

std::vector<logs::Run> stageViews(const std::vector<logs::Run>& runs);

}  // namespace qatdoctor::core::rules
