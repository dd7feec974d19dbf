// The settings files frameworks write beside their logs: Lightning's hparams.yaml, YOLOv5's
// opt.yaml / hyp.yaml, Ultralytics' args.yaml, mmengine's vis_data/config.py. They are
// configuration, never series: their top-level `key: value` scalars (YAML) or `name = value`
// assignments (a Python config, read as text, never run) become the run's metadata.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace qatdoctor::core::logs {

// Whether a file name is one of those settings files.
bool isRunConfigFile(std::string_view name);

// The top-level scalars of a settings file (nested blocks and lists are skipped). A file
// that cannot be read or is over 1 MiB gives nothing: settings are a bonus, never an error.
std::map<std::string, std::string> readRunConfig(const std::string& path);

// The top-level `name = value` lines of Python config text (a config dump, mmdet's .log.json
// "config" string): what readRunConfig reads from a config.py.
void readPythonAssignments(std::string_view text, std::map<std::string, std::string>& into);
// Opening minus closing brackets of a Python text, outside its quotes.
int bracketBalance(std::string_view s);

}  // namespace qatdoctor::core::logs
