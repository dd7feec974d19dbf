// One code snippet of a result page: its title, a Copy button, and the code in a read-only,
// monospace, highlighted view sized to its lines.
#pragma once

#include <QWidget>

class QPlainTextEdit;

namespace qatdoctor::ui {

class CodeBlockView : public QWidget {
    Q_OBJECT
public:
    CodeBlockView(const QString& title, const QString& code, QWidget* parent = nullptr);
    QString code() const { return m_code; }

private:
    QString m_code;
};

}  // namespace qatdoctor::ui
