#include "ui/pages/wizard/python_highlighter.h"

namespace qatdoctor::ui {
namespace {
QTextCharFormat makeFormat(const QColor& colour, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(colour);
    if (bold) f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}
}  // namespace

PythonHighlighter::PythonHighlighter(QTextDocument* document) : QSyntaxHighlighter(document)
{
    const QString keywords =
        "and|as|assert|break|class|continue|def|del|elif|else|except|False|finally|for|from|global|"
        "if|import|in|is|lambda|None|nonlocal|not|or|pass|raise|return|True|try|while|with|yield|self";
    m_rules.push_back(
        {QRegularExpression("\\b(" + keywords + ")\\b"), makeFormat(QColor(0x00, 0x33, 0xb3), true)});
    m_rules.push_back({QRegularExpression("\\b(print|len|range|isinstance|super|dict|list|tuple)\\b(?=\\()"),
                       makeFormat(QColor(0x00, 0x80, 0x80))});
    m_rules.push_back({QRegularExpression("\\b[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?\\b"),
                       makeFormat(QColor(0x17, 0x50, 0xeb))});
    m_rules.push_back({QRegularExpression("^\\s*@[\\w.]+"), makeFormat(QColor(0x9e, 0x88, 0x0d))});
    m_rules.push_back({QRegularExpression("\"[^\"\\\\]*(\\\\.[^\"\\\\]*)*\"|'[^'\\\\]*(\\\\.[^'\\\\]*)*'"),
                       makeFormat(QColor(0x06, 0x7d, 0x17))});
    m_rules.push_back({QRegularExpression("#[^\\n]*"), makeFormat(QColor(0x8c, 0x8c, 0x8c), false, true)});
}

void PythonHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : m_rules) {
        for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            // A '#' inside a string literal is not a comment.
            if (rule.pattern.pattern().startsWith('#') && format(m.capturedStart()) == m_rules[4].format)
                continue;
            setFormat(m.capturedStart(), m.capturedLength(), rule.format);
        }
    }
}

}  // namespace qatdoctor::ui
