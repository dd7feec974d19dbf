// qatdoctor-cli watch PATH... : follows training logs while they are written and says each
// finding the moment it becomes true; exits 1 at the first one at or above --fail-on, so a job
// script can stop the job it watches.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <thread>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/run_hook.h"
#include "core/common/change_waiter.h"
#include "core/common/finding_json.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/live_watch.h"

namespace qatdoctor::cli {
namespace {

using Clock = std::chrono::steady_clock;
using Seconds = std::chrono::duration<double>;

constexpr const char* kUsage =
    "Usage: qatdoctor-cli watch PATH... [--fail-on error|warning|info|none] [--json]\n"
    "                           [--timeout S] [--exec CMD] [--interval S] [--settle S]\n"
    "                           [--lang zh|en] [--thresholds FILE]\n\n"
    "Follows training log folders (new files and run folders included) or files while they are\n"
    "written, and prints each finding of the rules that can judge a run early (loss.nonfinite,\n"
    "loss.divergence, run.crashed, qat.start_loss_high, qat.not_learning) once, at the step where\n"
    "it became true. A path that does not exist yet is waited for.\n"
    "  --fail-on SEV  exit 1 at the first finding at or above SEV (default error; none: never)\n"
    "  --json         one JSON object per line: {\"event\":\"finding\",...} as each fires, notices,\n"
    "                 and a last {\"event\":\"end\",\"reason\":...,\"exit\":...,\"runs\":[...]}\n"
    "  --timeout S    stop (exit 0) after S seconds without a new byte in any path\n"
    "  --exec CMD     run CMD with /bin/sh -c for each finding, with QATDOCTOR_FINDING_ID,\n"
    "                 _SEVERITY, _TITLE, _RUN, _STEP, _FILE, _LINE, _PATH and _JSON in its\n"
    "                 environment (file contents never enter the command text); watch waits for it\n"
    "  --interval S   the longest wait between two reads (default 1). Local writes wake the watch\n"
    "                 at once (inotify): a flushed line is judged within about 0.1 s; on network\n"
    "                 file systems, whose remote writes inotify does not see, within S\n"
    "  --poll         never wait for inotify, read every --interval (file systems that report\n"
    "                 nothing, where the kernel's watch limit is used up)\n"
    "  --settle S     once every run has ended, how long to wait for a new run (default 5)\n"
    "  --lang zh|en   language of the findings (default en)\n"
    "  --thresholds FILE  JSON overriding rule thresholds (as analyze)\n\n"
    "A run has ended at its framework's final line (Lightning, HF Trainer, YOLO, torchvision,\n"
    "timm, HAT), at HF's train_runtime summary, or with an evaluation for every planned epoch.\n"
    "Exit: 0 = every run ended (or --timeout passed) with nothing at or above --fail-on;\n"
    "      1 = a finding at or above --fail-on; 2 = usage or input error.\n"
    "In a job script: qatdoctor-cli watch logs/ --fail-on error || scancel \"$SLURM_JOB_ID\"\n";

// A wake by the file system is followed by this pause before reading: the other lines of the
// same burst (a traceback, a batch of records) are read with it, and a log written without pause
// is read at most every kBurst (each read rebuilds the runs), a NaN said well within a second.
constexpr auto kBurst = std::chrono::milliseconds(200);

// Now, as the terminal reads it (local "14:02:03") or as JSON records it (UTC, ISO 8601).
std::string timeNow(bool utcIso)
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    if (utcIso)
        gmtime_r(&now, &tm);
    else
        localtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, utcIso ? "%Y-%m-%dT%H:%M:%SZ" : "%H:%M:%S", &tm);
    return buf;
}

std::optional<double> parseSeconds(const std::string& text)
{
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v >= 0 && v < 1e9) return v;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

struct WatchSettings {
    std::optional<core::Severity> failOn = core::Severity::Error;  // nullopt: never
    bool json = false;
    core::Lang lang = core::Lang::En;
    std::optional<double> timeout;
    double interval = 1.0;
    double settle = 5.0;
    std::string exec;
    bool poll = false;  // no inotify: every read on the --interval
};

class WatchPrinter {
public:
    WatchPrinter(const WatchSettings& settings, CommandIo io) : m_settings(settings), m_io(io) {}

