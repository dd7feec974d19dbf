#include "core/analysis_json.h"

#include <array>
#include <charconv>
#include <cmath>

#include "core/common/finding_json.h"
#include "core/common/version.h"
#include "core/fixedpoint/dataset_eval_json.h"
#include "core/rules/verdict.h"

namespace qatdoctor::core {
namespace {

using nlohmann::json;

// JSON has no NaN/Inf: finite numbers stay numbers, others become the strings Python prints.
json number(double v)
{
    return jsonNumber(v);
}

json seriesSummary(const logs::Series& s)
{
    json j;
    j["points"] = s.size();
    if (s.empty()) return j;
    j["first"] = number(s.value.front());
    j["last"] = number(s.value.back());
    double lo = INFINITY, hi = -INFINITY;
    json firstNonFinite = nullptr;
    for (size_t i = 0; i < s.size(); ++i) {
        const double v = s.value[i];
        if (!std::isfinite(v)) {
            if (firstNonFinite.is_null()) firstNonFinite = jsonCount(s.step[i]);
            continue;
        }
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    j["min"] = std::isfinite(lo) ? json(lo) : json(nullptr);
    j["max"] = std::isfinite(hi) ? json(hi) : json(nullptr);
    j["first_nonfinite_step"] = firstNonFinite;
    j["first_step"] = jsonCount(s.step.front());
    j["last_step"] = jsonCount(s.step.back());
    return j;
}

json quantToJson(const model::QuantParams& q)
{
    json j;
    j["dtype"] = model::dtypeName(q.dtype);
    j["axis"] = q.axis;
    if (q.scales.size() == 1) {
        j["scale"] = number(q.scales.front());
    } else if (!q.scales.empty()) {
        float lo = q.scales.front(), hi = q.scales.front();
        for (float s : q.scales) {
            lo = std::min(lo, s);
            hi = std::max(hi, s);
        }
        j["scale_min"] = number(lo);
        j["scale_max"] = number(hi);
        j["channels"] = q.scales.size();
    }
    // every value, for a program: per-channel scales and zero points one by one
    j["scales"] = json::array();
    for (float s : q.scales) j["scales"].push_back(number(s));
    j["zero_points"] = q.zeroPoints;
    if (!q.realZeroPoints.empty()) {
        j["zero_points"] = json::array();
        for (double z : q.realZeroPoints) j["zero_points"].push_back(number(z));
    }
    if (q.zeroPoints.size() == 1) j["zero_point"] = q.zeroPoints.front();
    if (q.qmin) j["qmin"] = *q.qmin;
    if (q.qmax) j["qmax"] = *q.qmax;
    if (const int bits = model::quantBits(q); bits > 0) j["bits"] = bits;
    if (!q.observer.empty()) j["observer"] = q.observer;
    if (q.averagingConstant) j["averaging_constant"] = number(*q.averagingConstant);
    if (q.fakeQuantEnabled) j["fake_quant_enabled"] = *q.fakeQuantEnabled;
    if (q.observerEnabled) j["observer_enabled"] = *q.observerEnabled;
    if (q.minVal) j["min_val"] = number(*q.minVal);
    if (q.maxVal) j["max_val"] = number(*q.maxVal);
    return j;
}

}  // namespace

json logSetToJson(const logs::LogSet& set)
{
    json runs = json::array();
    for (const logs::Run& r : set.runs) {
        json jr;
        jr["name"] = r.name;
        jr["role"] = logs::roleName(r.role);
        jr["role_reason"] = r.roleReason;
        jr["files"] = json::array();
        for (const logs::RunFile& f : r.files) {
            json jf = {{"path", f.path}, {"format", f.format}, {"layout", f.layout}, {"size", f.size}};
            // coverage: metric-bearing lines the reader did not understand
            jf["unread_lines"] = f.unreadLines;
            if (!f.unreadSample.empty()) jf["unread_sample"] = f.unreadSample;
            jr["files"].push_back(std::move(jf));
        }
        jr["metadata"] = r.metadata;
        jr["series"] = json::object();
        for (const auto& [name, s] : r.series) {
            json js = seriesSummary(s);
            // where the first NaN/Inf was logged, so a user can open the file at that line
            for (size_t i = 0; i < s.size(); ++i) {
                if (std::isfinite(s.value[i])) continue;
                const logs::PointSource src = s.sourceAt(i);
                js["first_nonfinite_value"] = number(s.value[i]);
                js["first_nonfinite_file"] =
                    src.file < r.files.size() ? json(r.files[src.file].path) : json(nullptr);
                js["first_nonfinite_line"] = src.lineOrRecord;
                break;
            }
            js["has_epoch"] = s.hasEpoch();
            js["has_wall_time"] = s.hasWallTime();
            jr["series"][name] = std::move(js);
        }
        jr["events"] = json::array();
        for (const logs::RunEvent& e : r.events) {
            json je{{"kind", logs::eventKindName(e.kind)}, {"text", e.text}, {"line", e.line}};
            je["file"] = e.file < r.files.size() ? json(r.files[e.file].path) : json(nullptr);
            je["step"] = e.step ? jsonCount(*e.step) : json(nullptr);
            jr["events"].push_back(std::move(je));
        }
        runs.push_back(std::move(jr));
    }
    json warnings = json::array();
    for (const Warning& w : set.warnings) warnings.push_back(warningToJson(w));
    return {{"runs", std::move(runs)}, {"warnings", std::move(warnings)}};
}

json layersToJson(const model::LayerTable& table)
{
    json layers = json::array();
    for (const model::Layer& l : table.layers) {
        json j;
        j["name"] = l.name;
        j["op"] = l.op;
        j["input_dtypes"] = json::array();
        for (auto t : l.inputDtypes) j["input_dtypes"].push_back(model::dtypeName(t));
        j["weight_dtype"] =
            l.weightDtype == model::DType::Unknown ? json(nullptr) : json(model::dtypeName(l.weightDtype));
        const std::string gran = model::granularityName(l);
        j["weight_granularity"] = gran.empty() ? json(nullptr) : json(gran);
        j["weight_quant"] = l.weightQuant ? quantToJson(*l.weightQuant) : json(nullptr);
        j["output_dtype"] = model::dtypeName(l.outputDtype);
        j["output_scale"] = (l.outputQuant && l.outputQuant->scales.size() == 1)
                                ? number(l.outputQuant->scales.front())
                                : json(nullptr);
        j["output_zero_point"] = (l.outputQuant && l.outputQuant->zeroPoints.size() == 1)
                                     ? json(l.outputQuant->zeroPoints.front())
                                     : json(nullptr);
        j["output_quant"] = l.outputQuant ? quantToJson(*l.outputQuant) : json(nullptr);
        j["flags"] = l.flags;
        json src = json::object();
        if (!l.source.file.empty()) src["file"] = l.source.file;
        if (l.source.line > 0) src["line"] = l.source.line;
        if (!l.source.node.empty()) src["node"] = l.source.node;
        j["source"] = std::move(src);
        layers.push_back(std::move(j));
    }
    return layers;
}

json modelToJson(const model::LayerTable& table)
{
    json j;
    j["path"] = table.sourcePath;
    j["format"] = table.format;
    j["opset"] = table.opset > 0 ? json(table.opset) : json(nullptr);
    if (!table.producer.empty()) j["producer"] = table.producer;
    j["inputs"] = table.graphInputs;
    j["outputs"] = table.graphOutputs;
    j["layer_count"] = table.layers.size();
    if (!table.quantization.empty()) {
        j["quantization"] = table.quantization;
        j["quantized"] = table.quantization != model::kNotQuantized;
    }
    j["warnings"] = json::array();
    for (const Warning& w : table.warnings) j["warnings"].push_back(warningToJson(w));
    return j;
}

namespace {

// A number the pickle held, from its exact text: an integer stays one ("epoch": 3).
json numberFromText(const std::string& text)
{
    const char* end = text.data() + text.size();
    int64_t i = 0;
    if (auto [p, ec] = std::from_chars(text.data(), end, i); ec == std::errc{} && p == end) return i;
    double d = 0;
    if (auto [p, ec] = std::from_chars(text.data(), end, d); ec == std::errc{} && p == end) return number(d);
    return text;
}

json tensorStatsToJson(const checkpoint::TensorStats& s)
{
    if (!s.read) return {{"read", false}, {"problem", s.problem}};
    json j{{"read", true},           {"count", s.count}, {"min", number(s.min)}, {"max", number(s.max)},
           {"mean", number(s.mean)}, {"nan", s.nan},     {"pos_inf", s.posInf},  {"neg_inf", s.negInf}};
    j["first"] = json::array();
    for (double v : s.first) j["first"].push_back(number(v));
    j["dequantized"] = s.dequantized;
    return j;
}

json qtensorToJson(const checkpoint::QTensorParams& q)
{
    json j{{"scheme", q.scheme}};
    if (q.perChannel()) {
        j["axis"] = q.axis;
        j["scales_tensor"] = q.scales->name;
        if (q.zeroPoints) j["zero_points_tensor"] = q.zeroPoints->name;
    } else {
        j["scale"] = number(q.scale);
        j["zero_point"] = q.zeroPoint;
    }
    return j;
}

}  // namespace

json checkpointToJson(const checkpoint::CheckpointRead& c, const std::vector<checkpoint::TensorStats>* stats)
{
    const checkpoint::CheckpointFile& f = c.file;
    json j{{"path", f.path},
           {"container", f.container},
           {"model_key", f.modelKey},
           {"kind", checkpoint::checkpointKindName(c.file)},
           {"quantized", c.quantized()},
           {"converted", c.converted()},
           {"dynamic", c.dynamic()},
           {"tensor_count", c.file.tensors.size()}};
    j["metadata"] = json::object();
    for (const auto& [k, v] : f.metadata) {
        // a number in the pickle stays a number ("best_acc": 0.99), as its exact text parses
        j["metadata"][k] = f.numericMetadata.count(k) ? numberFromText(v) : json(v);
    }
    j["tensors"] = json::array();
    for (size_t k = 0; k < f.tensors.size(); ++k) {
        const checkpoint::TensorInfo& t = f.tensors[k];
        json jt{{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"parameter", t.parameter}};
        if (!t.canonical.empty()) jt["canonical"] = t.canonical;
        if (t.duplicate) jt["duplicate"] = true;
        if (t.quant) jt["quant"] = qtensorToJson(*t.quant);
        if (stats && k < stats->size()) jt["stats"] = tensorStatsToJson((*stats)[k]);
        j["tensors"].push_back(std::move(jt));
    }
    j["classes"] = f.classes;
    j["dangerous"] = f.dangerous;
    j["refused_globals"] = f.refusedGlobals;
    j["walk_notes"] = f.walkNotes;
    j["layers"] = layersToJson(c.table);
    j["warnings"] = json::array();
    for (const Warning& w : c.table.warnings) j["warnings"].push_back(warningToJson(w));
    return j;
}

json checkpointDiffToJson(const checkpoint::CheckpointDiff& d)
{
    using checkpoint::ChangeKind;
    using checkpoint::TensorRole;
    json j{{"a", d.pathA}, {"b", d.pathB}, {"convert_between", d.convertBetween}};
    const std::pair<const char*, TensorRole> roles[] = {{"weights", TensorRole::Weight},
                                                        {"quantizers", TensorRole::Quantizer},
                                                        {"buffers", TensorRole::Buffer}};
    for (const auto& [key, role] : roles)
        j[key] = {{"compared", d.count(role)},
                  {"changed", d.count(role, ChangeKind::Changed)},
                  {"same", d.count(role, ChangeKind::Same)},
                  {"reshaped", d.count(role, ChangeKind::Reshaped)},
                  {"quantized", d.count(role, ChangeKind::Quantized)}};
    static constexpr std::array<const char*, 3> kRoleNames{"weight", "quantizer", "buffer"};
    j["tensors"] = json::array();
    for (const checkpoint::TensorChange& t : d.tensors) {
        json r{{"name", t.name},
               {"role", kRoleNames[static_cast<size_t>(t.role)]},
               {"change", checkpoint::changeKindName(t.kind)},
               {"dtype", t.dtype},
               {"numel", t.numel}};
        if (t.kind == ChangeKind::Changed) {
            r["max_abs"] = number(t.maxAbs);
            r["rel_l2"] = number(t.relL2);
        }
        if (!t.problem.empty()) r["problem"] = t.problem;
        j["tensors"].push_back(std::move(r));
    }
    return j;
}

json analysisToJson(const Analysis& a, Lang lang)
{
    json j;
    j["version"] = kJsonSchemaVersion;
    j["tool_version"] = kVersion;
    j["lang"] = langCode(lang);
    j["inputs"] = json::array();
    for (const InputItem& in : a.inputs)
        j["inputs"].push_back(
            {{"path", in.path}, {"kind", inputKindName(in.kind)}, {"format", in.format}, {"size", in.size}});
    json logs = logSetToJson(a.logs);
    j["runs"] = std::move(logs["runs"]);
    j["models"] = json::array();
    for (const auto& m : a.models) j["models"].push_back(modelToJson(m));
    j["model"] = a.models.empty() ? json(nullptr) : modelToJson(a.models.front());
    j["layers"] = a.models.empty() ? json::array() : layersToJson(a.models.front());
    j["tables"] = json::array();
    for (const DataTable& t : a.tables) {
        json jt{{"kind", t.kind}, {"title", t.title}, {"source", t.sourcePath}, {"columns", t.columns}};
        jt["rows"] = t.rows;
        jt["row_lines"] = t.rowLines;
        j["tables"].push_back(std::move(jt));
    }
    const rules::Verdict verdict = verdictOf(a);
    j["verdict"] = {{"clear", verdict.clear},
                    {"stage", verdict.clear          ? json(nullptr)
                              : verdict.stageUnknown ? json("training")
                                                     : json(stageName(verdict.stage))},
                    {"finding", verdict.findingId.empty() ? json(nullptr) : json(verdict.findingId)},
                    {"text", verdict.text.in(lang)}};
    j["findings"] = json::array();
    for (const Finding& f : a.findings) j["findings"].push_back(findingToJson(f, lang));
    j["checks_run"] = a.checksRun;
    j["checks_skipped"] = json::array();
    for (const Analysis::SkippedCheck& s : a.checksSkipped) {
        json k = {{"id", s.id}, {"reason", s.reason.in(lang)}};
        if (!s.evidence.empty()) {
            k["evidence"] = json::array();
            for (const Evidence& e : s.evidence) k["evidence"].push_back(evidenceToJson(e));
        }
        j["checks_skipped"].push_back(std::move(k));
    }
    j["checkpoints"] = json::array();
    for (const checkpoint::CheckpointRead& c : a.checkpoints) j["checkpoints"].push_back(checkpointToJson(c));
    j["checkpoint_diffs"] = json::array();
    for (const checkpoint::CheckpointDiff& d : a.checkpointDiffs)
        j["checkpoint_diffs"].push_back(checkpointDiffToJson(d));
    j["simulation"] = a.simulation ? fixedpoint::simulationSummaryToJson(*a.simulation, lang) : json(nullptr);
    j["ladder"] = ladderToJson(a.ladder, lang);
    j["evaluations"] = json::array();
    for (const fixedpoint::DatasetEvaluation& e : a.evaluations)
        j["evaluations"].push_back(fixedpoint::evaluationToJson(e));
    j["warnings"] = std::move(logs["warnings"]);
    for (const Warning& w : a.warnings) j["warnings"].push_back(warningToJson(w));
    return j;
}

}  // namespace qatdoctor::core
