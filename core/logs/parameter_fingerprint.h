// A line in which a training script reports a fingerprint of the model's weights: a norm, a
// sum or a checksum of the parameters ("parameters after training: norm 15.48 sha1 c9881e5e"),
// printed before and after a stage to show whether the weights moved. The text parser files
// such lines as RunEvent::Kind::Parameters; the not-learning rule compares the first and the
// last of a run: identical fingerprints mean the optimizer never changed the weights.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace qatdoctor::core::logs {

// The line's measured values, as written, joined by single spaces ("15.484920 c9881e5e08a0"),
// when the line names the parameters (param..., weight(s), model, state_dict), then a measure
// (norm, sum, checksum, hash, md5, sha1/sha256, also as a suffix such as param_norm) and at
// least one value after it (a number, or a hexadecimal digest of 6 or more digits). Words
// before the parameters (the timestamp, "[train.py:42]") are never part of it.
std::optional<std::string> parameterFingerprint(std::string_view line);

}  // namespace qatdoctor::core::logs
