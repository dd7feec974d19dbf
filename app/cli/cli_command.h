// A subcommand of qatdoctor-cli. Each lives in its own file and is listed in commands.cpp.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace qatdoctor::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;        // ran; nothing at or above --fail-on
inline constexpr int kExitFindings = 1;  // ran; findings at or above --fail-on
inline constexpr int kExitUsage = 2;     // usage or input error (message names the file)

struct CommandIo {
    std::ostream& out;
    std::ostream& err;
};

struct Command {
    const char* name;
    const char* summary;  // one line for --help
    const char* usage;    // full usage text for "<name> --help"
    std::function<int(const std::vector<std::string>& args, CommandIo io)> run;
};

const std::vector<Command>& commands();

// Dispatches argv (without the program name): --help, --version, or a subcommand.
int runCli(const std::vector<std::string>& args, CommandIo io);

}  // namespace qatdoctor::cli
