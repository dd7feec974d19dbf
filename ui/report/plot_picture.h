// A report plot drawn by QCustomPlot into a QPicture through QCPPainter's vectorized mode: the
// picture replays as vector paths and text on the PDF page (no bitmap). QCustomPlot is a widget,
// so this runs on the GUI thread; the picture can then be painted from any thread.
#pragma once

#include <QPicture>
#include <QSize>
#include <QString>

#include "core/report/report_document.h"

namespace qatdoctor::ui {

QPicture drawPlotPicture(const core::report::PlotBlock& plot, QSize size, const QString& fontFamily);

}  // namespace qatdoctor::ui
