#include "core/artifacts/python_literal.h"

#include <cctype>
#include <cstdint>
#include <utility>

#include "core/common/error_codes.h"

namespace qatdoctor::core::artifacts {
namespace {

class Parser {
public:
    Parser(std::string_view text, const std::string& path, std::vector<Warning>* warnings)
        : m_text(text), m_path(path), m_warnings(warnings)
    {
        if (m_text.starts_with("\xEF\xBB\xBF")) m_pos = 3;  // a UTF-8 byte-order mark
    }

    Result<PyValue> document()
    {
        skipSpace();
        // `name = value`: a dump may assign its dict to a variable
        const size_t save = m_pos;
        const int64_t saveLine = m_line;
        if (isNameStart(peek())) {
            (void)readName();
            skipSpace();
            if (peek() == '=' && peekAt(1) != '=') {
                ++m_pos;
            } else {
                m_pos = save;
                m_line = saveLine;
            }
        }
        auto v = value(0);
        if (!v) return v;
        skipSpace();
        if (m_pos < m_text.size()) return error("unexpected text after the value");
        return v;
    }

private:
    static bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
    static bool isNameChar(char c)
    {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    char peekAt(size_t k) const { return m_pos + k < m_text.size() ? m_text[m_pos + k] : '\0'; }

    void skipSpace()
    {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n' || c == '\r') {
                newline();
            } else if (c == '#') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n' && m_text[m_pos] != '\r') ++m_pos;
            } else if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
                ++m_pos;
            } else {
                break;
            }
        }
    }

    // past a line end: "\n", "\r\n" or a lone "\r" (an old Mac editor's), one line each
    void newline()
    {
        if (m_text[m_pos] == '\r' && peekAt(1) == '\n') ++m_pos;
        ++m_pos;
        ++m_line;
    }

    Error error(const std::string& what) const
    {
        return makeError(codes::kArtifactParse, m_path + ":" + std::to_string(m_line) + ": " + what, m_path,
                         m_line);
    }

    std::string readName()
    {
        const size_t start = m_pos;
        while (m_pos < m_text.size() && isNameChar(m_text[m_pos])) ++m_pos;
        return std::string(m_text.substr(start, m_pos - start));
    }

    Result<PyValue> value(int depth)
    {
        if (depth > kMaxPyLiteralDepth)
            return error("nested deeper than " + std::to_string(kMaxPyLiteralDepth) + " levels");
        skipSpace();
        PyValue v;
        v.line = m_line;
        const char c = peek();
        if (c == '{' || c == '[' || c == '(') return container(depth, v);
        if (c == '\'' || c == '"') return string(v);
        if (isNameStart(c)) {
            v.kind = PyValue::Kind::Name;
            v.text = readName();
            skipSpace();
            if (peek() == '(')
                return error("a call (" + v.text + "(...)) is not a literal; the file is read, never run");
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
            v.kind = PyValue::Kind::Number;
            const size_t start = m_pos++;
            while (m_pos < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.' ||
                    m_text[m_pos] == '-' || m_text[m_pos] == '+'))
                ++m_pos;
            v.text = std::string(m_text.substr(start, m_pos - start));
            return v;
        }
        if (c == '\0') return error("the value ends early (truncated file?)");
        return error(std::string("unexpected '") + c + "'");
    }

    Result<PyValue> string(PyValue v)
    {
        v.kind = PyValue::Kind::String;
        const char quote = m_text[m_pos++];
        while (m_pos < m_text.size() && m_text[m_pos] != quote) {
            const char c = m_text[m_pos];
            if (c == '\n' || c == '\r') return error("a string runs past the end of its line");
            ++m_pos;
            if (c != '\\' || m_pos >= m_text.size()) {
                v.text.push_back(c);
                continue;
            }
            if (m_text[m_pos] == '\n' || m_text[m_pos] == '\r') {  // a backslash-newline joins the lines
                newline();
                continue;
            }
            if (auto e = escape(v.text); !e.empty()) return error(e);
        }
        if (m_pos >= m_text.size()) return error("a string is not closed");
        ++m_pos;
        return v;
    }

    // One escape after a backslash, decoded into out as Python decodes it; an error text, or "".
    std::string escape(std::string& out)
    {
        const char e = m_text[m_pos++];
        static constexpr std::pair<char, char> kSimple[] = {
            {'n', '\n'}, {'t', '\t'}, {'r', '\r'},  {'0', '\0'},  {'a', '\a'}, {'b', '\b'},
            {'f', '\f'}, {'v', '\v'}, {'\\', '\\'}, {'\'', '\''}, {'"', '"'}};
        if (e >= '0' && e <= '7') {  // up to three octal digits
            unsigned code = static_cast<unsigned>(e - '0');
            for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k)
                code = code * 8 + static_cast<unsigned>(m_text[m_pos++] - '0');
            appendUtf8(out, code);
            return {};
        }
        for (const auto& [letter, byte] : kSimple)
            if (e == letter) {
                out.push_back(byte);
                return {};
            }
        const int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (digits == 0) {  // an unknown escape stays as written, as Python keeps it
            out.push_back('\\');
            out.push_back(e);
            return {};
        }
        uint32_t code = 0;
        for (int k = 0; k < digits; ++k) {
            const char h = peek();
            if (!std::isxdigit(static_cast<unsigned char>(h)))
                return std::string("a \\") + e + " escape needs " + std::to_string(digits) + " hex digits";
            code = code * 16 +
                   static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                             ? h - '0'
                                             : std::tolower(static_cast<unsigned char>(h)) - 'a' + 10);
            ++m_pos;
        }
        if (code > 0x10FFFF) return "a \\U escape beyond Unicode";
        appendUtf8(out, code);
        return {};
    }

    static void appendUtf8(std::string& out, uint32_t c)
    {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }

    // A dict's key given again: Python keeps the last value (in the first key's place).
    bool replaceRepeatedKey(PyValue& dict, PyEntry& entry)
    {
        for (PyEntry& e : dict.entries)
            if (e.key.kind == entry.key.kind && e.key.text == entry.key.text) {
                if (m_warnings)
                    m_warnings->push_back(
                        makeError(codes::kArtifactParse,
                                  m_path + ":" + std::to_string(entry.key.line) + ": the key '" +
                                      entry.key.text + "' is given again (first at line " +
                                      std::to_string(e.key.line) + "): the last value counts, as in Python",
                                  m_path, entry.key.line));
                e.value = std::move(entry.value);
                return true;
            }
        return false;
    }

    Result<PyValue> container(int depth, PyValue v)
    {
        const char open = m_text[m_pos++];
        const char close = open == '{' ? '}' : open == '[' ? ']' : ')';
        v.kind = open == '{' ? PyValue::Kind::Dict : PyValue::Kind::List;
        for (;;) {
            skipSpace();
            if (peek() == close) {
                ++m_pos;
                return v;
            }
            auto item = value(depth + 1);
            if (!item) return item;
            skipSpace();
            if (open == '{') {
                if (peek() != ':') return error("expected ':' after a dict key");
                ++m_pos;
                auto val = value(depth + 1);
                if (!val) return val;
                PyEntry entry{std::move(*item), std::move(*val)};
                if (!replaceRepeatedKey(v, entry)) v.entries.push_back(std::move(entry));
            } else {
                v.items.push_back(std::move(*item));
            }
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
            } else if (peek() != close) {
                return peek() == '\0' ? error(std::string("'") + open + "' is not closed (truncated file?)")
                                      : error(std::string("expected ',' or '") + close + "'");
            }
        }
    }

    std::string_view m_text;
    const std::string& m_path;
    std::vector<Warning>* m_warnings;
    size_t m_pos = 0;
    int64_t m_line = 1;
};

}  // namespace

Result<PyValue> parsePythonLiteral(std::string_view text, const std::string& path,
                                   std::vector<Warning>* warnings)
{
    return Parser(text, path, warnings).document();
}

}  // namespace qatdoctor::core::artifacts
