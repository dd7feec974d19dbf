// Checkpoint benchmark: opening a ~500 MB torch.save checkpoint and building its quantizer table
// (lazy tensors: the pickle and the quantizers' buffers only), and the diff of two such files
// (every weight read and compared), next to Python's torch.load(weights_only=True) of the same
// files measured in the same run (the anchor; this machine is noisy, so ratios are what count).
//
// usage: checkpoint_bench [--runs N] [--dir DIR] [--layers N] [--no-python]
// Inputs are written by bench/make_checkpoint_bench.py into DIR (default /tmp/qatdoctor_ckpt_bench)
// when missing. Median of N runs after one warm-up (page cache warm), milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_layers.h"

using namespace qatdoctor::core;
using qatdoctor::bench::Clock;
using qatdoctor::bench::median;
using qatdoctor::bench::ms;
namespace fs = std::filesystem;

namespace {

// torch.load(weights_only=True) of each file, in one Python process, median of runs (ms); or -1.
double pythonLoadMs(const std::vector<std::string>& files, int runs)
{
    std::string list;
    for (const std::string& f : files) list += "'" + f + "',";
    const std::string out = (fs::temp_directory_path() / "qatdoctor_ckpt_bench_py.txt").string();
    const std::string cmd =
        "/usr/bin/python3 -c \"import time, statistics, torch\n"
        "files=[" +
        list +
        "]\n"
        "[torch.load(f, weights_only=True) for f in files]\n"
        "t=[]\n"
        "for _ in range(" +
        std::to_string(runs) +
        "):\n"
        "  s=time.perf_counter(); [torch.load(f, weights_only=True) for f in files]; "
        "t.append(time.perf_counter()-s)\n"
        "print(statistics.median(t)*1000)\" > " +
        out + " 2>/dev/null";
    if (std::system(cmd.c_str()) != 0) return -1;
    std::FILE* f = std::fopen(out.c_str(), "r");
    double v = -1;
    if (f) {
        if (std::fscanf(f, "%lf", &v) != 1) v = -1;
        std::fclose(f);
    }
    return v;
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 5, layers = 100;
    bool python = true;
    std::string dir = (fs::temp_directory_path() / "qatdoctor_ckpt_bench").string();
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--layers" && i + 1 < argc)
            layers = std::max(1, std::atoi(argv[++i]));
        else if (a == "--no-python")
            python = false;
        else {
            std::fprintf(stderr,
                         "usage: checkpoint_bench [--runs N] [--dir DIR] [--layers N] [--no-python]\n");
            return 2;
        }
    }
    const std::string a = dir + "/bench_calib.pt", b = dir + "/bench_qat.pt";
    if (!fs::exists(a) || !fs::exists(b)) {
        const std::string gen = std::string(QATDOCTOR_SOURCE_DIR) + "/bench/make_checkpoint_bench.py";
        std::printf("writing %s and %s with %s\n", a.c_str(), b.c_str(), gen.c_str());
        const std::string cmd = "/usr/bin/python3 " + gen + " " + dir + " " + std::to_string(layers);
        if (std::system(cmd.c_str()) != 0) {
            std::fprintf(stderr, "checkpoint_bench: %s failed (python3-torch installed?)\n", gen.c_str());
            return 1;
        }
    }
    std::vector<double> open, diff;
    size_t rows = 0, changed = 0;
    for (int r = 0; r <= runs; ++r) {  // run 0 warms the page cache
        const auto t0 = Clock::now();
        Result<checkpoint::CheckpointRead> ca = checkpoint::readCheckpointLayers(a);
        const auto t1 = Clock::now();
        Result<checkpoint::CheckpointRead> cb = checkpoint::readCheckpointLayers(b);
        if (!ca || !cb) {
            std::fprintf(stderr, "%s\n", (!ca ? ca.error() : cb.error()).toString().c_str());
            return 1;
        }
        const auto t2 = Clock::now();
        Result<checkpoint::CheckpointDiff> d = checkpoint::diffCheckpoints(ca->file, cb->file);
        const auto t3 = Clock::now();
        if (!d) {
            std::fprintf(stderr, "%s\n", d.error().toString().c_str());
            return 1;
        }
        if (r == 0) continue;
        open.push_back(ms(t0, t1));
        diff.push_back(ms(t2, t3));
        rows = ca->table.layers.size();
        changed = d->count(checkpoint::TensorRole::Weight, checkpoint::ChangeKind::Changed);
    }
    const double mb = static_cast<double>(fs::file_size(a)) / 1e6;
    std::printf("checkpoint %s: %.0f MB, %zu layer rows\n", a.c_str(), mb, rows);
    std::printf("open + layer table      %9.1f ms (median of %d)\n", median(open), runs);
    std::printf("diff of two (%zu weights changed) %9.1f ms\n", changed, median(diff));
    if (python) {
        const double one = pythonLoadMs({a}, runs);
        const double two = pythonLoadMs({a, b}, runs);
        if (one > 0 && two > 0) {
            std::printf("anchor: torch.load(weights_only=True) one file %9.1f ms, both %9.1f ms\n", one, two);
            std::printf("ratio open / torch.load        %.3f  (goal <= 0.5)\n", median(open) / one);
            std::printf("ratio diff / torch.load of both %.3f\n", median(diff) / two);
        } else {
            std::printf("anchor: python3-torch not available\n");
        }
    }
    return 0;
}
