#include "core/artifacts/artifacts_api.h"

#include <filesystem>

#include "core/artifacts/printed_layers.h"
#include "core/artifacts/text_lines.h"
#include "core/common/error_codes.h"
#include "core/common/file_io.h"

namespace qatdoctor::core::artifacts {
namespace {

constexpr uint64_t kPrintedReadLimit = 256ull << 20;

int countHeaders(std::string_view head, int enough)
{
    int n = 0;
    for (const TextLine& l : splitLines(head)) {
        const std::string_view t = trim(l.text);
        if (t.size() > 4 && t.front() == '(' && t.find("): ") != std::string_view::npos && ++n >= enough)
            break;
    }
    return n;
}

}  // namespace

int probePrintedModel(const std::string& path, std::string_view head)
{
    (void)path;
    if (head.empty() || binaryOffset(head)) return 0;
    const int headers = countHeaders(head, 2);
    if (headers < 2) return 0;
    for (std::string_view marker :
         {"FakeQuantize(", "Observer(", "QuantStub(", "weight_fake_quant", "activation_post_process",
          "FakeCast(", "QuantizedConv", "QuantizedLinear"})
        if (head.find(marker) != std::string_view::npos) return 90;
    return 40;
}

Result<model::LayerTable> readPrintedModelFile(const std::string& path, const ProgressFn& progress)
{
    if (!reportProgress(progress, 0.0, "reading " + path))
        return makeError(kCancelledCode, "cancelled", path);
    auto text = readFile(path, kPrintedReadLimit);
    if (!text) return text.error();
    auto table = readPrintedModel(*text, path);
    if (table) reportProgress(progress, 1.0, "read " + path);
    return table;
}

Result<std::string> savePastedText(std::string_view text, const std::string& folder)
{
    if (trim(text).empty()) return makeError("printed.empty", "the pasted text is empty");
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(folder, ec);
    for (int n = 1; n < 10000; ++n) {
        const std::string path = (fs::path(folder) / ("pasted_model_" + std::to_string(n) + ".txt")).string();
        if (fs::exists(path, ec)) continue;
        if (auto r = writeFileAtomic(path, text, false); !r) {
            if (r.error().code == codes::kIoExists) continue;
            return r.error();
        }
        return path;
    }
    return makeError(codes::kIoExists, folder + ": too many pasted_model_*.txt files", folder);
}

}  // namespace qatdoctor::core::artifacts
