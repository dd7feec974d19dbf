// Log parsing benchmark: generates logs with the team's make_logs.py (bench_scripts.h; not committed),
// parses the text log, the CSV and the JSONL on a warm page cache with 2 threads, and prints
// MB/s, resident bytes per point and the ratio to `wc -l` on the same file.
//
// usage: log_bench [--lines N] [--dir DIR] [--script make_logs.py] [--threads T] [--only text|csv|jsonl]
//        log_bench --names        many distinct metric names (one per line): seconds per name as the
//                                 count grows 4x a step; a flat ratio is linear
#include <malloc.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "bench/bench_scripts.h"
#include "core/logs/log_reader.h"
#include "core/logs/mapped_file.h"

namespace fs = std::filesystem;
using namespace qatdoctor::core;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

// CPU seconds of this process (all threads): on a shared machine wall time measures the
// neighbours too; MB per CPU-second x cores is what the parser can do with the cores to itself.
double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Anonymous resident memory of this process (what the parsed columns really occupy).
uint64_t rssAnonBytes()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "RssAnon:") {
            uint64_t kb = 0;
            status >> kb;
            return kb * 1024;
        }
        status.ignore(1 << 10, '\n');
    }
    return 0;
}

double timeWc(const std::string& path)
{
    const auto t0 = Clock::now();
    const std::string cmd = "wc -l < '" + path + "' > /dev/null";
    if (std::system(cmd.c_str()) != 0) return -1;
    return seconds(t0, Clock::now());
}

void bench(const std::string& path, const char* formatId, unsigned threads)
{
    auto map = logs::MappedFile::open(path);
    if (!map) {
        std::cerr << map.error().toString() << "\n";
        return;
    }
    const std::string_view bytes = map->bytes();
    volatile unsigned sink = 0;
    for (size_t i = 0; i < bytes.size(); i += 4096)
        sink = sink + static_cast<unsigned char>(bytes[i]);  // warm
    double wc = 1e9;
    for (int i = 0; i < 3; ++i) wc = std::min(wc, timeWc(path));
    double best = 1e9, bestCpu = 1e9;
    uint64_t points = 0, resident = 0, marks = 0, epochMarks = 0, wallMarks = 0;
    double rssPerPoint = 0;
    for (int i = 0; i < 3; ++i) {
        malloc_trim(0);
        const uint64_t rss0 = rssAnonBytes();
        const double c0 = cpuSeconds();
        const auto t0 = Clock::now();
        auto parsed = logs::parseLogBytes(*logs::findLogFormat(formatId), bytes, path, {}, threads);
        const auto t1 = Clock::now();
        if (!parsed) {
            std::cerr << parsed.error().toString() << "\n";
            return;
        }
        best = std::min(best, seconds(t0, t1));
        bestCpu = std::min(bestCpu, cpuSeconds() - c0);
        points = 0;
        resident = 0;
        marks = epochMarks = wallMarks = 0;
        for (auto& s : parsed->series) {
            s.shrinkToFit();
            points += s.size();
            resident += s.bytes();
            marks += s.files.capacity() * sizeof(s.files[0]) + s.epochs.capacity() * sizeof(s.epochs[0]) +
                     s.wallTimes.capacity() * sizeof(s.wallTimes[0]);
            epochMarks += s.epochs.size();
            wallMarks += s.wallTimes.size();
        }
        if (i == 0 && points)
            rssPerPoint = static_cast<double>(rssAnonBytes() - rss0) / static_cast<double>(points);
    }
    // end to end through the reader (probe, map, parse, merge into a run, shrink)
    const auto e0 = Clock::now();
    auto set = logs::readLogFile(path, {}, logs::ReadOptions{threads, false});
    const double endToEnd = seconds(e0, Clock::now());
    const double mb = static_cast<double>(bytes.size()) / 1e6;
    std::printf(
        "%-8s %9.1f MB  parse %7.3f s  %7.0f MB/s  (reader end-to-end %7.0f MB/s)  %10llu points  %5.2f "
        "bytes/point"
        "  wc -l %6.3f s -> parse/wc %.2fx  | CPU %.3f s = %.0f MB per CPU-second\n",
        formatId, mb, best, mb / best, mb / endToEnd, static_cast<unsigned long long>(points),
        points ? static_cast<double>(resident) / static_cast<double>(points) : 0.0, wc, best / wc, bestCpu,
        mb / bestCpu);
    std::printf("         measured: RssAnon grows %.2f bytes per point while the result is held\n",
                rssPerPoint);
    std::printf("         run-length marks: %llu bytes (%llu epoch marks, %llu wall-time marks)\n",
                static_cast<unsigned long long>(marks), static_cast<unsigned long long>(epochMarks),
                static_cast<unsigned long long>(wallMarks));
    (void)set;
}

