#include "core/model/fusion.h"

#include <array>
#include <utility>

namespace qatdoctor::core::model {
namespace {

constexpr std::array<std::pair<std::string_view, FusionRole>, 18> kFusionTable = {{
    {"Conv", FusionRole::Compute},
    {"ConvTranspose", FusionRole::Compute},
    {"Gemm", FusionRole::Compute},
    {"MatMul", FusionRole::Compute},
    {"BatchNormalization", FusionRole::Affine},
    {"Identity", FusionRole::Affine},
    {"Add", FusionRole::Affine},
    {"Sub", FusionRole::Affine},
    {"Mul", FusionRole::Affine},
    {"Div", FusionRole::Affine},
    {"Relu", FusionRole::Activation},
    {"LeakyRelu", FusionRole::Activation},
    {"PRelu", FusionRole::Activation},
    {"Clip", FusionRole::Activation},
    {"Sigmoid", FusionRole::Activation},
    {"HardSigmoid", FusionRole::Activation},
    {"HardSwish", FusionRole::Activation},
    {"Tanh", FusionRole::Activation},
}};

}  // namespace

FusionRole fusionRole(std::string_view op)
{
    for (const auto& [name, role] : kFusionTable)
        if (name == op) return role;
    return FusionRole::None;
}

bool needsConstantOperand(std::string_view op)
{
    return op == "Add" || op == "Sub" || op == "Mul" || op == "Div";
}

}  // namespace qatdoctor::core::model
