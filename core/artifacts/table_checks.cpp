// Findings over the profiler's tables: per-layer comparison (similarity drop, truncation vs
// rounding as Horizon classifies them), statistics, deploy devices and sensitivity.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/artifacts/artifact_checks.h"
#include "core/artifacts/finding_builder.h"
#include "core/artifacts/text_lines.h"
#include "core/artifacts/toolchain_files.h"

namespace qatdoctor::core::artifacts {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int col(const DataTable& t, std::initializer_list<const char*> names)
{
    for (const char* n : names)
        if (int c = t.column(n); c >= 0) return c;
    return -1;
}

double num(const DataTable& t, size_t r, int c)
{
    if (c < 0) return kNaN;
    auto v = parseNumber(t.rows[r][static_cast<size_t>(c)]);
    return v ? *v : kNaN;
}

std::string layerName(const DataTable& t, size_t r)
{
    const int c = col(t, {"mod_name", "module name", "op_name", "op name", "name", "weight name"});
    std::string n = c >= 0 ? t.rows[r][static_cast<size_t>(c)] : "";
    if (n.empty()) {
        const int alt = col(t, {"analy_op_type", "module type", "index"});
        n = alt >= 0 ? t.rows[r][static_cast<size_t>(alt)] : "row " + std::to_string(r + 1);
    }
    return n;
}

void similarityDrop(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const int c = col(t, {"cosine", "similarity"});
    if (c < 0) return;
    std::vector<double> values;
    bool cosineLike = true;
    size_t numeric = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const double v = num(t, r, c);
        values.push_back(v);
        if (!std::isnan(v)) {
            ++numeric;
            if (v > 1.001 || v < -1.001) cosineLike = false;  // MSE / L1 / SQNR chosen as the metric
        }
    }
    if (numeric == 0 || !cosineLike) return;
    evaluated.push_back("consistency.similarity_drop");
    const int at = firstSimilarityDrop(values);
    if (at < 0) return;
    const size_t r = static_cast<size_t>(at);
    double before = 1.0;
    for (size_t k = 0; k < r; ++k)
        if (!std::isnan(values[k])) before = std::min(before, values[k]);
    const std::string name = layerName(t, r);
    const std::string detail =
        t.columns[static_cast<size_t>(c)] + " " + fullNumber(values[r]) +
        (r > 0 ? " after >= " + fullNumber(before) + " in the layers before" : " at the first layer");
    Finding f = makeFinding(
        "consistency.similarity_drop", Severity::Warning, Stage::Qat,
        {"逐层相似度在 " + name + " 处明显下降", "Per-layer similarity drops at " + name},
        {"在 " + t.sourcePath + " 中，" + name + " 是第一个相似度明显低于其前面各层的层（" + detail +
             "）。误差通常从这里开始累积：优先检查这一层的量化配置（dtype、scale "
             "是否覆盖数值范围、是否为查表算子），"
             "再看后续层。相似度只是辅助指标，请结合 min/max/mean 判断。",
         "In " + t.sourcePath + ", " + name +
             " is the first layer whose similarity falls clearly below the layers "
             "before it (" +
             detail +
             "). Error usually starts accumulating here: check this layer's quantization first "
             "(dtype, whether the scale covers the value range, look-up-table ops), then the layers after "
             "it. "
             "Similarity is auxiliary; read it together with min/max/mean."},
        "qat.quantized_mismatch");
    addEvidence(f, t.sourcePath, t.rowLines[r], name, detail, values[r], t.columns[static_cast<size_t>(c)]);
    out.push_back(std::move(f));
}

int64_t qmaxOf(const std::string& dtype)
{
    const std::string d = toLower(dtype);
    if (d.find("int16") != std::string::npos) return 32767;
    if (d.find("int8") != std::string::npos) return d.find("quint8") != std::string::npos ? 255 : 127;
    return 0;
}

