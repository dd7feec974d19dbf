#include "core/rules/stage_views.h"

#include <algorithm>

namespace qatdoctor::core::rules {

std::vector<logs::Run> stageViews(const std::vector<logs::Run>& runs)
{
    constexpr logs::RunRole kStages[] = {logs::RunRole::Float, logs::RunRole::Calibration, logs::RunRole::Qat,
                                         logs::RunRole::Quantized};
    std::vector<logs::Run> out;
    for (const logs::Run& run : runs) {
        logs::Run own = run;
        std::vector<logs::Run> views;
        for (logs::RunRole stage : kStages) {
            const std::string prefix = std::string(logs::roleName(stage)) + "/";
            logs::Run view;
            for (auto it = own.series.begin(); it != own.series.end();) {
                if (!it->first.starts_with(prefix)) {
                    ++it;
                    continue;
                }
                view.series.insert(*it);
                if (auto why = run.stageReasons.find(it->first); why != run.stageReasons.end())
                    view.stageReasons.insert(*why);
                it = own.series.erase(it);
            }
            if (view.series.empty()) continue;
            view.name = run.name;
            view.role = stage;
            // the view's stage is what its series' lines said
            view.roleReason = view.stageReasons.empty() ? run.roleReason : view.stageReasons.begin()->second;
            view.files = run.files;
            for (const logs::RunEvent& e : run.events)
                if (e.stage == stage) view.events.push_back(e);
            for (const auto& [key, value] : run.metadata)
                if (key.starts_with(prefix)) view.metadata[key.substr(prefix.size())] = value;
            for (const auto& [key, value] : run.metadata)
                if (key.find('/') == std::string::npos) view.metadata.emplace(key, value);
            views.push_back(std::move(view));
        }
        // the run keeps the events of its own stage and those of no named stage
        std::erase_if(own.events, [&](const logs::RunEvent& e) {
            return e.stage && *e.stage != run.role &&
                   std::any_of(views.begin(), views.end(),
                               [&](const logs::Run& v) { return v.role == *e.stage; });
        });
        out.push_back(std::move(own));
        for (logs::Run& v : views) out.push_back(std::move(v));
    }
    return out;
}

}  // namespace qatdoctor::core::rules
