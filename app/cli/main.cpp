#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli_command.h"

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    return qatdoctor::cli::runCli(args, {std::cout, std::cerr});
}
