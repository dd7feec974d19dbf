#include "core/rules/rule_support.h"

#include <cmath>
#include <cstdio>

#include "core/common/number_text.h"

namespace qatdoctor::core::rules {

Stage stageForRole(logs::RunRole role)
{
    switch (role) {
        case logs::RunRole::Float:
            return Stage::Float;
        case logs::RunRole::Calibration:
            return Stage::Calibration;
        case logs::RunRole::Quantized:
            return Stage::Export;
        case logs::RunRole::Qat:
        case logs::RunRole::Unknown:
            break;
    }
    return Stage::Qat;
}

namespace {

void setSource(const logs::Run& run, uint32_t fileIndex, int64_t lineOrRecord, Evidence& e)
{
    if (fileIndex >= run.files.size()) return;
    const logs::RunFile& f = run.files[fileIndex];
    e.file = f.path;
    if (f.format == "tfevents") {
        if (lineOrRecord > 0) {
            const std::string n = std::to_string(lineOrRecord);
            if (!e.detailZh.empty()) e.detailZh += "；第 " + n + " 条记录";
            if (!e.detail.empty()) e.detail += "; ";
            e.detail += "record " + n;
        }
    } else {
        e.line = lineOrRecord;
    }
}

}  // namespace

Evidence pointEvidence(const logs::Run& run, const MetricRef& metric, size_t index, std::string detail)
{
    return pointEvidence(run, metric, index, Text{"", std::move(detail)});
}

Evidence pointEvidence(const logs::Run& run, const MetricRef& metric, size_t index, const Text& detail)
{
    Evidence e;
    e.run = run.name;
    e.metric = metric.name;
    e.detail = detail.en;
    e.detailZh = detail.zh;
    if (!metric.series || index >= metric.series->size()) return e;
    const logs::Series& s = *metric.series;
    e.step = s.step[index];
    e.value = s.value[index];
    const logs::PointSource src = s.sourceAt(index);
    setSource(run, src.file, src.lineOrRecord, e);
    return e;
}

Evidence eventEvidence(const logs::Run& run, const logs::RunEvent& event)
{
    Evidence e;
    e.run = run.name;
    e.step = event.step;
    const auto nl = event.text.find('\n');
    e.detail = event.text.substr(0, nl == std::string::npos ? event.text.size() : nl);
    if (e.detail.size() > 200) e.detail = e.detail.substr(0, 197) + "...";
    setSource(run, event.file, event.line, e);
    return e;
}

Evidence runEvidence(const logs::Run& run, std::string detail)
{
    Evidence e;
    e.run = run.name;
    if (!run.files.empty()) e.file = run.files.front().path;
    e.detail = std::move(detail);
    return e;
}

Evidence runEvidence(const logs::Run& run, const Text& detail)
{
    Evidence e = runEvidence(run, detail.en);
    e.detailZh = detail.zh;
    return e;
}

Strength measuredAbove(Text measure, double value, double threshold, bool percent)
{
    return Strength{std::move(measure), value, threshold, true, percent};
}

Strength measuredBelow(Text measure, double value, double threshold, bool percent)
{
    return Strength{std::move(measure), value, threshold, false, percent};
}

std::vector<const logs::Run*> runsWithRole(const logs::LogSet& set, logs::RunRole role)
{
    std::vector<const logs::Run*> out;
    for (const logs::Run& r : set.runs)
        if (r.role == role) out.push_back(&r);
    return out;
}

const logs::Run* qatRunFor(const logs::LogSet& set, const logs::Run* quantized)
{
    const auto qats = runsWithRole(set, logs::RunRole::Qat);
    if (qats.empty()) return nullptr;
    if (quantized) {
        if (auto qspan = wallTimeSpan(*quantized)) {
            const logs::Run* best = nullptr;
            double bestEnd = -INFINITY;
            for (const logs::Run* r : qats) {
                auto span = wallTimeSpan(*r);
                if (span && span->second <= qspan->first && span->second > bestEnd) {
                    best = r;
                    bestEnd = span->second;
                }
            }
            if (best) return best;
        }
    }
    for (const logs::Run* r : qats)
        if (r->name == "qat" || r->name.ends_with("/qat")) return r;
    return qats.front();
}

}  // namespace qatdoctor::core::rules
