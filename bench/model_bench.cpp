// Model benchmark: ONNX load (read + protobuf parse), graph indexing, layer table and lints, on
// the models the team's make_models.py writes (bench/bench_scripts.h) (wide_graph.onnx ~5,000 nodes,
// big_weights.onnx ~120 MB, big_weights_ext.onnx with external data), next to Python's
// onnx.load on the same files.
//
// usage: model_bench [--runs N] [--no-python] MODEL.onnx...
// Median of N runs after one warm-up run (page cache warm), milliseconds. total_ms = load +
// analysis (parse, graph, table, lints); layout_ms = the graph view's layout, done separately.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/bench_timing.h"
#include "core/model/graph_layout.h"
#include "core/model/model_graph.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_file.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using namespace qatdoctor::core::model;
using qatdoctor::bench::Clock;
using qatdoctor::bench::median;
using qatdoctor::bench::ms;

namespace {

struct Times {
    std::vector<double> parse, graph, table, lints, total, layout;
};

bool runOnce(const std::string& path, Times& t, size_t& layers, size_t& nodes, size_t& findings)
{
    const auto t0 = Clock::now();
    auto model = readOnnxFile(path);
    if (!model) {
        std::fprintf(stderr, "%s\n", model.error().toString().c_str());
        return false;
    }
    if (auto ext = checkExternalData(*model); !ext) {
        std::fprintf(stderr, "%s\n", ext.error().toString().c_str());
        return false;
    }
    const auto t1 = Clock::now();
    auto graph = ModelGraph::build(*model);
    if (!graph) return false;
    const auto t2 = Clock::now();
    LayerTable table = buildLayerTable(*graph);
    const auto t3 = Clock::now();
    std::vector<Finding> out;
    std::set<std::string> evaluated;
    runModelLints(table, {}, out, evaluated);
    const auto t4 = Clock::now();
    auto drawn = layoutGraph(table, {0, true});  // the Model page's graph view (background)
    const auto t5 = Clock::now();
    if (drawn) t.layout.push_back(ms(t4, t5));
    t.parse.push_back(ms(t0, t1));
    t.graph.push_back(ms(t1, t2));
    t.table.push_back(ms(t2, t3));
    t.lints.push_back(ms(t3, t4));
    t.total.push_back(ms(t0, t4));
    layers = table.layers.size();
    nodes = (*graph)->nodes().size();
    findings = out.size();
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    bool python = true;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--no-python")
            python = false;
        else
            paths.push_back(a);
    }
    if (paths.empty()) {
        std::fprintf(stderr, "usage: model_bench [--runs N] [--no-python] MODEL.onnx...\n");
        return 2;
    }
    std::printf("%-24s %7s %6s %9s %9s %9s %9s %9s %12s %10s\n", "model", "nodes", "layers", "parse_ms",
                "graph_ms", "table_ms", "lints_ms", "total_ms", "py_load_ms", "layout_ms");
    for (const std::string& path : paths) {
        Times t;
        size_t layers = 0, nodes = 0, findings = 0;
        Times warm;
        if (!runOnce(path, warm, layers, nodes, findings)) return 1;
        for (int r = 0; r < runs; ++r) runOnce(path, t, layers, nodes, findings);
        std::string py = "-";
        if (python) {
            // Same measurement in Python: median of N onnx.load calls after a warm-up.
            const std::string cmd =
                "/usr/bin/python3 -c \"import onnx,time,statistics,sys;p=sys.argv[1];onnx.load(p);"
                "ts=[];\nfor _ in range(" +
                std::to_string(runs) +
                "):\n t=time.perf_counter();m=onnx.load(p);"
                "ts.append((time.perf_counter()-t)*1000);del m\nprint('%.1f'%statistics.median(ts))\" '" +
                path + "'";
            if (FILE* p = ::popen(cmd.c_str(), "r")) {
                char buf[64] = {0};
                if (std::fgets(buf, sizeof buf, p)) {
                    py = buf;
                    py.erase(py.find_last_not_of("\n\r ") + 1);
                }
                ::pclose(p);
            }
        }
        std::string name = path.substr(path.find_last_of('/') + 1);
        std::printf("%-24s %7zu %6zu %9.1f %9.1f %9.1f %9.1f %9.1f %12s %10.1f\n", name.c_str(), nodes,
                    layers, median(t.parse), median(t.graph), median(t.table), median(t.lints),
                    median(t.total), py.c_str(), median(t.layout));
        (void)findings;
    }
    return 0;
}
