// Comparison benchmark: the diff of two 5,000-layer models and of two 10,000-row per-layer
// comparison files (compareAnalyses: pairing, row matching, field and metric diffs, answers),
// next to reading the same two files (the anchor, measured in the same run; this machine is
// noisy, so the ratio is what counts). Goal: each diff <= 200 ms.
//
// usage: compare_bench [--runs N] [--dir DIR] [--layers N] [--rows N]
// Inputs are written by bench/make_compare_bench.py into DIR (default /tmp/qatdoctor_compare_bench)
// when missing. Median of N runs after one warm-up, milliseconds.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "core/compare/comparison.h"

using namespace qatdoctor::core;
using qatdoctor::bench::Clock;
using qatdoctor::bench::median;
using qatdoctor::bench::ms;
namespace fs = std::filesystem;

namespace {

Analysis load(const std::string& path)
{
    AnalyzeOptions options;
    options.paths = {path};
    Result<Analysis> a = analyze(options);
    if (!a) {
        std::fprintf(stderr, "compare_bench: %s\n", a.error().toString().c_str());
        std::exit(1);
    }
    return std::move(*a);
}

struct Figures {
    double read = 0, diff = 0;
    size_t rows = 0, changed = 0;
};

Figures measure(const std::string& a, const std::string& b, int runs)
{
    std::vector<double> read, diff;
    Figures f;
    for (int r = 0; r <= runs; ++r) {  // run 0 warms the page cache
        const auto t0 = Clock::now();
        const Analysis x = load(a), y = load(b);
        const auto t1 = Clock::now();
        const compare::Comparison c = compare::compareAnalyses(x, y);
        const auto t2 = Clock::now();
        if (r == 0) continue;
        read.push_back(ms(t0, t1));
        diff.push_back(ms(t1, t2));
        if (!c.models.empty()) {
            f.rows = c.models.front().rows.size();
            f.changed = c.models.front().changedRows();
        } else if (!c.tables.empty()) {
            f.rows = c.tables.front().rows.size();
            f.changed = c.tables.front().count(compare::Movement::Better) +
                        c.tables.front().count(compare::Movement::Worse);
        }
    }
    f.read = median(read);
    f.diff = median(diff);
    return f;
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 7, layers = 5000, rows = 10000;
    std::string dir = (fs::temp_directory_path() / "qatdoctor_compare_bench").string();
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--layers" && i + 1 < argc)
            layers = std::max(1, std::atoi(argv[++i]));
        else if (a == "--rows" && i + 1 < argc)
            rows = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: compare_bench [--runs N] [--dir DIR] [--layers N] [--rows N]\n");
            return 2;
        }
    }
    if (!fs::exists(dir + "/b/compare_per_layer_out.txt")) {
        const std::string gen = std::string(QATDOCTOR_SOURCE_DIR) + "/bench/make_compare_bench.py";
        std::printf("writing %s with %s\n", dir.c_str(), gen.c_str());
        const std::string cmd =
            "/usr/bin/python3 " + gen + " " + dir + " " + std::to_string(layers) + " " + std::to_string(rows);
        if (std::system(cmd.c_str()) != 0) {
            std::fprintf(stderr, "compare_bench: %s failed (python3-onnx installed?)\n", gen.c_str());
            return 1;
        }
    }
    const Figures model = measure(dir + "/a/model.onnx", dir + "/b/model.onnx", runs);
    std::printf("models: %zu layer rows, %zu changed configuration\n", model.rows, model.changed);
    std::printf("  read both (anchor)   %9.1f ms\n", model.read);
    std::printf("  diff                 %9.1f ms (goal <= 200; %.3f x reading)\n", model.diff,
                model.diff / model.read);
    const Figures table =
        measure(dir + "/a/compare_per_layer_out.txt", dir + "/b/compare_per_layer_out.txt", runs);
    std::printf("per-layer files: %zu rows, %zu moved\n", table.rows, table.changed);
    std::printf("  read both (anchor)   %9.1f ms\n", table.read);
    std::printf("  diff                 %9.1f ms (goal <= 200; %.3f x reading)\n", table.diff,
                table.diff / table.read);
    std::printf("median of %d runs\n", runs);
    return 0;
}
