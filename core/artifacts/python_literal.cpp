#include "core/artifacts/python_literal.h"

#include <cctype>

#include "core/common/error_codes.h"

namespace qatdoctor::core::artifacts {
namespace {

class Parser {
public:
    Parser(std::string_view text, const std::string& path) : m_text(text), m_path(path) {}

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
            if (c == '\n') {
                ++m_line;
                ++m_pos;
            } else if (c == '#') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n') ++m_pos;
            } else if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
                ++m_pos;
            } else {
                break;
            }
        }
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
            char c = m_text[m_pos++];
            if (c == '\n') return error("a string runs past the end of its line");
            if (c == '\\' && m_pos < m_text.size()) c = m_text[m_pos++];
            v.text.push_back(c);
        }
        if (m_pos >= m_text.size()) return error("a string is not closed");
        ++m_pos;
        return v;
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
                v.entries.push_back(PyEntry{std::move(*item), std::move(*val)});
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
    size_t m_pos = 0;
    int64_t m_line = 1;
};

}  // namespace

Result<PyValue> parsePythonLiteral(std::string_view text, const std::string& path)
{
    return Parser(text, path).document();
}

}  // namespace qatdoctor::core::artifacts
