// Typed access to an ONNX node's attributes with defaults.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace qatdoctor::core::fixedpoint {

class NodeAttrs {
public:
    explicit NodeAttrs(const onnx::NodeProto& node) : m_node(node) {}

    bool has(const std::string& name) const { return find(name) != nullptr; }
    int64_t i(const std::string& name, int64_t def) const
    {
        const auto* a = find(name);
        return a ? a->i() : def;
    }
    float f(const std::string& name, float def) const
    {
        const auto* a = find(name);
        return a ? a->f() : def;
    }
    std::string s(const std::string& name, const std::string& def = {}) const
    {
        const auto* a = find(name);
        return a ? a->s() : def;
    }
    std::vector<int64_t> ints(const std::string& name, std::vector<int64_t> def = {}) const
    {
        const auto* a = find(name);
        return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : def;
    }
    std::vector<float> floats(const std::string& name) const
    {
        const auto* a = find(name);
        return a ? std::vector<float>(a->floats().begin(), a->floats().end()) : std::vector<float>{};
    }
    const onnx::TensorProto* tensor(const std::string& name) const
    {
        const auto* a = find(name);
        return a && a->has_t() ? &a->t() : nullptr;
    }
    const onnx::AttributeProto* find(const std::string& name) const
    {
        for (const auto& a : m_node.attribute())
            if (a.name() == name) return &a;
        return nullptr;
    }

private:
    const onnx::NodeProto& m_node;
};

}  // namespace qatdoctor::core::fixedpoint
