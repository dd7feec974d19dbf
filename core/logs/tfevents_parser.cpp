#include "core/logs/tfevents_parser.h"

#include <cstring>
#include <optional>

#include "core/logs/crc32c.h"
#include "core/logs/metric_names.h"
#include "core/logs/proto/tb_event.pb.h"

namespace qatdoctor::core::logs {
namespace {

uint64_t le64(const char* p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;  // x86/ARM little-endian hosts only, as TFRecord itself
}

uint32_t le32(const char* p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

float halfToFloat(uint16_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0)
            bits = sign;
        else {
            int e = -1;
            uint32_t m = mant;
            do {
                ++e;
                m <<= 1;
            } while (!(m & 0x400));
            bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (m & 0x3ff) << 13;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | mant << 13;
    } else {
        bits = sign | (exp + 127 - 15) << 23 | mant << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// The single value of a scalar tensor, if it is one.
std::optional<double> scalarOf(const tb::TensorProto& t)
{
    size_t elements = 1;
    for (const auto& d : t.tensor_shape().dim()) elements *= static_cast<size_t>(d.size() < 0 ? 0 : d.size());
    if (elements != 1) return std::nullopt;
    const std::string& raw = t.tensor_content();
    switch (t.dtype()) {
        case 1:  // DT_FLOAT
            if (t.float_val_size()) return t.float_val(0);
            if (raw.size() == 4) {
                float f;
                std::memcpy(&f, raw.data(), 4);
                return f;
            }
            break;
        case 2:  // DT_DOUBLE
            if (t.double_val_size()) return t.double_val(0);
            if (raw.size() == 8) {
                double d;
                std::memcpy(&d, raw.data(), 8);
                return d;
            }
            break;
        case 3:  // DT_INT32
            if (t.int_val_size()) return t.int_val(0);
            if (raw.size() == 4) {
                int32_t i;
                std::memcpy(&i, raw.data(), 4);
                return i;
            }
            break;
        case 9:  // DT_INT64
            if (t.int64_val_size()) return static_cast<double>(t.int64_val(0));
            if (raw.size() == 8) {
                int64_t i;
                std::memcpy(&i, raw.data(), 8);
                return static_cast<double>(i);
            }
            break;
        case 19:  // DT_HALF
            if (t.half_val_size()) return halfToFloat(static_cast<uint16_t>(t.half_val(0)));
            if (raw.size() == 2) {
                uint16_t h;
                std::memcpy(&h, raw.data(), 2);
                return halfToFloat(h);
            }
            break;
        default:
            break;
    }
    return std::nullopt;
}

}  // namespace

int probeTfEvents(std::string_view name, std::string_view head)
{
    const bool tfName = name.find("tfevents") != std::string_view::npos;
    if (head.size() < 12) return tfName ? 50 : 0;
    const uint64_t len = le64(head.data());
    const bool crcOk = maskCrc(crc32c(head.substr(0, 8))) == le32(head.data() + 8);
    if (crcOk && len < (1u << 30)) return tfName ? 95 : 60;
    return tfName ? 40 : 0;
}

bool parseTfEvents(std::string_view bytes, const std::string& path, ParseState& state,
                   const LoadOptions& options, std::vector<ParsedLog>& parts)
{
    constexpr size_t kReportBytes = 16u << 20;
    size_t nextReport = 0;
    const std::string stage = "reading " + path;
    ParsedLog& out = parts.emplace_back();
    out.counted = true;  // every event carries its step
    size_t p = 0;
    uint64_t skipped = 0;
    tb::Event event;
    std::vector<std::pair<std::string, uint32_t>> slots;  // tag -> series
    auto seriesFor = [&](const std::string& tag) {
        for (const auto& [t, s] : slots)
            if (t == tag) return s;
        bool keyStage = false;
        const std::string name = stagedSeriesName(tag, false, std::nullopt, {}, &keyStage);
        const uint32_t s = out.seriesIndex(name);
        if (keyStage) out.stageReasons.emplace(name, "the TensorBoard tag '" + tag + "'");
        slots.emplace_back(tag, s);
        return s;
    };
    auto warnAt = [&](const char* code, const std::string& msg, uint64_t off) {
        if (state.warningCounts[code]++ >= 5) return;
        out.warnings.push_back(
            makeError(std::string("logs.") + code, msg, path, 0, static_cast<int64_t>(off)));
    };
    while (p + 12 <= bytes.size()) {
        if (p >= nextReport) {
            if (options.progress &&
                !reportProgress(*options.progress, static_cast<double>(p) / static_cast<double>(bytes.size()),
                                stage))
                return false;
            nextReport = p + kReportBytes;
        }
        const uint64_t at = state.offset + p;
        const uint64_t len = le64(bytes.data() + p);
        if (maskCrc(crc32c(bytes.substr(p, 8))) != le32(bytes.data() + p + 8)) {
            warnAt("tfevents_framing",
                   "record length CRC mismatch; the rest of the file (" + std::to_string(bytes.size() - p) +
                       " bytes) was not read",
                   at);
            p = bytes.size();
            break;
        }
        if (len > bytes.size() - p - 12 || bytes.size() - p - 12 - len < 4) break;  // incomplete record
        const std::string_view data = bytes.substr(p + 12, len);
        const uint32_t dataCrc = le32(bytes.data() + p + 12 + len);
        p += 12 + len + 4;
        ++state.line;  // record number
        const auto record = static_cast<uint32_t>(state.line);
        if (maskCrc(crc32c(data)) != dataCrc) {
            ++skipped;
            warnAt("tfevents_crc", "record " + std::to_string(record) + ": data CRC mismatch; record skipped",
                   at);
            continue;
        }
        if (!event.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
            ++skipped;
            warnAt("tfevents_parse", "record " + std::to_string(record) + " is not an Event message; skipped",
                   at);
            continue;
        }
        const auto step = static_cast<double>(event.step());
        if (event.has_summary()) {
            for (const auto& v : event.summary().value()) {
                std::optional<double> x;
                if (v.value_case() == tb::Summary::Value::kSimpleValue)
                    x = v.simple_value();
                else if (v.has_tensor())
                    x = scalarOf(v.tensor());
                if (!x) continue;
                Series& s = out.series[seriesFor(v.tag())];
                if (event.wall_time() > 0) s.markWallTime(event.wall_time());
                s.push(step, static_cast<float>(*x), record);
            }
            state.lastStep = step;
        } else if (event.has_session_log() && !event.session_log().checkpoint_path().empty()) {
            out.events.push_back({RunEvent::Kind::Checkpoint,
                                  "checkpoint " + event.session_log().checkpoint_path(), 0, record, step,
                                  std::nullopt});
        } else if (event.has_log_message() && event.log_message().level() >= 30) {
            out.events.push_back(
                {event.log_message().level() >= 40 ? RunEvent::Kind::Error : RunEvent::Kind::Warning,
                 event.log_message().message(), 0, record, step, std::nullopt});
        }
    }
    if (options.atEnd && p < bytes.size()) {
        warnAt(
            "tfevents_truncated",
            "the last record is incomplete (" + std::to_string(bytes.size() - p) + " bytes); it was not read",
            state.offset + p);
        p = bytes.size();
    }
    state.offset += p;
    out.skippedRecords = skipped;
    return true;
}

}  // namespace qatdoctor::core::logs
