#include "ui/pages/overview/finding_navigation.h"

namespace qatdoctor::ui {

NavigationTarget navigationFor(const core::Finding& finding, const core::Evidence* evidence)
{
    if (!evidence) {
        for (const core::Evidence& e : finding.evidence) {
            if (!e.layer.empty() || !e.run.empty()) {
                evidence = &e;
                break;
            }
        }
    }
    NavigationTarget t;
    t.findingId = QString::fromStdString(finding.id);
    if (!evidence) return t;
    if (!evidence->layer.empty()) {
        t.page = QStringLiteral("model");
        t.layer = QString::fromStdString(evidence->layer);
    } else if (!evidence->run.empty()) {
        t.page = QStringLiteral("curves");
        t.run = QString::fromStdString(evidence->run);
        t.metric = QString::fromStdString(evidence->metric);
        t.step = evidence->step;
    }
    return t;
}

NavigationTarget wizardFor(const core::Finding& finding)
{
    NavigationTarget t;
    t.findingId = QString::fromStdString(finding.id);
    if (finding.faq.empty()) return t;
    t.page = QStringLiteral("wizard");
    t.faqTopic = QString::fromStdString(finding.faq);
    return t;
}

}  // namespace qatdoctor::ui
