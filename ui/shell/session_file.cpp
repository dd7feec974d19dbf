#include "ui/shell/session_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include "core/common/file_io.h"

namespace qatdoctor::ui {

QByteArray sessionToJson(const Session& s)
{
    QJsonObject root;
    root["format"] = "qatdoctor-session";
    root["version"] = kSessionVersion;
    root["inputs"] = QJsonArray::fromStringList(s.inputs);
    QJsonObject roles;
    for (auto it = s.roles.begin(); it != s.roles.end(); ++it) roles[it.key()] = it.value();
    root["roles"] = roles;
    if (!s.expectPath.isEmpty()) root["expect"] = s.expectPath;
    if (!s.comparedWith.isEmpty()) root["compared_with"] = QJsonArray::fromStringList(s.comparedWith);
    root["pages"] = s.pages;
    root["notes"] = s.notes;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

core::Result<Session> sessionFromJson(const QByteArray& json, const QString& path)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    const std::string file = path.toStdString();
    if (err.error != QJsonParseError::NoError) {
        // Report a line, not just an offset: count newlines before the error.
        const int64_t line = json.left(err.offset).count('\n') + 1;
        return core::makeError("session.parse",
                               file + ": not a valid session file: " + err.errorString().toStdString(), file,
                               line, err.offset);
    }
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != "qatdoctor-session")
        return core::makeError("session.format", file + ": not a QAT Doctor session (.qatdoctor) file", file);
    if (root.value("version").toInt() > kSessionVersion)
        return core::makeError("session.version",
                               file + ": written by a newer QAT Doctor (version " +
                                   std::to_string(root.value("version").toInt()) + ")",
                               file);
    Session s;
    // a path listed again is the same input: folded, so a session naming one folder 100,000
    // times opens one folder, once
    auto distinctPaths = [](const QJsonArray& list) {
        QStringList out;
        QSet<QString> seen;
        for (const auto& v : list)
            if (v.isString() && !seen.contains(QDir::cleanPath(v.toString()))) {
                seen.insert(QDir::cleanPath(v.toString()));
                out << v.toString();
            }
        return out;
    };
    s.inputs = distinctPaths(root.value("inputs").toArray());
    const QJsonObject roles = root.value("roles").toObject();
    for (auto it = roles.begin(); it != roles.end(); ++it) s.roles[it.key()] = it.value().toString();
    s.expectPath = root.value("expect").toString();
    s.comparedWith = distinctPaths(root.value("compared_with").toArray());
    s.pages = root.value("pages").toObject();
    s.notes = root.value("notes").toString();
    return s;
}

core::Result<Session> readSessionFile(const QString& path)
{
    auto bytes = core::readFile(path.toStdString(), 64u << 20);
    if (!bytes) return bytes.error();
    return sessionFromJson(QByteArray::fromStdString(*bytes), path);
}

core::Result<void> writeSessionFile(const QString& path, const Session& session)
{
    const QByteArray json = sessionToJson(session);
    return core::writeFileAtomic(path.toStdString(), std::string_view(json.constData(), json.size()));
}

}  // namespace qatdoctor::ui
