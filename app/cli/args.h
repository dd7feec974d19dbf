// A small argument reader shared by the subcommands: "--name value", "--name=value", boolean
// "--flag", and positionals. Unknown options are usage errors (exit code 2).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace qatdoctor::cli {

class Args {
public:
    // valueOptions take a value; flags don't. Everything else starting with "--" is an error.
    Args(std::vector<std::string> argv, std::set<std::string> valueOptions, std::set<std::string> flags);

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;  // repeated options
    const std::vector<std::string>& positionals() const { return m_positionals; }

private:
    std::vector<std::pair<std::string, std::string>> m_options;
    std::vector<std::string> m_positionals;
    std::string m_error;
};

// "512M", "2G", "1.5GiB", "4000000" (bytes): a size for options such as --max-memory; nullopt
// for anything else, zero or past 2^62.
std::optional<uint64_t> parseByteSize(const std::string& text);

}  // namespace qatdoctor::cli
