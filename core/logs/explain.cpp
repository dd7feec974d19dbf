#include "core/logs/explain.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include "core/common/number_text.h"
#include "core/logs/log_layouts.h"

namespace qatdoctor::core::logs {
namespace {

constexpr size_t kMaxLineText = 300;
constexpr uint64_t kMaxScanBytes = 256ull << 20;

// The text of the given 1-based lines of a text file, read once from the start.
std::map<uint32_t, std::string> linesOf(const std::string& path, std::vector<uint32_t> wanted)
{
    std::map<uint32_t, std::string> out;
    std::sort(wanted.begin(), wanted.end());
    std::ifstream in(path, std::ios::binary);
    std::string text;
    uint32_t n = 0;
    uint64_t read = 0;
    size_t next = 0;
    while (next < wanted.size() && read < kMaxScanBytes && std::getline(in, text)) {
        ++n;
        read += text.size() + 1;
        while (next < wanted.size() && wanted[next] < n) ++next;
        if (next < wanted.size() && wanted[next] == n) {
            if (!text.empty() && text.back() == '\r') text.pop_back();
            if (text.size() > kMaxLineText) text = text.substr(0, kMaxLineText) + "...";
            out[n] = text;
        }
    }
    return out;
}

}  // namespace

std::vector<SeriesExplanation> explainRun(const Run& run)
{
    std::vector<SeriesExplanation> out;
    // which lines of which file to show: gathered first, so each file is read once
    std::map<uint32_t, std::vector<uint32_t>> wanted;
    for (const auto& [name, s] : run.series) {
        SeriesExplanation e;
        e.series = name;
        e.points = s.size();
        e.stage = roleName(run.role);
        for (const RunRole r : {RunRole::Float, RunRole::Calibration, RunRole::Qat, RunRole::Quantized})
            if (name.starts_with(std::string(roleName(r)) + "/")) e.stage = roleName(r);
        const auto why = run.stageReasons.find(name);
        e.stageReason = why != run.stageReasons.end() ? why->second : "the run's role: " + run.roleReason;
        if (!s.empty()) {
            e.firstStep = s.step.front();
            e.lastStep = s.step.back();
            for (size_t i : {size_t{0}, s.size() - 1}) {
                const PointSource src = s.sourceAt(i);
                if (src.file >= run.files.size()) continue;
                if (!e.samples.empty() && e.samples.back().line == src.lineOrRecord &&
                    e.samples.back().file == run.files[src.file].path)
                    continue;
                e.samples.push_back({run.files[src.file].path, src.lineOrRecord, {}});
                if (run.files[src.file].format != "tfevents") wanted[src.file].push_back(src.lineOrRecord);
            }
            const uint32_t file = s.sourceAt(0).file;
            if (file < run.files.size()) {
                e.layout = run.files[file].layout;
                const LogLayout* l = findLayout(e.layout);
                e.framework = l ? l->framework : run.files[file].format;
            }
        }
        out.push_back(std::move(e));
    }
    std::map<std::string, std::map<uint32_t, std::string>> texts;
    for (const auto& [file, lines] : wanted)
        texts[run.files[file].path] = linesOf(run.files[file].path, lines);
    for (SeriesExplanation& e : out)
        for (SourceLine& l : e.samples) {
            auto f = texts.find(l.file);
            if (f == texts.end()) continue;
            auto t = f->second.find(l.line);
            if (t != f->second.end()) l.text = t->second;
        }
    return out;
}

namespace {

std::string escapedControls(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

std::string explanationText(const Run& run)
{
    std::string out = "Run " + run.name + "  role=" + roleName(run.role) + "  (" + run.roleReason + ")\n";
    for (const RunFile& f : run.files) out += "  file " + f.path + "  [" + f.layout + "]\n";
    for (const SeriesExplanation& e : explainRun(run)) {
        out += "  " + e.series + ": " + std::to_string(e.points) + " points, steps " +
               numberText(e.firstStep, 10) + ".." + numberText(e.lastStep, 10) + ", read as " + e.layout +
               " (" + e.framework + ")\n";
        out += "      stage " + e.stage + ": " + escapedControls(e.stageReason) + "\n";
        for (const SourceLine& l : e.samples) {
            const size_t slash = l.file.find_last_of('/');
            out += "      " + (slash == std::string::npos ? l.file : l.file.substr(slash + 1)) + ":" +
                   std::to_string(l.line) + ": " + escapedControls(l.text) + "\n";
        }
    }
    return out;
}

}  // namespace qatdoctor::core::logs
