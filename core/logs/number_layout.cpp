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
    return true;
}

void NumberLayout::clear()
{
    m_valid = false;
    m_literals.clear();
    m_digitFirst.clear();
}

bool NumberLayout::match(const char* p, const char* e, double* values) const
{
    const size_t count = m_digitFirst.size();
    for (size_t k = 0; k < count; ++k) {
        const std::string_view lit = m_literals[k];
        if (static_cast<size_t>(e - p) < lit.size() || !sameBytes(p, lit.data(), lit.size())) return false;
        p += lit.size();
        if (m_digitFirst[k] && !(p < e && isDigit(*p))) return false;
        const char* r = parseNumber(p, e, values[k]);
        if (!r) return false;
        p = r;
    }
    const std::string_view rest = m_literals[count];
    return static_cast<size_t>(e - p) == rest.size() && sameBytes(p, rest.data(), rest.size());
}

}  // namespace qatdoctor::core::logs
