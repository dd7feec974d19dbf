// Runs a command the user gave on the command line (watch --exec) with extra environment
// variables. The command line is the user's own, run by /bin/sh -c; what came from files (a
// finding's title, a run name) travels only in the environment, never into the command text, so
// no file can make the shell run anything.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/common/result.h"

namespace qatdoctor::cli {

// Waits for the command; its exit status, or an error when it could not be started.
// stdoutToStderr: the command's output goes to stderr (the caller's stdout is a data stream).
core::Result<int> runHook(const std::string& command,
                          const std::vector<std::pair<std::string, std::string>>& environment,
                          bool stdoutToStderr = false);

}  // namespace qatdoctor::cli