void truncationRounding(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const int bmin = col(t, {"base_model_min"}), amin = col(t, {"analy_model_min"});
    const int bmax = col(t, {"base_model_max"}), amax = col(t, {"analy_model_max"});
    if (bmin < 0 || amin < 0 || bmax < 0 || amax < 0) return;
    const int cos = col(t, {"cosine"}), qdiff = col(t, {"max_qscale_diff"});
    const int qscale = col(t, {"qscale"}), dtype = col(t, {"quant_dtype"});
    evaluated.push_back("consistency.truncation");
    if (cos >= 0) evaluated.push_back("consistency.rounding");
    Finding trunc = makeFinding(
        "consistency.truncation", Severity::Warning, Stage::Qat,
        {"有层的输出范围被截断（scale 偏小）", "Layer outputs are clipped (scale too small)"},
        {"这些层被分析模型的 min/max 明显窄于基准模型，或 qscale × qmax "
         "覆盖不了基准的数值范围：属于截断误差。"
         "请放大这些层的 scale（例如设置 fixed scale、改用 int16，或检查校准数据是否覆盖真实分布）。",
         "For these layers the analysed model's min/max is clearly narrower than the baseline's, or qscale x "
         "qmax "
         "does not cover the baseline's range: a truncation (clamp) error. Enlarge these layers' scales (a "
         "fixed "
         "scale, int16, or calibration data that covers the real distribution)."},
        "qat.quantized_mismatch");
    Finding round = makeFinding(
        "consistency.rounding", Severity::Info, Stage::Qat,
        {"有层范围一致但误差较大（舍入误差）", "Layers agree in range but have large error (rounding error)"},
        {"这些层的数值范围与基准一致，但相似度低（Cosine < 0.95）且 max_qscale_diff 不大：属于舍入误差，"
         "说明该层量化精度不够。可以考虑对这些层使用 int16 或调整结构。",
         "These layers match the baseline's value range but have low similarity (Cosine < 0.95) and a small "
         "max_qscale_diff: a rounding error, i.e. the layer's quantization resolution is too coarse. "
         "Consider "
         "int16 for these layers or a different structure."},
        "qat.quantized_mismatch");
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const double b0 = num(t, r, bmin), b1 = num(t, r, bmax), a0 = num(t, r, amin), a1 = num(t, r, amax);
        if (std::isnan(b0) || std::isnan(b1) || std::isnan(a0) || std::isnan(a1)) continue;
        const double range = std::max(std::fabs(b0), std::fabs(b1));
        if (!(range > 0) || std::isinf(range)) continue;
        const double tol = 0.05 * range;
        bool clipped = (b1 > 0 && a1 < b1 - tol) || (b0 < 0 && a0 > b0 + tol);
        std::string why = "base [" + fullNumber(b0) + ", " + fullNumber(b1) + "] vs analysed [" +
                          fullNumber(a0) + ", " + fullNumber(a1) + "]";
        const double s = num(t, r, qscale);
        const int64_t qmax = dtype >= 0 ? qmaxOf(t.rows[r][static_cast<size_t>(dtype)]) : 0;
        if (!std::isnan(s) && s > 0 && qmax > 0 && s * static_cast<double>(qmax) < 0.9 * range) {
            clipped = true;
            why += "; qscale " + fullNumber(s) + " x " + std::to_string(qmax) + " = " +
                   fullNumber(s * static_cast<double>(qmax)) + " < " + fullNumber(range);
        }
        const std::string name = layerName(t, r);
        if (clipped) {
            addEvidence(trunc, t.sourcePath, t.rowLines[r], name, why);
            continue;
        }
        const double c = num(t, r, cos);
        const double d = num(t, r, qdiff);
        if (!std::isnan(c) && c < 0.95 && (std::isnan(d) || d <= 2.0))
            addEvidence(round, t.sourcePath, t.rowLines[r], name,
                        "Cosine " + fullNumber(c) +
                            (std::isnan(d) ? "" : ", max_qscale_diff " + fullNumber(d)) + "; " + why,
                        c, "Cosine");
    }
    if (!trunc.evidence.empty()) out.push_back(std::move(trunc));
    if (!round.evidence.empty()) out.push_back(std::move(round));
}