    // Says the finding; true when it is at or above --fail-on.
    bool finding(const core::WatchedFinding& w)
    {
        const core::Finding& f = w.live.finding;
        const core::Evidence* at = f.evidence.empty() ? nullptr : &f.evidence.front();
        if (m_settings.json) {
            nlohmann::json j{
                {"event", "finding"}, {"time", timeNow(true)}, {"path", w.path}, {"run", w.live.run}};
            if (w.live.step) j["step"] = core::jsonCount(*w.live.step);
            j["finding"] = core::findingToJson(f, m_settings.lang);
            m_io.out << core::jsonText(j, -1) << std::endl;
        } else {
            m_io.out << timeNow(false) << "  " << core::severityName(f.severity) << "  " << f.id << "  "
                     << f.title.in(m_settings.lang) << "\n";
            if (at && !at->file.empty())
                m_io.out << "          at " << at->file
                         << (at->line > 0 ? ":" + std::to_string(at->line) : "")
                         << (w.live.step ? ", step " + core::fullNumber(*w.live.step) : "") << "\n";
            if (at && !at->detailIn(m_settings.lang).empty())
                m_io.out << "          " << at->detailIn(m_settings.lang) << "\n";
            if (!f.faq.empty()) m_io.out << "          FAQ: " << f.faq << "\n";
            m_io.out << std::flush;
        }
        if (!m_settings.exec.empty()) runExec(w);
        return m_settings.failOn && f.severity >= *m_settings.failOn;
    }

    void notice(const core::Warning& w)
    {
        if (m_settings.json)
            m_io.out << core::jsonText({{"event", "notice"}, {"warning", core::warningToJson(w)}}, -1)
                     << std::endl;
        else
            m_io.err << "watch: " << w.toString() << std::endl;
    }

    void start(const std::vector<std::string>& paths, bool native)
    {
        const std::string how =
            native ? "changes wake it; polls every " + core::fullNumber(m_settings.interval) + " s"
                   : "polling every " + core::fullNumber(m_settings.interval) + " s";
        if (m_settings.json) {
            m_io.out << nlohmann::json{{"event", "start"},
                                       {"time", timeNow(true)},
                                       {"paths", paths},
                                       {"inotify", native}}
                            .dump()
                     << std::endl;
            return;
        }
        m_io.err << "watch: following";
        for (const std::string& p : paths) m_io.err << " " << p;
        m_io.err << " (" << how << ")" << std::endl;
    }

    int end(const std::string& reason, int exit, const core::LiveWatch& watch)
    {
        const std::vector<core::WatchedRunEnd> ends = watch.runEnds();
        if (m_settings.json) {
            nlohmann::json runs = nlohmann::json::array();
            for (size_t p = 0; p < watch.paths().size(); ++p)
                for (const core::logs::Run& run : watch.logs(p).runs) {
                    nlohmann::json r{{"path", watch.paths()[p]}, {"run", run.name}, {"ended", false}};
                    for (const core::WatchedRunEnd& e : ends)
                        if (e.path == watch.paths()[p] && e.run == run.name) {
                            r["ended"] = true;
                            r["why"] = e.end.why.in(m_settings.lang);
                        }
                    // a crash ends a run too (said as run.crashed)
                    for (const core::WatchedFinding& f : watch.fired())
                        if (f.path == watch.paths()[p] && f.live.run == run.name &&
                            f.live.finding.id == "run.crashed") {
                            r["ended"] = true;
                            r["why"] = "run.crashed";
                        }
                    runs.push_back(std::move(r));
                }
            m_io.out << core::jsonText({{"event", "end"},
                                        {"time", timeNow(true)},
                                        {"reason", reason},
                                        {"exit", exit},
                                        {"findings", watch.fired().size()},
                                        {"runs", runs}},
                                       -1)
                     << std::endl;
            return exit;
        }
        m_io.err << "watch: " << reason << ": " << watch.runCount() << " run(s), " << watch.fired().size()
                 << " finding(s)";
        for (const core::WatchedRunEnd& e : ends)
            m_io.err << "\n  " << e.run << ": " << e.end.why.in(m_settings.lang);
        m_io.err << std::endl;
        return exit;
    }

private:
    void runExec(const core::WatchedFinding& w)
    {
        const core::Finding& f = w.live.finding;
        const core::Evidence* at = f.evidence.empty() ? nullptr : &f.evidence.front();
        std::vector<std::pair<std::string, std::string>> env = {
            {"QATDOCTOR_FINDING_ID", f.id},
            {"QATDOCTOR_SEVERITY", core::severityName(f.severity)},
            {"QATDOCTOR_TITLE", f.title.in(m_settings.lang)},
            {"QATDOCTOR_RUN", w.live.run},
            {"QATDOCTOR_STEP", w.live.step ? core::jsonCount(*w.live.step).dump() : ""},
            {"QATDOCTOR_FILE", at ? at->file : ""},
            {"QATDOCTOR_LINE", at && at->line > 0 ? std::to_string(at->line) : ""},
            {"QATDOCTOR_PATH", w.path},
            {"QATDOCTOR_JSON", core::jsonText(core::findingToJson(f, m_settings.lang), -1)},
        };
        // under --json stdout is one JSON object per line: the hook's own output goes to stderr
        const core::Result<int> rc = runHook(m_settings.exec, env, m_settings.json);
        if (!rc)
            m_io.err << "watch: --exec: " << rc.error().toString() << std::endl;
        else if (*rc != 0)
            m_io.err << "watch: --exec exited with " << *rc << std::endl;
    }

