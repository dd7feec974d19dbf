#include "ui/pages/page_registry.h"

#include "ui/pages/artifacts_page.h"
#include "ui/pages/checkpoints_page.h"
#include "ui/pages/curves_page.h"
#include "ui/pages/fixedpoint_page.h"
#include "ui/pages/model_page.h"
#include "ui/pages/overview_page.h"
#include "ui/pages/report_page.h"
#include "ui/pages/wizard_page.h"

namespace qatdoctor::ui {

std::vector<Page*> createPages(AppContext* c, QWidget* parent)
{
    // Sidebar order.
    return {
        new OverviewPage(c, parent),   new WizardPage(c, parent),      new CurvesPage(c, parent),
        new ModelPage(c, parent),      new CheckpointsPage(c, parent), new ArtifactsPage(c, parent),
        new FixedpointPage(c, parent), new ReportPage(c, parent),
    };
}

}  // namespace qatdoctor::ui
