#include "core/logs/number_layout.h"

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
    m_shape.learn(p, e, spans);
    return true;
}

void NumberLayout::clear()
{
    m_valid = false;
    m_literals.clear();
    m_digitFirst.clear();
    m_shape.reset();
}

bool NumberLayout::match(const char* p, const char* e, double* values, const char* readableEnd)
{
    const bool wordsReadable = LineShape::readable(e, readableEnd);
    if (wordsReadable && m_shape.valid() && m_shape.match(p, e, values)) return true;
    const char* line = p;
    const size_t count = m_digitFirst.size();
    const bool record = wordsReadable && m_shape.wantsShape();  // the spans for a new shape
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
    if (wordsReadable) m_shape.learn(line, e, m_spans);
    return true;
}

}  // namespace qatdoctor::core::logs
