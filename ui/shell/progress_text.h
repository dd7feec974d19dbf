// Core reports progress in short English phrases ("reading train.log", "running checks"); the
// status bar shows them in the user's language. One table of the phrases core uses; a phrase
// not in it (an op type while simulating: "Conv") is shown as it came.
#pragma once

#include <QString>

namespace qatdoctor::ui {

QString progressText(const QString& stage);

}  // namespace qatdoctor::ui
