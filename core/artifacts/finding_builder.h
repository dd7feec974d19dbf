// Internal: building Findings with evidence compactly (the artifact checks make many).
#pragma once

#include <string>
#include <vector>

#include "core/common/finding.h"
#include "core/common/number_text.h"
#include "core/model/layer_table.h"

namespace qatdoctor::core::artifacts {

inline constexpr size_t kMaxEvidence = 20;  // a finding lists at most this many places

inline void addEvidence(Finding& f, const std::string& file, int64_t line, const std::string& layer,
                        std::string detail, std::optional<double> value = std::nullopt,
                        std::string metric = {})
{
    if (f.evidence.size() >= kMaxEvidence) return;
    Evidence e;
    e.file = file;
    e.line = line;
    e.layer = layer;
    e.detail = std::move(detail);
    e.value = value;
    e.metric = std::move(metric);
    f.evidence.push_back(std::move(e));
}

inline void addLayerEvidence(Finding& f, const model::Layer& l, std::string detail)
{
    addEvidence(f, l.source.file, l.source.line, l.name, std::move(detail));
}

inline bool hasFlag(const model::Layer& l, const char* flag)
{
    for (const auto& f : l.flags)
        if (f == flag) return true;
    return false;
}

}  // namespace qatdoctor::core::artifacts