    const WatchSettings& m_settings;
    CommandIo m_io;
};

std::optional<WatchSettings> readSettings(const Args& args, CommandIo io, core::rules::Thresholds& thresholds)
{
    WatchSettings s;
    s.json = args.has("json");
    s.poll = args.has("poll");
    s.lang = core::parseLang(args.value("lang").value_or("en"));
    s.exec = args.value("exec").value_or("");
    const std::string failOn = args.value("fail-on").value_or("error");
    if (failOn == "none") {
        s.failOn.reset();
    } else if (!(s.failOn = core::parseSeverity(failOn))) {
        io.err << "watch: --fail-on wants error, warning, info or none\n";
        return std::nullopt;
    }
    for (const auto& [name, target] : {std::pair<const char*, double*>{"interval", &s.interval},
                                       std::pair<const char*, double*>{"settle", &s.settle}}) {
        if (!args.value(name)) continue;
        const auto v = parseSeconds(*args.value(name));
        if (!v) {
            io.err << "watch: --" << name << " wants seconds, got '" << *args.value(name) << "'\n";
            return std::nullopt;
        }
        *target = *v;
    }
    s.interval = std::clamp(s.interval, 0.05, 3600.0);
    if (args.value("timeout")) {
        s.timeout = parseSeconds(*args.value("timeout"));
        if (!s.timeout) {
            io.err << "watch: --timeout wants seconds, got '" << *args.value("timeout") << "'\n";
            return std::nullopt;
        }
    }
    if (const auto path = args.value("thresholds")) {
        auto t = core::rules::loadThresholds(*path);
        if (!t) {
            io.err << "watch: " << t.error().toString() << "\n";
            return std::nullopt;
        }
        thresholds = *t;
    }
    return s;
}

int runWatch(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"fail-on", "timeout", "exec", "interval", "settle", "lang", "thresholds"},
              {"json", "poll"});
    if (!args.ok() || args.positionals().empty()) {
        io.err << "watch: " << (args.ok() ? "give at least one PATH" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    core::rules::Thresholds thresholds = core::rules::defaultThresholds();
    const std::optional<WatchSettings> settings = readSettings(args, io, thresholds);
    if (!settings) return kExitUsage;
    WatchPrinter printer(*settings, io);
    core::LiveWatch watch(args.positionals(), thresholds);
    core::ChangeWaiter waiter;
    auto lastGrowth = Clock::now();
    bool allEnded = false;  // every run ended, since endedAt, and nothing grew since
    Clock::time_point endedAt{};
    bool started = false;
    auto fired = [&](const std::vector<core::WatchedFinding>& findings) {
        bool fail = false;
        for (const core::WatchedFinding& f : findings) fail = printer.finding(f) || fail;
        return fail;
    };
    for (;;) {
        core::WatchRead read = watch.read();
        for (const core::Warning& w : read.notices) printer.notice(w);
        if (fired(read.fired)) return printer.end("failed", kExitFindings, watch);
        const auto now = Clock::now();
        if (read.grew) lastGrowth = now;
        if (!settings->poll) waiter.watch(watch.watchedPaths());
        if (!started) {
            printer.start(watch.paths(), waiter.native());
            started = true;
        }
        // every run ended and no new one for --settle seconds, or nothing new for --timeout
        const bool allEndedNow = watch.allRunsEnded() && !read.grew;
        if (allEndedNow && !allEnded) endedAt = now;
        allEnded = allEndedNow;
        const bool ended = allEnded && Seconds(now - endedAt).count() >= settings->settle;
        const bool idle = settings->timeout && Seconds(now - lastGrowth).count() >= *settings->timeout;
        if (ended || idle) {
            const bool fail = fired(watch.finish());
            return printer.end(fail    ? "failed"
                               : ended ? "finished"
                                       : "timeout",
                               fail ? kExitFindings : kExitOk, watch);
        }
        double wait = settings->interval;
        if (allEnded) wait = std::min(wait, settings->settle - Seconds(now - endedAt).count());
        if (settings->timeout) wait = std::min(wait, *settings->timeout - Seconds(now - lastGrowth).count());
        const auto waitFor =
            std::chrono::milliseconds(static_cast<int64_t>(std::max(0.0, wait) * 1000.0) + 1);
        if (waiter.wait(waitFor)) std::this_thread::sleep_for(kBurst);
    }
}

}  // namespace

Command watchCommand()
{
    return {"watch", "follow training logs as they are written; exit 1 at the first finding", kUsage,
            runWatch};
}

}  // namespace qatdoctor::cli
