// qatdoctor-cli simulate MODEL : float / fake-quant / integer runs of an ONNX model on one input,
// compared layer by layer (core/fixedpoint/simulation.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/image_decoder.h"
#include "app/cli/sim_mode_option.h"
#include "app/cli/text_output.h"
#include "core/common/file_io.h"
#include "core/common/json_text.h"
#include "core/common/number_text.h"
#include "core/fixedpoint/colour_compare.h"
#include "core/fixedpoint/mode_pair.h"
#include "core/fixedpoint/sim_inputs.h"
#include "core/fixedpoint/simulation.h"
#include "core/fixedpoint/simulation_json.h"
#include "core/fixedpoint/tensor_io.h"
#include "core/model/onnx_file.h"

namespace qatdoctor::cli {

// simulate_dataset_command.cpp: `simulate MODEL --dataset ...`.
int runSimulateDataset(const std::vector<std::string>& argv, CommandIo io);

namespace {

namespace fp = core::fixedpoint;

constexpr const char* kUsage =
    "Usage: qatdoctor-cli simulate MODEL [--input FILE]... [--inputs DIR] [--mode all|float|fake|int]\n"
    "                              [--requant float|fixed] [--round half_even|half_away|half_up]\n"
    "                              [--int16 LAYER,...] [--float LAYER,...]\n"
    "                              [--json] [--save-outputs DIR] [--repeat N] [--threads N] [--max-memory "
    "SIZE]\n"
    "                              [--seed N] [--shape D,D,..] [--dtype T] [--sensitivity] [--lang zh|en]\n"
    "                              [--image FILE [--color rgb|bgr|yuv444] [--compare-color TRAINED,FED]\n"
    "                               [--pixel-scale S]]\n\n"
    "Runs an ONNX QDQ model three ways on the same input and compares them layer by layer:\n"
    "  float  quantizers removed;  fake  every op as the ONNX specification says (= ONNX Runtime,\n"
    "  = the QAT model);  int  integer arithmetic with requantization and look-up tables (= deployed).\n"
    "  --input FILE        .npy (batch dimension optional), .pb (TensorProto) or raw (with --shape);\n"
    "                      once per graph input, in order. Default: seeded random values. A file\n"
    "                      holding a batch of the model's inputs (8 images for a batch-1 model) is\n"
    "                      run sample by sample (up to 64); the figures cover them all\n"
    "  --inputs DIR        an ONNX test data set folder (input_0.pb, input_1.pb, ...)\n"
    "  --requant MODE      float = exact float multiply + round (default); fixed = integer multiplier + "
    "shift\n"
    "  --round RULE        how fixed-point requantization rounds ties: half_even (default: the ONNX\n"
    "                      specification's and ONNX Runtime's), half_away (gemmlowp/TFLite), half_up\n"
    "  --int16 LAYERS      what-if: these layers' quantizers at 16 bits (comma separated names)\n"
    "  --float LAYERS      what-if: these layers computed in float\n"
    "  --sensitivity       rank every layer by the output gain of making it int16 (one run per layer)\n"
    "  --save-outputs DIR  write each mode's graph outputs as MODE_OUTPUTNAME.npy (own dtype)\n"
    "  --force             replace .npy files already in the --save-outputs folder\n"
    "  --repeat N          timing_ms is the median of N runs per mode (loading excluded)\n"
    "  --threads N         kernel threads (default 1)\n"
    "  --max-memory SIZE   largest tensor the simulation may allocate, e.g. 512M or 2G (default: a\n"
    "                      quarter of physical memory); a model that needs more stops with an error\n"
    "  --image FILE        an image (png/jpg/bmp/ppm; GUI build), scaled to the model's HxW, fed as\n"
    "                      --color (rgb default; yuv444 = centered BT.601 YUV444, what the board takes)\n"
    "  --compare-color T,F run the image in colour form T (what the model was trained on) and F (what\n"
    "                      it is fed, e.g. rgb,yuv444) and compare them layer by layer next to the\n"
    "                      quantization error alone (int mode; --mode fake for fake-quant)\n"
    "  --pixel-scale S     multiply the image's pixels by S first (training normalization; 0.0078125\n"
    "                      = 1/128, horizon's centered-YUV convention). Default 1\n"
    "\n"
    "       qatdoctor-cli simulate MODEL --dataset PATH... [--labels FILE.npy] [--mode all|float|fake|int]\n"
    "                              [--threads N] [--shard K/N] [--out FILE [--force]] [--json] [--quiet]\n"
    "                              [--requant float|fixed] [--worst N] [--color C] [--pixel-scale S]\n\n"
    "Evaluates the modes over a dataset, one sample at a time (constant memory): per mode the top-1\n"
    "accuracy with its 95% interval (with labels), agreement with float (argmax, SQNR), the samples\n"
    "where fake-quant and integer answer differently, and the worst samples.\n"
    "  --dataset PATH      a .npy batch (read a sample at a time), .pb files, a folder of them, or a\n"
    "                      folder of images per class (class folders in name order = labels; GUI build)\n"
    "  --labels FILE.npy   integer class per sample, in sample order\n"
    "  --threads N         samples evaluated at once (figures do not depend on N)\n"
    "  --shard K/N         only samples K, K+N, K+2N, ... (a partial result; `merge-sim` adds them up)\n"
    "  --out FILE          write the result as JSON (what merge-sim and a project folder read)\n"
    "Exit codes: 0 = ran; 1 = a finding at error level; 2 = usage or input error.\n";

// Set once by main() (see image_decoder.h); read-only afterwards.
ImageDecoder& imageDecoder()
{
    static ImageDecoder decoder;
    return decoder;
}

void printColourComparison(std::ostream& out, const fp::ColourComparison& c, const std::string& model,
                           const std::string& image);

std::set<std::string> splitList(const std::vector<std::string>& values)
{
    std::set<std::string> out;
    for (const std::string& v : values) {
        std::stringstream ss(v);
        std::string item;
        while (std::getline(ss, item, ','))
            if (!item.empty()) out.insert(item);
    }
    return out;
}

std::string joined(const std::set<std::string>& names)
{
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string safeName(std::string s)
{
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
    return s;
}

void printText(std::ostream& out, const fp::SimulationResult& r, const fp::PreparedInputs& in,
               core::Lang lang)
{
    out << "Model: " << r.modelPath << "  (" << r.layers.size() << " layers, " << r.threads
        << " thread(s))\n";
    for (size_t i = 0; i < in.sources.size(); ++i)
        out << "Input " << i << ": " << in.sources[i] << "  " << fp::shapeString(in.tensors[i].shape())
            << "\n";
    for (const std::string& n : in.notes) out << "  note: " << n << "\n";
    if (r.samples > 1)
        out << "Figures cover " << r.samples
            << " input samples; outputs, timing and the sensitivity ranking are the first's.\n";
    out << "Timing (ms):";
    for (const auto& [m, ms] : r.timingMs) out << "  " << m << " " << core::fixedText(ms, 2);
    out << "\n\n";
    int opWidth = 12;  // QOperator names (QLinearGlobalAveragePool) are longer than QDQ ones
    for (const auto& l : r.layers) opWidth = std::max(opWidth, static_cast<int>(l.op.size()) + 2);
    out << std::left << std::setw(28) << "layer" << std::setw(opWidth) << "op" << std::right << std::setw(10)
        << "cos f/q" << std::setw(10) << "cos q/i" << std::setw(11) << "SQNR q/i" << std::setw(9) << "LSB q/i"
        << "\n";
    for (size_t i = 0; i < r.layers.size(); ++i) {
        const auto& c = r.comparisons[i];
        auto get = [&](core::fixedpoint::ModePair pair, int what) -> std::string {
            auto it = c.pairs.find(core::fixedpoint::modePairKey(pair));
            if (it == c.pairs.end()) return "-";
            if (what == 0) return core::fixedText(it->second.cosine, 4);
            if (what == 1) return core::fixedText(it->second.sqnrDb, 1);
            return core::fixedText(it->second.maxErrLsb, 1);
        };
        std::string name = r.layers[i].name;
        if (name.size() > 27) name = name.substr(0, 24) + "...";
        out << std::left << std::setw(28) << name << std::setw(opWidth) << r.layers[i].op << std::right
            << std::setw(10) << get(fp::ModePair::FloatFake, 0) << std::setw(10)
            << get(fp::ModePair::FakeInt, 0) << std::setw(11) << get(fp::ModePair::FakeInt, 1) << std::setw(9)
            << get(fp::ModePair::FakeInt, 2) << (r.layers[i].name == r.firstBadLayer ? "  <- first bad" : "")
            << "\n";
    }
    for (const auto& [pair, list] : r.outputAgreement)
        for (size_t k = 0; k < list.size(); ++k)
            out << "Output " << (k < r.outputNames.size() ? r.outputNames[k] : "?") << " " << pair
                << ": cosine " << core::fixedText(list[k].cosine, 5) << ", SQNR "
                << core::fixedText(list[k].sqnrDb, 1) << " dB, max abs " << core::fixedText(list[k].maxAbs, 5)
                << "\n";
    if (r.requantDiffLsb)
        out << "Float vs fixed requantization: max " << core::fixedText(*r.requantDiffLsb, 2)
            << " LSB at the output"
            << (r.requantDiffLayer.empty() ? "" : " (first difference at " + r.requantDiffLayer + ")")
            << "\n";
    for (const auto& l : r.luts)
        out << "LUT " << l.layer << " (" << l.op << ", " << l.inputBits << "-bit, " << l.entries
            << " entries): max error " << core::fixedText(l.maxError, 5) << " ("
            << core::fixedText(l.maxErrorLsb, 2) << " LSB), mean " << core::fixedText(l.meanError, 5) << "\n";
    if (!r.fallbacks.empty()) {
        out << "Computed in float in int mode:";
        for (const auto& f : r.fallbacks) out << " " << f;
        out << "\n";
    }
    if (!r.sensitivity.empty()) {
        out << "\nint16 sensitivity (output SQNR gain vs float):\n";
        for (size_t i = 0; i < r.sensitivity.size() && i < 10; ++i)
            out << "  " << std::left << std::setw(30) << r.sensitivity[i].layer << std::right
                << core::signedFixedText(r.sensitivity[i].gainDb, 2) << " dB\n";
    }
    if (r.whatIf()) {
        out << "\nWhat-if:";
        if (!r.int16Layers.empty()) out << " int16 for " << joined(r.int16Layers) << ".";
        if (!r.floatLayers.empty()) out << " float for " << joined(r.floatLayers) << ".";
        const auto sq = r.outputSqnrDb();
        if (sq && r.baselineOutputSqnrDb)
            out << " Output SQNR (int vs float) " << core::fixedText(*sq, 2) << " dB, unchanged model "
                << core::fixedText(*r.baselineOutputSqnrDb, 2) << " dB, gain "
                << core::signedFixedText(*sq - *r.baselineOutputSqnrDb, 2) << " dB"
                << ".";
        out << "\n";
    }
    out << "\nFindings:\n";
    printFindings(out, r.findings, lang);
}

int runSimulate(const std::vector<std::string>& argv, CommandIo io)
{
    // a dataset evaluation is a command of its own options (simulate_dataset_command.cpp)
    if (std::any_of(argv.begin(), argv.end(),
                    [](const std::string& a) { return a == "--dataset" || a.starts_with("--dataset="); }))
        return runSimulateDataset(argv, io);
    Args args(
        argv,
        {"input", "inputs", "mode", "requant", "round", "int16", "float", "save-outputs", "repeat", "threads",
         "seed", "shape", "dtype", "lang", "image", "color", "compare-color", "pixel-scale", "max-memory"},
        {"json", "sensitivity", "force"});
    if (!args.ok() || args.positionals().size() != 1) {
        io.err << "simulate: " << (args.ok() ? "give exactly one MODEL" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    fp::SimulationOptions opt;
    const std::string mode = args.value("mode").value_or("all");
    const auto modes = parseSimModes(mode);
    if (!modes) {
        io.err << "simulate: --mode wants all, float, fake or int\n";
        return kExitUsage;
    }
    opt.modes = *modes;
    const std::string requant = args.value("requant").value_or("float");
    if (requant != "float" && requant != "fixed") {
        io.err << "simulate: --requant wants float or fixed\n";
        return kExitUsage;
    }
    const auto ties = fp::roundModeFromName(args.value("round").value_or("half_even"));
    if (!ties) {
        io.err << "simulate: --round wants half_even, half_away or half_up\n";
        return kExitUsage;
    }
    opt.requant = requant == "fixed" ? fp::RequantMode::fixedPoint(*ties) : fp::RequantMode::Float;
    opt.requant.ties = *ties;  // float requantization keeps it for the fixed-point comparison run
    opt.int16Layers = splitList(args.values("int16"));
    opt.floatLayers = splitList(args.values("float"));
    opt.sensitivity = args.has("sensitivity");
    try {
        opt.repeat = std::stoi(args.value("repeat").value_or("1"));
        opt.threads = std::stoi(args.value("threads").value_or("1"));
    } catch (...) {
        io.err << "simulate: --repeat and --threads want numbers\n";
        return kExitUsage;
    }
    if (opt.repeat < 1 || opt.threads < 1 || opt.threads > 256) {
        io.err << "simulate: --repeat and --threads must be at least 1\n";
        return kExitUsage;
    }
    if (auto m = args.value("max-memory")) {
        const auto bytes = parseByteSize(*m);
        if (!bytes) {
            io.err << "simulate: --max-memory wants a size such as 512M or 2G\n";
            return kExitUsage;
        }
        opt.maxTensorBytes = *bytes;
    }
    fp::InputSpec spec;
    spec.files = args.values("input");
    spec.folder = args.value("inputs").value_or("");
    try {
        spec.seed = std::stoull(args.value("seed").value_or("0"));
        if (auto s = args.value("shape"))
            for (const auto& d : splitList({*s})) spec.rawShape.push_back(std::stoll(d));
    } catch (...) {
        io.err << "simulate: --seed and --shape want numbers\n";
        return kExitUsage;
    }
    if (auto s = args.value("shape")) {  // keep the given order (splitList sorts)
        spec.rawShape.clear();
        std::stringstream ss(*s);
        std::string d;
        while (std::getline(ss, d, ',')) spec.rawShape.push_back(std::atoll(d.c_str()));
    }
    if (auto t = args.value("dtype")) {
        auto dt = core::model::parseDType(*t);
        if (!dt) {
            io.err << "simulate: unknown --dtype '" << *t << "'\n";
            return kExitUsage;
        }
        spec.rawDtype = *dt;
    }
    const core::Lang lang = core::parseLang(args.value("lang").value_or("en"));
    const std::string image = args.value("image").value_or("");
    fp::ColourFormat colour = fp::ColourFormat::Rgb;
    std::optional<std::pair<fp::ColourFormat, fp::ColourFormat>> compareColour;
    float pixelScale = 1.0f;
    if (auto c = args.value("color")) {
        auto f = fp::parseColourFormat(*c);
        if (!f) {
            io.err << "simulate: --color wants rgb, bgr or yuv444\n";
            return kExitUsage;
        }
        colour = *f;
    }
    if (auto c = args.value("compare-color")) {
        const auto comma = c->find(',');
        auto a = fp::parseColourFormat(c->substr(0, comma));
        auto b = comma == std::string::npos ? std::nullopt : fp::parseColourFormat(c->substr(comma + 1));
        if (!a || !b) {
            io.err << "simulate: --compare-color wants TRAINED,FED from rgb, bgr, yuv444 (e.g. rgb,yuv444)\n";
            return kExitUsage;
        }
        compareColour = std::make_pair(*a, *b);
    }
    if (auto s = args.value("pixel-scale")) {
        char* end = nullptr;
        pixelScale = std::strtof(s->c_str(), &end);
        if (end == s->c_str() || *end || !(pixelScale > 0) || !std::isfinite(pixelScale)) {
            io.err << "simulate: --pixel-scale wants a positive number\n";
            return kExitUsage;
        }
    }
    if ((args.has("color") || compareColour || args.has("pixel-scale")) && image.empty()) {
        io.err << "simulate: --color, --compare-color and --pixel-scale need --image FILE\n";
        return kExitUsage;
    }
    if (!image.empty() && (!spec.files.empty() || !spec.folder.empty())) {
        io.err << "simulate: give --image or --input/--inputs, not both\n";
        return kExitUsage;
    }
    if (!image.empty() && !imageDecoder()) {
        io.err << "simulate: " << image
               << ": this qatdoctor-cli was built without the GUI, which decodes images; "
               << "convert the image to .npy instead\n";
        return kExitUsage;
    }

    // the one simulation path (core/fixedpoint/run_simulation.h): this command keeps only its I/O
    auto model = core::model::readOnnxFile(args.positionals()[0]);
    if (!model) {
        io.err << "simulate: " << model.error().toString() << "\n";
        return kExitUsage;
    }
    auto graph = core::model::ModelGraph::build(*model);
    if (!graph) {
        io.err << "simulate: " << graph.error().toString() << "\n";
        return kExitUsage;
    }
    fp::SimulationRequest request;
    request.input = spec;
    request.options = opt;
    if (!image.empty()) request.image = fp::ImageRequest{image, colour, pixelScale, imageDecoder()};
    if (compareColour) {
        auto interp = fp::interpreterFor(*graph, nullptr);
        auto pixels =
            interp ? fp::imageForModel(**interp, *request.image) : core::Result<fp::RgbImage>(interp.error());
        if (!pixels) {
            io.err << "simulate: " << pixels.error().toString() << "\n";
            return kExitUsage;
        }
        fp::ColourCompareOptions co;
        co.trained = compareColour->first;
        co.fed = compareColour->second;
        co.mode = mode == "fake" ? fp::SimMode::Fake : fp::SimMode::Int;
        co.requant = opt.requant;
        co.threads = opt.threads;
        co.pixelScale = pixelScale;
        auto c = fp::compareColourForms(**interp, pixels->rgb.data(), pixels->height, pixels->width, co);
        if (!c) {
            io.err << "simulate: " << c.error().toString() << "\n";
            return kExitUsage;
        }
        if (args.has("json")) {
            const nlohmann::json j = {{"model", args.positionals()[0]},
                                      {"image", image},
                                      {"colour_comparison", fp::colourComparisonToJson(*c)}};
            io.out << core::jsonText(j) << "\n";
        } else {
            printColourComparison(io.out, *c, args.positionals()[0], image);
        }
        return kExitOk;
    }
    auto run = fp::runSimulation(*graph, request);
    if (!run) {
        io.err << "simulate: " << run.error().toString() << "\n";
        return kExitUsage;
    }
    const fp::PreparedInputs* inputs = &run->inputs;
    const fp::SimulationResult* result = &run->result;
    if (auto dir = args.value("save-outputs")) {
        std::error_code ec;
        std::filesystem::create_directories(*dir, ec);
        // every target is checked before the first is written: a set of outputs is written
        // whole or not at all (not one file, then a refusal for the next)
        std::vector<std::pair<std::string, const fp::Tensor*>> targets;
        for (const auto& [m, tensors] : result->outputs)
            for (size_t k = 0; k < tensors.size(); ++k)
                targets.emplace_back(
                    (std::filesystem::path(*dir) / (m + "_" + safeName(result->outputNames[k]) + ".npy"))
                        .string(),
                    &tensors[k]);
        for (const auto& [path, tensor] : targets) {
            std::error_code exists;
            if (!args.has("force") && std::filesystem::exists(path, exists)) {
                io.err << "simulate: " << path
                       << " already exists (not replaced; --force replaces the set)\n";
                return kExitUsage;
            }
        }
        for (const auto& [path, tensor] : targets) {
            auto w = core::writeFileAtomic(path, fp::writeNpy(*tensor), args.has("force"));
            if (!w) {
                io.err << "simulate: " << w.error().toString() << "\n";
                return kExitUsage;
            }
        }
    }
    if (args.has("json")) {
        nlohmann::json j = fp::simulationToJson(*result, lang, opt.requant);
        j["inputs"] = nlohmann::json::array();
        for (size_t i = 0; i < inputs->sources.size(); ++i)
            j["inputs"].push_back({{"name", run->interpreter->inputNames()[i]},
                                   {"source", inputs->sources[i]},
                                   {"shape", inputs->tensors[i].shape()}});
        j["notes"] = inputs->notes;
        io.out << core::jsonText(j) << "\n";
    } else {
        printText(io.out, *result, *inputs, lang);
    }
    return exitCodeFor(result->findings, core::Severity::Error);
}

void printColourComparison(std::ostream& out, const fp::ColourComparison& c, const std::string& model,
                           const std::string& image)
{
    const std::string trained = fp::colourFormatName(c.options.trained),
                      fed = fp::colourFormatName(c.options.fed);
    out << "Model: " << model << "\nImage: " << image << "\nTrained on " << trained << ", fed " << fed << " ("
        << fp::simModeName(c.options.mode) << " mode, pixel scale " << c.options.pixelScale << ")\n\n";
    out << std::left << std::setw(28) << "layer" << std::setw(10) << "op" << std::right << std::setw(16)
        << "quant SQNR dB" << std::setw(16) << (fed + " SQNR dB") << std::setw(10) << "cos"
        << "\n";
    for (const auto& row : c.layers) {
        std::string name = row.layer;
        if (name.size() > 27) name = name.substr(0, 24) + "...";
        out << std::left << std::setw(28) << name << std::setw(10) << row.op << std::right << std::setw(16)
            << core::fixedText(row.quantization.sqnrDb, 1) << std::setw(16)
            << core::fixedText(row.mismatch.sqnrDb, 1) << std::setw(10)
            << core::fixedText(row.mismatch.cosine, 4)
            << (row.layer == c.firstBadLayer ? "  <- first bad" : "") << "\n";
    }
    for (size_t o = 0; o < c.outputMismatch.size(); ++o)
        out << "Output " << (o < c.outputNames.size() ? c.outputNames[o] : "?") << ": SQNR "
            << core::fixedText(c.outputMismatch[o].sqnrDb, 1) << " dB fed " << fed << ", "
            << core::fixedText(c.outputQuantization[o].sqnrDb, 1) << " dB from quantization alone\n";
    if (c.top1Trained && c.top1Fed)
        out << "Top-1: " << *c.top1Trained << " (" << trained << ") vs " << *c.top1Fed << " (" << fed
            << ")\n";
    out << (c.firstBadLayer.empty() ? std::string("The two colour forms agree on every layer.\n")
                                    : "First layer where they part: " + c.firstBadLayer + "\n");
}

}  // namespace

void setImageDecoder(ImageDecoder decoder)
{
    imageDecoder() = std::move(decoder);
}

const ImageDecoder& installedImageDecoder()
{
    return imageDecoder();
}

Command simulateCommand()
{
    return {"simulate", "run a QDQ model as float, fake-quant and integer; compare layer by layer", kUsage,
            runSimulate};
}

}  // namespace qatdoctor::cli
