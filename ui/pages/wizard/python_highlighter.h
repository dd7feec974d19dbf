// Colours Python snippets of the FAQ (keywords, strings, comments, numbers, decorators) so the
// code on a result page reads like it does in an editor. Line-based on purpose: the snippets
// are short and have no multi-line strings.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace qatdoctor::ui {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
    };
    std::vector<Rule> m_rules;  // applied in order; later rules (strings, comments) win
};

}  // namespace qatdoctor::ui
