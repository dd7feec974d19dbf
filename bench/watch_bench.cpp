// watch_bench: what `qatdoctor-cli watch` costs while a training writes its log, and how soon it
// says a NaN. It starts the real command as a child process and
//   1. grows a log at --rate MB/s for --seconds, then writes a NaN line: the latency from the
//      write to the finding on the child's stdout, and the child's CPU while the log grew (from
//      /proc/PID/stat), next to the anchor: this process reading the same bytes in one go;
//   2. a few quiet logs, a NaN line written into one: the latency, median and worst of --trials;
//   3. a folder of --idle-mb MB of finished logs: the child's CPU over --idle-seconds once its
//      first read is done.
// Usage: watch_bench [--cli PATH] [--rate MB/s] [--seconds S] [--trials N] [--idle-mb MB]
//                    [--idle-seconds S] [--dir TMP]
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_timing.h"
#include "core/logs/log_reader.h"

namespace fs = std::filesystem;
using qatdoctor::bench::Clock;
using qatdoctor::bench::median;
using qatdoctor::bench::ms;

namespace {

struct Options {
    std::string cli = QATDOCTOR_CLI_PATH;
    double rateMb = 1.0;
    double seconds = 20;
    int trials = 7;
    double idleMb = 1024;
    double idleSeconds = 10;
    fs::path dir = fs::temp_directory_path() / "qatdoctor_watch_bench";
};

// A HAT-style training line, about 110 bytes.
std::string line(uint64_t step, const char* loss)
{
    char buf[192];
    std::snprintf(
        buf, sizeof buf,
        "2026-12-03 10:%02d:%02d,%03d INFO [metric_updater.py:120] Epoch[%d] Step[%llu] GlobalStep[%llu] "
        "qat_train: loss[%s] acc[0.%04d] \n",
        static_cast<int>(step / 60 % 60), static_cast<int>(step % 60), static_cast<int>(step % 1000),
        static_cast<int>(step / 5000), static_cast<unsigned long long>(step % 5000),
        static_cast<unsigned long long>(step), loss, static_cast<int>(8000 + step % 1000));
    return buf;
}

std::string lossText(uint64_t step)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", 0.4 + 1.6 / (1.0 + static_cast<double>(step) / 2000.0));
    return buf;
}

// The watch as a child process, its stdout a pipe read line by line.
class Child {
public:
    Child(const std::string& cli, const std::vector<std::string>& args)
    {
        int fds[2];
        if (pipe(fds) != 0) std::abort();
        m_pid = fork();
        if (m_pid == 0) {
            dup2(fds[1], STDOUT_FILENO);
            const int null = open("/dev/null", O_WRONLY);
            dup2(null, STDERR_FILENO);
            close(fds[0]);
            std::vector<std::string> all = {cli, "watch"};
            all.insert(all.end(), args.begin(), args.end());
            std::vector<char*> argv;
            argv.reserve(all.size() + 1);
            for (std::string& a : all) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(cli.c_str(), argv.data());
            _exit(127);
        }
        close(fds[1]);
        m_out = fds[0];
    }
    ~Child()
    {
        if (m_pid > 0) {
            kill(m_pid, SIGTERM);
            waitpid(m_pid, nullptr, 0);
        }
        close(m_out);
    }
    // Waits for a stdout line holding `text`; false at the child's end or after a minute.
    bool waitFor(const std::string& text)
    {
        const auto deadline = Clock::now() + std::chrono::seconds(60);
        for (;;) {
            const size_t nl = m_buffer.find('\n');
            if (nl != std::string::npos) {
                const std::string l = m_buffer.substr(0, nl);
                m_buffer.erase(0, nl + 1);
                if (l.find(text) != std::string::npos) return true;
                continue;
            }
            pollfd p{m_out, POLLIN, 0};
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
            char chunk[4096];
            const ssize_t n = read(m_out, chunk, sizeof chunk);
            if (n <= 0) return false;
            m_buffer.append(chunk, static_cast<size_t>(n));
        }
    }
    // The child's CPU time so far (user + system), in seconds.
    double cpuSeconds() const
    {
        std::ifstream f("/proc/" + std::to_string(m_pid) + "/stat");
        std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        const size_t name = stat.rfind(')');
        if (name == std::string::npos || name + 2 > stat.size()) return 0;
        std::istringstream fields(stat.substr(name + 2));
        std::string field;
        unsigned long long utime = 0, stime = 0;
        for (int i = 3; i <= 15 && fields >> field; ++i) {
            if (i == 14) utime = std::stoull(field);
            if (i == 15) stime = std::stoull(field);
        }
        return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
    }

private:
    pid_t m_pid = -1;
    int m_out = -1;
    std::string m_buffer;
};

// Appends with write(2): once it returns, the bytes are in the file for any reader.
class Writer {
public:
    explicit Writer(const fs::path& p) : m_fd(open(p.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644)) {}
    ~Writer() { close(m_fd); }
    void write(const std::string& s)
    {
        if (::write(m_fd, s.data(), s.size()) != static_cast<ssize_t>(s.size())) std::abort();
    }

private:
    int m_fd;
};