void nonfiniteStatistics(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    std::vector<int> cols;
    for (const char* n : {"min", "max", "mean", "var", "scale"})
        if (int c = t.column(n); c >= 0) cols.push_back(c);
    if (cols.empty()) return;
    evaluated.push_back("statistic.nonfinite");
    Finding f =
        makeFinding("statistic.nonfinite", Severity::Error, Stage::Qat,
                    {"逐层统计中出现 NaN/Inf", "NaN/Inf in the per-layer statistics"},
                    {"statistic.txt 中有层的 min/max/mean/var/scale 为 NaN 或 "
                     "Inf。第一个出现的层通常就是问题源头：检查输入数据是否含 NaN/Inf、"
                     "该层是否有除零 / log / exp 溢出，attention mask 等大数值是否需要 clamp。",
                     "statistic.txt has layers whose min/max/mean/var/scale is NaN or Inf. The first "
                     "such layer is usually the "
                     "source: check the input data for NaN/Inf, division by zero / log / exp overflow "
                     "in that layer, and whether "
                     "large values such as attention masks need a clamp."},
                    "qat.nan_loss");
    for (size_t r = 0; r < t.rows.size(); ++r)
        for (int c : cols) {
            const double v = num(t, r, c);
            if (std::isnan(v) && !toLower(t.rows[r][static_cast<size_t>(c)]).starts_with("nan")) continue;
            if (std::isfinite(v)) continue;
            addEvidence(f, t.sourcePath, t.rowLines[r], layerName(t, r),
                        t.columns[static_cast<size_t>(c)] + " = " + t.rows[r][static_cast<size_t>(c)], v,
                        t.columns[static_cast<size_t>(c)]);
            break;
        }
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

// QuantStub / DeQuantStub (and the dequantizers the fx tracer inserts) always run on the CPU:
// they are where the model enters and leaves the BPU, not ops that fell back.
bool isStubName(std::string name)
{
    name = toLower(name);
    const size_t dot = name.rfind('.');
    std::string last = dot == std::string::npos ? name : name.substr(dot + 1);
    while (!last.empty() && (std::isdigit(static_cast<unsigned char>(last.back())) || last.back() == '_'))
        last.pop_back();
    static const char* const kStubs[] = {"quant",      "dequant",      "quantstub", "dequantstub",
                                         "quant_stub", "dequant_stub", "quantize",  "dequantize"};
    for (const char* s : kStubs)
        if (last == s) return true;
    return last.ends_with("_input_dequant") || last.ends_with("_dequant");
}

void cpuFallback(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const int dev = col(t, {"deploy device"});
    if (dev < 0) return;
    evaluated.push_back("model.cpu_fallback");
    const int type = col(t, {"type"});
    Finding f = makeFinding(
        "model.cpu_fallback", Severity::Warning, Stage::Deployment,
        {"有算子将部署在 CPU 上", "Some ops will be deployed on the CPU"},
        {"deploy_device.txt 显示这些算子不在 BPU 上运行，而是回退到 CPU：速度变慢，且 BPU 与 CPU "
         "之间的量化/反量化可能带来精度差异。"
         "请检查这些算子是否支持 BPU、是否缺少 QuantStub，或是否属于可以移出模型的后处理。",
         "deploy_device.txt shows these ops run on the CPU instead of the BPU: slower, and the quantize / "
         "dequantize "
         "between BPU and CPU can change accuracy. Check whether the ops are supported on the BPU, whether a "
         "QuantStub is missing, or whether they are post-processing that can move out of the model."},
        "");
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (toLower(trim(t.rows[r][static_cast<size_t>(dev)])) == "cpu" && !isStubName(layerName(t, r)))
            addEvidence(
                f, t.sourcePath, t.rowLines[r], layerName(t, r),
                "CPU" + (type >= 0 ? " (" + t.rows[r][static_cast<size_t>(type)] + ")" : std::string()));
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

// hb_mapper's node table: a CPU node with BPU nodes before and after it cuts the BPU graph, and
// every cut is a round trip between the BPU and the CPU (dequantize, CPU op, quantize) at run time.
void mapperCpuSplit(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const int on = col(t, {"on"});
    if (on < 0) return;
    evaluated.push_back("mapper.cpu_split");
    const int type = col(t, {"type"}), sub = col(t, {"subgraph"});
    auto device = [&](size_t r) { return toLower(trim(t.rows[r][static_cast<size_t>(on)])); };
    size_t firstBpu = t.rows.size(), lastBpu = 0;
    std::vector<std::string> subgraphs;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        if (device(r) != "bpu") continue;
        firstBpu = std::min(firstBpu, r);
        lastBpu = r;
        const std::string id = sub >= 0 ? t.rows[r][static_cast<size_t>(sub)] : "";
        if (!id.empty() && std::find(subgraphs.begin(), subgraphs.end(), id) == subgraphs.end())
            subgraphs.push_back(id);
    }
    const std::string parts = std::to_string(std::max<size_t>(subgraphs.size(), 1));
    Finding f = makeFinding(
        "mapper.cpu_split", Severity::Warning, Stage::Deployment,
        {"CPU 算子把 BPU 子图切开了", "CPU nodes split the BPU graph"},
        {"hb_mapper 的节点表中，这些算子在 CPU 上运行，且前后都有 BPU 算子：模型被切成 " + parts +
             " 个 BPU 子图，每一处切分都要在 BPU 与 CPU 之间反量化、计算、再量化，既慢又可能损失精度。"
             "请确认这些算子能否换成 BPU 支持的写法，或移到模型之外（后处理）。",
         "In hb_mapper's node table these nodes run on the CPU with BPU nodes before and after them: the "
         "model is cut into " +
             parts +
             " BPU subgraphs, and every cut dequantizes, computes on the CPU and quantizes again, which is "
             "slow "
             "and can cost accuracy. Check whether they can be written in a BPU-supported form, or moved out "
             "of "
             "the model (post-processing)."},
        "qat.board_drop");
    for (size_t r = firstBpu + 1; r < lastBpu; ++r)
        if (device(r) == "cpu")
            addEvidence(
                f, t.sourcePath, t.rowLines[r], t.rows[r][0],
                "CPU" + (type >= 0 ? " (" + t.rows[r][static_cast<size_t>(type)] + ")" : std::string()));
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

// The PTQ debugger's node sensitivity: rows come sorted worst first by the first metric.
void nodeSensitivity(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    if (t.columns.size() < 2 || t.rows.empty()) return;
    evaluated.push_back("ptq.sensitive_nodes");
    const std::string& metric = t.columns[1];
    Finding f = makeFinding(
        "ptq.sensitive_nodes", Severity::Info, Stage::Deployment,
        {"量化最敏感的节点（PTQ 调试工具）", "The nodes most sensitive to quantization (PTQ debugger)"},
        {"get_sensitivity_of_nodes 按 " + metric +
             " 排序，最敏感的节点如下：可优先把它们设为 int16 或放到 CPU 上（node_info / "
             "run_on_cpu）再比较。",
         "get_sensitivity_of_nodes ranks the nodes by " + metric +
             "; the most sensitive are listed. Try int16 for them first, or keep them on the CPU (node_info "
             "/ "
             "run_on_cpu), and compare again."},
        "qat.board_drop");
    for (size_t r = 0; r < t.rows.size() && r < 5; ++r)
        addEvidence(f, t.sourcePath, t.rowLines[r], t.rows[r][0], metric + " " + t.rows[r][1], num(t, r, 1),
                    metric);
    out.push_back(std::move(f));
}

// qconfig_changelogs.txt: QconfigSetter's own record of the dtypes it lowered, the answer to
// "I configured int16 but the layer is int8".
void qconfigFallback(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const int from = col(t, {"from"}), to = col(t, {"to"}), field = col(t, {"field"}),
              reason = col(t, {"reason"});
    if (from < 0 || to < 0) return;
    evaluated.push_back("qconfig.int16_fallback");
    auto bits = [](const std::string& cell) {
        const auto d = model::parseDType(cell);
        return !d                                                        ? 0
               : *d == model::DType::Int16 || *d == model::DType::UInt16 ? 16
               : *d == model::DType::Int8 || *d == model::DType::UInt8   ? 8
                                                                         : 0;
    };
    Finding f = makeFinding(
        "qconfig.int16_fallback", Severity::Warning, Stage::Qat,
        {"QconfigSetter 把 int16 配置回退成了 int8", "QconfigSetter lowered int16 settings to int8"},
        {"qconfig_changelogs.txt 记录了这些模块的 int16 配置被回退为 int8（例如 Conv 与 Add 融合后 Conv "
         "不支持 "
         "int16 输入）。若需要 int16，请按原因调整模型结构或模板，再检查 qconfig_dtypes.pt.py。",
         "qconfig_changelogs.txt records that these modules' int16 settings were lowered to int8 (for "
         "example a "
         "Conv fused with an Add whose Conv takes no int16 input). If int16 is needed, change the model or "
         "the "
         "templates as the reason says, then check qconfig_dtypes.pt.py."},
        "qat.int16_not_applied");
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const auto& row = t.rows[r];
        if (bits(row[static_cast<size_t>(from)]) != 16 || bits(row[static_cast<size_t>(to)]) != 8) continue;
        std::string detail = (field >= 0 ? row[static_cast<size_t>(field)] + " " : std::string()) +
                             row[static_cast<size_t>(from)] + " -> " + row[static_cast<size_t>(to)];
        if (reason >= 0 && !row[static_cast<size_t>(reason)].empty())
            detail += ": " + row[static_cast<size_t>(reason)];
        addEvidence(f, t.sourcePath, t.rowLines[r], row[0], detail);
    }
    if (!f.evidence.empty()) out.push_back(std::move(f));
}

// weight_comparison.txt (compare_weights: two models' weights, similarity and max abs
// difference per weight). Every weight identical means the second model's weights never moved;
// a low similarity means they moved far from the first's.
constexpr double kWeightDriftSimilarity = 0.99;

void weightComparison(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    const int sim = col(t, {"similarity"});
    const int atol = col(t, {"atol"});
    if (sim < 0 || atol < 0 || t.rows.empty()) return;
    evaluated.push_back("weights.unchanged");
    evaluated.push_back("weights.drifted");
    bool allSame = true;
    Finding drift = makeFinding(
        "weights.drifted", Severity::Warning, Stage::Qat,
        {"有权重与对比模型相差很大", "Weights moved far from the model they are compared with"},
        {"weight_comparison.txt 中这些权重的相似度低于 " + fullNumber(kWeightDriftSimilarity) +
             "。若对比的是浮点模型与 QAT 模型，说明 QAT 把权重改动得很大：学习率可能过大，或训练发散。",
         "In weight_comparison.txt these weights have a similarity below " +
             fullNumber(kWeightDriftSimilarity) +
             ". If the comparison is float vs QAT, QAT changed the weights a lot: the learning rate may be "
             "too "
             "high, or training diverged."},
        "qat.accuracy_drops");
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const double s = num(t, r, sim), a = num(t, r, atol);
        allSame = allSame && a == 0.0;
        if (!std::isnan(s) && s < kWeightDriftSimilarity)
            addEvidence(drift, t.sourcePath, t.rowLines[r], layerName(t, r), "similarity " + fullNumber(s), s,
                        "similarity");
    }
    if (!drift.evidence.empty()) out.push_back(std::move(drift));
    if (!allSame) return;
    Finding same = makeFinding(
        "weights.unchanged", Severity::Warning, Stage::Qat,
        {"对比的两个模型权重完全相同", "The two models' weights are identical"},
        {"weight_comparison.txt 中每个权重的最大差值 (Atol) 都是 0。若对比的是 calibration 与 QAT 后的模型，"
         "说明 QAT 没有更新权重：检查学习率、优化器是否包含这些参数、参数是否被冻结。",
         "Every weight in weight_comparison.txt has a max difference (Atol) of 0. If the comparison is "
         "calibration vs after QAT, QAT did not update the weights: check the learning rate, whether the "
         "optimizer holds these parameters, and whether they are frozen."},
        "qat.weights_not_updating");
    addEvidence(same, t.sourcePath, t.rowLines.front(), layerName(t, 0),
                std::to_string(t.rows.size()) + " weights, all with Atol 0");
    out.push_back(std::move(same));
}

