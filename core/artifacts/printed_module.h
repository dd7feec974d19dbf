// The tree of a printed PyTorch module (`print(model)`), as text: `(name): Type(args ...)` lines,
// nested by parentheses. Indentation is not trusted (pasted text loses it); parentheses are.
// Multi-line tensors and `...` elisions stay inside a node's args text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/result.h"

namespace qatdoctor::core::artifacts {

struct ModuleNode {
    std::string name;  // "conv1", "0", "weight_fake_quant"; "" for the printed root
    std::string type;  // "ConvBnReLU2d", "FakeQuantize", "None"
    std::string args;  // the extra_repr text, continuation lines joined with one space
    int64_t line = 0;  // 1-based line of the `(name): Type(` header
    int parent = -1;   // index into PrintedModule::nodes
    std::vector<int> children;
    bool closed = true;  // false when the text ended inside this node
};

struct PrintedModule {
    std::vector<ModuleNode> nodes;  // nodes[0] is a synthetic container holding the printed roots
    std::vector<Warning> warnings;  // truncation, stray lines
    int64_t headerCount = 0;        // `(name): Type` lines seen

    // "block.0.conv" (names of the ancestors below the synthetic container, unnamed roots skipped).
    std::string path(int node) const;
};

inline constexpr int kMaxModuleDepth = 128;

// Parses the printout. Errors: "printed.empty" (no module lines), "printed.too_deep" (nesting
// beyond kMaxModuleDepth). Messages name `path` and the line.
Result<PrintedModule> parsePrintedModule(std::string_view text, const std::string& path);

// The args split at top-level commas: positional values and key=value pairs, in order.
struct ArgList {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> named;
    const std::string* find(std::string_view key) const;
};
ArgList splitArgs(std::string_view args);

// Numbers inside a printed tensor or scalar: "tensor([0.1, 0.2, ..., 0.3])", "tensor([1], dtype=..)",
// "0.0159", "inf", "tensor([])". `elided` is set when the printout skipped values with "...".
struct NumberList {
    std::vector<double> values;
    bool elided = false;
    bool empty = false;  // an explicitly empty tensor: tensor([])
};
NumberList parseNumbers(std::string_view value);

// Net count of '(' minus ')' outside quotes.
int parenBalance(std::string_view s);

}  // namespace qatdoctor::core::artifacts
