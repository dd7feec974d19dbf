#include "core/compare/layer_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "core/common/number_text.h"
#include "core/compare/row_pairing.h"

namespace qatdoctor::core::compare {
namespace {

using model::Layer;
using model::LayerTable;
using model::QuantParams;

// Scales that differ by less than this (relative) are the same number written twice (float
// printing, a re-export); more is a scale training or calibration moved.
constexpr double kScaleTolerance = 1e-6;

bool startsWith(const std::string& s, const std::string& prefix)
{
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

std::string joinedDtypes(const std::vector<model::DType>& dtypes)
{
    std::string s;
    for (model::DType t : dtypes) s += (s.empty() ? "" : ",") + std::string(model::dtypeName(t));
    return s.empty() ? "-" : s;
}

std::string flagsText(const Layer& l)
{
    std::vector<std::string> flags = l.flags;
    std::sort(flags.begin(), flags.end());
    std::string s;
    for (const std::string& f : flags) s += (s.empty() ? "" : ",") + f;
    return s.empty() ? "-" : s;
}

std::string rangeText(const std::optional<QuantParams>& q)
{
    if (!q || !q->qmin || !q->qmax) return "-";
    return "[" + std::to_string(*q->qmin) + ", " + std::to_string(*q->qmax) + "]";
}

// The largest relative difference of two quantizers' scales; 0 when either has none.
double scaleChange(const std::optional<QuantParams>& a, const std::optional<QuantParams>& b)
{
    if (!a || !b || a->scales.empty() || a->scales.size() != b->scales.size()) return 0;
    double worst = 0;
    for (size_t k = 0; k < a->scales.size(); ++k) {
        const double x = a->scales[k], y = b->scales[k];
        if (!std::isfinite(x) || !std::isfinite(y)) {
            // a scale that turned NaN / Inf (or came back) moved all the way
            if (std::isfinite(x) != std::isfinite(y) || std::isnan(x) != std::isnan(y) ||
                (x != y && !std::isnan(x)))
                worst = 1;
            continue;
        }
        const double scale = std::max(std::fabs(x), std::fabs(y));
        if (scale > 0) worst = std::max(worst, std::fabs(x - y) / scale);
    }
    return worst;
}

// A layer's weight and output dtype, "int8 / float32": its quantizers' where it has them ("?" when
// their bit width is not saved), else the tensors' own ("-" for no weight).
std::string dtypesText(const Layer& l)
{
    const auto one = [](const std::optional<QuantParams>& q, model::DType tensor) -> std::string {
        if (q) return q->dtype == model::DType::Unknown ? "?" : model::dtypeName(q->dtype);
        return tensor == model::DType::Unknown ? "-" : model::dtypeName(tensor);
    };
    return one(l.weightQuant, l.weightDtype) + " / " + one(l.outputQuant, l.outputDtype);
}

// How many rows of a table take their output scale from each source: two or more is one
// observer shared by several ops (one FloatFunctional called twice).
std::unordered_map<std::string, int> scaleSourceUse(const LayerTable& t)
{
    std::unordered_map<std::string, int> use;
    for (const Layer& l : t.layers)
        if (l.outputQuant && !l.outputQuant->scaleSource.empty()) ++use[l.outputQuant->scaleSource];
    return use;
}

bool sharesScale(const Layer& l, const std::unordered_map<std::string, int>& use)
{
    if (!l.outputQuant || l.outputQuant->scaleSource.empty()) return false;
    const auto it = use.find(l.outputQuant->scaleSource);
    return it != use.end() && it->second > 1;
}

// What the diff asks of a table more than once, worked out once: each row's module path, how
// many rows (calls) each module has, how many rows take their scale from each source.
struct TableFacts {
    std::vector<std::string> modules;  // per row
    std::unordered_map<std::string, int> moduleCalls;
    std::unordered_map<std::string, int> scaleUse;
    explicit TableFacts(const LayerTable& t) : scaleUse(scaleSourceUse(t))
    {
        modules.reserve(t.layers.size());
        for (const Layer& l : t.layers) {
            modules.push_back(modulePath(l.name));
            ++moduleCalls[modules.back()];
        }
    }
};

void addIfDifferent(std::vector<FieldChange>& out, const char* field, std::string before, std::string after,
                    bool configuration = true)
{
    if (before != after) out.push_back({field, std::move(before), std::move(after), configuration});
}

// Per-channel scales print as their range ("0.001..0.02 x64"), which often stays put while the
// channels move: then the cell says by how much they moved.
void addScaleChange(std::vector<FieldChange>& out, const char* field, const std::optional<QuantParams>& a,
                    const std::optional<QuantParams>& b)
{
    const double change = scaleChange(a, b);
    if (change <= kScaleTolerance) return;
    std::string before = model::scalesText(a), after = model::scalesText(b);
    if (before == after) after += " (" + percentText(change) + " max change)";
    out.push_back({field, std::move(before), std::move(after), false});
}

std::vector<FieldChange> fieldChanges(const Layer& a, const Layer& b, const TableFacts& fa,
                                      const TableFacts& fb)
{
    std::vector<FieldChange> out;
    addIfDifferent(out, "op", a.op, b.op);
    // an input's dtype is the producer's output dtype: it follows a change upstream
    addIfDifferent(out, "input dtype", joinedDtypes(a.inputDtypes), joinedDtypes(b.inputDtypes), false);
    addIfDifferent(out, "weight dtype", model::dtypeName(a.weightDtype), model::dtypeName(b.weightDtype));
    addIfDifferent(out, "granularity", model::granularityName(a), model::granularityName(b));
    addIfDifferent(out, "output dtype", model::dtypeName(a.outputDtype), model::dtypeName(b.outputDtype));
    addIfDifferent(out, "output range", rangeText(a.outputQuant), rangeText(b.outputQuant));
    const bool sharedA = sharesScale(a, fa.scaleUse), sharedB = sharesScale(b, fb.scaleUse);
    if (sharedA != sharedB)
        out.push_back({"output quantizer", sharedA ? "shared" : "own", sharedB ? "shared" : "own", true});
    addIfDifferent(out, "flags", flagsText(a), flagsText(b));
    addScaleChange(out, "weight scale", a.weightQuant, b.weightQuant);
    addScaleChange(out, "output scale", a.outputQuant, b.outputQuant);
    addIfDifferent(out, "observed range", model::observedRangeText(a.outputQuant),
                   model::observedRangeText(b.outputQuant), false);
    return out;
}

// How far past the last pairing a renamed row is looked for: a rename moves no layer far, and
// the window keeps two unrelated 100,000-layer models from a quadratic search.
constexpr int kPositionWindow = 32;

// A renamed row is found where it stood: between the same named neighbours, with the same op.
void pairByPosition(const LayerTable& a, const LayerTable& b, std::vector<int>& partnerOfA,
                    std::vector<int>& partnerOfB, std::vector<MatchBy>& byOfA)
{
    const int nb = static_cast<int>(b.layers.size());
    int prevB = -1;  // B partner of the last paired A row
    for (size_t i = 0; i < a.layers.size();) {
        if (partnerOfA[i] >= 0) {
            prevB = std::max(prevB, partnerOfA[i]);
            ++i;
            continue;
        }
        size_t end = i;  // [i, end) = a gap of unpaired A rows
        while (end < a.layers.size() && partnerOfA[end] < 0) ++end;
        const int nextB = end < a.layers.size() ? partnerOfA[end] : nb;
        int cursor = prevB + 1;
        for (size_t k = i; k < end && cursor < nextB; ++k) {
            const int last = std::min(nextB, cursor + kPositionWindow);
            for (int j = cursor; j < last; ++j) {
                if (partnerOfB[static_cast<size_t>(j)] >= 0 ||
                    b.layers[static_cast<size_t>(j)].op != a.layers[k].op)
                    continue;
                partnerOfA[k] = j;
                partnerOfB[static_cast<size_t>(j)] = static_cast<int>(k);
                byOfA[k] = MatchBy::Position;
                cursor = j + 1;
                break;
            }
        }
        i = end;
    }
}

std::vector<RowPair> matchRows(const LayerTable& a, const LayerTable& b, const TableFacts& fa,
                               const TableFacts& fb)
{
    std::vector<int> partnerOfA(a.layers.size(), -1), partnerOfB(b.layers.size(), -1);
    std::vector<MatchBy> byOfA(a.layers.size(), MatchBy::Name);
    std::vector<std::string> namesA, namesB;
    for (const Layer& l : a.layers) namesA.push_back(l.name);
    for (const Layer& l : b.layers) namesB.push_back(l.name);
    pairByKey(namesA, namesB, partnerOfA, partnerOfB);
    pairByKey(fa.modules, fb.modules, partnerOfA, partnerOfB);
    pairByPosition(a, b, partnerOfA, partnerOfB, byOfA);
    std::vector<RowPair> pairs;
    for (const auto& [i, j] : pairsInOrderOfB(partnerOfA, partnerOfB))
        pairs.push_back({i, j, i >= 0 && j >= 0 ? byOfA[static_cast<size_t>(i)] : MatchBy::None});
    return pairs;
}

}  // namespace

const char* rowChangeName(RowChange kind)
{
    static constexpr const char* kNames[] = {"same", "retuned", "changed", "added", "removed", "split"};
    return kNames[static_cast<size_t>(kind)];
}

const Text& rowChangeText(RowChange kind)
{
    static const Text kTexts[] = {{"相同", "same"},           {"仅数值变化", "retuned"},
                                  {"有变化", "changed"},      {"仅在 B 中", "only in B"},
                                  {"仅在 A 中", "only in A"}, {"已拆分", "split"}};
    return kTexts[static_cast<size_t>(kind)];
}

std::string fieldLabel(const std::string& field, Lang lang)
{
    static const std::map<std::string, std::string> kZh = {
        {"op", "算子"},
        {"input dtype", "输入 dtype"},
        {"weight dtype", "权重 dtype"},
        {"granularity", "粒度"},
        {"output dtype", "输出 dtype"},
        {"output range", "输出量化范围"},
        {"output quantizer", "输出量化参数"},
        {"flags", "标记"},
        {"weight scale", "权重 scale"},
        {"output scale", "输出 scale"},
        {"observed range", "统计范围"},
        {"module", "模块"},
    };
    if (lang == Lang::Zh)
        if (auto it = kZh.find(field); it != kZh.end()) return it->second;
    return field;
}

std::string fieldsText(const LayerChange& row, Lang lang, bool configurationOnly)
{
    // the words among the values (the rest are names and numbers)
    static const std::map<std::string, std::string> kZhValues = {{"shared", "共享"}, {"own", "独立"}};
    const auto value = [&](const std::string& v) -> const std::string& {
        const auto it = kZhValues.find(v);
        return lang == Lang::Zh && it != kZhValues.end() ? it->second : v;
    };
    std::string s;
    for (const FieldChange& f : row.fields) {
        if (configurationOnly && !f.configuration) continue;
        s += (s.empty() ? "" : "; ") + fieldLabel(f.field, lang) + " " + value(f.before) + " → " +
             value(f.after);
    }
    return s;
}

bool isConfigurationChange(RowChange kind)
{
    return kind != RowChange::Same && kind != RowChange::Retuned;
}

const char* matchByName(MatchBy by)
{
    static constexpr const char* kNames[] = {"name", "position", "none"};
    return kNames[static_cast<size_t>(by)];
}

const FieldChange* LayerChange::field(const std::string& f) const
{
    for (const FieldChange& c : fields)
        if (c.field == f) return &c;
    return nullptr;
}

size_t LayerTableDiff::count(RowChange kind) const
{
    return static_cast<size_t>(
        std::count_if(rows.begin(), rows.end(), [&](const LayerChange& r) { return r.kind == kind; }));
}

size_t LayerTableDiff::changedRows() const
{
    return static_cast<size_t>(std::count_if(
        rows.begin(), rows.end(), [](const LayerChange& r) { return isConfigurationChange(r.kind); }));
}

std::string modulePath(const std::string& layerName)
{
    std::string name = layerName;
    if (const size_t call = name.find(" ("); call != std::string::npos) name.resize(call);
    // the toolchain's "neck.lateral.0(1)" (a module's second call) and "merge_add[add]" (the
    // FloatFunctional method called) name the module before the suffix
    if (name.size() > 2 && (name.back() == ')' || name.back() == ']')) {
        const size_t open = name.rfind(name.back() == ')' ? '(' : '[');
        if (open != std::string::npos && open > 0) name.resize(open);
    }
    if (startsWith(name, "/")) {
        // an exporter's node path: the scopes are the module path, the last part the op
        std::string path;
        size_t from = 1;
        for (size_t slash = name.find('/', from); slash != std::string::npos; slash = name.find('/', from)) {
            path += (path.empty() ? "" : ".") + name.substr(from, slash - from);
            from = slash + 1;
        }
        name = path.empty() ? name.substr(1) : path;
    }
    for (const char* wrapper : {"module.", "model."})
        while (startsWith(name, wrapper) && name.size() > std::string(wrapper).size())
            name.erase(0, std::string(wrapper).size());
    return name;
}

std::vector<RowPair> matchLayers(const LayerTable& a, const LayerTable& b)
{
    return matchRows(a, b, TableFacts(a), TableFacts(b));
}

LayerTableDiff diffLayerTables(const LayerTable& a, const LayerTable& b)
{
    LayerTableDiff diff;
    diff.pathA = a.sourcePath;
    diff.pathB = b.sourcePath;
    diff.format = b.format;
    const TableFacts fa(a), fb(b);
    const std::vector<RowPair> pairs = matchRows(a, b, fa, fb);
    // modules some call of which kept its module in B: a call of one that has another module now
    // is that module split (one FloatFunctional called twice became two)
    std::set<std::string> kept;
    for (const RowPair& p : pairs)
        if (p.a >= 0 && p.b >= 0) {
            const std::string& moduleA = fa.modules[static_cast<size_t>(p.a)];
            if (moduleA == fb.modules[static_cast<size_t>(p.b)]) kept.insert(moduleA);
        }
    for (const RowPair& p : pairs) {
        LayerChange row;
        row.a = p.a;
        row.b = p.b;
        row.matchedBy = p.by;
        const Layer* la = p.a >= 0 ? &a.layers[static_cast<size_t>(p.a)] : nullptr;
        const Layer* lb = p.b >= 0 ? &b.layers[static_cast<size_t>(p.b)] : nullptr;
        if (la) {
            row.nameA = la->name;
            row.dtypesA = dtypesText(*la);
        }
        if (lb) {
            row.nameB = lb->name;
            row.dtypesB = dtypesText(*lb);
        }
        row.op = lb ? lb->op : la->op;
        if (!la)
            row.kind = RowChange::Added;
        else if (!lb)
            row.kind = RowChange::Removed;
        else {
            row.fields = fieldChanges(*la, *lb, fa, fb);
            const bool configuration = std::any_of(row.fields.begin(), row.fields.end(),
                                                   [](const FieldChange& f) { return f.configuration; });
            row.kind = configuration        ? RowChange::Changed
                       : row.fields.empty() ? RowChange::Same
                                            : RowChange::Retuned;
            const std::string& moduleA = fa.modules[static_cast<size_t>(p.a)];
            const std::string& moduleB = fb.modules[static_cast<size_t>(p.b)];
            const auto calls = fa.moduleCalls.find(moduleA);
            // ... and it shared its quantizer there: two ops of one scope ("/head/Conv",
            // "/head/Sigmoid") are no FloatFunctional called twice
            if (moduleA != moduleB && calls != fa.moduleCalls.end() && calls->second > 1 &&
                kept.count(moduleA) && sharesScale(*la, fa.scaleUse)) {
                row.kind = RowChange::Split;
                row.fields.insert(row.fields.begin(), FieldChange{"module", moduleA, moduleB, true});
            }
        }
        diff.rows.push_back(std::move(row));
    }
    return diff;
}

}  // namespace qatdoctor::core::compare