void sensitiveOps(const DataTable& t, std::vector<Finding>& out, std::vector<std::string>& evaluated)
{
    // The metric column is named after the chosen metric: the first numeric column after op_type.
    int metric = -1;
    const int opType = col(t, {"op_type"});
    for (size_t c = static_cast<size_t>(std::max(opType, 0)) + 1; c < t.columns.size() && metric < 0; ++c)
        if (!t.rows.empty() && parseNumber(t.rows.front()[c])) metric = static_cast<int>(c);
    if (metric < 0 || t.rows.empty()) return;
    evaluated.push_back("consistency.sensitive_ops");
    const int kind = col(t, {"sensitive_type"}), dtype = col(t, {"quant_dtype"});
    const std::string m = t.columns[static_cast<size_t>(metric)];
    const double lastValue = num(t, t.rows.size() - 1, metric);
    const bool tailNotZero = t.rows.size() > 3 && !std::isnan(lastValue) && std::fabs(lastValue) > 1e-6;
    Finding f = makeFinding(
        "consistency.sensitive_ops", Severity::Info, Stage::Qat,
        {"量化最敏感的算子", "The ops most sensitive to quantization"},
        {"按 " + m +
             " 排序最敏感的算子如下，可优先考虑对它们使用 int16（可将对应 .pt 载入 SensitivityTemplate）。" +
             (tailNotZero ? "表格末尾的敏感度不接近 0，可能有未移除的后处理（nms/argmax 等）。" : ""),
         "The ops most sensitive by " + m +
             " are listed; consider int16 for them first (the .pt twin loads into "
             "SensitivityTemplate)." +
             (tailNotZero ? " The last rows are not close to 0: post-processing (nms, argmax...) "
                            "may still be in the model."
                          : "")},
        "qat.accuracy_triage");
    for (size_t r = 0; r < t.rows.size() && r < 5; ++r)
        addEvidence(f, t.sourcePath, t.rowLines[r], layerName(t, r),
                    (kind >= 0 ? t.rows[r][static_cast<size_t>(kind)] + " " : "") + m + " " +
                        t.rows[r][static_cast<size_t>(metric)] +
                        (dtype >= 0 ? " " + t.rows[r][static_cast<size_t>(dtype)] : ""),
                    num(t, r, metric), m);
    out.push_back(std::move(f));
}

}  // namespace

