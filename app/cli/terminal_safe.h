// Output streams that print control characters as visible escapes ("\x1b"). Run, folder, node
// and file names come from the user's files: a name holding ESC sequences could clear the
// screen, set the window title or hide lines when printed raw. Newlines and tabs pass; JSON
// output is unchanged (its strings already escape control characters).
#pragma once

#include <ostream>
#include <streambuf>

namespace qatdoctor::cli {

class ControlEscapingBuf : public std::streambuf {
public:
    explicit ControlEscapingBuf(std::streambuf* target) : m_target(target) {}

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override { return m_target->pubsync(); }

private:
    bool put(char c);
    std::streambuf* m_target;
};

// An ostream over another stream's buffer through ControlEscapingBuf.
class TerminalSafeStream : public std::ostream {
public:
    explicit TerminalSafeStream(std::ostream& target) : std::ostream(nullptr), m_buf(target.rdbuf())
    {
        rdbuf(&m_buf);
    }

private:
    ControlEscapingBuf m_buf;
};

}  // namespace qatdoctor::cli
