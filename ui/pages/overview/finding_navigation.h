// Where a finding (or one piece of its evidence) leads: the curves page zoomed to the run and
// step, the model page with the layer selected, or the source view at a log's line (a warning,
// a traceback). Pure mapping, no widgets.
#pragma once

#include "core/analysis.h"
#include "core/common/finding.h"
#include "ui/common/navigation_target.h"

namespace qatdoctor::ui {

// evidence == nullptr: the finding's first evidence that names a layer or a run, else one with a
// file and line. Returns a target with an empty page when nothing can be shown.
NavigationTarget navigationFor(const core::Finding& finding, const core::Evidence* evidence = nullptr);

// A layer target whose file is one of the analysis's checkpoints goes to the Checkpoints page
// (the Model page shows the primary model only). Other targets are returned as they are.
NavigationTarget routedTo(NavigationTarget target, const core::Analysis* analysis);

// The source view at the evidence's file and line.
NavigationTarget sourceFor(const core::Evidence& evidence);

// The wizard opened at the finding's FAQ topic (empty page when the finding has none).
NavigationTarget wizardFor(const core::Finding& finding);

}  // namespace qatdoctor::ui
