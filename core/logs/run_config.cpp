#include "core/logs/run_config.h"

#include "core/common/file_io.h"
#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {

bool isRunConfigFile(std::string_view name)
{
    for (std::string_view n : {"hparams.yaml", "opt.yaml", "hyp.yaml", "args.yaml", "config.py"})
        if (name == n) return true;
    return false;
}

std::map<std::string, std::string> readRunConfig(const std::string& path)
{
    constexpr size_t kMaxBytes = 1u << 20;
    std::map<std::string, std::string> out;
    auto text = readFileHead(path, kMaxBytes + 1);
    if (!text || text->size() > kMaxBytes) return out;
    if (path.ends_with(".py")) {
        readPythonAssignments(*text, out);
        return out;
    }
    std::string_view rest = *text;
    while (!rest.empty()) {
        const size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        if (line.empty() || !(isAlpha(line[0]) || line[0] == '_')) continue;  // indented, comment, list item
        const size_t colon = line.find(": ");
        if (colon == std::string_view::npos) continue;
        std::string_view value = line.substr(colon + 2);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        if (value.empty() || value[0] == '|' || value[0] == '>' || value[0] == '!' || value[0] == '&')
            continue;
        if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        if (value.size() <= 200) out.emplace(std::string(line.substr(0, colon)), std::string(value));
    }
    return out;
}

int bracketBalance(std::string_view s)
{
    int depth = 0;
    char quote = 0;
    for (char c : s) {
        if (quote) {
            if (c == quote) quote = 0;
            continue;
        }
        if (c == '\'' || c == '"') quote = c;
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') --depth;
    }
    return depth;
}

void readPythonAssignments(std::string_view text, std::map<std::string, std::string>& into)
{
    constexpr size_t kMaxValue = 400;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        size_t i = 0;
        while (i < line.size() && (isAlpha(line[i]) || line[i] == '_' || (i > 0 && isDigit(line[i])))) ++i;
        if (i == 0 || !line.substr(i).starts_with(" = ")) continue;
        std::string_view value = line.substr(i + 3);
        if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        // "train_dataloader = dict(" opens a block over many lines: its value is the block, joined
        // (cut at kMaxValue: mmengine sorts the keys, the short settings come first)
        std::string joined(value);
        for (int depth = bracketBalance(value); depth > 0 && !text.empty();) {
            const size_t next = text.find('\n');
            std::string_view more = text.substr(0, next);
            text = next == std::string_view::npos ? std::string_view() : text.substr(next + 1);
            while (!more.empty() && (more.front() == ' ' || more.front() == '\t')) more.remove_prefix(1);
            while (!more.empty() && (more.back() == '\r' || more.back() == ' ')) more.remove_suffix(1);
            depth += bracketBalance(more);
            if (joined.size() < kMaxValue) joined += (joined.back() == '(' ? "" : " ") + std::string(more);
        }
        if (!joined.empty()) into.emplace(std::string(line.substr(0, i)), joined.substr(0, kMaxValue));
    }
}

}  // namespace qatdoctor::core::logs
