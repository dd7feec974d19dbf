#include "app/cli/args.h"

#include <cctype>
#include <cstdlib>

namespace qatdoctor::cli {

Args::Args(std::vector<std::string> argv, std::set<std::string> valueOptions, std::set<std::string> flags)
{
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--") {
            m_positionals.insert(m_positionals.end(), argv.begin() + static_cast<long>(i) + 1, argv.end());
            break;
        }
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            m_positionals.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::string val;
        bool hasInlineValue = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            val = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasInlineValue = true;
        }
        if (flags.count(name)) {
            if (hasInlineValue) {
                m_error = "option --" + name + " takes no value";
                return;
            }
            m_options.emplace_back(name, "");
        } else if (valueOptions.count(name)) {
            if (!hasInlineValue) {
                if (i + 1 >= argv.size()) {
                    m_error = "option --" + name + " needs a value";
                    return;
                }
                val = argv[++i];
            }
            m_options.emplace_back(name, val);
        } else {
            m_error = "unknown option --" + name;
            return;
        }
    }
}

bool Args::has(const std::string& name) const
{
    for (const auto& [n, v] : m_options)
        if (n == name) return true;
    return false;
}

std::optional<std::string> Args::value(const std::string& name) const
{
    std::optional<std::string> out;
    for (const auto& [n, v] : m_options)
        if (n == name) out = v;  // the last one wins, as in most tools
    return out;
}

std::vector<std::string> Args::values(const std::string& name) const
{
    std::vector<std::string> out;
    for (const auto& [n, v] : m_options)
        if (n == name) out.push_back(v);
    return out;
}

std::optional<uint64_t> parseByteSize(const std::string& text)
{
    char* end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(number > 0)) return std::nullopt;
    std::string unit(end);
    for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (unit.size() > 1 && unit.back() == 'b') unit.pop_back();  // "gb", "gib"
    if (unit.size() > 1 && unit.back() == 'i') unit.pop_back();  // "gi"
    static const std::pair<const char*, double> kUnits[] = {
        {"", 1}, {"k", 1024.0}, {"m", 1048576.0}, {"g", 1073741824.0}, {"t", 1099511627776.0}};
    for (const auto& [name, factor] : kUnits)
        if (unit == name) {
            const double bytes = number * factor;
            if (bytes < 1 || bytes > 4.6e18) return std::nullopt;
            return static_cast<uint64_t>(bytes);
        }
    return std::nullopt;
}

}  // namespace qatdoctor::cli
