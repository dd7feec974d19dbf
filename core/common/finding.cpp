#include "core/common/finding.h"

#include <algorithm>
#include <cassert>

#include "core/common/finding_catalogue.h"
#include "core/common/number_text.h"

namespace qatdoctor::core {

const char* severityName(Severity s)
{
    switch (s) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Info:
            return "info";
    }
    return "info";
}

const char* stageName(Stage s)
{
    switch (s) {
        case Stage::Environment:
            return "environment";
        case Stage::Float:
            return "float";
        case Stage::Calibration:
            return "calibration";
        case Stage::Qat:
            return "qat";
        case Stage::Export:
            return "export";
        case Stage::Deployment:
            return "deployment";
    }
    return "qat";
}

std::optional<Severity> parseSeverity(const std::string& name)
{
    if (name == "error") return Severity::Error;
    if (name == "warning") return Severity::Warning;
    if (name == "info") return Severity::Info;
    return std::nullopt;
}

std::string strengthText(const Strength& s, Lang lang)
{
    const auto number = [&](double v) { return s.percent ? percentText(v) : shortNumber(v); };
    const std::string margin = number(s.margin());
    const bool noisy = std::isfinite(s.noise) && s.noise > 0;
    if (lang == Lang::Zh)
        return s.measure.zh + " " + number(s.value) + "（阈值 " + number(s.threshold) + "，" +
               (s.above ? "超出 " : "低于阈值 ") + margin +
               (noisy ? "；评测自身波动 ±" + number(s.noise) : "") + "）";
    return s.measure.en + " " + number(s.value) + " (threshold " + number(s.threshold) + ", " + margin +
           (s.above ? " above it" : " below it") +
           (noisy ? "; the evaluations wobble by ±" + number(s.noise) : "") + ")";
}

void sortFindings(std::vector<Finding>& findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity) return a.severity > b.severity;
        if (a.stage != b.stage) return a.stage < b.stage;
        return a.id < b.id;
    });
}

Finding makeFinding(std::string id, Severity severity, Stage stage, Text title, Text message, const char* faq)
{
    assert(findingRow(id) && "a finding id without a row in finding_catalogue.cpp");
    Finding f;
    f.id = std::move(id);
    f.severity = severity;
    f.stage = stage;
    f.title = std::move(title);
    f.message = std::move(message);
    f.faq = faq ? faq : "";
    return f;
}

}  // namespace qatdoctor::core
