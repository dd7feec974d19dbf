// The UI language: picked from the system locale at first start, switchable in the menu, kept
// in QSettings. Translations are compiled .qm files embedded as resources (:/i18n).
#pragma once

#include <QObject>
#include <QString>

class QTranslator;

namespace qatdoctor::ui {

class Language : public QObject {
    Q_OBJECT
public:
    explicit Language(QObject* parent = nullptr);

    // "zh_CN" or "en". Explicit choice > saved setting > system locale.
    QString current() const { return m_code; }
    // Installs the translators, for this run only (a --lang on the command line is not a choice
    // to remember).
    void apply(const QString& code);
    // apply() and saves the choice for the next start (the Language menu).
    void choose(const QString& code);
    static QString initialCode(const QString& requested);

private:
    QTranslator* m_app = nullptr;
    QTranslator* m_qt = nullptr;
    QString m_code;
};

}  // namespace qatdoctor::ui
