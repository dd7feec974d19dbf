#include "ui/report/pdf_flow.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QTextOption>
#include <algorithm>

namespace qatdoctor::ui {
namespace {

constexpr double kCellPad = 3;
constexpr int kMaxCellChars = 1500;  // a cell taller than a page cannot be split; keep it short

}  // namespace

PdfFlow::PdfFlow(const QPaintDevice* device, QRectF content) : m_device(device), m_content(content)
{
    newPage();
}

TextBox PdfFlow::makeText(const QString& text, const QFont& font, double width) const
{
    QString t = text;
    t.replace('\n', QChar::LineSeparator);
    auto layout = std::make_shared<QTextLayout>(t, font, const_cast<QPaintDevice*>(m_device));
    QTextOption option;
    // Paths, hashes and Chinese have no spaces: break anywhere when a word does not fit.
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout->setTextOption(option);
    layout->setCacheEnabled(true);
    double h = 0;
    layout->beginLayout();
    for (QTextLine line = layout->createLine(); line.isValid(); line = layout->createLine()) {
        line.setLineWidth(std::max(1.0, width));
        line.setPosition(QPointF(0, h));
        h += line.height();
    }
    layout->endLayout();
    return {layout, h};
}

void PdfFlow::newPage()
{
    m_pages.push_back({m_section, {}});
    m_y = m_content.top();
}

void PdfFlow::ensure(double height)
{
    if (m_y > m_content.top() && m_y + height > m_content.bottom()) newPage();
}

std::vector<Fragment> PdfFlow::placeText(const QString& text, const QFont& font, double indent, QColor color,
                                         QColor background)
{
    std::vector<Fragment> out;
    const double x = m_content.left() + indent, w = m_content.width() - indent;
    const TextBox box = makeText(text, font, background.isValid() ? w - 8 : w);
    const double inset = background.isValid() ? 4 : 0;
    const int lines = box.layout->lineCount();
    int first = 0;
    while (first < lines) {
        // As many whole lines as fit on this page (at least one on a fresh page).
        int last = first;
        const double startY = box.layout->lineAt(first).y();
        while (last < lines) {
            const QTextLine l = box.layout->lineAt(last);
            if (m_y + 2 * inset + (l.y() + l.height() - startY) > m_content.bottom()) break;
            ++last;
        }
        if (last == first) {
            if (m_y > m_content.top()) {
                newPage();
                continue;
            }
            last = first + 1;  // a line taller than a page: draw it anyway, clipped
        }
        const QTextLine endLine = box.layout->lineAt(last - 1);
        const double h = endLine.y() + endLine.height() - startY + 2 * inset;
        const double top = m_y;
        auto layout = box.layout;
        add([=](QPainter& p) {
            if (background.isValid()) p.fillRect(QRectF(x, top, w, h), background);
            p.setPen(color);
            for (int i = first; i < last; ++i) {
                const QTextLine l = layout->lineAt(i);
                l.draw(&p, QPointF(x + inset, top + inset - startY));
            }
        });
        out.push_back({page(), top, top + h});
        m_y += h;
        first = last;
    }
    if (lines == 0) out.push_back({page(), m_y, m_y});
    return out;
}

std::vector<double> PdfFlow::columnWidths(const TableSpec& t, const QFont& font) const
{
    const QFontMetricsF fm(font, const_cast<QPaintDevice*>(m_device));
    const size_t n = static_cast<size_t>(t.columns.size());
    const double avail = m_content.width();
    std::vector<double> natural(n, 24);
    auto widen = [&](size_t c, const QString& s) {
        natural[c] =
            std::max(natural[c], std::min(avail, fm.horizontalAdvance(s.left(200)) + 2 * kCellPad + 2));
    };
    for (size_t c = 0; c < n; ++c) widen(c, t.columns[static_cast<qsizetype>(c)]);
    for (size_t r = 0; r < t.rows.size() && r < 400; ++r)
        for (size_t c = 0; c < n && c < static_cast<size_t>(t.rows[r].size()); ++c)
            widen(c, t.rows[r][static_cast<qsizetype>(c)]);
    double sum = 0;
    for (double w : natural) sum += w;
    if (sum <= avail) {
        // Spread the slack in proportion, so the table spans the text width.
        for (double& w : natural) w *= avail / sum;
        return natural;
    }
    // Narrow columns keep their width; the wide ones share what is left in proportion.
    std::vector<bool> fixed(n, false);
    double left = avail;
    for (bool changed = true; changed;) {
        changed = false;
        size_t open = 0;
        for (size_t c = 0; c < n; ++c) open += !fixed[c];
        if (open == 0) break;
        const double share = left / double(open);
        for (size_t c = 0; c < n; ++c)
            if (!fixed[c] && natural[c] <= share) {
                fixed[c] = true;
                left -= natural[c];
                changed = true;
            }
    }
    double openSum = 0;
    for (size_t c = 0; c < n; ++c) openSum += fixed[c] ? 0 : natural[c];
    std::vector<double> w(n);
    for (size_t c = 0; c < n; ++c) w[c] = fixed[c] ? natural[c] : std::max(30.0, left * natural[c] / openSum);
    return w;
}

void PdfFlow::placeTable(const TableSpec& t, const QFont& font, const QFont& headerFont)
{
    if (t.columns.isEmpty()) return;
    const std::vector<double> widths = columnWidths(t, font);
    const double x0 = m_content.left();
    auto rowBoxes = [&](const QStringList& cells, const QFont& f, double& height) {
        std::vector<TextBox> boxes;
        height = 0;
        for (size_t c = 0; c < widths.size(); ++c) {
            const QString s = c < static_cast<size_t>(cells.size())
                                  ? cells[static_cast<qsizetype>(c)].left(kMaxCellChars)
                                  : QString();
            boxes.push_back(makeText(s, f, widths[c] - 2 * kCellPad));
            height = std::max(height, boxes.back().height);
        }
        height += 2 * kCellPad;
        return boxes;
    };
    auto drawRow = [this, widths, x0](std::vector<TextBox> boxes, double top, double h, QColor fill,
                                      bool mark) {
        add([=](QPainter& p) {
            double x = x0;
            double total = 0;
            for (double w : widths) total += w;
            if (fill.isValid()) p.fillRect(QRectF(x0, top, total, h), fill);
            if (mark) p.fillRect(QRectF(x0, top, 3, h), QColor("#d62728"));
            p.setPen(QPen(QColor("#bbbbbb"), 0.6));
            p.drawRect(QRectF(x0, top, total, h));
            p.setPen(Qt::black);
            for (size_t c = 0; c < widths.size(); ++c) {
                if (c > 0) {
                    p.setPen(QPen(QColor("#bbbbbb"), 0.6));
                    p.drawLine(QPointF(x, top), QPointF(x, top + h));
                    p.setPen(Qt::black);
                }
                boxes[c].layout->draw(&p, QPointF(x + kCellPad, top + kCellPad));
                x += widths[c];
            }
        });
    };
    double headerH = 0;
    const std::vector<TextBox> header = rowBoxes(t.columns, headerFont, headerH);
    QFont captionFont = headerFont;
    const double captionH = t.caption.isEmpty() ? 0 : makeText(t.caption, captionFont, width()).height + 3;
    double firstRowH = 0;
    if (!t.rows.empty()) rowBoxes(t.rows.front(), font, firstRowH);
    ensure(captionH + headerH + firstRowH);
    if (!t.caption.isEmpty()) {
        placeText(t.caption, captionFont);
        m_y += 3;
    }
    auto placeHeader = [&] {
        drawRow(header, m_y, headerH, QColor("#e8eef5"), false);
        m_y += headerH;
    };
    placeHeader();
    for (size_t r = 0; r < t.rows.size(); ++r) {
        double h = 0;
        std::vector<TextBox> boxes = rowBoxes(t.rows[r], font, h);
        if (m_y + h > m_content.bottom()) {
            newPage();
            if (t.repeatHeader) placeHeader();
        }
        const bool flagged = r < t.highlighted.size() && t.highlighted[r];
        drawRow(std::move(boxes), m_y, h, flagged ? QColor("#fff1c2") : QColor(), flagged);
        m_y += h;
    }
    m_y += 8;
}

void PdfFlow::placePicture(const QPicture& picture, QSizeF size)
{
    ensure(size.height());
    const double top = m_y, x = m_content.left();
    add([=](QPainter& p) { p.drawPicture(QPointF(x, top), picture); });
    m_y += size.height() + 6;
}

}  // namespace qatdoctor::ui
