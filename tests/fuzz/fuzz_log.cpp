// Training-log formats (text/HAT, CSV, JSONL, TensorBoard events): the format's probe, a one-shot
// parse, and the live-tailing path (the bytes split in two, the first half parsed as an unfinished
// file, the rest appended) that must agree with the file's state machine on any cut.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/logs/log_reader.h"
#include "core/logs/parsed_log.h"

using namespace qatdoctor::core::logs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const LogFormat* format = findLogFormat(QATDOCTOR_FUZZ_LOG_FORMAT);
    if (size < 1 || format == nullptr) return 0;
    const size_t cut = data[0] * (size - 1) / 255;  // where the "appended" part starts
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    format->probe("fuzz.log", bytes);

    (void)parseLogBytes(*format, bytes, "fuzz.log", {}, 1, true);

    ParseState state;
    auto first = parseBlocks(*format, bytes.substr(0, cut), "fuzz.log", state, {}, 1, false);
    if (first && state.offset <= bytes.size())
        (void)parseBlocks(*format, bytes.substr(state.offset), "fuzz.log", state, {}, 2, true);
    return 0;
}
