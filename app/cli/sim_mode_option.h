// The --mode option of `simulate`: all, float, fake or int, as the simulator's modes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fixedpoint/interpreter.h"

namespace qatdoctor::cli {

// nullopt for anything else (the caller says what --mode wants).
inline std::optional<std::vector<core::fixedpoint::SimMode>> parseSimModes(const std::string& name)
{
    using core::fixedpoint::SimMode;
    if (name == "all") return std::vector<SimMode>{SimMode::Float, SimMode::Fake, SimMode::Int};
    for (SimMode m : {SimMode::Float, SimMode::Fake, SimMode::Int})
        if (name == core::fixedpoint::simModeName(m)) return std::vector<SimMode>{m};
    return std::nullopt;
}

}  // namespace qatdoctor::cli