// A text log of `names` lines, each naming a metric of its own: what a script logging one
// value per parameter or per class writes. Nothing else in the file repeats, so the cost per
// name is the cost of the name lookups and of the series they create.
std::string manyNamesLog(int names)
{
    std::string text;
    text.reserve(static_cast<size_t>(names) * 48);
    char line[64];
    for (int i = 0; i < names; ++i) {
        const int n =
            std::snprintf(line, sizeof line, "Epoch[1] Step[%d] metric_%07d[%.4f]\n", i + 1, i, i * 0.001);
        text.append(line, static_cast<size_t>(n));
    }
    return text;
}

void benchManyNames(unsigned threads)
{
    const auto* text = logs::findLogFormat("text");
    double firstPerName = 0;
    for (int names = 10000; names <= 640000; names *= 4) {
        const std::string bytes = manyNamesLog(names);
        double best = 1e9;
        size_t series = 0;
        for (int i = 0; i < 3; ++i) {
            const auto t0 = Clock::now();
            auto parsed = logs::parseLogBytes(*text, bytes, "names.log", {}, threads);
            best = std::min(best, seconds(t0, Clock::now()));
            if (!parsed) {
                std::cerr << parsed.error().toString() << "\n";
                return;
            }
            series = parsed->series.size();
        }
        const double perName = best / names;
        if (firstPerName == 0) firstPerName = perName;
        std::printf(
            "names %7d  %8zu series  parse %7.3f s  %6.2f us per name  (x%.2f of the 10k per-name cost)\n",
            names, series, best, perName * 1e6, perName / firstPerName);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    std::string lines = "1000000", dir = (fs::temp_directory_path() / "qatdoctor_log_bench").string();
    std::string script = qatdoctor::bench::benchScript("make_logs.py");
    unsigned threads = 2;
    std::string only;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--names") {
            benchManyNames(threads);
            return 0;
        }
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--lines")
            lines = argv[i + 1];
        else if (a == "--dir")
            dir = argv[i + 1];
        else if (a == "--script")
            script = argv[i + 1];
        else if (a == "--threads")
            threads = static_cast<unsigned>(std::stoul(argv[i + 1]));
        else if (a == "--only")
            only = argv[i + 1];
    }
    if (!fs::exists(fs::path(dir) / "float" / "train.log")) {
        const std::string cmd = "/usr/bin/python3 '" + script + "' '" + dir + "' --lines " + lines;
        std::cout << "generating: " << cmd << "\n" << std::flush;
        if (!fs::exists(script)) {
            std::cerr << "log_bench: no generator at " << script
                      << " (pass --script make_logs.py or set QATDOCTOR_BENCH_SCRIPTS)\n";
            return 2;
        }
        if (std::system(cmd.c_str()) != 0) {
            std::cerr << "make_logs.py failed\n";
            return 2;
        }
    }
    std::cout << "threads: " << threads << "\n";
    if (only.empty() || only == "text")
        bench((fs::path(dir) / "float" / "train.log").string(), "text", threads);
    if (only.empty() || only == "csv")
        bench((fs::path(dir) / "float" / "metrics.csv").string(), "csv", threads);
    if (only.empty() || only == "jsonl")
        bench((fs::path(dir) / "qat" / "metrics.jsonl").string(), "jsonl", threads);
    return 0;
}
