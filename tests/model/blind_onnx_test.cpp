// The blind ONNX cases (tests/data/models/blind_onnx/README.md): every fact expected.json states
// about a model, its layers and its findings, checked on the JSON `model --json` prints.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/analysis_json.h"
#include "core/common/finding_json.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kBlind = fs::path(QATDOCTOR_TEST_DATA) / "models" / "blind_onnx";

// "weight_quant.scales" -> j["weight_quant"]["scales"]; null when any step is missing.
json at(const json& j, const std::string& dotted)
{
    const json* cur = &j;
    size_t pos = 0;
    while (pos <= dotted.size()) {
        const size_t dot = dotted.find('.', pos);
        const std::string key = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        if (!cur->is_object() || !cur->contains(key)) return nullptr;
        cur = &(*cur)[key];
        if (dot == std::string::npos) break;
        pos = dot + 1;
    }
    return *cur;
}

// Numbers equal to float precision (scales are float32 in the model), everything else exactly.
bool same(const json& expected, const json& got)
{
    if (expected.is_number() && got.is_number()) {
        const double e = expected.get<double>(), g = got.get<double>();
        return e == g || std::fabs(e - g) <= 1e-6 * std::max(std::fabs(e), std::fabs(g));
    }
    if (expected.is_array() && got.is_array()) {
        if (expected.size() != got.size()) return false;
        for (size_t i = 0; i < expected.size(); ++i)
            if (!same(expected[i], got[i])) return false;
        return true;
    }
    return expected == got;
}

const json* layerNamed(const json& layers, const json& spec)
{
    std::vector<std::string> names{spec["name"].get<std::string>()};
    if (spec.contains("alt_names"))
        for (const auto& n : spec["alt_names"]) names.push_back(n.get<std::string>());
    for (const std::string& name : names)
        for (const auto& l : layers)
            if (l["name"] == name) return &l;
    return nullptr;
}

void checkLayer(const json& layers, const json& spec, int& checks)
{
    const json* l = layerNamed(layers, spec);
    ASSERT_NE(l, nullptr) << "no layer " << spec["name"];
    for (const auto& [key, want] : spec.items()) {
        if (key == "name" || key == "alt_names" || key == "node") continue;
        ++checks;
        if (key == "flags_contains") {
            for (const auto& flag : want)
                EXPECT_NE(std::find((*l)["flags"].begin(), (*l)["flags"].end(), flag), (*l)["flags"].end())
                    << spec["name"] << " flag " << flag;
        } else if (key == "weight_dtype_prefix") {
            EXPECT_EQ((*l)["weight_dtype"].get<std::string>().rfind(want.get<std::string>(), 0), 0u)
                << spec["name"] << ": " << (*l)["weight_dtype"];
        } else if (key == "weight_dtype_not_float") {
            EXPECT_EQ((*l)["weight_dtype"].get<std::string>().rfind("float", 0) == 0, !want.get<bool>())
                << spec["name"] << ": " << (*l)["weight_dtype"];
        } else {
            EXPECT_TRUE(same(want, at(*l, key)))
                << spec["name"] << " " << key << ": expected " << want << ", got " << at(*l, key);
        }
    }
}

}  // namespace

TEST(BlindOnnx, EveryExpectedFactHolds)
{
    std::ifstream in(kBlind / "expected.json");
    ASSERT_TRUE(in);
    const json expected = json::parse(in);
    int cases = 0, checks = 0;
    for (const auto& [name, c] : expected["cases"].items()) {
        SCOPED_TRACE(name);
        auto table = model::loadOnnxLayerTable((kBlind / c["file"].get<std::string>()).string());
        ASSERT_TRUE(table) << table.error().toString();
        ++cases;
        std::vector<Finding> findings;
        std::set<std::string> evaluated;
        model::runModelLints(*table, {}, findings, evaluated);
        const json modelJson = modelToJson(*table);
        const json layers = layersToJson(*table);
        if (c.contains("model"))
            for (const auto& [key, want] : c["model"].items()) {
                ++checks;
                EXPECT_TRUE(same(want, at(modelJson, key))) << key << ": " << at(modelJson, key);
            }
        for (const auto& spec : c.value("layers", json::array())) checkLayer(layers, spec, checks);
        auto finding = [&](const std::string& id) -> const Finding* {
            for (const Finding& f : findings)
                if (f.id == id) return &f;
            return nullptr;
        };
        for (const auto& spec : c.value("findings_present", json::array())) {
            ++checks;
            const Finding* f = finding(spec["id"].get<std::string>());
            ASSERT_NE(f, nullptr) << spec["id"];
            EXPECT_EQ(severityName(f->severity),
                      spec.value("severity", std::string(severityName(f->severity))));
            if (spec.contains("message_count"))
                EXPECT_NE(
                    f->message.en.find("(" + std::to_string(spec["message_count"].get<int>()) + " node"),
                    std::string::npos)
                    << f->message.en;
        }
        for (const auto& id : c.value("findings_absent", json::array())) {
            ++checks;
            EXPECT_EQ(finding(id.get<std::string>()), nullptr) << id;
        }
        if (c.contains("layer_count_by_op"))
            for (const auto& [op, count] : c["layer_count_by_op"].items()) {
                ++checks;
                int n = 0;
                for (const auto& l : layers) n += l["op"] == op ? 1 : 0;
                EXPECT_EQ(n, count.get<int>()) << op;
            }
    }
    EXPECT_EQ(cases, 43);
    EXPECT_GE(checks, 436);  // every fact of expected.json but the simulator's
}
