// Lays content out top to bottom on pages of fixed size, breaking between lines of text and rows
// of tables (repeating the header), and records what to paint on each page. Painting happens
// after layout, when the page count (for "page n of N" and the contents) is known.
#pragma once

#include <QColor>
#include <QFont>
#include <QPicture>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QTextLayout>
#include <functional>
#include <memory>
#include <vector>

class QPainter;
class QPaintDevice;

namespace qatdoctor::ui {

using DrawOp = std::function<void(QPainter&)>;

// Wrapped text at a fixed width, measured on the target device.
struct TextBox {
    std::shared_ptr<QTextLayout> layout;
    double height = 0;
};

struct FlowPage {
    QString sectionTitle;  // for the running header
    std::vector<DrawOp> ops;
};

// Vertical extent of a placed piece on one page (a piece split over pages has several).
struct Fragment {
    int page = 0;
    double top = 0;
    double bottom = 0;
};

struct TableSpec {
    QString caption;
    QStringList columns;
    std::vector<QStringList> rows;
    std::vector<bool> highlighted;
    bool repeatHeader = true;
};

class PdfFlow {
public:
    PdfFlow(const QPaintDevice* device, QRectF content);

    TextBox makeText(const QString& text, const QFont& font, double width) const;

    void newPage();
    void setSectionTitle(const QString& title)
    {
        m_section = title;
        if (!m_pages.empty()) m_pages.back().sectionTitle = title;
    }
    int page() const { return static_cast<int>(m_pages.size()) - 1; }
    double y() const { return m_y; }
    double left() const { return m_content.left(); }
    double width() const { return m_content.width(); }
    double remaining() const { return m_content.bottom() - m_y; }
    void skip(double dy) { m_y += dy; }
    // Starts a new page unless `height` still fits (keeps a heading with what follows).
    void ensure(double height);
    void add(DrawOp op) { m_pages.back().ops.push_back(std::move(op)); }
    void addTo(int page, DrawOp op) { m_pages[static_cast<size_t>(page)].ops.push_back(std::move(op)); }

    // Places text at x offset indent, split between lines across pages; returns where it went.
    std::vector<Fragment> placeText(const QString& text, const QFont& font, double indent = 0,
                                    QColor color = Qt::black, QColor background = QColor());
    void placeTable(const TableSpec& table, const QFont& font, const QFont& headerFont);
    void placePicture(const QPicture& picture, QSizeF size);

    std::vector<FlowPage>& pages() { return m_pages; }
    const QRectF& content() const { return m_content; }

private:
    std::vector<double> columnWidths(const TableSpec& t, const QFont& font) const;

    const QPaintDevice* m_device;
    QRectF m_content;
    double m_y = 0;
    QString m_section;
    std::vector<FlowPage> m_pages;
};

}  // namespace qatdoctor::ui
