#include <algorithm>
#include <ostream>
#include <string>

#include "app/cli/cli_command.h"
#include "app/cli/terminal_safe.h"
#include "core/common/version.h"

namespace qatdoctor::cli {

// Each subcommand file defines one of these. Adding a subcommand = one declaration + one row.
Command analyzeCommand();
Command logsCommand();
Command modelCommand();
Command faqCommand();
Command simulateCommand();
Command checkpointCommand();
Command diffCommand();
Command mergeSimCommand();
Command watchCommand();

const std::vector<Command>& commands()
{
    static const std::vector<Command> kCommands = {
        analyzeCommand(),    logsCommand(), modelCommand(),    faqCommand(),   simulateCommand(),
        checkpointCommand(), diffCommand(), mergeSimCommand(), watchCommand(),
    };
    return kCommands;
}

namespace {

void printHelp(std::ostream& out)
{
    out << "qatdoctor-cli " << core::kVersion
        << " - diagnose quantization-aware training (float -> calibration -> QAT -> export)\n\n"
           "Usage: qatdoctor-cli <command> [options]\n"
           "       qatdoctor-cli --version | --help\n\nCommands:\n";
    // the summaries start in one column, two spaces after the longest name
    size_t width = 0;
    for (const Command& c : commands()) width = std::max(width, std::string(c.name).size() + 2);
    for (const Command& c : commands()) {
        std::string name = c.name;
        name.resize(width, ' ');
        out << "  " << name << c.summary << "\n";
    }
    out << "\n'qatdoctor-cli <command> --help' shows a command's options.\n"
           "Exit codes: 0 = ran, nothing at or above --fail-on; 1 = findings at or above it;\n"
           "            2 = usage or input error (the message names the file).\n";
}

}  // namespace

int runCli(const std::vector<std::string>& args, CommandIo rawIo)
{
    // names from the user's files reach both streams: never as raw terminal control sequences
    TerminalSafeStream out(rawIo.out), err(rawIo.err);
    CommandIo io{out, err};
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printHelp(args.empty() ? io.err : io.out);
        return args.empty() ? kExitUsage : kExitOk;
    }
    if (args[0] == "--version" || args[0] == "-V") {
        io.out << "qatdoctor-cli " << core::kVersion << "\n";
        return kExitOk;
    }
    for (const Command& c : commands()) {
        if (args[0] != c.name) continue;
        std::vector<std::string> rest(args.begin() + 1, args.end());
        for (const std::string& a : rest) {
            if (a == "--help" || a == "-h") {
                io.out << c.usage;
                return kExitOk;
            }
        }
        return c.run(rest, io);
    }
    io.err << "qatdoctor-cli: unknown command '" << args[0] << "' (see --help)\n";
    return kExitUsage;
}

}  // namespace qatdoctor::cli
