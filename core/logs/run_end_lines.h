// The lines frameworks print when training ends normally, read as RunEvent::Kind::Finished: a
// live watch stops at them (core/rules/run_end.h). Each row was checked against the framework's
// source and a real console capture where one was found (see the rows).
#pragma once

#include <string_view>

namespace qatdoctor::core::logs {

// Which framework's end line `line` is ("lightning", "torchvision", ...), or nullptr. The text
// before the message (a timestamp, "INFO:lightning.pytorch...:") does not matter.
const char* runEndFramework(std::string_view line);

}  // namespace qatdoctor::core::logs
