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
    if (!evidence) {
        for (const core::Evidence& e : finding.evidence) {
            if (!e.file.empty() && e.line > 0) {
                evidence = &e;
                break;
            }
        }
    }
    NavigationTarget t;
    t.findingId = QString::fromStdString(finding.id);
    if (!evidence) return t;
    // a point of a curve shows the curve; a line of a log without a metric (a warning, a
    // traceback) shows the log's source
    const bool sourceLine = !evidence->file.empty() && evidence->line > 0 && evidence->metric.empty();
    if (!evidence->layer.empty()) {
        t.page = QStringLiteral("model");
        t.layer = QString::fromStdString(evidence->layer);
        t.file = QString::fromStdString(evidence->file);  // a checkpoint's layer: its own page
    } else if (sourceLine) {
        NavigationTarget source = sourceFor(*evidence);
        source.findingId = t.findingId;
        return source;
    } else if (!evidence->run.empty()) {
        t.page = QStringLiteral("curves");
        t.run = QString::fromStdString(evidence->run);
        t.metric = QString::fromStdString(evidence->metric);
        t.step = evidence->step;
    }
    return t;
}

NavigationTarget routedTo(NavigationTarget target, const core::Analysis* analysis)
{
    if (!analysis || target.page != QLatin1String("model") || target.file.isEmpty()) return target;
    const std::string file = target.file.toStdString();
    for (const core::checkpoint::CheckpointRead& c : analysis->checkpoints)
        if (c.file.path == file) target.page = QStringLiteral("checkpoints");
    return target;
}

NavigationTarget sourceFor(const core::Evidence& evidence)
{
    NavigationTarget t;
    t.page = QStringLiteral("source");
    t.file = QString::fromStdString(evidence.file);
    t.line = evidence.line;
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
