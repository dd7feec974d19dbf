// SHA-256 (FIPS 180-4) of bytes and of files, for the report's input list: a colleague can check
// that the report describes the very files they hold.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/progress.h"
#include "core/common/result.h"

namespace qatdoctor::core {

class Sha256 {
public:
    Sha256();
    void update(std::string_view bytes);
    std::array<uint8_t, 32> finish();  // the object is spent afterwards
    std::string finishHex();           // 64 lower-case hex digits

private:
    void block(const uint8_t* p);

    std::array<uint32_t, 8> m_h;
    std::array<uint8_t, 64> m_buf{};
    size_t m_bufLen = 0;
    uint64_t m_total = 0;
};

std::string sha256Hex(std::string_view bytes);

// Streams the file in chunks (no size limit). Errors "io.open" / "io.read" name the path;
// cancelling through progress gives kCancelledCode.
Result<std::string> sha256File(const std::string& path, const ProgressFn& progress = {});

}  // namespace qatdoctor::core
