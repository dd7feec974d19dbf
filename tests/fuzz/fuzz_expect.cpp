// The `--expect FILE` JSON of expected dtypes per module, and the model lint that compares it
// with a real layer table (the int16 fixture model, read once).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>
#include <utility>

#include "core/model/expected_dtypes.h"
#include "core/model/model_lints.h"
#include "core/model/onnx_layer_table.h"

using namespace qatdoctor::core;

namespace {

model::LayerTable fixtureTable()
{
    auto table = model::loadOnnxLayerTable(QATDOCTOR_FUZZ_EXPECT_MODEL);
    if (!table) std::abort();  // the harness is broken, not the parser
    return std::move(*table);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const model::LayerTable table = fixtureTable();
    auto expected =
        model::parseExpectedDtypes(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!expected) return 0;
    std::vector<Finding> findings;
    std::set<std::string> evaluated;
    model::runModelLints(table, *expected, findings, evaluated);
    return 0;
}
