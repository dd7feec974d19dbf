#pragma once

namespace qatdoctor::core {

// Set by CMake from project(VERSION); one place for the CLI, the GUI's About box and reports.
inline constexpr const char* kVersion = QATDOCTOR_VERSION;

}  // namespace qatdoctor::core
