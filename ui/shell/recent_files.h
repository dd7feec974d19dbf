// The "Open recent" list, kept in QSettings (most recent first, at most kMaxRecent, no duplicates).
#pragma once

#include <QStringList>

namespace qatdoctor::ui {

class RecentFiles {
public:
    static constexpr int kMaxRecent = 10;
    static QStringList load();
    static void add(const QString& path);
    static void clear();
};

}  // namespace qatdoctor::ui
