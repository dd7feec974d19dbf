// An allocator whose vectors grow without writing their new elements first: for buffers the
// caller fills completely right after (integer accumulators, log columns), where zeroing
// megabytes first was a measurable share of the time.
#pragma once

#include <memory>
#include <new>
#include <utility>

namespace qatdoctor::core {

template <class T>
struct NoInitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = NoInitAllocator<U>;
    };
    NoInitAllocator() = default;
    template <class U>
    NoInitAllocator(const NoInitAllocator<U>&) noexcept
    {
    }
    template <class U>
    void construct(U* p) noexcept
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... A>
    void construct(U* p, A&&... a)
    {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};

}  // namespace qatdoctor::core
