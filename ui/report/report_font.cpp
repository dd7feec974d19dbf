#include "ui/report/report_font.h"

#include <QFile>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QStringList>
#include <mutex>

namespace qatdoctor::ui {

QString reportFontFamily()
{
    // QFontDatabase keeps registered fonts for the process; registering twice would add a
    // duplicate, so the one registration is remembered here.
    static std::once_flag once;
    static QString family;
    std::call_once(once, [] {
        const QStringList candidates = {"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
                                        "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc"};
        for (const QString& path : candidates) {
            if (!QFile::exists(path)) continue;
            const int id = QFontDatabase::addApplicationFont(path);
            const QStringList families = id >= 0 ? QFontDatabase::applicationFontFamilies(id) : QStringList();
            if (!families.isEmpty()) {
                family = families.front();
                return;
            }
        }
        family = QGuiApplication::font().family();
    });
    return family;
}

}  // namespace qatdoctor::ui
