#include "core/model/fake_quantizers.h"

#include <array>
#include <cctype>
#include <cmath>
#include <string>

#include "core/model/qoperator_layout.h"

namespace qatdoctor::core::model {
namespace {

// The domains QONNX's ops have been written in: Brevitas <= 0.11, Brevitas >= 0.12 and qonnx
// itself, the QKeras converter and old FINN (qonnx reads all four as one).
constexpr std::array<std::string_view, 4> kQonnxDomains = {"onnx.brevitas", "qonnx.custom_op.general",
                                                           "finn.custom_op.general", "finn"};

enum class Grid { Int, Bipolar, Float, Trunc };

struct FakeQuantizerOp {
    std::string_view op;
    Grid grid;
};

constexpr std::array<FakeQuantizerOp, 5> kFakeQuantizers = {{
    {"Quant", Grid::Int},
    {"IntQuant", Grid::Int},
    {"BipolarQuant", Grid::Bipolar},
    {"FloatQuant", Grid::Float},
    {"Trunc", Grid::Trunc},
}};

// Quantizer ops read elsewhere (core/model/onnx_quant.h, the QOperator table, ONNX Runtime's
// dynamic quantization and its fused contrib ops), whatever their domain.
constexpr std::array<std::string_view, 9> kKnownQuantizerOps = {
    "QuantizeLinear",      "DequantizeLinear",      "DynamicQuantizeLinear",
    "DynamicQuantizeLSTM", "DynamicQuantizeMatMul", "MatMulIntegerToFloat",
    "HzQuantize",          "HzDequantize",          "QAttention"};

const FakeQuantizerOp* fakeQuantizerOp(const GraphNode& n)
{
    bool domain = false;
    for (std::string_view d : kQonnxDomains) domain = domain || n.domain == d;
    if (!domain) return nullptr;
    for (const FakeQuantizerOp& f : kFakeQuantizers)
        if (f.op == n.op) return &f;
    return nullptr;
}

int inputAt(const GraphNode& n, size_t i)
{
    return i < n.inputs.size() ? n.inputs[i] : -1;
}

std::optional<double> scalarInput(const ModelGraph& g, const GraphNode& n, size_t i)
{
    auto v = g.constValue(inputAt(n, i));
    if (!v || v->values.size() != 1) return std::nullopt;
    return v->values[0];
}

bool containsQuant(std::string_view text)
{
    std::string lower;
    for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return lower.find("quant") != std::string::npos;
}

// The narrowest integer type of the quantizer's signedness holding [lo, hi].
DType containerFor(int64_t lo, int64_t hi, bool isSigned)
{
    struct Span {
        int64_t lo, hi;
        DType type;
    };
    static constexpr std::array<Span, 6> kSpans = {{{-8, 7, DType::Int4},
                                                    {0, 15, DType::UInt4},
                                                    {-128, 127, DType::Int8},
                                                    {0, 255, DType::UInt8},
                                                    {-32768, 32767, DType::Int16},
                                                    {0, 65535, DType::UInt16}}};
    for (const Span& s : kSpans)
        if (lo >= s.lo && hi <= s.hi && (s.lo < 0) == isSigned) return s.type;
    return isSigned ? DType::Int32 : DType::UInt32;
}

// QONNX's integer range for a bit width: signed / unsigned, narrow drops the most negative level
// (signed) or the top level (unsigned).
void setIntegerGrid(QuantParams& q, int bits, bool isSigned, bool narrow)
{
    if (bits < 1 || bits > 32) return;
    const int64_t levels = int64_t{1} << bits;
    const int64_t lo = isSigned ? -(levels / 2) + (narrow ? 1 : 0) : 0;
    const int64_t hi = isSigned ? levels / 2 - 1 : levels - 1 - (narrow ? 1 : 0);
    q.dtype = containerFor(lo, hi, isSigned);
    q.bits = bits;
    const int full = bitWidth(q.dtype);
    const bool fullRange = bits == full && !narrow;
    if (!fullRange) {
        q.qmin = lo;
        q.qmax = hi;
    }
}

// Per-channel scales are shaped to broadcast ([C,1,1,1], [C,1], [1,N]): the axis is the one
// dimension that is not 1.
int broadcastAxis(const ModelGraph& g, int scaleTensor, size_t count)
{
    const auto dims = g.constDims(scaleTensor);
    for (size_t d = 0; d < dims.size(); ++d)
        if (dims[d] == static_cast<int64_t>(count)) return static_cast<int>(d);
    return 0;
}

// The grid alone (dtype, range, bit width): nothing but scalar parameters is decoded.
void readGrid(const ModelGraph& g, const GraphNode& n, const FakeQuantizerOp& op, QuantParams& q)
{
    switch (op.grid) {
        case Grid::Int:
        case Grid::Trunc: {
            // Quant: bit width at input 3; Trunc: the output bit width is the last input
            const size_t bitsAt = op.grid == Grid::Int ? 3 : n.inputs.size() - 1;
            const auto bits = scalarInput(g, n, bitsAt);
            const bool isSigned = ModelGraph::attrInt(n, "signed").value_or(1) != 0;
            const bool narrow = ModelGraph::attrInt(n, "narrow").value_or(0) != 0;
            if (bits) setIntegerGrid(q, static_cast<int>(std::lround(*bits)), isSigned, narrow);
            break;
        }
        case Grid::Bipolar:  // sign(x) * scale: two levels, -1 and +1
            q.dtype = DType::Int4;
            q.bits = 1;
            q.qmin = -1;
            q.qmax = 1;
            break;
        case Grid::Float: {
            const auto e = scalarInput(g, n, 2), m = scalarInput(g, n, 3);
            if (e && m) {
                q.bits = 1 + static_cast<int>(std::lround(*e)) + static_cast<int>(std::lround(*m));
                q.dtype = *e == 4 && *m == 3   ? DType::Float8E4M3FN
                          : *e == 5 && *m == 2 ? DType::Float8E5M2
                                               : DType::Unknown;
            }
            break;
        }
    }
}

}  // namespace

bool isFakeQuantizeOp(const GraphNode& n)
{
    return fakeQuantizerOp(n) != nullptr;
}

std::optional<QuantParams> readFakeQuantizer(const ModelGraph& g, const GraphNode& n)
{
    const FakeQuantizerOp* f = fakeQuantizerOp(n);
    if (!f) return std::nullopt;
    QuantParams q;
    q.observer = n.domain + "::" + n.op;
    // Trunc v2 (6 inputs) quantizes to its output scale at input 4; every other op's scale is input 1
    const size_t scaleAt = f->grid == Grid::Trunc && n.inputs.size() >= 6 ? 4 : 1;
    const int scaleT = inputAt(n, scaleAt);
    q.scaleSource = g.constRoot(scaleT);
    if (auto s = g.constValue(scaleT)) q.scales.assign(s->values.begin(), s->values.end());
    if (q.scales.size() > 1) q.axis = broadcastAxis(g, scaleT, q.scales.size());
    if (f->grid == Grid::Int || f->grid == Grid::Trunc)
        if (auto z = g.constValue(inputAt(n, 2)))
            for (double v : z->values) q.zeroPoints.push_back(static_cast<int64_t>(std::llround(v)));
    readGrid(g, n, *f, q);
    return q;
}

DType fakeQuantizerDtype(const ModelGraph& g, const GraphNode& n)
{
    const FakeQuantizerOp* f = fakeQuantizerOp(n);
    if (!f) return DType::Unknown;
    QuantParams q;
    readGrid(g, n, *f, q);
    return q.dtype;
}

bool isUnknownQuantizerOp(const GraphNode& n)
{
    if (isFakeQuantizeOp(n) || qoperatorLayout(n.op, n.domain)) return false;
    for (std::string_view op : kKnownQuantizerOps)
        if (n.op == op) return false;
    return containsQuant(n.op) || containsQuant(n.domain);
}

}  // namespace qatdoctor::core::model
