// qatdoctor-cli checkpoint FILE [--json]: what a torch.save checkpoint holds, read without Python
// and without running its pickle: the container, the numbers and strings kept beside the weights,
// every tensor with its dtype and shape, and the globals a real unpickler would have executed.
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "core/checkpoint/checkpoint_file.h"
#include "core/common/json_text.h"

namespace qatdoctor::cli {
namespace {

constexpr const char* kUsage =
    "Usage: qatdoctor-cli checkpoint FILE [--json]\n\n"
    "Reads a checkpoint torch.save wrote (.pt, .pth, .ckpt, .bin; the zip container or the legacy\n"
    "one, recognised by content) without Python and without running its pickle: a bare state_dict,\n"
    "a training checkpoint (epoch, optimizer, ... shown as metadata) or a whole pickled module.\n"
    "A pickle naming os.system, eval, subprocess... is reported as a security warning, never run.\n"
    "  --json   {\"file\", \"container\", \"model_key\", \"metadata\", \"tensors\", \"classes\", "
    "\"dangerous\"}\n"
    "Exit codes: 0 = read; 1 = the pickle names globals that would execute code; 2 = unreadable.\n";

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string s = "(";
    for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
    return s + ")";
}

int runCheckpoint(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {}, {"json"});
    if (!args.ok() || args.positionals().size() != 1) {
        io.err << "checkpoint: " << (args.ok() ? "give exactly one FILE" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    core::Result<core::checkpoint::CheckpointFile> file =
        core::checkpoint::readCheckpoint(args.positionals()[0]);
    if (!file) {
        io.err << "checkpoint: " << file.error().toString() << "\n";
        return kExitUsage;
    }
    if (args.has("json")) {
        nlohmann::json j;
        j["file"] = file->path;
        j["container"] = file->container;
        j["model_key"] = file->modelKey;
        j["metadata"] = nlohmann::json::object();
        for (const auto& [k, v] : file->metadata) j["metadata"][k] = v;
        j["tensors"] = nlohmann::json::array();
        for (const auto& t : file->tensors)
            j["tensors"].push_back(
                {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"parameter", t.parameter}});
        j["classes"] = file->classes;
        j["dangerous"] = file->dangerous;
        io.out << core::jsonText(j) << "\n";
    } else {
        io.out << "Checkpoint: " << file->path << "  (" << file->container << ", " << file->tensors.size()
               << " tensors" << (file->modelKey.empty() ? "" : ", model under '" + file->modelKey + "'")
               << ")\n";
        for (const std::string& d : file->dangerous)
            io.out << "SECURITY: the pickle names " << d
                   << ": loading this file with torch.load would run it (here it was not run)\n";
        for (const auto& [k, v] : file->metadata) io.out << "  " << k << " = " << v << "\n";
        for (const auto& t : file->tensors)
            io.out << "  " << std::left << std::setw(56) << t.name << std::setw(10) << t.dtype
                   << shapeText(t.shape) << "\n";
    }
    return file->dangerous.empty() ? kExitOk : kExitFindings;
}

}  // namespace

Command checkpointCommand()
{
    return {"checkpoint", "what a torch.save checkpoint holds, read without running it", kUsage,
            runCheckpoint};
}

}  // namespace qatdoctor::cli
