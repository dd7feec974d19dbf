// Whether a run has ended normally, and how we know: a live watch stops when every run it
// follows has (core/live_watch.h).
#pragma once

#include <optional>

#include "core/common/finding.h"
#include "core/logs/run.h"

namespace qatdoctor::core::rules {

struct RunEnd {
    Text why;        // "final line: `Trainer.fit` stopped: `max_epochs=3` reached."
    Evidence where;  // the line, or the run
};

// In order: the line a framework prints when training ends (RunEvent::Kind::Finished), the
// trainer's closing summary (HF's train_runtime), or an evaluation for every planned epoch.
std::optional<RunEnd> runEnd(const logs::Run& run);

// Whether the run logged points after `event` in its file: then it went on (HAT's END banner
// of one stage followed by the next stage; a traceback a DataLoader worker printed and survived).
bool pointsAfter(const logs::Run& run, const logs::RunEvent& event);

}  // namespace qatdoctor::core::rules
