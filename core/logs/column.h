// One column of a series (its steps, values or lines), read like a const std::vector. The steps
// and lines of the metrics logged on one line (a CSV row, a HAT line with loss and acc) are
// equal, so the series of one parse may share them: a three-metric CSV then keeps 8 bytes per
// point instead of 16, and its parse writes (and the kernel zeroes) half the memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/common/no_init_allocator.h"

namespace qatdoctor::core::logs {

// Sharing is invisible to readers: a column always holds exactly what was appended to it.
// - adopt(other) (while empty) starts sharing other's buffer. An append then either extends the
//   buffer (this column is at its end), or matches the buffer's next elements bit for bit and
//   only moves this column's end, or else copies this column's elements to a buffer of its own
//   once and shares nothing from then on.
// - Copies are deep: a copy shares nothing, so a copy handed to another thread never sees an
//   append. Moves keep the sharing.
// - set() copies first when the buffer is shared (copy on write); updateBuffer() changes every
//   column sharing the buffer at once.
// Only columns of one parse share a buffer, and they are appended to on one thread.
template <class T>
class Column {
public:
    using value_type = T;
    using const_iterator = const T*;
    using iterator = const T*;

    Column() = default;
    Column(std::initializer_list<T> values) { append(values.begin(), values.size()); }
    Column(const Column& o) { append(o.data(), o.size()); }
    Column& operator=(const Column& o)
    {
        if (this != &o) {
            Column copy(o);
            *this = std::move(copy);
        }
        return *this;
    }
    Column(Column&& o) noexcept : m_buf(std::move(o.m_buf)), m_size(std::exchange(o.m_size, 0)) {}
    Column& operator=(Column&& o) noexcept
    {
        m_buf = std::move(o.m_buf);
        m_size = std::exchange(o.m_size, 0);
        return *this;
    }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const T* data() const { return m_buf ? m_buf->data() : nullptr; }
    const T& operator[](size_t i) const { return (*m_buf)[i]; }
    const T& at(size_t i) const
    {
        if (i >= m_size) throw std::out_of_range("Column::at");
        return (*m_buf)[i];
    }
    const T& front() const { return (*m_buf)[0]; }
    const T& back() const { return (*m_buf)[m_size - 1]; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + m_size; }

    // The buffer's capacity (shared: everyone's); reserve() grows it for n elements.
    size_t capacity() const { return m_buf ? m_buf->capacity() : 0; }
    void reserve(size_t n)
    {
        if (!m_buf) m_buf = std::make_shared<Buffer>();
        m_buf->reserve(n);
    }
    // How many columns hold this buffer (1 when not shared), and how many elements it has.
    long sharers() const { return m_buf ? m_buf.use_count() : 0; }
    size_t bufferSize() const { return m_buf ? m_buf->size() : 0; }
    bool sharesWith(const Column& o) const { return m_buf && m_buf == o.m_buf; }
    // The identity of the buffer (nullptr when there is none): columns sharing one have the same.
    const void* bufferIdentity() const { return m_buf.get(); }

    // Starts sharing o's buffer (made now when o has none yet); only while this column is
    // empty (else a no-op).
    void adopt(Column& o)
    {
        if (m_size != 0 || this == &o) return;
        if (!o.m_buf) o.m_buf = std::make_shared<Buffer>();
        m_buf = o.m_buf;
    }

    [[gnu::always_inline]] void push_back(T v)
    {
        if (Buffer* b = m_buf.get()) [[likely]] {
            if (b->size() == m_size) {
                b->push_back(v);
                ++m_size;
                return;
            }
            if (sameBits(b->data() + m_size, &v, 1)) {  // a sibling wrote it
                ++m_size;
                return;
            }
        }
        pushSlow(v);
    }
    void append(const T* p, size_t n)
    {
        if (n == 0) return;
        if (m_buf && m_buf->size() != m_size && matchesNext(p, n)) {
            m_size += n;
            return;
        }
        std::copy(p, p + n, grow(n));
    }
    void append(const Column& o) { appendFrom(o, 0, o.size()); }  // o may share this buffer
    // Appends o's elements [from, from + n): when o shares this buffer and this column ends at
    // `from`, they are already there (the steps of a CSV row, written once for its first metric).
    void appendFrom(const Column& o, size_t from, size_t n)
    {
        if (!sharesWith(o)) return append(o.data() + from, n);
        if (m_size == from) {
            m_size += n;
            return;
        }
        const std::vector<T> copy(o.data() + from, o.data() + from + n);  // grow() may move them
        append(copy.data(), n);
    }
    // n more elements, not initialised: the caller writes all of them through the pointer
    // (valid until the next change of this column).
    T* grow(size_t n)
    {
        if (!m_buf)
            m_buf = std::make_shared<Buffer>();
        else if (m_buf->size() != m_size)
            detach();
        m_buf->resize(m_size + n);
        T* p = m_buf->data() + m_size;
        m_size += n;
        return p;
    }
    void set(size_t i, T v)
    {
        if (m_buf.use_count() > 1) detach();
        (*m_buf)[i] = v;
    }
    // f(element&) on every element of the buffer, as seen by every column sharing it.
    template <class F>
    void updateBuffer(F f)
    {
        if (m_buf)
            for (T& x : *m_buf) f(x);
    }
    // Gives back what the buffer does not use: a big one's unused pages (see trim in run.cpp).
    T* bufferData() { return m_buf ? m_buf->data() : nullptr; }
    void shrinkBuffer()
    {
        if (m_buf) m_buf->shrink_to_fit();
    }

    friend bool operator==(const Column& a, const Column& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const Column& a, const std::vector<T>& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    using Buffer = std::vector<T, NoInitAllocator<T>>;  // grow() leaves new elements to the caller

    static bool sameBits(const T* a, const T* b, size_t n) { return std::memcmp(a, b, n * sizeof(T)) == 0; }
    bool matchesNext(const T* p, size_t n) const
    {
        return m_buf->size() - m_size >= n && sameBits(m_buf->data() + m_size, p, n);
    }
    [[gnu::noinline]] void pushSlow(T v)
    {
        if (!m_buf)
            m_buf = std::make_shared<Buffer>();
        else
            detach();
        m_buf->push_back(v);
        ++m_size;
    }
    // A buffer of its own with this column's elements (a buffer no other column holds any more
    // only drops the elements past this column's end).
    void detach()
    {
        if (m_buf.use_count() == 1) {
            m_buf->resize(m_size);
            return;
        }
        auto own = std::make_shared<Buffer>();
        own->reserve(std::max<size_t>(m_size * 2, 16));
        own->insert(own->end(), m_buf->data(), m_buf->data() + m_size);
        m_buf = std::move(own);
    }

    std::shared_ptr<Buffer> m_buf;
    size_t m_size = 0;
};

}  // namespace qatdoctor::core::logs
