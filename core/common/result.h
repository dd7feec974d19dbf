// Errors as values across the core API. std::expected is C++23; this is the small subset we need.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace qatdoctor::core {

// A failure (or, used as a warning, a suspicious-but-usable input) with enough context that a
// user can find the place: the file, and a 1-based line or a byte offset when known.
struct Error {
    std::string code;     // stable machine-readable kind, e.g. "io.open", "onnx.truncated"
    std::string message;  // human-readable, English; names the file
    std::string file;     // path as the user gave it ("" when not about a file)
    int64_t line = 0;     // 1-based line, 0 = unknown
    int64_t offset = -1;  // byte offset, -1 = unknown

    // "file:line: message" (or "file@offset: message"), the form CLI and UI print.
    std::string toString() const;
};

// Warnings share the shape of errors but never stop a load; they are listed, not thrown.
using Warning = Error;

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() &
    {
        assert(ok());
        return std::get<T>(m_state);
    }
    const T& value() const&
    {
        assert(ok());
        return std::get<T>(m_state);
    }
    T&& value() &&
    {
        assert(ok());
        return std::get<T>(std::move(m_state));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const
    {
        assert(!ok());
        return std::get<Error>(m_state);
    }

private:
    std::variant<T, Error> m_state;
};

// Result<void>: success carries nothing.
struct Ok {};
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Ok) {}
    Result(Error error) : m_error(std::move(error)), m_failed(true) {}
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const
    {
        assert(m_failed);
        return m_error;
    }

private:
    Error m_error;
    bool m_failed = false;
};

// Shorthand for building an error in one line: makeError("io.open", "cannot open", path).
Error makeError(std::string code, std::string message, std::string file = {}, int64_t line = 0,
                int64_t offset = -1);

}  // namespace qatdoctor::core
