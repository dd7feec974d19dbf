#include "core/artifacts/printed_module.h"

#include <cctype>

#include "core/artifacts/text_lines.h"

namespace qatdoctor::core::artifacts {
namespace {

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// "(name): Type<rest>" -> true and the three parts.
bool parseHeader(std::string_view t, std::string& name, std::string& type, std::string_view& rest)
{
    if (t.size() < 5 || t.front() != '(') return false;
    const size_t close = t.find("): ");
    if (close == std::string_view::npos || close < 2 || close > 200) return false;
    const std::string_view n = t.substr(1, close - 1);
    for (char c : n)
        if (!isIdentChar(c) && c != '-') return false;
    size_t p = close + 3;
    if (p >= t.size() || !isIdentStart(t[p])) return false;
    const size_t typeStart = p;
    while (p < t.size() && isIdentChar(t[p])) ++p;
    name = std::string(n);
    type = std::string(t.substr(typeStart, p - typeStart));
    rest = t.substr(p);
    return rest.empty() || rest.front() == '(';
}

// "Type(" or "Type(args)" at the top level (the printed root).
bool parseRoot(std::string_view t, std::string& type, std::string_view& rest)
{
    if (t.empty() || !isIdentStart(t.front())) return false;
    size_t p = 0;
    while (p < t.size() && isIdentChar(t[p])) ++p;
    if (p >= t.size() || t[p] != '(') return false;
    type = std::string(t.substr(0, p));
    rest = t.substr(p);
    return true;
}

void appendArgs(std::string& args, std::string_view piece)
{
    piece = trim(piece);
    if (piece.empty()) return;
    if (!args.empty()) args += ' ';
    args += piece;
}

// The part of a line before the parenthesis that closes an open node.
std::string_view beforeClosing(std::string_view s, int openBalance)
{
    int bal = openBalance;
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(') {
            ++bal;
        } else if (c == ')' && --bal == 0) {
            return s.substr(0, i);
        }
    }
    return s;
}

}  // namespace

int parenBalance(std::string_view s)
{
    int bal = 0;
    char quote = 0;
    for (char c : s) {
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(') {
            ++bal;
        } else if (c == ')') {
            --bal;
        }
    }
    return bal;
}

std::string PrintedModule::path(int node) const
{
    std::vector<const std::string*> parts;
    for (int n = node; n > 0; n = nodes[static_cast<size_t>(n)].parent)
        if (!nodes[static_cast<size_t>(n)].name.empty()) parts.push_back(&nodes[static_cast<size_t>(n)].name);
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!out.empty()) out += '.';
        out += **it;
    }
    return out;
}

