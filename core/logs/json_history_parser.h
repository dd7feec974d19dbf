// Training histories written as one JSON document rather than one object per line: Hugging
// Face Trainer's trainer_state.json ({"log_history": [{"step": 10, "loss": ..}, ..], ..}) and
// skorch's history.json ([{"epoch": 1, "train_loss": .., "valid_acc": ..}, ..]). The document is
// read once it is complete (a half-written one waits for the next read). Each entry is a point
// row: HF at its "step", skorch at its "epoch"; the document's top-level scalars and HF's closing
// summary entry (train_runtime, train_loss over the whole run) are metadata.
#pragma once

#include <string>
#include <string_view>

#include "core/logs/parsed_log.h"

namespace qatdoctor::core::logs {

int probeJsonHistory(std::string_view name, std::string_view head);
bool parseJsonHistory(std::string_view bytes, const std::string& path, ParseState& state,
                      const LoadOptions& options, std::vector<ParsedLog>& parts);

}  // namespace qatdoctor::core::logs
