#include "core/model/graph_layout.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "core/model/model_graph.h"
#include "core/model/onnx_quant.h"

namespace qatdoctor::core::model {
namespace {

constexpr double kRowHeight = 90.0;
constexpr double kNodeHeight = 40.0;
constexpr double kGap = 36.0;

bool folded(const ModelGraph& g, int id, const LayoutOptions& o)
{
    if (!o.foldQuantizers) return false;
    const GraphNode& n = g.node(id);
    if (isQuantizeOp(n) || isDequantizeOp(n) || n.op == "Constant" || n.op == "Identity" ||
        n.op == "ConstantOfShape")
        return true;
    if (n.op == "Clip" && !n.inputs.empty()) {  // the reduced-range Clip between Q and DQ
        const int p = g.producer(n.inputs[0]);
        return p >= 0 && isQuantizeOp(g.node(p));
    }
    return false;
}

std::string groupKey(const std::string& module, int depth)
{
    if (depth <= 0 || module.empty()) return {};
    size_t pos = 0;
    for (int i = 0; i < depth; ++i) {
        pos = module.find('.', pos);
        if (pos == std::string::npos) return module;
        if (i + 1 < depth) ++pos;
    }
    return module.substr(0, pos);
}

// The group of the k-th of `count` visible nodes in runs of `size`: "#1-#500" (1-based, as the
// Layers table counts).
std::string consecutiveKey(size_t k, int size, size_t count)
{
    const size_t first = k / static_cast<size_t>(size) * static_cast<size_t>(size);
    const size_t last = std::min(count, first + static_cast<size_t>(size));
    return "#" + std::to_string(first + 1) + "-#" + std::to_string(last);
}

// Boxes the drawing has when nodes are grouped by `depth` module-path parts (0: none): one per
// group, one per node outside any module. Stops counting past `limit`.
int boxesAtDepth(const std::vector<std::string>& modules, int depth, int limit)
{
    if (depth <= 0) return static_cast<int>(std::min<size_t>(modules.size(), static_cast<size_t>(limit) + 1));
    std::unordered_set<std::string> groups;
    int loose = 0;
    for (const std::string& m : modules) {
        std::string key = groupKey(m, depth);
        if (key.empty())
            ++loose;
        else
            groups.insert(std::move(key));
        if (loose + static_cast<int>(groups.size()) > limit) break;
    }
    return loose + static_cast<int>(groups.size());
}

// The finest grouping, starting from the one asked for, whose boxes (plus the graph's inputs and
// outputs, always drawn) fit options.maxVertices: none, then 3, 2 and 1 module-path parts, then
// runs of consecutive nodes.
LayoutGrouping chooseGrouping(const std::vector<std::string>& modules, const LayoutOptions& options,
                              int fixedVertices)
{
    LayoutGrouping out;
    out.visibleNodes = static_cast<int>(modules.size());
    const int room = std::max(1, options.maxVertices - fixedVertices);
    const int asked = std::max(0, options.collapseDepth);
    std::vector<int> depths{asked};
    for (int d : {3, 2, 1})
        if (asked == 0 ? true : d < asked) depths.push_back(d);
    for (int d : depths) {
        if (boxesAtDepth(modules, d, room) <= room) {
            out.depth = d;
            out.coarsened = d != asked;
            return out;
        }
    }
    out.consecutive =
        static_cast<int>((modules.size() + static_cast<size_t>(room) - 1) / static_cast<size_t>(room));
    out.coarsened = true;
    return out;
}

}  // namespace

Result<GraphLayout> layoutGraph(const LayerTable& table, const LayoutOptions& options,
                                const ProgressFn& progress)
{
    if (!table.graph)
        return makeError("model.no_graph", "no graph for " + table.sourcePath, table.sourcePath);
    const ModelGraph& g = *table.graph;
    const int n = static_cast<int>(g.nodes().size());
    GraphLayout out;

    std::unordered_map<std::string, const Layer*> layerByNode;
    for (const Layer& l : table.layers) layerByNode[l.source.node] = &l;

    // 1. Visible vertices: graph inputs, visible nodes (grouped), graph outputs.
    std::vector<int> vertexOfNode(static_cast<size_t>(n), -1);
    std::map<std::string, int> vertexOfGroup;
    auto addVertex = [&](LayoutNode v) {
        out.nodes.push_back(std::move(v));
        return static_cast<int>(out.nodes.size()) - 1;
    };
    std::unordered_map<int, int> vertexOfInput;
    for (int t : g.graphInputs()) {
        LayoutNode v;
        v.op = "input";
        v.name = g.tensor(t).name;
        v.label = "input: " + v.name;
        v.dtype = g.tensor(t).dtype;
        vertexOfInput[t] = addVertex(std::move(v));
    }
    // The visible nodes and their module paths, then the finest grouping that fits the limit.
    std::vector<int> visible;
    std::vector<std::string> modules;
    for (int i = 0; i < n; ++i) {
        if ((i & 2047) == 0 && !reportProgress(progress, 0.15 * i / std::max(1, n), "grouping nodes"))
            return makeError(kCancelledCode, "cancelled", table.sourcePath);
        if (folded(g, i, options)) {
            ++out.hiddenNodes;
            continue;
        }
        visible.push_back(i);
        modules.push_back(modulePathFromNodeName(g.node(i).name));
    }
    const int fixedVertices = static_cast<int>(g.graphInputs().size() + g.graphOutputs().size());
    out.grouping = chooseGrouping(modules, options, fixedVertices);
    const LayoutGrouping& grouping = out.grouping;
    for (size_t k = 0; k < visible.size(); ++k) {
        const int i = visible[k];
        if ((k & 2047) == 0 &&
            !reportProgress(progress, 0.15 + 0.15 * k / std::max<size_t>(1, visible.size()),
                            "grouping nodes"))
            return makeError(kCancelledCode, "cancelled", table.sourcePath);
        const GraphNode& nd = g.node(i);
        const std::string key = grouping.consecutive > 0
                                    ? consecutiveKey(k, grouping.consecutive, visible.size())
                                    : groupKey(modules[k], grouping.depth);
        const auto layerIt = layerByNode.find(nd.name);
        DType dtype =
            nd.outputs.empty() || nd.outputs[0] < 0 ? DType::Unknown : g.tensor(nd.outputs[0]).dtype;
        if (layerIt != layerByNode.end()) dtype = layerIt->second->outputDtype;
        if (!key.empty()) {
            auto [it, inserted] = vertexOfGroup.try_emplace(key, -1);
            if (inserted) {
                LayoutNode v;
                v.op = "group";
                v.name = key;
                v.memberCount = 0;
                v.dtype = dtype;
                it->second = addVertex(std::move(v));
            }
            LayoutNode& v = out.nodes[static_cast<size_t>(it->second)];
            ++v.memberCount;
            if (layerIt != layerByNode.end() && v.layer.empty()) {
                v.layer = layerIt->second->name;
                v.dtype = dtype;
            }
            vertexOfNode[static_cast<size_t>(i)] = it->second;
            continue;
        }
        LayoutNode v;
        v.op = nd.domain.empty() ? nd.op : nd.domain + "::" + nd.op;
        v.name = nd.name;
        v.layer = layerIt != layerByNode.end() ? layerIt->second->name : std::string();
        v.label = v.layer.empty() ? v.op : v.op + "  " + v.layer;
        v.dtype = dtype;
        vertexOfNode[static_cast<size_t>(i)] = addVertex(std::move(v));
    }
    for (auto& v : out.nodes)
        if (v.op == "group") v.label = v.name + "  (" + std::to_string(v.memberCount) + " nodes)";
    std::unordered_map<int, int> vertexOfOutput;
    for (int t : g.graphOutputs()) {
        LayoutNode v;
        v.op = "output";
        v.name = g.tensor(t).name;
        v.label = "output: " + v.name;
        v.dtype = g.tensor(t).dtype;
        vertexOfOutput[t] = addVertex(std::move(v));
    }

    // 2. Edges: walk back from each input through folded nodes to a visible source.
    std::map<std::pair<int, int>, DType> edgeSet;
    auto sourceOf = [&](int t, DType& carried) -> int {
        for (int hops = 0; hops < 64 && t >= 0; ++hops) {
            if (auto it = vertexOfInput.find(t); it != vertexOfInput.end()) return it->second;
            const int p = g.producer(t);
            if (p < 0) return -1;
            const int v = vertexOfNode[static_cast<size_t>(p)];
            if (v >= 0) return v;
            const GraphNode& nd = g.node(p);
            if (nd.op == "Constant" || nd.op == "ConstantOfShape" || nd.inputs.empty()) return -1;
            if (isQuantizeOp(nd) && carried == DType::Unknown && !nd.outputs.empty() && nd.outputs[0] >= 0)
                carried = g.tensor(nd.outputs[0]).dtype;
            t = nd.inputs[0];
        }
        return -1;
    };
    auto addEdge = [&](int from, int to, DType dtype) {
        if (from < 0 || to < 0 || from == to) return;
        edgeSet.emplace(std::make_pair(from, to), dtype);
    };
    for (int i = 0; i < n; ++i) {
        const int to = vertexOfNode[static_cast<size_t>(i)];
        if (to < 0) continue;
        for (int t : g.node(i).inputs) {
            if (t < 0 || g.isConst(t)) continue;
            DType carried = DType::Unknown;
            const int from = sourceOf(t, carried);
            addEdge(from, to, carried != DType::Unknown ? carried : g.tensor(t).dtype);
        }
    }
    for (const auto& [t, to] : vertexOfOutput) {
        DType carried = DType::Unknown;
        addEdge(sourceOf(t, carried), to, carried != DType::Unknown ? carried : g.tensor(t).dtype);
    }
    for (const auto& [key, dtype] : edgeSet) out.edges.push_back({key.first, key.second, dtype});
    if (!reportProgress(progress, 0.4, "layering"))
        return makeError(kCancelledCode, "cancelled", table.sourcePath);

    // 3. Longest-path ranks (Kahn order; edges closing a cycle after grouping are ignored).
    const int vn = static_cast<int>(out.nodes.size());
    std::vector<std::vector<int>> succ(static_cast<size_t>(vn)), pred(static_cast<size_t>(vn));
    std::vector<int> indeg(static_cast<size_t>(vn), 0);
    for (const LayoutEdge& e : out.edges) {
        succ[static_cast<size_t>(e.from)].push_back(e.to);
        pred[static_cast<size_t>(e.to)].push_back(e.from);
        ++indeg[static_cast<size_t>(e.to)];
    }
    std::vector<int> queue;
    for (int v = 0; v < vn; ++v)
        if (indeg[static_cast<size_t>(v)] == 0) queue.push_back(v);
    std::vector<bool> placed(static_cast<size_t>(vn), false);
    for (size_t qi = 0; qi < queue.size(); ++qi) {
        const int v = queue[qi];
        placed[static_cast<size_t>(v)] = true;
        for (int s : succ[static_cast<size_t>(v)]) {
            auto& rs = out.nodes[static_cast<size_t>(s)].rank;
            rs = std::max(rs, out.nodes[static_cast<size_t>(v)].rank + 1);
            if (--indeg[static_cast<size_t>(s)] == 0) queue.push_back(s);
        }
    }
    for (int v = 0; v < vn; ++v)  // vertices on a cycle: below their placed predecessors
        if (!placed[static_cast<size_t>(v)])
            for (int p : pred[static_cast<size_t>(v)])
                if (placed[static_cast<size_t>(p)])
                    out.nodes[static_cast<size_t>(v)].rank = std::max(
                        out.nodes[static_cast<size_t>(v)].rank, out.nodes[static_cast<size_t>(p)].rank + 1);
    int maxRank = 0;
    for (const auto& v : out.nodes) maxRank = std::max(maxRank, v.rank);
    std::vector<std::vector<int>> rows(static_cast<size_t>(maxRank) + 1);
    for (int v = 0; v < vn; ++v)
        rows[static_cast<size_t>(out.nodes[static_cast<size_t>(v)].rank)].push_back(v);

    // 4. Barycenter ordering, two sweeps down and one up.
    std::vector<double> pos(static_cast<size_t>(vn), 0.0);
    auto number = [&](const std::vector<int>& row) {
        for (size_t i = 0; i < row.size(); ++i) pos[static_cast<size_t>(row[i])] = static_cast<double>(i);
    };
    for (auto& row : rows) number(row);
    auto sweep = [&](bool down) {
        const int count = static_cast<int>(rows.size());
        for (int r = 0; r < count; ++r) {
            auto& row = rows[static_cast<size_t>(down ? r : count - 1 - r)];
            std::vector<std::pair<double, int>> keyed;
            for (int v : row) {
                const auto& nb = down ? pred[static_cast<size_t>(v)] : succ[static_cast<size_t>(v)];
                double sum = 0;
                for (int u : nb) sum += pos[static_cast<size_t>(u)];
                keyed.push_back(
                    {nb.empty() ? pos[static_cast<size_t>(v)] : sum / static_cast<double>(nb.size()), v});
            }
            std::stable_sort(keyed.begin(), keyed.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            for (size_t i = 0; i < keyed.size(); ++i) row[i] = keyed[i].second;
            number(row);
        }
    };
    sweep(true);
    sweep(false);
    sweep(true);
    if (!reportProgress(progress, 0.8, "placing nodes"))
        return makeError(kCancelledCode, "cancelled", table.sourcePath);

    // 5. Coordinates: rows centred on x = 0.
    double maxWidth = 0;
    for (auto& v : out.nodes) {
        v.w = std::clamp(24.0 + 7.0 * static_cast<double>(v.label.size()), 90.0, 300.0);
        v.h = kNodeHeight;
    }
    for (const auto& row : rows) {
        double width = 0;
        for (int v : row) width += out.nodes[static_cast<size_t>(v)].w + kGap;
        double x = -width / 2.0;
        for (int v : row) {
            LayoutNode& node = out.nodes[static_cast<size_t>(v)];
            node.x = x + node.w / 2.0;
            node.y = node.rank * kRowHeight;
            x += node.w + kGap;
        }
        maxWidth = std::max(maxWidth, width);
    }
    out.width = maxWidth;
    out.height = static_cast<double>(rows.size()) * kRowHeight;
    reportProgress(progress, 1.0, "graph laid out");
    return out;
}

}  // namespace qatdoctor::core::model
