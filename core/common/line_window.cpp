#include "core/common/line_window.h"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace qatdoctor::core {
namespace {

constexpr size_t kChunk = 1 << 20;

struct FileCloser {
    void operator()(FILE* f) const { std::fclose(f); }
};

}  // namespace

Result<LineWindow> readLineWindow(const std::string& path, int64_t line, int64_t radius,
                                  const ProgressFn& progress)
{
    std::unique_ptr<FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file) return Error{"io.open", "cannot open " + path, path};
    std::error_code ec;
    const auto size = static_cast<double>(std::filesystem::file_size(path, ec));
    LineWindow w;
    w.firstLine = std::max<int64_t>(1, line - radius);
    const int64_t last = std::max<int64_t>(line, 1) + radius;
    int64_t current = 1;
    std::string pending;  // the current line while it is inside the window
    size_t dropped = 0;   // bytes of the current line past kLineWindowMaxLineBytes
    bool open = false;    // the current line has bytes (a last line without '\n' still counts)
    auto finishLine = [&] {
        if (current >= w.firstLine && current <= last) {
            if (!pending.empty() && pending.back() == '\r') pending.pop_back();
            if (dropped) pending += " …(" + std::to_string(dropped) + " more bytes)";
            w.lines.push_back(std::move(pending));
        }
        pending.clear();
        dropped = 0;
        open = false;
        ++current;
    };
    std::vector<char> buf(kChunk);
    double done = 0;
    while (current <= last) {
        const size_t n = std::fread(buf.data(), 1, buf.size(), file.get());
        if (n == 0) {
            if (std::ferror(file.get())) return Error{"io.read", "cannot read " + path, path, current};
            if (open) finishLine();  // a last line without its '\n'
            w.reachedEnd = true;
            break;
        }
        done += static_cast<double>(n);
        for (size_t i = 0; i < n && current <= last; ++i) {
            const char c = buf[i];
            if (c == '\n') {
                finishLine();
                continue;
            }
            open = true;
            if (current < w.firstLine) continue;
            if (pending.size() < kLineWindowMaxLineBytes)
                pending += c;
            else
                ++dropped;
        }
        if (!reportProgress(progress, size > 0 ? done / size : 0, "reading " + path))
            return Error{kCancelledCode, "cancelled while reading " + path, path};
    }
    if (line > current - 1 && w.reachedEnd)
        return Error{"source.past_end",
                     path + " has " + std::to_string(current - 1) + " lines; line " + std::to_string(line) +
                         " is past its end (the file changed since it was read?)",
                     path, line};
    return w;
}

}  // namespace qatdoctor::core
