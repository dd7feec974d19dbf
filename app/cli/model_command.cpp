// qatdoctor-cli model FILE [--json] [--expect FILE]: the per-layer table of one model and the
// model lints' findings. FILE is usually an ONNX export; any model form the input table reads
// (printed modules, model_check_result.txt) works too.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/text_output.h"
#include "core/analysis.h"
#include "core/analysis_json.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"

namespace qatdoctor::cli {
namespace {

constexpr const char* kUsage =
    "Usage: qatdoctor-cli model FILE [--json] [--expect FILE] [--lang zh|en] [--fail-on SEV]\n\n"
    "Prints the per-layer table of an exported model (ONNX: QDQ, QLinear, horizon HzQuantize,\n"
    "converted int8) and the model findings (output precision, shared observers, uncalibrated\n"
    "scales, auxiliary branches, float islands, int16 expectations, custom GridSample).\n"
    "  --expect FILE     JSON {module name: dtype} of the dtypes you configured (int16 checks)\n"
    "  --json            {\"model\": {...}, \"layers\": [...], \"findings\": [...]}\n"
    "  --lang zh|en      language of titles and messages (default en)\n"
    "  --fail-on SEV     exit 1 when a finding at or above SEV exists (default error)\n";

std::string dtypes(const std::vector<core::model::DType>& list)
{
    std::string s;
    for (auto d : list) s += (s.empty() ? "" : ",") + std::string(core::model::dtypeName(d));
    return s.empty() ? "-" : s;
}

std::string shortScale(const core::model::Layer& l)
{
    if (!l.outputQuant || l.outputQuant->scales.empty()) return "-";
    return core::shortNumber(l.outputQuant->scales.front());
}

void printTable(std::ostream& out, const core::model::LayerTable& t)
{
    out << "Model: " << t.sourcePath << "  (" << t.format;
    if (t.opset > 0) out << ", opset " << t.opset;
    if (!t.producer.empty()) out << ", " << t.producer;
    out << ", " << t.layers.size() << " layers)\n";
    size_t nameWidth = 5, opWidth = 14;
    for (const auto& l : t.layers) {
        nameWidth = std::max(nameWidth, std::min<size_t>(l.name.size(), 48));
        opWidth = std::max(opWidth, std::min<size_t>(l.op.size(), 48));
    }
    out << std::left << std::setw(static_cast<int>(nameWidth) + 2) << "layer"
        << std::setw(static_cast<int>(opWidth) + 2) << "op" << std::setw(16) << "input" << std::setw(26)
        << "weight" << std::setw(15) << "output" << std::setw(11) << "out scale"
        << "flags\n";
    for (const auto& l : t.layers) {
        std::string weight = core::model::dtypeCellText(l.weightDtype, l.weightQuant);
        const std::string gran = core::model::granularityName(l);
        if (!gran.empty()) weight += " " + gran;
        std::string flags;
        for (const auto& f : l.flags) flags += (flags.empty() ? "" : ",") + f;
        out << std::setw(static_cast<int>(nameWidth) + 2) << l.name
            << std::setw(static_cast<int>(opWidth) + 2) << l.op << std::setw(16) << dtypes(l.inputDtypes)
            << std::setw(26) << weight << std::setw(15)
            << core::model::dtypeCellText(l.outputDtype, l.outputQuant) << std::setw(11) << shortScale(l)
            << flags << "\n";
    }
}

int runModel(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"expect", "lang", "fail-on"}, {"json"});
    if (!args.ok()) {
        io.err << "model: " << args.error() << "\n" << kUsage;
        return kExitUsage;
    }
    if (args.positionals().size() != 1) {
        io.err << "model: give exactly one model FILE\n" << kUsage;
        return kExitUsage;
    }
    const auto failOn = core::parseSeverity(args.value("fail-on").value_or("error"));
    if (!failOn) {
        io.err << "model: --fail-on wants error, warning or info\n";
        return kExitUsage;
    }
    const core::Lang lang = core::parseLang(args.value("lang").value_or("en"));
    core::AnalyzeOptions options;
    options.paths = args.positionals();
    options.expectPath = args.value("expect").value_or("");
    core::Result<core::Analysis> analysis = core::analyze(options);
    if (!analysis) {
        io.err << "model: " << analysis.error().toString() << "\n";
        return kExitUsage;
    }
    const core::model::LayerTable* table = analysis->primaryModel();
    if (!table) {
        io.err << "model: " << options.paths[0] << " is not a model (no layers read)\n";
        return kExitUsage;
    }
    // Only model findings: the file is one model, so other checks have nothing to say.
    std::vector<core::Finding> findings;
    for (const auto& f : analysis->findings)
        if (f.id.rfind("model.", 0) == 0) findings.push_back(f);
    if (args.has("json")) {
        nlohmann::json j;
        j["model"] = core::modelToJson(*table);
        j["layers"] = core::layersToJson(*table);
        j["findings"] = nlohmann::json::array();
        for (const auto& f : findings) j["findings"].push_back(core::findingToJson(f, lang));
        j["checks_run"] = analysis->checksRun;
        io.out << core::jsonText(j) << "\n";
    } else {
        printTable(io.out, *table);
        io.out << "\nFindings:\n";
        printFindings(io.out, findings, lang);
        if (!table->warnings.empty()) {
            io.out << "\n";
            printWarnings(io.out, table->warnings);
        }
    }
    return exitCodeFor(findings, *failOn);
}

}  // namespace

Command modelCommand()
{
    return {"model", "per-layer dtypes and quantization lints of an exported model", kUsage, runModel};
}

}  // namespace qatdoctor::cli
