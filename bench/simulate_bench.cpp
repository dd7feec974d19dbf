// Simulator speed on a real model next to ONNX Runtime on the same model and thread count.
//
//   simulate_bench MODEL.onnx [--input IN.bin] [--threads 1] [--runs 20] [--warmup 3]
//                  [--ort-dir /tmp] [--ort-script ort_time.js (bench_scripts.h)] [--modes fake,int]
//                  [--ort-cpu-script bench/ort_cpu_time.js] [--dataset-samples N]
//
// MODEL is e.g. resnet18_qat_qdq.onnx from the team's make_models.py; IN.bin a raw float32
// input of the model's shape (random when absent). Prints the median and minimum wall
// milliseconds of fake-quant and integer runs (model loading excluded), their median CPU time
// (user + sys of the process: on a shared, loaded machine the least disturbed figure), the load
// average, and, when node + onnxruntime-node are found in --ort-dir, ORT's median and minimum
// with all optimisations and with none, and the ratios (median to median, min to min); with
// bench/ort_cpu_time.js also ORT's CPU time per run and the CPU-time ratio, the figure least
// disturbed by other load. With --dataset-samples N: an integer-mode dataset evaluation of N
// samples (a .npy batch of the input, written to --ort-dir) on one thread and on --threads, in
// samples per second, and the scaling against the one-thread figure times the threads.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_scripts.h"
#include "bench/bench_timing.h"
#include "core/common/file_io.h"
#include "core/fixedpoint/dataset_eval.h"
#include "core/fixedpoint/interpreter.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/fixedpoint/thread_pool.h"
#include "core/model/onnx_file.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::fixedpoint;

