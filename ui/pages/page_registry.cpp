#include "ui/pages/page_registry.h"

#include <QCoreApplication>

#include "ui/pages/artifacts_page.h"
#include "ui/pages/curves_page.h"
#include "ui/pages/fixedpoint_page.h"
#include "ui/pages/overview_page.h"
#include "ui/pages/model_page.h"
#include "ui/pages/placeholder_page.h"
#include "ui/pages/report_page.h"
#include "ui/pages/wizard_page.h"

namespace qatdoctor::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("qatdoctor::ui::Pages", text); }

Page* placeholder(AppContext* c, QWidget* parent, const char* id, const char* title)
{
    return new PlaceholderPage(c, id, tr(title),
                               tr("This page is not available in this build yet."), parent);
}

}  // namespace

std::vector<Page*> createPages(AppContext* c, QWidget* parent)
{
    // Sidebar order. Each area replaces its placeholder row with its page class.
    return {
        new OverviewPage(c, parent),
        new WizardPage(c, parent),
        new CurvesPage(c, parent),
        new ModelPage(c, parent),
        new ArtifactsPage(c, parent),
        new FixedpointPage(c, parent),
        new ReportPage(c, parent),
    };
}

}  // namespace qatdoctor::ui
