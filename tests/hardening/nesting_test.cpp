// Deep nesting in every nested format a user can open: JSON (FAQ trees, JSON-lines logs,
// thresholds overrides, saved wizard sessions) and printed module reprs. Each is bounded: an
// error or warning with a message, never a stack overflow (the sanitizer run uses a small stack
// guard, so recursion per level would show up here).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/artifacts/printed_module.h"
#include "core/faq/faq_base.h"
#include "core/faq/faq_parser.h"
#include "core/faq/wizard_session_json.h"
#include "core/logs/log_reader.h"
#include "core/model/onnx_layer_table.h"
#include "core/model/onnx_nesting.h"
#include "core/rules/thresholds.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

using namespace core;

constexpr size_t kDeep = 200000;

// A model whose one node is an If, whose then-branch holds an If, ... `depth` graphs deep: the
// shape a scripted export of nested control flow has. Built iteratively (the test must not
// recurse either); the innermost branch passes its input through.
std::string nestedIfModel(int depth)
{
    auto graphOf = [](onnx::GraphProto* g, const std::string& name) {
        g->set_name(name);
        auto* out = g->add_output();
        out->set_name("y");
        out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    };
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    onnx::GraphProto* g = m.mutable_graph();
    graphOf(g, "main");
    auto* in = g->add_input();
    in->set_name("cond");
    in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    for (int level = 0; level < depth; ++level) {
        onnx::NodeProto* node = g->add_node();
        node->set_op_type("If");
        node->set_name("if_" + std::to_string(level));
        node->add_input("cond");
        node->add_output("y");
        onnx::AttributeProto* then = node->add_attribute();
        then->set_name("then_branch");
        then->set_type(onnx::AttributeProto::GRAPH);
        g = then->mutable_g();
        graphOf(g, "then_" + std::to_string(level));
    }
    onnx::NodeProto* leaf = g->add_node();
    leaf->set_op_type("Identity");
    leaf->add_input("cond");
    leaf->add_output("y");
    std::string bytes;
    m.SerializeToString(&bytes);
    return bytes;
}

TEST(Nesting, AModelOfNestedSubgraphsReadsUpToTheLimitAndIsNotCalledCorrupt)
{
    TempDir dir("onnx_nesting");
    // 60 graphs deep: past protobuf's default limit (33), which called such a file "corrupt"
    const std::string valid = dir / "nested60.onnx";
    writeBytes(valid, nestedIfModel(60));
    auto table = model::loadOnnxLayerTable(valid);
    ASSERT_TRUE(table) << table.error().toString();
    EXPECT_EQ(model::onnxNestingDepth(nestedIfModel(60)), 1 + 60 * 3 + 2);
    // past the reader's limit: refused as too deep, naming the file, never as corrupt
    const std::string deep = dir / "nested400.onnx";
    writeBytes(deep, nestedIfModel(400));
    auto refused = model::loadOnnxLayerTable(deep);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, "onnx.too_deep");
    EXPECT_NE(refused.error().message.find("nested400.onnx"), std::string::npos);
    EXPECT_EQ(refused.error().message.find("corrupt"), std::string::npos);
    // a truncated file is still corrupt, not deep
    const std::string bytes = nestedIfModel(60);
    writeBytes(dir / "cut.onnx", bytes.substr(0, bytes.size() / 2));
    auto cut = model::loadOnnxLayerTable(dir / "cut.onnx");
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().code, "onnx.parse");
}

TEST(Nesting, FaqTreeTooDeepIsAnError)
{
    for (const std::string& doc : {nestedArrays(kDeep), nestedObjects(kDeep)}) {
        std::vector<Error> errors;
        const faq::ParsedFile parsed = faq::parseFaqFile(doc, "faq/10_deep.json", errors);
        ASSERT_FALSE(errors.empty());
        EXPECT_EQ(errors.front().code, "faq.too_deep");
        EXPECT_EQ(errors.front().file, "faq/10_deep.json");
        EXPECT_TRUE(parsed.topics.empty());
    }
}

TEST(Nesting, JsonlLineTooDeepIsAWarning)
{
    TempDir dir("jsonl");
    const std::string path = dir / "metrics.jsonl";
    writeBytes(path, "{\"step\": 1, \"loss\": 0.5}\n{\"step\": 2, \"x\": " + nestedObjects(kDeep) +
                         "}\n{\"step\": 3, \"loss\": " + nestedArrays(kDeep) +
                         "}\n{\"step\": 4, \"loss\": 0.25}\n");
    auto set = logs::readLogFile(path);
    ASSERT_TRUE(set) << set.error().toString();
    ASSERT_FALSE(set->warnings.empty());
    EXPECT_NE(set->warnings.front().toString().find("metrics.jsonl"), std::string::npos);
    EXPECT_EQ(set->warnings.front().line, 2);
    EXPECT_EQ(set->runs.at(0).series.at("loss").value.size(), 2u);
}

TEST(Nesting, ThresholdsOverrideTooDeepIsAnError)
{
    const std::string doc = "{\"thresholds\": {\"divergence.loss_ratio\": " + nestedObjects(kDeep) + "}}";
    auto r = rules::applyThresholds(doc, "deep.json", rules::defaultThresholds());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("deep.json"), std::string::npos);
    auto arrays = rules::applyThresholds(nestedArrays(kDeep), "deep.json", rules::defaultThresholds());
    ASSERT_FALSE(arrays);
    EXPECT_EQ(arrays.error().code, "thresholds.parse");
}

TEST(Nesting, WizardSessionTooDeepStopsTheReplay)
{
    const faq::FaqLoad load = faq::FaqBase::loadDirectory(std::string(QATDOCTOR_SOURCE_DIR) + "/faq");
    ASSERT_FALSE(load.base.empty());
    const std::string doc = "{\"start\": \"" + load.base.topics().front().id + "\", \"path\": [" +
                            nestedObjects(kDeep) + "], \"overridden\": " + nestedArrays(kDeep) + "}";
    const nlohmann::json j = nlohmann::json::parse(doc, nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    auto s = faq::sessionFromJson(j, &load.base);
    ASSERT_TRUE(s) << s.error().toString();
    EXPECT_TRUE(s->path().empty());
}

TEST(Nesting, PrintedModuleTooDeepIsAnErrorNamingTheLine)
{
    std::string text = "Net(\n";
    for (int i = 0; i < 5000; ++i) text += "(m" + std::to_string(i) + "): Sequential(\n";
    for (int i = 0; i < 5000; ++i) text += ")\n";
    text += ")\n";
    auto r = artifacts::parsePrintedModule(text, "deep.txt");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "printed.too_deep");
    EXPECT_GE(r.error().line, artifacts::kMaxModuleDepth);
    EXPECT_LE(r.error().line, artifacts::kMaxModuleDepth + 2);
    EXPECT_NE(r.error().message.find("deep.txt:"), std::string::npos);
    // Parentheses nested inside one module's args (a printed tuple of tuples) are text, not depth.
    const std::string args = "Net(\n  (conv): Conv2d(3, 8, kernel_size=" + std::string(kDeep, '(') + "3" +
                             std::string(kDeep, ')') + ")\n)\n";
    auto flat = artifacts::parsePrintedModule(args, "args.txt");
    EXPECT_TRUE(flat) << flat.error().toString();
}

}  // namespace
}  // namespace qatdoctor::test