namespace {

using qatdoctor::bench::median;

double cpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

std::string loadAverage()
{
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}

struct OrtTimes {
    double allMedian = -1, allMin = -1, offMedian = -1, offMin = -1;
};

// Runs ort_time.js and returns run_ms_median / run_ms_min per opt level ("all", "disabled"), or -1.
OrtTimes ortTimes(const std::string& dir, const std::string& script, const std::string& model,
                  const std::string& input, int threads, int runs)
{
    std::string cmd = "cd '" + dir + "' && node '" + script + "' '" + model + "' --threads " +
                      std::to_string(threads) + " --opt all,disabled --creates 1 --runs " +
                      std::to_string(runs);
    if (!input.empty()) cmd += " --input '" + input + "'";
    cmd += " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe) return {};
    std::string out;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
    auto field = [&](const std::string& opt, const std::string& key) {
        const auto at = out.find("\"opt\":\"" + opt + "\"");
        if (at == std::string::npos) return -1.0;
        const auto k = out.find("\"" + key + "\":", at);
        return k == std::string::npos ? -1.0 : std::stod(out.substr(k + key.size() + 3));
    };
    return {field("all", "run_ms_median"), field("all", "run_ms_min"), field("disabled", "run_ms_median"),
            field("disabled", "run_ms_min")};
}

// ort_cpu_time.js: CPU ms per run (median) for one opt level, or -1.
double ortCpuMs(const std::string& dir, const std::string& script, const std::string& model,
                const std::string& input, int threads, int runs, const std::string& opt)
{
    std::string cmd = "cd '" + dir + "' && node '" + script + "' '" + model + "' --threads " +
                      std::to_string(threads) + " --opt " + opt + " --runs " + std::to_string(runs);
    if (!input.empty()) cmd += " --input '" + input + "'";
    cmd += " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe) return -1;
    std::string out;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
    const auto k = out.find("\"cpu_ms_median\":");
    return k == std::string::npos ? -1.0 : std::stod(out.substr(k + 16));
}

// Samples per second of an integer-mode dataset evaluation: one thread, then `threads`.
int datasetBench(const Interpreter& interp, const Tensor& x, int samples, int threads, const std::string& dir)
{
    std::vector<int64_t> shape = x.shape();
    shape[0] *= samples;
    Tensor batch(DType::Float32, shape);
    for (int s = 0; s < samples; ++s)
        for (int64_t i = 0; i < x.size(); ++i)  // each sample a little different
            batch.data<float>()[s * x.size() + i] = x.data<float>()[i] * (1.0f + 0.001f * float(s));
    const std::string path = dir + "/qatdoctor_dataset_bench.npy";
    if (auto w = writeFileAtomic(path, writeNpy(batch)); !w) {
        std::cerr << w.error().toString() << "\n";
        return 2;
    }
    DatasetSpec spec;
    spec.paths = {path};
    auto data = DatasetSource::open(interp, spec);
    if (!data) {
        std::cerr << data.error().toString() << "\n";
        return 2;
    }
    DatasetEvalOptions warm;  // the first pass pays for page faults and cold caches: not counted
    warm.modes = {SimMode::Int};
    if (auto e = evaluateDataset(interp, *data, warm); !e) {
        std::cerr << e.error().toString() << "\n";
        return 1;
    }
    double perSecond[2] = {0, 0};
    const int counts[2] = {1, threads};
    for (int k = 0; k < (threads > 1 ? 2 : 1); ++k) {
        DatasetEvalOptions o;
        o.modes = {SimMode::Int};
        o.threads = counts[k];
        auto e = evaluateDataset(interp, *data, o);
        if (!e) {
            std::cerr << e.error().toString() << "\n";
            return 1;
        }
        perSecond[k] = double(e->samples) / e->seconds;
        std::cout << "dataset int mode, " << counts[k] << " thread(s): " << e->samples << " samples in "
                  << e->seconds << " s = " << perSecond[k] << " samples/s\n";
    }
    if (threads > 1)
        std::cout << "scaling: " << perSecond[1] / (perSecond[0] * threads)
                  << " of one thread's throughput x " << threads << " threads\n";
    std::cout << "load average " << loadAverage() << "\n";
    std::filesystem::remove(path);
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> a(argv + 1, argv + argc);
    if (a.empty()) {
        std::cerr
            << "usage: simulate_bench MODEL.onnx [--input IN.bin] [--threads N] [--runs N] [--warmup N] "
               "[--ort-dir DIR] [--ort-script FILE]\n";
        return 2;
    }
    std::string modelPath = a[0], input, ortDir = "/tmp",
                ortScript = qatdoctor::bench::benchScript("ort_time.js");
    std::string ortCpuScript = std::string(QATDOCTOR_SOURCE_DIR) + "/bench/ort_cpu_time.js";
    int threads = 1, runs = 20, warmup = 3, datasetSamples = 0;
    bool fake = true;
    for (size_t i = 1; i + 1 < a.size(); i += 2) {
        if (a[i] == "--input")
            input = a[i + 1];
        else if (a[i] == "--threads")
            threads = std::stoi(a[i + 1]);
        else if (a[i] == "--runs")
            runs = std::stoi(a[i + 1]);
        else if (a[i] == "--warmup")
            warmup = std::stoi(a[i + 1]);
        else if (a[i] == "--ort-dir")
            ortDir = a[i + 1];
        else if (a[i] == "--ort-script")
            ortScript = a[i + 1];
        else if (a[i] == "--ort-cpu-script")
            ortCpuScript = a[i + 1];
        else if (a[i] == "--dataset-samples")
            datasetSamples = std::stoi(a[i + 1]);
        else if (a[i] == "--modes")
            fake = a[i + 1].find("fake") != std::string::npos;
    }
    auto model = model::readOnnxFile(modelPath);
    if (!model) {
        std::cerr << model.error().toString() << "\n";
        return 2;
    }
    const auto b0 = std::chrono::steady_clock::now();
    auto interp = Interpreter::build(*model);
    if (!interp) {
        std::cerr << interp.error().toString() << "\n";
        return 2;
    }
    const double buildMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - b0).count();
    std::vector<int64_t> shape = (*interp)->inputShapes()[0];
    for (int64_t& d : shape) d = d < 0 ? 1 : d;
    Tensor x = randomTensor(DType::Float32, shape, 1);
    if (!input.empty()) {
        auto bytes = readFile(input);
        auto t = bytes ? parseRaw(*bytes, DType::Float32, shape, input) : Result<Tensor>(bytes.error());
        if (!t) {
            std::cerr << t.error().toString() << "\n";
            return 2;
        }
        x = *t;
    }
    if (datasetSamples > 0) return datasetBench(**interp, x, datasetSamples, threads, ortDir);
    ThreadPool pool(threads);
    RunOptions opt;
    opt.keepLayerOutputs = false;
    std::cout << "model " << modelPath << "  " << (*interp)->layers().size() << " layers, build " << buildMs
              << " ms, threads " << threads << "\n";
    std::cout << "load average " << loadAverage() << "\n";
    double simMs[2] = {0, 0}, simMin[2] = {0, 0}, simCpu[2] = {0, 0};
    const SimMode modes[2] = {SimMode::Fake, SimMode::Int};
    for (int m = fake ? 0 : 1; m < 2; ++m) {
        std::vector<double> t, cpu;
        for (int i = 0; i < warmup + runs; ++i) {
            const double c0 = cpuMs();
            const auto t0 = std::chrono::steady_clock::now();
            auto r = (*interp)->run(modes[m], {x}, opt, &pool);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            const double cms = cpuMs() - c0;
            if (!r) {
                std::cerr << r.error().toString() << "\n";
                return 1;
            }
            if (i >= warmup) {
                t.push_back(ms);
                cpu.push_back(cms);
            }
        }
        simMs[m] = median(t);
        simMin[m] = *std::min_element(t.begin(), t.end());
        simCpu[m] = median(cpu);
        std::cout << "qatdoctor " << simModeName(modes[m]) << ": median " << simMs[m] << " ms, min "
                  << simMin[m] << " ms, CPU (user+sys) median " << median(cpu) << " ms (" << runs
                  << " runs)\n";
    }
    if (!std::filesystem::exists(ortScript)) {
        std::cout << "onnxruntime: not run (no script at " << ortScript
                  << "; pass --ort-script ort_time.js or set QATDOCTOR_BENCH_SCRIPTS)\n";
        return 0;
    }
    const OrtTimes ort = ortTimes(ortDir, ortScript, modelPath, input, threads, runs);
    if (ort.allMedian < 0 && ort.offMedian < 0) {
        std::cout << "onnxruntime: not run (needs node and onnxruntime-node in " << ortDir << ")\n";
        return 0;
    }
    auto line = [&](const char* label, double med, double mn) {
        if (med <= 0) return;
        std::cout << label << med << " ms, min " << mn << " ms; int/ORT = " << simMs[1] / med << " (min "
                  << simMin[1] / mn << ")";
        if (fake) std::cout << ", fake/ORT = " << simMs[0] / med << " (min " << simMin[0] / mn << ")";
        std::cout << "\n";
    };
    line("onnxruntime all-optimisations: median ", ort.allMedian, ort.allMin);
    line("onnxruntime no-optimisations:  median ", ort.offMedian, ort.offMin);
    for (const char* opt : {"all", "disabled"}) {
        const double cpu = ortCpuMs(ortDir, ortCpuScript, modelPath, input, threads, runs, opt);
        if (cpu <= 0) continue;
        std::cout << "onnxruntime " << opt << ": CPU median " << cpu
                  << " ms; CPU int/ORT = " << simCpu[1] / cpu;
        if (fake) std::cout << ", CPU fake/ORT = " << simCpu[0] / cpu;
        std::cout << "\n";
    }
    std::cout << "load average " << loadAverage() << "\n";
    return 0;
}
