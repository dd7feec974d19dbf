// Logs that are text but not in the bytes the parsers read: UTF-16 with a byte-order mark (what
// PowerShell's "> train.log" writes), a UTF-8 byte-order mark, old Mac line ends (CR only),
// GB18030/GBK (a log written on Chinese Windows: not UTF-8, but valid GB18030) and Windows-1252
// / Latin-1 (a log written on Western Windows, "Genauigkeit für ..."): the two legacy encodings
// are told apart by how the bytes above 0x7f stand (text_decoding.cpp). Such a file is decoded
// into UTF-8 with '\n' line ends before parsing; a UTF-8 log with a few damaged bytes is not.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace qatdoctor::core::logs {

// The UTF-8, LF-terminated text of bytes when they need decoding (see above), else nullopt
// (the bytes are read as they are). Unpaired UTF-16 surrogates become U+FFFD.
std::optional<std::string> decodeLogText(std::string_view bytes);

// Why the bytes were decoded, for the explanation of a reading: "UTF-16LE", "UTF-16BE",
// "UTF-8 with BOM", "CR line ends", "GB18030", "Windows-1252"; "" when they were not.
std::string_view logTextEncoding(std::string_view head);

}  // namespace qatdoctor::core::logs
