#include "core/common/data_table.h"

#include <algorithm>
#include <cctype>

namespace qatdoctor::core {

int DataTable::column(const std::string& name) const
{
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
        return s;
    };
    const std::string want = lower(name);
    for (size_t i = 0; i < columns.size(); ++i)
        if (lower(columns[i]) == want) return static_cast<int>(i);
    return -1;
}

}  // namespace qatdoctor::core
