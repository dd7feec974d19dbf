#include "ui/shell/progress_text.h"

#include <QCoreApplication>
#include <array>

namespace qatdoctor::ui {
namespace {

struct Phrase {
    const char* english;  // the whole stage, or its start when the template has %1
    const char* text;     // QT_TRANSLATE_NOOP'd; %1 = the rest of the stage (a path)
};

// Longer phrases first where one starts another ("reading " before "read ").
constexpr std::array<Phrase, 26> kPhrases{{
    {"reading ", QT_TRANSLATE_NOOP("ProgressText", "reading %1")},
    {"read ", QT_TRANSLATE_NOOP("ProgressText", "read %1")},
    {"loading ", QT_TRANSLATE_NOOP("ProgressText", "loading %1")},
    {"parsing ", QT_TRANSLATE_NOOP("ProgressText", "parsing %1")},
    {"parsed ", QT_TRANSLATE_NOOP("ProgressText", "parsed %1")},
    {"hashing ", QT_TRANSLATE_NOOP("ProgressText", "hashing %1")},
    {"building the layer table", QT_TRANSLATE_NOOP("ProgressText", "building the layer table")},
    {"building ", QT_TRANSLATE_NOOP("ProgressText", "building %1")},
    {"done", QT_TRANSLATE_NOOP("ProgressText", "done")},
    {"running checks", QT_TRANSLATE_NOOP("ProgressText", "running checks")},
    {"report built", QT_TRANSLATE_NOOP("ProgressText", "report built")},
    {"propagating dtypes", QT_TRANSLATE_NOOP("ProgressText", "propagating dtypes")},
    {"placing nodes", QT_TRANSLATE_NOOP("ProgressText", "placing nodes")},
    {"grouping nodes", QT_TRANSLATE_NOOP("ProgressText", "grouping nodes")},
    {"layering", QT_TRANSLATE_NOOP("ProgressText", "layering")},
    {"layer table built", QT_TRANSLATE_NOOP("ProgressText", "layer table built")},
    {"indexing graph", QT_TRANSLATE_NOOP("ProgressText", "indexing graph")},
    {"graph indexed", QT_TRANSLATE_NOOP("ProgressText", "graph indexed")},
    {"graph laid out", QT_TRANSLATE_NOOP("ProgressText", "graph laid out")},
    {"float", QT_TRANSLATE_NOOP("ProgressText", "simulating: float")},
    {"fake", QT_TRANSLATE_NOOP("ProgressText", "simulating: fake-quant")},
    {"int", QT_TRANSLATE_NOOP("ProgressText", "simulating: integer")},
    {"int (other requantization)", QT_TRANSLATE_NOOP("ProgressText", "simulating: integer, other rounding")},
    {"int (unchanged model)", QT_TRANSLATE_NOOP("ProgressText", "simulating: integer, unchanged model")},
    {"what-if int16", QT_TRANSLATE_NOOP("ProgressText", "simulating: what-if int16")},
    {"colour: ", QT_TRANSLATE_NOOP("ProgressText", "colour forms: %1")},
}};

}  // namespace

QString progressText(const QString& stage)
{
    for (const Phrase& p : kPhrases) {
        const QString english = QString::fromLatin1(p.english);
        QString text = QCoreApplication::translate("ProgressText", p.text);
        if (!text.contains(QLatin1String("%1"))) {
            if (stage == english) return text;
            continue;
        }
        if (stage.startsWith(english)) return text.arg(stage.mid(english.size()));
    }
    return stage;
}

}  // namespace qatdoctor::ui
