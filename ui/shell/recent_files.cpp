#include "ui/shell/recent_files.h"

#include <QSettings>

namespace qatdoctor::ui {

QStringList RecentFiles::load()
{
    return QSettings().value("recent").toStringList();
}

void RecentFiles::add(const QString& path)
{
    QStringList list = load();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue("recent", list);
}

void RecentFiles::clear()
{
    QSettings().remove("recent");
}

}  // namespace qatdoctor::ui
