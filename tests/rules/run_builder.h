// Builds small Runs in code for rule unit tests: the values come from the real fixture runs
// (tests/data/runs/MANIFEST.json) or are the smallest data that shows one rule's edge.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis.h"

namespace qatdoctor::core::testing {

class RunBuilder {
public:
    RunBuilder(std::string name, logs::RunRole role)
    {
        m_run.name = std::move(name);
        m_run.role = role;
        m_run.files.push_back({m_run.name + "/train.log", "text", 0});
    }

    // values at steps first, first+every, ...; line numbers 10, 11, ...; epochs = index / perEpoch.
    RunBuilder& series(const std::string& name, std::vector<double> values, double first = 0,
                       double every = 1, int perEpoch = 0)
    {
        logs::Series& s = m_run.series[name];
        s.markFile(0);
        for (size_t i = 0; i < values.size(); ++i) {
            if (perEpoch > 0) s.markEpoch(static_cast<float>(i / static_cast<size_t>(perEpoch)));
            s.push(first + every * static_cast<double>(i), static_cast<float>(values[i]),
                   static_cast<uint32_t>(m_nextLine++));
        }
        return *this;
    }

    RunBuilder& meta(const std::string& key, const std::string& value)
    {
        m_run.metadata[key] = value;
        return *this;
    }

    RunBuilder& event(logs::RunEvent::Kind kind, std::string text, int64_t line)
    {
        m_run.events.push_back({kind, std::move(text), 0, line, std::nullopt});
        return *this;
    }

    logs::Run build() const { return m_run; }

private:
    logs::Run m_run;
    int m_nextLine = 10;
};

// A series of values at steps first, first+every, ... (lines from 10), for replacing one in a run.
inline logs::Series makeSeries(std::vector<double> values, double first = 0, double every = 1,
                               int perEpoch = 0)
{
    return RunBuilder("x", logs::RunRole::Unknown)
        .series("s", std::move(values), first, every, perEpoch)
        .build()
        .series.at("s");
}

inline Analysis analysisOf(std::initializer_list<logs::Run> runs)
{
    Analysis a;
    a.logs.runs = runs;
    return a;
}

}  // namespace qatdoctor::core::testing
