#include "ui/shell/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace qatdoctor::ui {

Language::Language(QObject* parent) : QObject(parent) {}

QString Language::initialCode(const QString& requested)
{
    if (!requested.isEmpty()) return requested.startsWith("zh") ? "zh_CN" : "en";
    const QString saved = QSettings().value("language").toString();
    if (!saved.isEmpty()) return saved;
    return QLocale::system().language() == QLocale::Chinese ? "zh_CN" : "en";
}

void Language::apply(const QString& code)
{
    m_code = code.startsWith("zh") ? "zh_CN" : "en";
    for (QTranslator** t : {&m_app, &m_qt}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    if (m_code == "zh_CN") {
        m_app = new QTranslator(this);
        if (m_app->load(":/i18n/qatdoctor_zh_CN.qm")) QCoreApplication::installTranslator(m_app);
        m_qt = new QTranslator(this);
        // Qt's own strings (standard dialogs); present only when qt6-translations-l10n is installed.
        if (m_qt->load("qtbase_zh_CN", QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(m_qt);
    }
}

void Language::choose(const QString& code)
{
    apply(code);
    QSettings().setValue("language", m_code);
}

}  // namespace qatdoctor::ui
