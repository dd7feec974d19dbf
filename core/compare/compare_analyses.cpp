// Pairs what two Analyses hold (models by form, checkpoints in order, toolchain tables by kind,
// runs by stage, findings by what they are about) and hands each pair to its diff.
#include <algorithm>
#include <map>
#include <set>

#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_order.h"
#include "core/common/input_set_name.h"
#include "core/compare/change_answers.h"
#include "core/compare/comparison.h"
#include "core/fixedpoint/mode_pair.h"
#include "core/rules/metrics.h"

namespace qatdoctor::core::compare {
namespace {

// Pairs the k-th item of a kind on A's side with the k-th of that kind on B's (two
// similarity.txt files in each folder pair in their order).
template <class T, class KindFn>
std::vector<std::pair<const T*, const T*>> pairByKind(const std::vector<T>& a, const std::vector<T>& b,
                                                      KindFn kind)
{
    std::vector<std::pair<const T*, const T*>> pairs;
    std::map<std::string, size_t> usedInB;
    for (const T& x : a) {
        size_t& skip = usedInB[kind(x)];
        size_t seen = 0;
        for (const T& y : b) {
            if (kind(y) != kind(x)) continue;
            if (seen++ < skip) continue;
            pairs.emplace_back(&x, &y);
            ++skip;
            break;
        }
    }
    return pairs;
}

std::vector<LayerTableDiff> diffModels(const Analysis& a, const Analysis& b)
{
    std::vector<LayerTableDiff> out;
    auto pairs = pairByKind(a.models, b.models, [](const model::LayerTable& t) { return t.format; });
    // the primary models of two different forms (a printed module before, an ONNX export after)
    // still answer by module name
    const model::LayerTable* pa = a.primaryModel();
    const model::LayerTable* pb = b.primaryModel();
    const bool primaryPaired = std::any_of(pairs.begin(), pairs.end(),
                                           [&](const auto& p) { return p.first == pa || p.second == pb; });
    if (pa && pb && !primaryPaired) pairs.insert(pairs.begin(), {pa, pb});
    out.reserve(pairs.size());
    for (const auto& [x, y] : pairs) out.push_back(diffLayerTables(*x, *y));
    return out;
}

std::vector<LayerTableDiff> diffCheckpointTables(const Analysis& a, const Analysis& b)
{
    std::vector<LayerTableDiff> out;
    const size_t n = std::min(a.checkpoints.size(), b.checkpoints.size());
    for (size_t k = 0; k < n; ++k)
        out.push_back(diffLayerTables(a.checkpoints[k].table, b.checkpoints[k].table));
    return out;
}

std::vector<DataTableDiff> diffTables(const Analysis& a, const Analysis& b)
{
    std::vector<DataTableDiff> out;
    for (const auto& [x, y] :
         pairByKind(a.tables, b.tables, [](const DataTable& t) { return t.kind + '\x1f' + t.title; }))
        if (auto d = diffDataTables(*x, *y)) out.push_back(std::move(*d));
    return out;
}

// What a finding is about, so the same trouble found in both attempts reads as "still there":
// its id and the modules its evidence names. Runs and files are left out (the second attempt's
// runs and files have other names), and so are an information's modules (the most sensitive ops
// are listed in both attempts; which ops they are is the tables' diff).
std::string findingKey(const Finding& f)
{
    if (f.severity == Severity::Info) return f.id;
    std::set<std::string> layers;
    for (const Evidence& e : f.evidence)
        if (!e.layer.empty()) layers.insert(modulePath(e.layer));
    std::string key = f.id;
    for (const std::string& l : layers) key += '\x1f' + l;
    return key;
}

std::vector<FindingChange> diffFindings(const std::vector<Finding>& a, const std::vector<Finding>& b)
{
    // B's findings by key, each taken once by the first of A's with that key
    std::multimap<std::string, const Finding*> inB;
    for (const Finding& f : b) inB.emplace(findingKey(f), &f);
    std::set<const Finding*> kept;
    std::vector<FindingChange> out;
    for (const Finding& f : a) {
        const std::string key = findingKey(f);
        const auto it = inB.lower_bound(key);  // equal keys keep B's order: the first of them
        if (it == inB.end() || it->first != key) {
            out.push_back({FindingChangeKind::Resolved, f});
            continue;
        }
        kept.insert(it->second);
        out.push_back({FindingChangeKind::Persisting, *it->second});
        inB.erase(it);
    }
    for (const Finding& f : b)
        if (!kept.count(&f)) out.push_back({FindingChangeKind::New, f});
    return out;
}

std::optional<double> lastFiniteValue(const rules::MetricRef& m)
{
    if (!m) return std::nullopt;
    const auto i = rules::lastFinite(*m.series);
    if (!i) return std::nullopt;
    return static_cast<double>(m.series->value[*i]);
}

const logs::Run* runOfRole(const logs::LogSet& logs, logs::RunRole role)
{
    // the last run of a stage is the attempt's latest (a folder of qat_v1, qat_v2 ...)
    const logs::Run* found = nullptr;
    for (const logs::Run& r : logs.runs)
        if (r.role == role) found = &r;
    return found;
}

std::vector<RunChange> diffRuns(const logs::LogSet& a, const logs::LogSet& b)
{
    std::vector<RunChange> out;
    for (logs::RunRole role : {logs::RunRole::Float, logs::RunRole::Calibration, logs::RunRole::Qat,
                               logs::RunRole::Quantized, logs::RunRole::Unknown}) {
        const logs::Run* ra = runOfRole(a, role);
        const logs::Run* rb = runOfRole(b, role);
        if (!ra || !rb) continue;
        RunChange c;
        c.role = logs::roleName(role);
        c.runA = ra->name;
        c.runB = rb->name;
        const auto accA = rules::finalEvalAccuracy(*ra), accB = rules::finalEvalAccuracy(*rb);
        if (accA) c.accuracyA = accA->value;
        if (accB) c.accuracyB = accB->value;
        c.accuracyMetric = accB ? accB->metric.name : accA ? accA->metric.name : "";
        const rules::MetricRef lossA = rules::trainLoss(*ra), lossB = rules::trainLoss(*rb);
        c.lossA = lastFiniteValue(lossA);
        c.lossB = lastFiniteValue(lossB);
        c.lossMetric = lossB ? lossB.name : lossA.name;
        out.push_back(std::move(c));
    }
    return out;
}

std::optional<SimulationChange> diffSimulations(const std::optional<fixedpoint::SimulationSummary>& a,
                                                const std::optional<fixedpoint::SimulationSummary>& b)
{
    if (!a || !b) return std::nullopt;
    SimulationChange c;
    c.outputSqnrA = a->outputSqnrDb();
    c.outputSqnrB = b->outputSqnrDb();
    c.firstBadA = a->firstBadLayer;
    c.firstBadB = b->firstBadLayer;
    const char* key = fixedpoint::modePairKey(fixedpoint::ModePair::FakeInt);
    std::map<std::string, double> cosineA;
    for (const auto& row : a->layers)
        if (const auto* p = row.pair(key)) cosineA[modulePath(row.layer)] = p->cosine;
    for (const auto& row : b->layers) {
        SimulationLayerChange l;
        l.layer = row.layer;
        if (auto it = cosineA.find(modulePath(row.layer)); it != cosineA.end()) l.cosineA = it->second;
        if (const auto* p = row.pair(key)) l.cosineB = p->cosine;
        c.layers.push_back(std::move(l));
    }
    return c;
}

}  // namespace

const char* findingChangeName(FindingChangeKind kind)
{
    static constexpr const char* kNames[] = {"resolved", "new", "persisting"};
    return kNames[static_cast<size_t>(kind)];
}

const Text& findingChangeText(FindingChangeKind kind)
{
    static const Text kTexts[] = {{"已解决", "resolved"}, {"新出现", "new"}, {"仍存在", "still there"}};
    return kTexts[static_cast<size_t>(kind)];
}

size_t Comparison::count(FindingChangeKind kind) const
{
    return static_cast<size_t>(std::count_if(findings.begin(), findings.end(),
                                             [&](const FindingChange& f) { return f.kind == kind; }));
}

std::vector<const Finding*> Comparison::regressions(Severity atLeast) const
{
    std::vector<const Finding*> out;
    // an answer at Info is a change that took effect: good news, never a regression
    for (const Finding& f : answers)
        if (f.severity != Severity::Info && f.severity >= atLeast) out.push_back(&f);
    for (const FindingChange& c : findings)
        if (c.kind == FindingChangeKind::New && c.finding.severity >= atLeast) out.push_back(&c.finding);
    return out;
}

namespace {

// What A's and B's checkpoints prove about the change between them, decided as the analysis of
// one project decides it for a consecutive pair (checkpoint_order.h, checkpoint_diff.h): every
// weight byte-identical after training between A and B is qat.not_learning in `diff` as in
// `checkpoint A B`.
void checkpointAnswers(const Analysis& a, const Analysis& b, std::vector<Finding>& answers)
{
    const std::vector<const checkpoint::CheckpointRead*> fromA = checkpoint::orderCheckpoints(a.checkpoints);
    const std::vector<const checkpoint::CheckpointRead*> fromB = checkpoint::orderCheckpoints(b.checkpoints);
    if (fromA.empty() || fromB.empty()) return;
    // A's last checkpoint against B's last: where each attempt ended
    const checkpoint::CheckpointRead& from = *fromA.back();
    const checkpoint::CheckpointRead& to = *fromB.back();
    Result<checkpoint::CheckpointDiff> d = checkpoint::diffCheckpoints(from.file, to.file, {}, b.maxMemory);
    if (!d) return;
    std::set<std::string> evaluated;
    checkpoint::diffFindings(*d, checkpoint::trainedBetween(from, to), answers, evaluated);
}

}  // namespace

Comparison compareAnalyses(const Analysis& a, const Analysis& b)
{
    Comparison c;
    const auto paths = [](const Analysis& x) {
        std::vector<std::string> p;
        for (const InputItem& i : x.inputs) p.push_back(i.path);
        return p;
    };
    c.nameA = inputSetName(paths(a));
    c.nameB = inputSetName(paths(b));
    c.models = diffModels(a, b);
    c.checkpoints = diffCheckpointTables(a, b);
    c.tables = diffTables(a, b);
    c.findings = diffFindings(a.findings, b.findings);
    c.runs = diffRuns(a.logs, b.logs);
    c.simulation = diffSimulations(a.simulation, b.simulation);
    c.answers = changeAnswers(c, a, b);
    checkpointAnswers(a, b, c.answers);
    return c;
}

}  // namespace qatdoctor::core::compare