Result<PrintedModule> parsePrintedModule(std::string_view text, const std::string& path)
{
    PrintedModule pm;
    pm.nodes.push_back(ModuleNode{"", "", "", 0, -1, {}, true});
    struct Open {
        int node;
        int balance;
    };
    std::vector<Open> stack;  // open nodes below the synthetic container
    auto addNode = [&](std::string name, std::string type, int64_t line) {
        const int parent = stack.empty() ? 0 : stack.back().node;
        pm.nodes.push_back(ModuleNode{std::move(name), std::move(type), "", line, parent, {}, true});
        const int idx = static_cast<int>(pm.nodes.size() - 1);
        pm.nodes[static_cast<size_t>(parent)].children.push_back(idx);
        return idx;
    };
    auto open = [&](int idx, std::string_view rest, int64_t line) -> Result<void> {
        const int bal = parenBalance(rest);
        ModuleNode& node = pm.nodes[static_cast<size_t>(idx)];
        if (bal <= 0) {  // closes on its own line: "Type(args)" or "None"
            std::string_view inner = rest;
            if (!inner.empty() && inner.front() == '(') inner.remove_prefix(1);
            inner = beforeClosing(inner, 1);
            appendArgs(node.args, inner);
            return Ok{};
        }
        if (static_cast<int>(stack.size()) >= kMaxModuleDepth)
            return makeError("printed.too_deep",
                             path + ":" + std::to_string(line) + ": modules nested deeper than " +
                                 std::to_string(kMaxModuleDepth) + " levels",
                             path, line);
        appendArgs(node.args, rest.substr(1));
        node.closed = false;
        stack.push_back({idx, bal});
        return Ok{};
    };

    int64_t ignored = 0;
    for (const TextLine& line : splitLines(text)) {
        const std::string_view t = trim(line.text);
        if (t.empty()) continue;
        std::string name, type;
        std::string_view rest;
        if (parseHeader(t, name, type, rest)) {
            ++pm.headerCount;
            const int idx = addNode(std::move(name), std::move(type), line.number);
            if (auto r = open(idx, rest, line.number); !r) return r.error();
            continue;
        }
        if (!stack.empty()) {
            Open& top = stack.back();
            const int before = top.balance;
            top.balance += parenBalance(t);
            ModuleNode& node = pm.nodes[static_cast<size_t>(top.node)];
            if (top.balance <= 0) {
                appendArgs(node.args, beforeClosing(t, before));
                node.closed = true;
                stack.pop_back();
            } else {
                appendArgs(node.args, t);
            }
            continue;
        }
        if (parseRoot(t, type, rest)) {
            const int idx = addNode("", std::move(type), line.number);
            if (auto r = open(idx, rest, line.number); !r) return r.error();
            continue;
        }
        ++ignored;  // log prefixes, prompts and other text around the printout
    }
    if (pm.headerCount == 0 && pm.nodes.size() <= 2)
        return makeError("printed.empty", path + ": no printed module lines ('(name): Type(') found", path);
    if (!stack.empty()) {
        const ModuleNode& n = pm.nodes[static_cast<size_t>(stack.front().node)];
        pm.warnings.push_back(
            makeError("printed.truncated",
                      path + ":" + std::to_string(n.line) + ": the printout ends inside '" +
                          (n.name.empty() ? n.type : n.name) + "' (" + std::to_string(stack.size()) +
                          " modules not closed; truncated?); the modules read so far are kept",
                      path, n.line));
    }
    if (ignored > 0)
        pm.warnings.push_back(makeError(
            "printed.ignored_lines",
            path + ": " + std::to_string(ignored) + " lines outside the printed module were ignored", path));
    return pm;
}

const std::string* ArgList::find(std::string_view key) const
{
    for (const auto& [k, v] : named)
        if (k == key) return &v;
    return nullptr;
}

ArgList splitArgs(std::string_view args)
{
    ArgList out;
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    auto flush = [&](size_t end) {
        const std::string_view item = trim(args.substr(start, end - start));
        start = end + 1;
        if (item.empty()) return;
        const size_t eq = item.find('=');
        bool named = eq != std::string_view::npos && eq > 0;
        for (size_t i = 0; named && i < eq; ++i)
            if (!isIdentChar(item[i])) named = false;
        if (named)
            out.named.emplace_back(std::string(item.substr(0, eq)), std::string(trim(item.substr(eq + 1))));
        else
            out.positional.emplace_back(item);
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const char c = args[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++depth;
        } else if (c == ')' || c == ']' || c == '}') {
            --depth;
        } else if (c == ',' && depth == 0) {
            flush(i);
        }
    }
    flush(args.size());
    return out;
}

NumberList parseNumbers(std::string_view value)
{
    NumberList out;
    std::string_view body = trim(value);
    const size_t lb = body.find('[');
    if (lb != std::string_view::npos) {
        const size_t rb = body.find(']', lb);
        body = body.substr(lb + 1, (rb == std::string_view::npos ? body.size() : rb) - lb - 1);
    } else if (startsWith(body, "tensor(")) {
        body = body.substr(7);
        const size_t end = body.find_first_of(",)");
        body = body.substr(0, end);
    }
    if (trim(body).empty()) {
        out.empty = lb != std::string_view::npos;
        return out;
    }
    size_t start = 0;
    while (start <= body.size()) {
        size_t comma = body.find(',', start);
        if (comma == std::string_view::npos) comma = body.size();
        const std::string_view item = trim(body.substr(start, comma - start));
        if (item == "...")
            out.elided = true;
        else if (auto v = parseNumber(item))
            out.values.push_back(*v);
        start = comma + 1;
    }
    return out;
}

}  // namespace qatdoctor::core::artifacts
