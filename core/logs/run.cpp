#include "core/logs/run.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/logs/mapped_file.h"

namespace qatdoctor::core::logs {

const char* eventKindName(RunEvent::Kind kind)
{
    switch (kind) {
        case RunEvent::Kind::Warning:
            return "warning";
        case RunEvent::Kind::Error:
            return "error";
        case RunEvent::Kind::Traceback:
            return "traceback";
        case RunEvent::Kind::Checkpoint:
            return "checkpoint";
        case RunEvent::Kind::Parameters:
            return "parameters";
        case RunEvent::Kind::Finished:
            return "finished";
        case RunEvent::Kind::Info:
            break;
    }
    return "info";
}

const char* roleName(RunRole r)
{
    switch (r) {
        case RunRole::Float:
            return "float";
        case RunRole::Calibration:
            return "calibration";
        case RunRole::Qat:
            return "qat";
        case RunRole::Quantized:
            return "quantized";
        case RunRole::Unknown:
            break;
    }
    return "unknown";
}

std::optional<RunRole> parseRole(const std::string& name)
{
    if (name == "float") return RunRole::Float;
    if (name == "calibration") return RunRole::Calibration;
    if (name == "qat") return RunRole::Qat;
    if (name == "quantized") return RunRole::Quantized;
    if (name == "unknown") return RunRole::Unknown;
    return std::nullopt;
}

namespace {

// The mark that holds at point i: the last one with begin <= i.
template <class T>
const Series::Mark<T>* markAt(const std::vector<Series::Mark<T>>& marks, size_t i)
{
    auto it = std::upper_bound(marks.begin(), marks.end(), i,
                               [](size_t idx, const Series::Mark<T>& m) { return idx < m.begin; });
    return it == marks.begin() ? nullptr : &*(it - 1);
}

template <class T>
void appendMarks(std::vector<Series::Mark<T>>& into, const std::vector<Series::Mark<T>>& from, uint32_t shift,
                 T add = T{})
{
    for (const auto& m : from) {
        const T v = static_cast<T>(m.value + add);
        if (!into.empty() && into.back().value == v) continue;
        if (!into.empty() && into.back().begin == m.begin + shift)
            into.back().value = v;
        else
            into.push_back({m.begin + shift, v});
    }
}

}  // namespace

PointSource Series::sourceAt(size_t i) const
{
    const auto* f = markAt(files, i);
    return {f ? f->value : 0u, i < line.size() ? line[i] : 0u};
}

std::optional<float> Series::epochAt(size_t i) const
{
    const auto* m = markAt(epochs, i);
    return m ? std::optional<float>(m->value) : std::nullopt;
}

std::optional<double> Series::wallTimeAt(size_t i) const
{
    auto it = std::upper_bound(wallTimes.begin(), wallTimes.end(), i,
                               [](size_t idx, const Mark<double>& m) { return idx < m.begin; });
    if (it == wallTimes.begin()) return std::nullopt;
    const Mark<double>& a = *(it - 1);
    if (i == a.begin) return a.value;
    if (it == wallTimes.end()) {
        // past the last mark: continue at the pace of the last stretch
        if (wallTimes.size() < 2) return a.value;
        const Mark<double>& p = *(it - 2);
        return a.value + (a.value - p.value) / static_cast<double>(a.begin - p.begin) *
                             static_cast<double>(i - a.begin);
    }
    const Mark<double>& b = *it;
    const double f = static_cast<double>(i - a.begin) / static_cast<double>(b.begin - a.begin);
    return a.value + (b.value - a.value) * f;
}

void Series::markFile(uint32_t file)
{
    const auto at = static_cast<uint32_t>(size());
    if (!files.empty() && files.back().value == file) return;
    if (!files.empty() && files.back().begin == at)
        files.back().value = file;
    else
        files.push_back({at, file});
}

void Series::addEpochMark(float epoch)
{
    const auto at = static_cast<uint32_t>(size());
    if (!epochs.empty() &&
        (epochs.back().value == epoch || (std::isnan(epoch) && std::isnan(epochs.back().value))))
        return;
    if (!epochs.empty() && epochs.back().begin == at)
        epochs.back().value = epoch;
    else
        epochs.push_back({at, epoch});
}

void Series::addWallTimeMark(double seconds)
{
    const auto at = static_cast<uint32_t>(size());
    if (!wallTimes.empty() && wallTimes.back().begin == at)
        wallTimes.back().value = seconds;
    else
        wallTimes.push_back({at, seconds});
}

void Series::markLastWallTime(double seconds)
{
    if (empty() || wallTimes.empty()) return;
    const auto last = static_cast<uint32_t>(size() - 1);
    if (wallTimes.back().begin >= last || wallTimes.back().value == seconds) return;
    wallTimes.push_back({last, seconds});
}

void Series::append(const Series& other, uint32_t fileOffset)
{
    appendValuesAndLines(other);
    appendStepsAndMarks(other, fileOffset);
}

void Series::appendValuesAndLines(const Series& other)
{
    value.append(other.value);
    line.append(other.line);
}

void Series::appendStepsAndMarks(const Series& other, uint32_t fileOffset)
{
    const auto shift = static_cast<uint32_t>(step.size());
    step.append(other.step);
    if (other.files.empty() && (fileOffset != 0 || !files.empty())) {
        // other's points came from its file 0
        Series::Mark<uint32_t> m{0, 0};
        appendMarks(files, std::vector<Series::Mark<uint32_t>>{m}, shift, fileOffset);
    } else {
        appendMarks(files, other.files, shift, fileOffset);
    }
    appendMarks(epochs, other.epochs, shift);
    appendMarks(wallTimes, other.wallTimes, shift);
}

namespace {

constexpr size_t kReleaseBytes = 1u << 20;
constexpr size_t kPage = 4096;

// What a column keeps resident once trimmed: a big buffer its used pages, a small one its
// capacity; a shared buffer counts its share for each column holding it.
template <class T>
size_t residentBytes(const Column<T>& c)
{
    const size_t capacity = c.capacity() * sizeof(T);
    const size_t used = c.bufferSize() * sizeof(T);
    const size_t bytes = capacity < kReleaseBytes ? capacity : (used + kPage - 1) / kPage * kPage;
    return c.sharers() > 1 ? bytes / static_cast<size_t>(c.sharers()) : bytes;
}

// Big buffers keep their capacity and give its unused pages back (no copy of millions of
// points); small ones are reallocated at their size.
template <class T>
void trimColumn(Column<T>& c)
{
    if (c.capacity() * sizeof(T) >= kReleaseBytes)
        releaseUnusedTail(c.bufferData(), c.bufferSize() * sizeof(T), c.capacity() * sizeof(T));
    else
        c.shrinkBuffer();
}

}  // namespace

void Series::shrinkToFit()
{
    trimColumn(step);
    trimColumn(value);
    trimColumn(line);
    files.shrink_to_fit();
    epochs.shrink_to_fit();
    wallTimes.shrink_to_fit();
}

size_t Series::bytes() const
{
    return residentBytes(step) + residentBytes(value) + residentBytes(line) +
           files.capacity() * sizeof(Mark<uint32_t>) + epochs.capacity() * sizeof(Mark<float>) +
           wallTimes.capacity() * sizeof(Mark<double>);
}

const Series* Run::find(const std::string& metric) const
{
    auto it = series.find(metric);
    return it == series.end() ? nullptr : &it->second;
}

std::optional<double> Run::metadataNumber(const std::string& key) const
{
    auto it = metadata.find(key);
    if (it == metadata.end()) return std::nullopt;
    const std::string& s = it->second;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) return std::nullopt;
    return v;
}

const Run* LogSet::firstWithRole(RunRole role) const
{
    for (const Run& r : runs)
        if (r.role == role) return &r;
    return nullptr;
}

}  // namespace qatdoctor::core::logs
