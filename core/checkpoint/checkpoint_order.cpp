#include "core/checkpoint/checkpoint_order.h"

#include <algorithm>
#include <filesystem>

#include "core/checkpoint/checkpoint_lints.h"
#include "core/common/text.h"

namespace qatdoctor::core::checkpoint {

std::optional<int> pipelineRank(const std::string& path)
{
    const std::optional<Stage> stage = stageFromFileName(path);
    // "prepared_qat_epoch5" is QAT; "qat_uncalibrated" (read as calibration) came before it
    if (stage != Stage::Qat && stage != Stage::Export) {
        const std::string name = std::filesystem::path(path).filename().string();
        for (const char* before : {"uncalib", "prepared", "Uncalib", "Prepared"})
            if (name.find(before) != std::string::npos) return 2 * static_cast<int>(Stage::Calibration) - 1;
    }
    return stage ? std::optional<int>(2 * static_cast<int>(*stage)) : std::nullopt;
}

std::vector<const CheckpointRead*> orderCheckpoints(const std::vector<CheckpointRead>& checkpoints)
{
    std::vector<const CheckpointRead*> order;
    order.reserve(checkpoints.size());
    for (const CheckpointRead& c : checkpoints) order.push_back(&c);
    const bool named = std::all_of(order.begin(), order.end(), [](const CheckpointRead* c) {
        return pipelineRank(c->file.path).has_value();
    });
    if (named)
        std::stable_sort(order.begin(), order.end(), [](const auto* x, const auto* y) {
            const int rx = *pipelineRank(x->file.path), ry = *pipelineRank(y->file.path);
            return rx != ry ? rx < ry : naturalLess(x->file.path, y->file.path);
        });
    return order;
}

bool trainedBetween(const CheckpointRead& from, const CheckpointRead& to)
{
    const std::optional<int> rankTo = pipelineRank(to.file.path);
    const bool qatStage = !rankTo || *rankTo == 2 * static_cast<int>(Stage::Qat);
    return from.quantized() && to.quantized() && qatStage;
}

}  // namespace qatdoctor::core::checkpoint
