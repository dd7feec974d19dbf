// core/common/number_text.h as QStrings, for cells, labels and tooltips: the GUI spells numbers
// (and NaN, +Inf, -Inf) exactly as the CLI and the report do.
#pragma once

#include <QString>

#include "core/common/number_text.h"

namespace qatdoctor::ui {

inline QString numberString(double v, int significantDigits)
{
    return QString::fromStdString(core::numberText(v, significantDigits));
}
inline QString fixedString(double v, int decimals)
{
    return QString::fromStdString(core::fixedText(v, decimals));
}

}  // namespace qatdoctor::ui
