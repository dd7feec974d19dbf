#include "ui/shell/source_view.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

#include "core/common/line_window.h"
#include "ui/common/background_job.h"

namespace qatdoctor::ui {
namespace {

// Shift+Enter in the search box searches backwards.
class SearchKeys : public QObject {
public:
    SearchKeys(SourceView* view, QLineEdit* box) : QObject(box), m_view(view), m_box(box) {}
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
                m_view->find(m_box->text(), key->modifiers() & Qt::ShiftModifier);
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    SourceView* m_view;
    QLineEdit* m_box;
};

struct Read {
    qint64 firstLine = 1;
    QStringList lines;
    QString error;
};

}  // namespace

SourceView::SourceView(const QString& path, qint64 line, QWidget* parent)
    : QDialog(parent), m_path(path), m_line(line)
{
    setWindowTitle(tr("%1, line %2").arg(path).arg(line));
    setAttribute(Qt::WA_DeleteOnClose);
    m_view = new QPlainTextEdit;
    m_view->setReadOnly(true);
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setPlainText(tr("Reading %1…").arg(path));
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Search (Enter: next, Shift+Enter: previous)"));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(new SearchKeys(this, m_search));
    m_status = new QLabel;
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    bar->addWidget(m_status);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    resize(1000, 560);

    m_job = new BackgroundJob(this);
    const std::string file = path.toStdString();
    m_job->start<Read>(
        tr("Reading %1").arg(path),
        [file, line](const core::ProgressFn& progress) {
            Read r;
            core::Result<core::LineWindow> w = core::readLineWindow(file, line, kRadius, progress);
            if (!w) {
                r.error = QString::fromStdString(w.error().message);
                return r;
            }
            r.firstLine = w->firstLine;
            for (const std::string& l : w->lines)
                r.lines << QString::fromUtf8(l.data(), static_cast<int>(l.size()));
            return r;
        },
        [this](const Read& r) {
            if (!r.error.isEmpty()) {
                m_view->setPlainText(r.error);
                m_status->setText(tr("Could not show the source"));
                m_loaded = true;
                emit ready();
                return;
            }
            showLines(r.firstLine, r.lines);
        });
}

void SourceView::showLines(qint64 firstLine, const QStringList& lines)
{
    m_firstLine = firstLine;
    const qint64 lastLine = firstLine + lines.size() - 1;
    const int width = static_cast<int>(QString::number(lastLine).size());
    QString text;
    for (qsizetype i = 0; i < lines.size(); ++i)
        text += QStringLiteral("%1 │ %2\n").arg(firstLine + i, width).arg(lines[i]);
    if (!text.isEmpty()) text.chop(1);
    m_view->setPlainText(text);
    const qint64 index = m_line - firstLine;
    if (index >= 0 && index < lines.size()) {
        m_highlighted = m_line;
        QTextCursor cursor(m_view->document()->findBlockByNumber(static_cast<int>(index)));
        QTextEdit::ExtraSelection mark;
        mark.format.setBackground(QColor(255, 236, 150));
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.cursor = cursor;
        m_view->setExtraSelections({mark});
        m_view->setTextCursor(cursor);
        m_view->centerCursor();
    }
    m_status->setText(tr("Lines %1–%2").arg(firstLine).arg(lastLine));
    m_loaded = true;
    emit ready();
}

QString SourceView::text() const
{
    return m_view->toPlainText();
}

QString SourceView::highlightedText() const
{
    if (!m_highlighted) return {};
    return m_view->document()->findBlockByNumber(static_cast<int>(m_highlighted - m_firstLine)).text();
}

QString SourceView::status() const
{
    return m_status->text();
}

bool SourceView::find(const QString& text, bool backwards)
{
    if (text.isEmpty()) return false;
    const QTextDocument::FindFlags flags =
        backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (m_view->find(text, flags)) return true;
    // wrap around once
    QTextCursor start(m_view->document());
    if (backwards) start.movePosition(QTextCursor::End);
    m_view->setTextCursor(start);
    const bool found = m_view->find(text, flags);
    m_status->setText(found ? tr("Search wrapped around") : tr("“%1” not found").arg(text));
    return found;
}

}  // namespace qatdoctor::ui
