#include "app/cli/gui_pdf_renderer.h"

#include <QApplication>

#include "app/cli/report_option.h"
#include "ui/report/pdf_renderer.h"

namespace qatdoctor::cli {

void installGuiPdfRenderer(int& argc, char** argv)
{
    setPdfRenderer([&argc, argv](const core::report::ReportDocument& doc, const core::ProgressFn& progress) {
        // Deliberately never deleted: destroying it during static destruction, after Qt's own
        // globals are gone, crashes; the process is about to end anyway.
        if (!QCoreApplication::instance()) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
                qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            new QApplication(argc, argv);
        }
        return ui::renderPdf(doc, progress);
    });
}

}  // namespace qatdoctor::cli
