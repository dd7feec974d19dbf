#include "core/logs/number_layout.h"

#include <algorithm>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {

bool NumberLayout::build(const char* p, const char* e, const std::vector<NumberSpan>& spans)
{
    clear();
    const char* cur = p;
    for (const NumberSpan& s : spans) {
        if (!s.begin || s.begin < cur || s.end < s.begin || s.end > e) {
            clear();
            return false;
        }
        m_literals.emplace_back(cur, static_cast<size_t>(s.begin - cur));
        m_digitFirst.push_back(s.digitFirst);
        cur = s.end;
    }
    m_literals.emplace_back(cur, static_cast<size_t>(e - cur));
    m_valid = true;
    m_shapeFailures = m_shape.build(p, e, spans) ? 0 : 1;
    m_shapeBackoff = m_shapeFailures ? 2 : 0;
    return true;
}

void NumberLayout::clear()
{
    m_valid = false;
    m_literals.clear();
    m_digitFirst.clear();
    m_shape.clear();
}

bool NumberLayout::match(const char* p, const char* e, double* values, const char* readableEnd)
{
    const bool wordsReadable = readableEnd && readableEnd - e >= static_cast<std::ptrdiff_t>(LineShape::kReadPast);
    if (wordsReadable && m_shape.valid() && m_shape.match(p, e, values)) return true;
    const char* line = p;
    const size_t count = m_digitFirst.size();
    const bool record = wordsReadable && m_shapeBackoff == 0;  // the spans for a new shape
    if (record) m_spans.resize(count);
    for (size_t k = 0; k < count; ++k) {
        const std::string_view lit = m_literals[k];
        if (static_cast<size_t>(e - p) < lit.size() || !sameBytes(p, lit.data(), lit.size())) return false;
        p += lit.size();
        if (m_digitFirst[k] && !(p < e && isDigit(*p))) return false;
        const char* r = parseNumber(p, e, values[k]);
        if (!r) return false;
        if (record) m_spans[k] = {p, r, m_digitFirst[k] != 0};
        p = r;
    }
    const std::string_view rest = m_literals[count];
    if (static_cast<size_t>(e - p) != rest.size() || !sameBytes(p, rest.data(), rest.size())) return false;
    // Same layout, another shape (a counter grew a digit): the next lines likely have this one.
    // A line with no shape (a 17-digit learning rate) waits before the next try, longer after
    // every failure.
    if (m_shapeBackoff > 0) {
        --m_shapeBackoff;
    } else if (record) {
        if (m_shape.build(line, e, m_spans)) {
            m_shapeFailures = 0;
        } else {
            m_shapeFailures = std::min(m_shapeFailures + 1, 12);
            m_shapeBackoff = 1 << m_shapeFailures;
        }
    }
    return true;
}

}  // namespace qatdoctor::core::logs
