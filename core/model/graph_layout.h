// A layered drawing of a model graph for the Model page's graph view, computed off the GUI
// thread: visible nodes (quantize/dequantize/Constant/Identity folded into edges on request),
// nodes grouped by module-path prefix (so 5,000-node graphs stay readable), longest-path layers,
// barycenter ordering, and coordinates. Plain data: the view only paints it.
#pragma once

#include <string>
#include <vector>

#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/model/dtype.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::model {

// A drawing of more boxes than this is neither readable nor cheap (each is a scene item on the
// GUI thread: a million-node model took 14 GB and minutes): past it, nodes are grouped more
// coarsely until the drawing fits (see GraphLayout::grouping).
inline constexpr int kMaxLayoutVertices = 3000;

struct LayoutOptions {
    int collapseDepth = 0;       // 0 = every node; N = group nodes by the first N module-path parts
    bool foldQuantizers = true;  // hide Q/DQ/Clip-after-Q, Constant, Identity: edges carry their dtype
    int maxVertices = kMaxLayoutVertices;
};

struct LayoutNode {
    std::string label;             // op (and module) or "module.path (N nodes)" for a group
    std::string op;                // op type, "group", "input" or "output"
    std::string name;              // node name / group prefix / tensor name (search matches it)
    std::string layer;             // layer-table name of the layer this node is, or ""
    DType dtype = DType::Unknown;  // output dtype (layer's output quantizer when it has one)
    int memberCount = 1;
    int rank = 0;                       // layer index (top to bottom)
    double x = 0, y = 0, w = 0, h = 0;  // centre and size
};

struct LayoutEdge {
    int from = -1;
    int to = -1;
    DType dtype = DType::Unknown;  // the dtype the tensor carries (quantized dtype across Q/DQ)
};

// How the nodes were grouped: as asked, or more coarsely because the asked grouping had more
// than maxVertices boxes: by fewer module-path parts, and when even one part is too many, in
// runs of consecutive nodes (file order is topological order in ONNX).
struct LayoutGrouping {
    int depth = 0;           // module-path parts used; 0 = none
    int consecutive = 0;     // > 0: groups of this many consecutive nodes instead of modules
    bool coarsened = false;  // not what LayoutOptions asked for
    int visibleNodes = 0;    // nodes not folded away: what the boxes stand for
};

struct GraphLayout {
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    double width = 0, height = 0;
    int hiddenNodes = 0;  // folded away
    LayoutGrouping grouping;
};

// Errors: "model.no_graph", "cancelled".
Result<GraphLayout> layoutGraph(const LayerTable& table, const LayoutOptions& options,
                                const ProgressFn& progress = {});

}  // namespace qatdoctor::core::model
