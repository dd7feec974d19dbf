// The training rules that can judge a run while it is still being written, for a live watch
// (core/live_watch.h): loss.nonfinite, loss.divergence (the explosion; "keeps rising" needs the
// whole run), run.crashed, qat.start_loss_high and qat.not_learning.
//
// Each update reads only what the runs gained since the last one (a cursor per series and per
// run's events); a rule's own check (the batch one, so a live finding reads exactly like the
// one the analysis gives afterwards) runs only when the new points make it a candidate, on the
// stage views of the runs concerned. A finding fires once per run, at the step where it became
// true, with that step's evidence; a worse severity of the same finding fires again. A crash
// waits 2 s of silence after its traceback (a traceback the run survives has lines after it).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/common/finding.h"
#include "core/logs/run.h"
#include "core/rules/thresholds.h"

namespace qatdoctor::core::rules {

struct LiveFinding {
    Finding finding;
    std::string run;             // the run it is about (the run's name in its LogSet)
    std::optional<double> step;  // the step where it became true
};

// The ids of the rules a live watch evaluates, in the order above.
const std::vector<std::string>& liveRuleIds();

class LiveDiagnosis {
public:
    explicit LiveDiagnosis(Thresholds thresholds);

    // The findings that became true in what logs gained since the last call. Call it after every
    // read, also when nothing changed: a finding held back for one more look (a traceback whose
    // exception line is not written yet) fires then.
    std::vector<LiveFinding> update(const logs::LogSet& logs);
    // The end of the watch: every rule looks once at everything, as the analysis will; what was
    // held back fires as it stands (an evaluation loss that went NaN at the last evaluation never
    // recovered), and what needs a whole run (a short series' early level, a flat QAT loss) too.
    std::vector<LiveFinding> flush(const logs::LogSet& logs);
    // The run's file was truncated or replaced and is read from its start: a new attempt, so its
    // cursors start again and its findings may fire again.
    void restart(const std::string& runName);
    // Findings already reported (the analysis the watch continues from): they fire again only
    // at a worse severity.
    void markReported(const std::vector<Finding>& findings);

    const std::vector<LiveFinding>& fired() const { return m_fired; }

private:
    // loss.divergence's explosion test, one point at a time: the early level is the median of
    // the first min(early points, n/4) finite values, as the batch check takes it; once 4 x
    // early points are in it no longer moves, and each new point is one comparison.
    struct Explosion {
        std::vector<double> early;  // the first finite values, up to 4 x the early window
        double level = 0;           // the early level, once settled
        bool settled = false;
        size_t finite = 0;
        bool candidate = false;  // a point above the level waits for the check
        bool vetoed = false;     // the check did not take it as its run's loss, or fired already
    };
    struct SeriesCursor {
        size_t scanned = 0;  // points read
        size_t finite = 0;
        bool nonfinite = false;  // a non-finite value was seen (its rule looked)
        Explosion explosion;
    };
    struct RunState {
        std::map<std::string, SeriesCursor> series;
        size_t events = 0;
        bool crashPending = false;  // a traceback: said once nothing came after it (crashCall)
        std::chrono::steady_clock::time_point crashSince;
        logs::RunRole role = logs::RunRole::Unknown;  // the run's own stage when last read
        // an evaluation that went NaN at its last point: judged once the series has one more
        std::string heldSeries;
        size_t heldSize = 0;
    };
    enum Trigger : uint8_t {
        kNonfinite = 1,
        kDivergence = 2,
        kCrash = 4,
        kStartLoss = 8,
        kNotLearning = 16,
    };

    uint8_t scan(const logs::Run& run, RunState& state);
    std::vector<LiveFinding> judge(const logs::LogSet& logs, const std::map<std::string, uint8_t>& triggers,
                                   bool final);
    bool fire(const Finding& f, std::vector<LiveFinding>& out);

    Thresholds m_thresholds;
    std::map<std::string, RunState> m_runs;
    std::map<std::string, Severity> m_firedKeys;  // "id\nrun" -> the severity it fired with
    std::vector<LiveFinding> m_fired;
    size_t m_runCount = 0;
};

}  // namespace qatdoctor::core::rules
