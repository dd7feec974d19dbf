// Runs the CLI in-process for a test: exit code and both streams.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli_command.h"

namespace qatdoctor::cli::test_support {

struct CliRun {
    int code;
    std::string out, err;
};

inline CliRun cli(std::vector<std::string> args)
{
    std::ostringstream out, err;
    const int code = runCli(args, CommandIo{out, err});
    return {code, out.str(), err.str()};
}

}  // namespace qatdoctor::cli::test_support
