#include "core/rules/live_rules.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/rules/metrics.h"
#include "core/rules/rule_checks.h"
#include "core/rules/run_end.h"
#include "core/rules/stage_views.h"

namespace qatdoctor::core::rules {
namespace {

using Kind = logs::RunEvent::Kind;

// What makes each live rule look, and the rule: the batch check itself.
struct LiveRule {
    uint8_t trigger;
    RuleOutcome (*check)(const logs::LogSet&, const Thresholds&);
    // which of its findings can be judged before the run ends (null: all)
    bool (*early)(const Finding&);
};

bool isExplosion(const Finding& f)
{
    return f.severity == Severity::Error;  // the rising trend (a warning) needs the whole run
}

// Weights that did not move between two fingerprints, or evaluations that stayed flat; a flat
// training loss (the check's fallback while too few evaluations were logged) may yet fall.
bool isSettledNotLearning(const Finding& f)
{
    return !f.evidence.empty() &&
           (f.evidence.front().metric.empty() || classifyMetric(f.evidence.front().metric).eval);
}

// Whether a run's crash can be said now. Mid-run only a traceback counts (an ERROR line, a
// wandb retry, is said by the analysis at the end if the run then falls short of its epochs),
// and only once nothing was logged after it for kCrashGrace: a traceback the run survived (a
// DataLoader worker's at an epoch's end) is followed by training lines, a fatal one by silence.
// Python's "Exception ignored in: ..." before a traceback says it was not fatal.
constexpr std::chrono::seconds kCrashGrace{2};

enum class CrashCall { Now, Wait, Never };

CrashCall crashCall(const logs::Run& run, std::chrono::steady_clock::duration waited)
{
    const auto tb = std::find_if(run.events.rbegin(), run.events.rend(),
                                 [](const logs::RunEvent& e) { return e.kind == Kind::Traceback; });
    if (tb == run.events.rend() || pointsAfter(run, *tb)) return CrashCall::Never;
    const bool ignored = std::any_of(run.events.begin(), run.events.end(), [&](const logs::RunEvent& e) {
        return e.file == tb->file && e.line == tb->line - 1 &&
               e.text.find("Exception ignored in") != std::string::npos;
    });
    if (ignored) return CrashCall::Never;
    return waited < kCrashGrace ? CrashCall::Wait : CrashCall::Now;
}

// An evaluation series whose first non-finite value is its last point, and nothing else of the
// finding non-finite in training: whether it recovers (a glitch in the data read for one
// evaluation, a warning) or not (an error) shows at the next evaluation.
const logs::Series* heldEvaluation(const logs::Run& run, const Finding& f)
{
    if (f.id != "loss.nonfinite" || f.severity != Severity::Error || f.evidence.empty()) return nullptr;
    for (const Evidence& e : f.evidence)
        if (!e.metric.empty() && !classifyMetric(e.metric).eval) return nullptr;
    const logs::Series* s = run.find(f.evidence.front().metric);
    if (!s || s->empty()) return nullptr;
    for (size_t i = 0; i + 1 < s->size(); ++i)
        if (!std::isfinite(s->value[i])) return nullptr;
    return std::isfinite(s->value[s->size() - 1]) ? nullptr : s;
}

std::optional<double> firstStep(const Finding& f)
{
    for (const Evidence& e : f.evidence)
        if (e.step) return e.step;
    return std::nullopt;
}

}  // namespace

const std::vector<std::string>& liveRuleIds()
{
    static const std::vector<std::string> kIds = {"loss.nonfinite", "loss.divergence", "run.crashed",
                                                  "qat.start_loss_high", "qat.not_learning"};
    return kIds;
}

LiveDiagnosis::LiveDiagnosis(Thresholds thresholds) : m_thresholds(thresholds) {}

void LiveDiagnosis::restart(const std::string& runName)
{
    m_runs.erase(runName);
    std::erase_if(m_firedKeys, [&](const auto& k) { return k.first.ends_with("\n" + runName); });
}

uint8_t LiveDiagnosis::scan(const logs::Run& run, RunState& state)
{
    const size_t earlyMax = std::max<size_t>(1, static_cast<size_t>(m_thresholds.divergenceEarlyPoints));
    const double factor = m_thresholds.divergenceGrowthFactor;
    uint8_t triggers = 0;
    for (const auto& [name, s] : run.series) {
        SeriesCursor& c = state.series[name];
        const size_t n = s.size();
        if (n == c.scanned) continue;
        const MetricName metric = classifyMetric(name);
        const bool loss = metric.kind == MetricKind::Loss;
        if (name == state.heldSeries && n > state.heldSize) triggers |= kNonfinite;
        if (metric.kind == MetricKind::Accuracy && metric.eval) triggers |= kNotLearning;
        Explosion& x = c.explosion;
        for (size_t i = c.scanned; i < n; ++i) {
            const double v = s.value[i];
            if (!std::isfinite(v)) {
                if (!c.nonfinite) triggers |= kNonfinite;
                c.nonfinite = true;
                continue;
            }
            if (++c.finite == 1 && loss) triggers |= kStartLoss;
            if (!loss || x.vetoed) continue;
            ++x.finite;
            if (x.settled) {
                x.candidate = x.candidate || (x.level > 0 && v > factor * x.level);
                continue;
            }
            // until 4 x early points are in, the batch check's early window still depends on how
            // many points the run will have: a series that short is judged when the watch ends
            x.early.push_back(v);
            if (x.early.size() < 4 * earlyMax) continue;
            x.level = medianOf(x.early, 0, earlyMax);
            x.settled = true;
            x.candidate =
                x.level > 0 && std::any_of(x.early.begin() + static_cast<std::ptrdiff_t>(earlyMax),
                                           x.early.end(), [&](double e) { return e > factor * x.level; });
            x.early = {};
        }
        if (x.candidate && !x.vetoed) triggers |= kDivergence;
        c.scanned = n;
    }
    for (size_t i = state.events; i < run.events.size(); ++i) {
        const Kind k = run.events[i].kind;
        if (k == Kind::Traceback || k == Kind::Error) triggers |= kCrash;
        if (k == Kind::Parameters) triggers |= kNotLearning;
    }
    state.events = run.events.size();
    return triggers;
}

namespace {

std::string keyOf(const Finding& f)
{
    return f.id + "\n" + (f.evidence.empty() ? std::string() : f.evidence.front().run);
}

}  // namespace

void LiveDiagnosis::markReported(const std::vector<Finding>& findings)
{
    for (const Finding& f : findings) {
        Severity& s = m_firedKeys.try_emplace(keyOf(f), f.severity).first->second;
        s = std::max(s, f.severity);
    }
}

bool LiveDiagnosis::fire(const Finding& f, std::vector<LiveFinding>& out)
{
    const std::string run = f.evidence.empty() ? std::string() : f.evidence.front().run;
    const std::string key = keyOf(f);
    auto it = m_firedKeys.find(key);
    if (it != m_firedKeys.end() && it->second >= f.severity) return false;
    m_firedKeys[key] = f.severity;
    LiveFinding live{f, run, firstStep(f)};
    m_fired.push_back(live);
    out.push_back(std::move(live));
    return true;
}

std::vector<LiveFinding> LiveDiagnosis::judge(const logs::LogSet& logs,
                                              const std::map<std::string, uint8_t>& triggers, bool final)
{
    static const LiveRule kRules[] = {
        {kNonfinite, checkLossNonfinite, nullptr},
        {kDivergence, checkLossDivergence, isExplosion},
        {kCrash, checkRunCrashed, nullptr},
        {kStartLoss, checkQatStartLossHigh, nullptr},
        {kNotLearning, checkQatNotLearning, isSettledNotLearning},
    };
    std::vector<LiveFinding> out;
    uint8_t any = 0;
    for (const auto& [run, t] : triggers) any |= t;
    if (!any) return out;
    auto wants = [&](const std::string& run, uint8_t t) {
        auto it = triggers.find(run);
        return it != triggers.end() && (it->second & t);
    };
    for (const auto& [run, t] : triggers)
        if (t & kNonfinite) m_runs[run].heldSeries.clear();  // judged again below
    // The stage views of the runs concerned; a check comparing stages (QAT's start against
    // float's end) reads every run.
    logs::LogSet view;
    view.root = logs.root;
    if (any & kStartLoss) {
        view.runs = stageViews(logs.runs);
    } else {
        std::vector<logs::Run> some;
        for (const logs::Run& run : logs.runs)
            if (triggers.count(run.name)) some.push_back(run);
        view.runs = stageViews(some);
    }
    std::set<std::string> exploded;
    for (const LiveRule& rule : kRules) {
        if (!(any & rule.trigger)) continue;
        const RuleOutcome outcome = rule.check(view, m_thresholds);
        for (const Finding& f : outcome.findings) {
            const std::string run = f.evidence.empty() ? std::string() : f.evidence.front().run;
            if (rule.trigger != kStartLoss && !wants(run, rule.trigger)) continue;
            if (!final && rule.early && !rule.early(f)) continue;
            const logs::Run* raw = nullptr;
            for (const logs::Run& r : logs.runs)
                if (r.name == run) raw = &r;
            if (!final && raw) {
                if (const logs::Series* held = heldEvaluation(*raw, f)) {
                    RunState& st = m_runs[run];
                    st.heldSeries = f.evidence.front().metric;
                    st.heldSize = held->size();
                    continue;
                }
            }
            if (fire(f, out) && rule.trigger == kDivergence) exploded.insert(run);
        }
        // an explosion is looked at once per series: it fired (nothing more to say about the
        // run), or the check reads another series as the run's loss
        if (rule.trigger == kDivergence)
            for (const auto& [run, t] : triggers)
                if (t & kDivergence)
                    for (auto& [name, c] : m_runs[run].series)
                        c.explosion.vetoed =
                            c.explosion.vetoed || c.explosion.candidate || exploded.count(run);
    }
    return out;
}

std::vector<LiveFinding> LiveDiagnosis::update(const logs::LogSet& logs)
{
    std::map<std::string, uint8_t> triggers;
    for (const logs::Run& run : logs.runs) {
        RunState& state = m_runs[run.name];
        // fewer points or events than read: the run was read again (a file the tailer re-read,
        // a stage that became the run's own and took its series' names); those are read again,
        // and what fired stays fired (a restart the tailer saw is restart())
        if (run.events.size() < state.events) state.events = 0;
        // the stage with the most points changed (a one-file pipeline's QAT overtook float):
        // the run's plain series names now hold another stage's points
        if (run.role != state.role) {
            state.series.clear();
            state.role = run.role;
        }
        for (const auto& [name, s] : run.series) {
            auto c = state.series.find(name);
            if (c != state.series.end() && s.size() < c->second.scanned) c->second = SeriesCursor{};
        }
        uint8_t t = scan(run, state);
        // a crash is looked at on every read until it is said or the run went on
        if ((t & kCrash) && !state.crashPending) {
            state.crashPending = true;
            state.crashSince = std::chrono::steady_clock::now();
        }
        if (state.crashPending) {
            const CrashCall call = crashCall(run, std::chrono::steady_clock::now() - state.crashSince);
            if (call != CrashCall::Wait) state.crashPending = false;
            if (call == CrashCall::Now)
                t |= kCrash;
            else
                t &= static_cast<uint8_t>(~kCrash);
        }
        if (t) triggers[run.name] = t;
    }
    if (logs.runs.size() != m_runCount) {
        m_runCount = logs.runs.size();
        for (const logs::Run& run : logs.runs) triggers[run.name] |= kStartLoss;
    }
    return judge(logs, triggers, false);
}

std::vector<LiveFinding> LiveDiagnosis::flush(const logs::LogSet& logs)
{
    // every rule once over everything, as the analysis will: what needed the whole run (a short
    // series' early level, QAT's loss staying flat) and what was held back
    std::map<std::string, uint8_t> triggers;
    for (const logs::Run& run : logs.runs) {
        triggers[run.name] = kNonfinite | kDivergence | kCrash | kStartLoss | kNotLearning;
        RunState& state = m_runs[run.name];
        state.crashPending = false;
        for (auto& [name, c] : state.series) c.explosion.vetoed = false;
    }
    std::vector<LiveFinding> out = judge(logs, triggers, true);
    // ... and the rules that need a whole run (stages compared, settings, schedules): the watch
    // ends with the findings the analysis of the same folder gives
    logs::LogSet view;
    view.root = logs.root;
    view.runs = stageViews(logs.runs);
    const std::vector<std::string>& live = liveRuleIds();
    for (const Rule& rule : trainingRules()) {
        if (std::find(live.begin(), live.end(), rule.id) != live.end()) continue;
        for (const Finding& f : rule.check(view, m_thresholds).findings) fire(f, out);
    }
    return out;
}

}  // namespace qatdoctor::core::rules
