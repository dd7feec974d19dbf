// Progress and cancellation cross the core boundary as a plain callback: core knows nothing of
// threads or Qt. The callback returns false to ask the work to stop; the work then returns an
// Error with code "cancelled" and leaves nothing half-built.
#pragma once

#include <functional>
#include <string_view>

namespace qatdoctor::core {

// fraction in [0, 1]; stage is a short English phrase ("reading events.out.tfevents...").
using ProgressFn = std::function<bool(double fraction, std::string_view stage)>;

// Calls fn if set; returns true (= go on) when there is no callback.
inline bool reportProgress(const ProgressFn& fn, double fraction, std::string_view stage)
{
    return !fn || fn(fraction, stage);
}

inline constexpr const char* kCancelledCode = "cancelled";

}  // namespace qatdoctor::core
