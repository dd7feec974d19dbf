// The one type every check produces: log rules, model lints, artifact readers and the simulator.
// GUI pages, the CLI's text and JSON, the wizard's automatic answers and the report all read it.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/common/text.h"

namespace qatdoctor::core {

enum class Severity { Info = 0, Warning = 1, Error = 2 };

// Where in the pipeline the trouble points (the FAQ's "first decide: training, export or
// deployment"). Environment covers machine set-up (GPU, docker).
enum class Stage { Environment, Float, Calibration, Qat, Export, Deployment };

// A pointer to the data behind a finding, precise enough to navigate to: a run and step on a
// curve, a file and line in a text file, or a layer of a model. Unused fields stay empty.
struct Evidence {
    std::string run;              // run name (logs)
    std::string file;             // file path as loaded
    int64_t line = 0;             // 1-based line in file, 0 = none
    std::optional<double> step;   // step on the run's x-axis
    std::string metric;           // series name ("loss", "val/acc")
    std::optional<double> value;  // the numeric value involved (may be NaN/Inf)
    std::string layer;            // layer / module name (models)
    std::string detail;           // short free text ("first loss 4.2 vs float end 0.31")
    std::string detailZh;         // the detail in Chinese; "" = the same words (names, numbers)

    const std::string& detailIn(Lang lang) const
    {
        return lang == Lang::Zh && !detailZh.empty() ? detailZh : detail;
    }
};

// How far past its threshold a measured finding is, so that a borderline call reads apart from
// a clear one (the FAQ's "clearly below" made a number). Facts (a traceback, a missing setting)
// have none.
struct Strength {
    Text measure;          // what value is: "relative accuracy drop"
    double value = 0;      // as measured
    double threshold = 0;  // the threshold crossed (resources/thresholds.json)
    bool above = true;     // the finding holds above the threshold (false: below it)
    bool percent = false;  // value and threshold are fractions, shown as percent
    // How much the measurement wobbles by itself, in value's units (NaN = unknown): a margin
    // within twice this is not shown by the data, only suggested (finding_catalogue.h).
    double noise = NAN;

    // How far past the threshold, in value's units (>= 0 when the finding holds).
    double margin() const { return above ? value - threshold : threshold - value; }
};

// "relative accuracy drop 73.0% (threshold 10.0%, 63.0% above it)"
std::string strengthText(const Strength& s, Lang lang);

// How strong a finding's evidence is against its catalogue row's standard (finding_catalogue.h):
// decisive (a fact or a measurement clearly past its threshold), corroborated (two independent
// suggestive signals: at most a warning), suggestive (one signal alone: at most an info note).
enum class EvidenceLevel { Decisive = 0, Corroborated = 1, Suggestive = 2 };

struct Finding {
    std::string id;  // stable check id, e.g. "loss.nonfinite"
    Severity severity = Severity::Warning;
    Stage stage = Stage::Qat;
    Text title;    // one line
    Text message;  // explanation + the FAQ's advice in short
    std::vector<Evidence> evidence;
    std::string faq;  // FAQ topic id to open in the wizard ("" = none)
    std::optional<Strength> strength;
    // The data recovered by itself (one evaluation's loss NaN, finite again at the next): listed
    // as found, but a glitch that training never saw is not where trouble starts (no verdict).
    bool recovered = false;
    EvidenceLevel evidenceLevel = EvidenceLevel::Decisive;
};

// The one constructor of a Finding; evidence and strength are added by the caller. faq = the FAQ
// topic id the finding's advice comes from (nullptr or "" = none). id must have a row in the
// finding catalogue (finding_catalogue.h): checked builds assert it.
Finding makeFinding(std::string id, Severity severity, Stage stage, Text title, Text message,
                    const char* faq = "");

const char* severityName(Severity s);  // "error" | "warning" | "info"
const char* stageName(Stage s);        // "environment" | "float" | "calibration" | ...
std::optional<Severity> parseSeverity(const std::string& name);

// Sorts most severe first, then by stage order, then id; stable for equal keys.
void sortFindings(std::vector<Finding>& findings);

}  // namespace qatdoctor::core
