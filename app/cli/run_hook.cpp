#include "app/cli/run_hook.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace qatdoctor::cli {

core::Result<int> runHook(const std::string& command,
                          const std::vector<std::pair<std::string, std::string>>& environment,
                          bool stdoutToStderr)
{
    std::vector<std::string> entries;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const bool replaced = std::any_of(environment.begin(), environment.end(),
                                          [&](const auto& kv) { return entry.starts_with(kv.first + "="); });
        if (!replaced) entries.push_back(entry);
    }
    for (const auto& [name, value] : environment) {
        // a value cannot hold NUL: the variable ends there
        entries.push_back(name + "=" + value.substr(0, value.find('\0')));
    }
    std::vector<char*> envp;
    envp.reserve(entries.size() + 1);
    for (std::string& e : entries) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string shell = "/bin/sh", dashC = "-c", text = command;
    char* argv[] = {shell.data(), dashC.data(), text.data(), nullptr};
    // with --json, stdout is the JSON stream: the hook's output goes to stderr instead
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdoutToStderr) posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    std::fflush(stdout);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return core::makeError("watch.exec",
                               "could not start /bin/sh: " + std::string(std::strerror(spawned)), command);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return core::makeError("watch.exec", std::strerror(errno), command);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace qatdoctor::cli
