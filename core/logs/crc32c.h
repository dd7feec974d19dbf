// CRC-32C (Castagnoli), as TFRecord framing uses it, and TensorFlow's "masked" form.
#pragma once

#include <cstdint>
#include <string_view>

namespace qatdoctor::core::logs {

uint32_t crc32c(std::string_view bytes);
// TensorFlow masks stored CRCs so that CRCs of data containing CRCs stay well distributed.
inline uint32_t maskCrc(uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

}  // namespace qatdoctor::core::logs
