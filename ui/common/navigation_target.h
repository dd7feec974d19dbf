// Where a click on a finding, a layer or a link should take the user.
#pragma once

#include <QMetaType>
#include <QString>
#include <optional>

namespace qatdoctor::ui {

struct NavigationTarget {
    QString page;                // page id: "overview", "wizard", "curves", "model", "fixedpoint", "report",
                                 // or "source" (the source view of file:line)
    QString run;                 // curves: run to show
    QString metric;              // curves: series name
    std::optional<double> step;  // curves: step to zoom to
    QString layer;               // model / fixedpoint: layer to select
    QString faqTopic;            // wizard: topic id to open
    QString findingId;           // overview: finding to highlight
    QString file;                // source: the file to show (a window over the page, not a page)
    qint64 line = 0;             // source: 1-based line to highlight
};

}  // namespace qatdoctor::ui

Q_DECLARE_METATYPE(qatdoctor::ui::NavigationTarget)
