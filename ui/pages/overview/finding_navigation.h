// Where a finding (or one piece of its evidence) leads: the curves page zoomed to the run and
// step, or the model page with the layer selected. Pure mapping, no widgets.
#pragma once

#include "core/common/finding.h"
#include "ui/common/navigation_target.h"

namespace qatdoctor::ui {

// evidence == nullptr: the finding's first evidence that names a layer or a run. Returns a
// target with an empty page when nothing can be shown.
NavigationTarget navigationFor(const core::Finding& finding, const core::Evidence* evidence = nullptr);

// The wizard opened at the finding's FAQ topic (empty page when the finding has none).
NavigationTarget wizardFor(const core::Finding& finding);

}  // namespace qatdoctor::ui
