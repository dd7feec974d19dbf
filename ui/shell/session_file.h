// The .qatdoctor session file: what the user opened, the roles they assigned, the pages' state
// (wizard answers, choices) and their notes. Written atomically; read with errors that name the
// file. A version field lets later releases read older sessions.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include "core/common/result.h"

namespace qatdoctor::ui {

struct Session {
    QStringList inputs;            // paths (log folders, models, artifacts)
    QMap<QString, QString> roles;  // run name -> role set by the user
    QString expectPath;            // expected dtypes JSON (optional)
    QStringList comparedWith;      // the attempt compared with the inputs (File ▸ Compare with…)
    QJsonObject pages;             // page id -> page state
    QString notes;

    bool isEmpty() const { return inputs.isEmpty() && notes.isEmpty() && pages.isEmpty(); }
};

inline constexpr int kSessionVersion = 1;

QByteArray sessionToJson(const Session& session);
core::Result<Session> sessionFromJson(const QByteArray& json, const QString& pathForMessages);

core::Result<Session> readSessionFile(const QString& path);
core::Result<void> writeSessionFile(const QString& path, const Session& session);

}  // namespace qatdoctor::ui
