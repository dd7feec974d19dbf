// The settings files frameworks write beside their logs: Lightning's hparams.yaml, YOLOv5's
// opt.yaml / hyp.yaml, Ultralytics' args.yaml. They are configuration, never series: their
// top-level `key: value` scalars become the run's metadata (batch size, lr, epochs, ...).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace qatdoctor::core::logs {

// Whether a file name is one of those settings files.
bool isRunConfigFile(std::string_view name);

// The top-level scalars of a YAML settings file (nested blocks and lists are skipped). A file
// that cannot be read or is over 1 MiB gives nothing: settings are a bonus, never an error.
std::map<std::string, std::string> readRunConfig(const std::string& path);

}  // namespace qatdoctor::core::logs