int firstSimilarityDrop(const std::vector<double>& values)
{
    double prevMin = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        if (std::isnan(v)) continue;
        if (std::isinf(prevMin)) {
            if (v < 0.95) return static_cast<int>(i);
        } else if (v < prevMin - 0.01 || (v < 0.99 && v < prevMin - 0.002)) {
            return static_cast<int>(i);
        }
        prevMin = std::min(prevMin, v);
    }
    return -1;
}

void checkComparisonTable(const DataTable& table, std::vector<Finding>& out,
                          std::vector<std::string>& evaluated)
{
    similarityDrop(table, out, evaluated);
    if (table.kind == kTableComparePerLayer) truncationRounding(table, out, evaluated);
}

void checkProfilerTable(const DataTable& table, std::vector<Finding>& out,
                        std::vector<std::string>& evaluated)
{
    using Check = void (*)(const DataTable&, std::vector<Finding>&, std::vector<std::string>&);
    static const std::pair<std::string_view, Check> kChecks[] = {
        {kTableStatistic, nonfiniteStatistics},    {kTableDeployDevice, cpuFallback},
        {kTableSensitivity, sensitiveOps},         {kTableWeightComparison, weightComparison},
        {kTableMapperNodes, mapperCpuSplit},       {kTableNodeSensitivity, nodeSensitivity},
        {kTableQconfigChangelog, qconfigFallback},
    };
    for (const auto& [kind, check] : kChecks)
        if (table.kind == kind) check(table, out, evaluated);
}

}  // namespace qatdoctor::core::artifacts