void growing(const Options& o)
{
    const fs::path dir = o.dir / "growing";
    fs::remove_all(dir);
    fs::create_directories(dir / "qat");
    const fs::path log = dir / "qat" / "train.log";
    {
        Writer w(log);
        w.write("2026-12-03 10:00:00,000 INFO [train.py:30] ==== config ====\ntraining_step: qat\n");
    }
    Child child(o.cli, {dir.string(), "--json"});
    child.waitFor("\"start\"");
    Writer w(log);
    const double bytesPerSecond = o.rateMb * 1024 * 1024;
    uint64_t step = 0, written = 0;
    const auto start = Clock::now();
    const double cpu0 = child.cpuSeconds();
    while (ms(start, Clock::now()) < o.seconds * 1000) {
        // 10 ms slices at the rate, as a trainer's logger flushes line by line
        const double due = bytesPerSecond * ms(start, Clock::now()) / 1000.0;
        std::string slice;
        while (static_cast<double>(written + slice.size()) < due) {
            ++step;
            slice += line(step, lossText(step).c_str());
        }
        w.write(slice);
        written += slice.size();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const double elapsed = ms(start, Clock::now()) / 1000.0;
    const double cpu = child.cpuSeconds() - cpu0;
    const auto nanAt = Clock::now();
    w.write(line(step + 1, "nan"));
    const bool said = child.waitFor("loss.nonfinite");
    const double latency = ms(nanAt, Clock::now());
    // anchor: the same bytes read in one go by this process
    const double anchorStart = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    auto once = qatdoctor::core::logs::readLogFolder(dir.string());
    const double anchorCpu = static_cast<double>(std::clock()) / CLOCKS_PER_SEC - anchorStart;
    std::printf("growing log: %.2f MB/s for %.1f s (%.1f MB, %llu lines)\n", written / elapsed / 1048576.0,
                elapsed, written / 1048576.0, static_cast<unsigned long long>(step));
    std::printf("  watch CPU while it grew: %.2f s = %.2f %% of one core\n", cpu, 100.0 * cpu / elapsed);
    std::printf("  anchor, one read of the same %.1f MB: %.2f s CPU (%zu runs) -> watch / anchor = %.2f\n",
                written / 1048576.0, anchorCpu, once ? once->runs.size() : 0, cpu / anchorCpu);
    std::printf("  NaN line written -> finding printed: %s%.0f ms\n", said ? "" : "NOT SAID, ", latency);
}

void quiet(const Options& o)
{
    std::vector<double> latencies;
    for (int t = 0; t < o.trials; ++t) {
        const fs::path dir = o.dir / "quiet";
        fs::remove_all(dir);
        for (const char* run : {"float", "calibration", "qat"}) {
            fs::create_directories(dir / run);
            Writer w(dir / run / "train.log");
            std::string text;
            for (uint64_t s = 1; s <= 2000; ++s) text += line(s, lossText(s).c_str());
            w.write(text);
        }
        Child child(o.cli, {dir.string(), "--json"});
        child.waitFor("\"start\"");
        std::this_thread::sleep_for(std::chrono::milliseconds(300 + 137 * t));  // any phase of the poll
        Writer w(dir / "qat" / "train.log");
        const auto at = Clock::now();
        w.write(line(2001, "nan"));
        if (!child.waitFor("loss.nonfinite")) std::printf("  trial %d: NOT SAID\n", t);
        latencies.push_back(ms(at, Clock::now()));
    }
    std::printf("quiet logs, NaN written -> finding printed over %d trials: median %.0f ms, worst %.0f ms\n",
                o.trials, median(latencies), *std::max_element(latencies.begin(), latencies.end()));
}

void idle(const Options& o)
{
    const fs::path dir = o.dir / "idle";
    fs::remove_all(dir);
    const int files = 8;
    const double perFile = o.idleMb * 1048576.0 / files;
    uint64_t bytes = 0;
    for (int f = 0; f < files; ++f) {
        fs::create_directories(dir / ("run" + std::to_string(f)));
        Writer w(dir / ("run" + std::to_string(f)) / "train.log");
        std::string text;
        uint64_t step = 0;
        double done = 0;
        while (done < perFile) {
            text.clear();
            for (int i = 0; i < 10000; ++i) {
                ++step;
                text += line(step, lossText(step).c_str());
            }
            w.write(text);
            done += static_cast<double>(text.size());
        }
        bytes += static_cast<uint64_t>(done);
        w.write("Training time 1:02:03\n");
    }
    const auto start = Clock::now();
    Child child(o.cli, {dir.string(), "--json", "--settle", "100000"});
    child.waitFor("\"start\"");
    const double firstRead = ms(start, Clock::now()) / 1000.0;
    const double cpu0 = child.cpuSeconds();
    const auto quietFrom = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(o.idleSeconds));
    const double cpu = child.cpuSeconds() - cpu0;
    const double elapsed = ms(quietFrom, Clock::now()) / 1000.0;
    std::printf(
        "idle folder of %.0f MB in %d runs: first read %.1f s; then %.3f s CPU in %.1f s = %.3f %% of one "
        "core\n",
        bytes / 1048576.0, files, firstRead, cpu, elapsed, 100.0 * cpu / elapsed);
    fs::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv)
{
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--cli")
            o.cli = v;
        else if (a == "--rate")
            o.rateMb = std::stod(v);
        else if (a == "--seconds")
            o.seconds = std::stod(v);
        else if (a == "--trials")
            o.trials = std::stoi(v);
        else if (a == "--idle-mb")
            o.idleMb = std::stod(v);
        else if (a == "--idle-seconds")
            o.idleSeconds = std::stod(v);
        else if (a == "--dir")
            o.dir = v;
        else {
            std::fprintf(stderr, "watch_bench: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (!fs::exists(o.cli)) {
        std::fprintf(stderr, "watch_bench: no qatdoctor-cli at %s (--cli PATH)\n", o.cli.c_str());
        return 2;
    }
    std::printf("watch_bench: %s, inotify wakes; reads at least 0.2 s apart\n", o.cli.c_str());
    growing(o);
    quiet(o);
    if (o.idleMb > 0) idle(o);
    fs::remove_all(o.dir);
    return 0;
}
