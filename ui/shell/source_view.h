// The source behind an evidence "file:line": a read-only window on the few hundred lines around
// it, the line highlighted and scrolled to, line numbers in the margin, and a search box (Enter:
// next, Shift+Enter: previous). Read off the GUI thread (core::readLineWindow), so a 2 GB log
// never stalls the window; a missing file or a line past the end is said in the window.
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace qatdoctor::ui {

class BackgroundJob;

class SourceView : public QDialog {
    Q_OBJECT
public:
    SourceView(const QString& path, qint64 line, QWidget* parent = nullptr);

    // Lines shown either side of the evidence line.
    static constexpr qint64 kRadius = 200;

    // For tests: whether the read finished, the text shown, the highlighted line's number and text.
    bool loaded() const { return m_loaded; }
    QString text() const;
    qint64 highlightedLine() const { return m_highlighted; }
    QString highlightedText() const;
    QString status() const;
    // Finds the next (or previous) occurrence of the search text; false when there is none.
    bool find(const QString& text, bool backwards = false);

signals:
    void ready();

private:
    void showLines(qint64 firstLine, const QStringList& lines);

    QString m_path;
    qint64 m_line = 0;
    qint64 m_firstLine = 1;
    qint64 m_highlighted = 0;
    bool m_loaded = false;
    QPlainTextEdit* m_view = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_status = nullptr;
    BackgroundJob* m_job = nullptr;
};

}  // namespace qatdoctor::ui
