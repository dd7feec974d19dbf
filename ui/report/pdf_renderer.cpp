#include "ui/report/pdf_renderer.h"

#include <QApplication>
#include <QBuffer>
#include <QFontMetricsF>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QThread>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>

#include "ui/report/pdf_flow.h"
#include "ui/report/plot_picture.h"
#include "ui/report/report_font.h"

namespace qatdoctor::ui {
namespace {

using namespace core::report;

constexpr double kDpi = 96;
constexpr double kMarginX = 60, kMarginTop = 72, kMarginBottom = 64;
constexpr double kPlotHeight = 330;
constexpr size_t kMaxTocEntries = 46;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

struct Fonts {
    QFont body, small, table, tableHeader, code, h1, h2, h3, title, subtitle;
};

Fonts makeFonts(const QString& family)
{
    auto f = [&](double pt, bool bold = false) {
        QFont font(family);
        font.setPointSizeF(pt);
        font.setBold(bold);
        return font;
    };
    Fonts fonts{f(9.5),      f(8),          f(7.5),      f(7.5, true), f(8),
                f(17, true), f(12.5, true), f(10, true), f(26, true),  f(15)};
    fonts.code.setFamilies({"DejaVu Sans Mono", family});
    fonts.code.setStyleHint(QFont::Monospace);
    return fonts;
}

QColor severityColor(const std::string& severity)
{
    if (severity == "error") return QColor("#d62728");
    if (severity == "warning") return QColor("#ff9f1a");
    return QColor("#1f77b4");
}

struct TocEntry {
    QString text;
    int level = 1;
    int page = 0;
};

class DocumentLayout {
public:
    DocumentLayout(PdfFlow& flow, const Fonts& fonts, const std::vector<QPicture>& plots)
        : m_flow(flow), m_f(fonts), m_plots(plots)
    {
    }

    void titlePage(const ReportDocument& doc)
    {
        m_flow.skip(150);
        m_flow.placeText(q(doc.title), m_f.title, 0, QColor("#1f4e79"));
        m_flow.skip(8);
        if (!doc.subtitle.empty()) m_flow.placeText(q(doc.subtitle), m_f.subtitle);
        m_flow.skip(4);
        m_flow.placeText(q(doc.date) + "  \u00b7  " + q(doc.labels.generatedBy), m_f.body, 0,
                         QColor("#555555"));
        m_flow.skip(36);
        if (const Section* s = doc.section("title"))
            for (const Block& b : s->blocks) block(b);
    }

    void section(const Section& s)
    {
        m_flow.newPage();
        m_flow.setSectionTitle(q(s.title));
        m_toc.push_back({q(s.title), 1, m_flow.page()});
        m_flow.placeText(q(s.title), m_f.h1, 0, QColor("#1f4e79"));
        const double y = m_flow.y() + 3, x = m_flow.left(), w = m_flow.width();
        m_flow.add([=](QPainter& p) { p.fillRect(QRectF(x, y, w, 2), QColor("#1f77b4")); });
        m_flow.skip(14);
        for (const Block& b : s.blocks) block(b);
    }

    const std::vector<TocEntry>& toc() const { return m_toc; }

private:
    void block(const Block& b)
    {
        switch (b.kind) {
            case BlockKind::Heading:
                heading(b);
                break;
            case BlockKind::Paragraph:
                m_flow.placeText(q(b.text), m_f.body);
                m_flow.skip(5);
                break;
            case BlockKind::Note: {
                QFont italic = m_f.body;
                italic.setItalic(true);
                m_flow.placeText(q(b.text), italic, 0, QColor("#555555"));
                m_flow.skip(5);
                break;
            }
            case BlockKind::Code:
                m_flow.placeText(q(b.text), m_f.code, 0, Qt::black, QColor("#f1f3f5"));
                m_flow.skip(8);
                break;
            case BlockKind::KeyValues:
                keyValues(b);
                break;
            case BlockKind::Table:
                table(b.table);
                break;
            case BlockKind::Findings:
                for (const FindingItem& f : b.findings) finding(f);
                break;
            case BlockKind::Plot:
                if (m_nextPlot < m_plots.size())
                    m_flow.placePicture(m_plots[m_nextPlot++], QSizeF(m_flow.width(), kPlotHeight));
                break;
        }
    }

    void heading(const Block& b)
    {
        const QFont& font = b.level <= 2 ? m_f.h2 : m_f.h3;
        const double h = m_flow.makeText(q(b.text), font, m_flow.width()).height;
        m_flow.skip(b.level <= 2 ? 8 : 4);
        m_flow.ensure(h + 70);  // keep a heading with the start of what it heads
        if (b.level <= 2) m_toc.push_back({q(b.text), 2, m_flow.page()});
        m_flow.placeText(q(b.text), font, 0, b.level <= 2 ? QColor("#1f4e79") : Qt::black);
        m_flow.skip(4);
    }

    void keyValues(const Block& b)
    {
        QFont keyFont = m_f.body;
        keyFont.setBold(true);
        double keyW = 0;
        const QFontMetricsF fm(keyFont);
        for (const auto& [k, v] : b.keyValues) keyW = std::max(keyW, fm.horizontalAdvance(q(k)) * 1.05 + 14);
        keyW = std::min(keyW, m_flow.width() * 0.38);
        for (const auto& [k, v] : b.keyValues) {
            const TextBox kb = m_flow.makeText(q(k), keyFont, keyW - 10);
            const TextBox vb = m_flow.makeText(q(v), m_f.body, m_flow.width() - keyW);
            const double h = std::max(kb.height, vb.height);
            m_flow.ensure(h);
            const double x = m_flow.left(), y = m_flow.y();
            m_flow.add([=](QPainter& p) {
                p.setPen(Qt::black);
                kb.layout->draw(&p, QPointF(x, y));
                vb.layout->draw(&p, QPointF(x + keyW, y));
            });
            m_flow.skip(h + 2);
        }
        m_flow.skip(6);
    }

    void table(const TableBlock& t)
    {
        TableSpec spec;
        spec.caption = q(t.caption);
        for (const std::string& c : t.columns) spec.columns << q(c);
        for (const auto& row : t.rows) {
            QStringList r;
            for (const std::string& c : row) r << q(c);
            spec.rows.push_back(r);
        }
        spec.highlighted = t.highlighted;
        spec.repeatHeader = t.repeatHeader;
        m_flow.placeTable(spec, m_f.table, m_f.tableHeader);
    }

    void finding(const FindingItem& f)
    {
        const QColor color = severityColor(f.severity);
        m_flow.ensure(70);
        std::vector<Fragment> all;
        auto put = [&](const QString& text, const QFont& font, double indent, QColor c = Qt::black) {
            for (const Fragment& fr : m_flow.placeText(text, font, indent, c)) all.push_back(fr);
        };
        put(q(f.severityLabel) + " \u00b7 " + q(f.title), m_f.h3, 12, color.darker(130));
        put(q(f.id) + "  \u00b7  " + q(f.stage), m_f.small, 12, QColor("#555555"));
        if (!f.strength.empty()) put(q(f.strength), m_f.small, 12, QColor("#333333"));
        if (!f.standard.empty()) put(q(f.standard), m_f.small, 12, QColor("#555555"));
        if (!f.recoveredNote.empty()) put(q(f.recoveredNote), m_f.small, 12, QColor("#555555"));
        put(q(f.message), m_f.body, 12);
        for (const std::string& e : f.evidence) put("\u2022 " + q(e), m_f.small, 24, QColor("#333333"));
        if (!f.faqTopic.empty())
            put("FAQ: " + q(f.faqTopic) + (f.faqTitle.empty() ? QString() : " \u2014 " + q(f.faqTitle)),
                m_f.small, 12, QColor("#1f4e79"));
        for (const std::string& a : f.advice) put("\u2192 " + q(a), m_f.body, 24);
        // One severity bar per page the finding spans.
        std::map<int, std::pair<double, double>> span;
        for (const Fragment& fr : all) {
            auto it = span.find(fr.page);
            if (it == span.end())
                span[fr.page] = {fr.top, fr.bottom};
            else
                it->second = {std::min(it->second.first, fr.top), std::max(it->second.second, fr.bottom)};
        }
        const double x = m_flow.left();
        for (const auto& [page, range] : span) {
            const auto [top, bottom] = range;
            m_flow.addTo(page, [=](QPainter& p) { p.fillRect(QRectF(x, top, 4, bottom - top), color); });
        }
        m_flow.skip(10);
    }

    PdfFlow& m_flow;
    const Fonts& m_f;
    const std::vector<QPicture>& m_plots;
    size_t m_nextPlot = 0;
    std::vector<TocEntry> m_toc;
};

// What the GUI thread hands back to a worker waiting for its plots. Shared, so a worker that
// gave up (cancelled, or the application quitting) leaves nothing dangling behind.
struct PlotHandoff {
    std::mutex mutex;
    std::condition_variable ready;
    bool done = false;
    bool abandoned = false;
    std::vector<QPicture> pictures;
    QString family;
};

// QCustomPlot is a widget: plots are drawn on the application's thread. A worker thread posts
// the drawing there and waits, but never blindly: the GUI thread may itself be waiting for the
// worker (closing the window joins the thread pool), so the wait gives up when the job is
// cancelled (BackgroundJob cancels on destruction) or the application is shutting down.
core::Result<std::vector<QPicture>> drawPlots(const ReportDocument& doc, QSize size, QString* family,
                                              const core::ProgressFn& progress)
{
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return core::makeError("report.no_app", "PDF rendering needs a QApplication");
    std::vector<PlotBlock> blocks;
    for (const Section& s : doc.sections)
        for (const Block& b : s.blocks)
            if (b.kind == BlockKind::Plot) blocks.push_back(b.plot);
    auto draw = [size](const std::vector<PlotBlock>& plots, QString* fam) {
        *fam = reportFontFamily();
        std::vector<QPicture> pictures;
        for (const PlotBlock& p : plots) pictures.push_back(drawPlotPicture(p, size, *fam));
        return pictures;
    };
    if (QThread::currentThread() == qApp->thread()) return draw(blocks, family);

    auto handoff = std::make_shared<PlotHandoff>();
    QMetaObject::invokeMethod(
        qApp,
        [handoff, blocks = std::move(blocks), draw] {
            {
                std::lock_guard<std::mutex> lock(handoff->mutex);
                if (handoff->abandoned) return;
            }
            QString fam;
            std::vector<QPicture> pictures = draw(blocks, &fam);
            std::lock_guard<std::mutex> lock(handoff->mutex);
            handoff->pictures = std::move(pictures);
            handoff->family = fam;
            handoff->done = true;
            handoff->ready.notify_all();
        },
        Qt::QueuedConnection);
    std::unique_lock<std::mutex> lock(handoff->mutex);
    while (!handoff->ready.wait_for(lock, std::chrono::milliseconds(50), [&] { return handoff->done; })) {
        lock.unlock();
        const bool go =
            core::reportProgress(progress, 0.0, "drawing plots") && !QCoreApplication::closingDown();
        lock.lock();
        if (!go && !handoff->done) {
            handoff->abandoned = true;
            return core::makeError(core::kCancelledCode, "cancelled while waiting for the plots");
        }
    }
    *family = handoff->family;
    return std::move(handoff->pictures);
}

void drawContents(QPainter& p, const PdfFlow& flow, const std::vector<TocEntry>& toc,
                  const ReportDocument& doc, const Fonts& f)
{
    const QRectF c = flow.content();
    double y = c.top();
    p.setPen(QColor("#1f4e79"));
    p.setFont(f.h1);
    p.drawText(QRectF(c.left(), y, c.width(), 40), Qt::AlignLeft | Qt::AlignTop, q(doc.labels.contents));
    y += 50;
    for (size_t i = 0; i < toc.size() && i < kMaxTocEntries; ++i) {
        const TocEntry& e = toc[i];
        const double indent = e.level == 1 ? 0 : 22;
        p.setFont(e.level == 1 ? f.h3 : f.body);
        p.setPen(Qt::black);
        const QString page = QString::number(e.page + 1);
        const QFontMetricsF fm(p.font(), p.device());
        const double pw = fm.horizontalAdvance(page);
        const QString text = fm.elidedText(e.text, Qt::ElideMiddle, c.width() - indent - pw - 40);
        p.drawText(QPointF(c.left() + indent, y + fm.ascent()), text);
        p.drawText(QPointF(c.right() - pw, y + fm.ascent()), page);
        // Dot leader between the entry and its page number.
        p.setPen(QPen(QColor("#999999"), 0.8, Qt::DotLine));
        const double lx = c.left() + indent + fm.horizontalAdvance(text) + 6;
        p.drawLine(QPointF(lx, y + fm.ascent()), QPointF(c.right() - pw - 6, y + fm.ascent()));
        y += e.level == 1 ? 24 : 19;
    }
}

void drawFrame(QPainter& p, int index, int total, const FlowPage& page, const ReportDocument& doc,
               const QSizeF& size, const Fonts& f)
{
    p.setFont(f.small);
    p.setPen(QColor("#666666"));
    if (index > 0) {
        p.drawText(QRectF(kMarginX, 28, size.width() / 2, 20), Qt::AlignLeft | Qt::AlignVCenter,
                   q(doc.title) + (doc.subtitle.empty() ? QString() : " \u2014 " + q(doc.subtitle)));
        p.drawText(QRectF(size.width() / 2, 28, size.width() / 2 - kMarginX, 20),
                   Qt::AlignRight | Qt::AlignVCenter, page.sectionTitle);
        p.setPen(QPen(QColor("#cccccc"), 0.8));
        p.drawLine(QPointF(kMarginX, 50), QPointF(size.width() - kMarginX, 50));
    }
    QString label = q(doc.labels.page);
    label.replace("{n}", QString::number(index + 1)).replace("{total}", QString::number(total));
    p.setPen(QColor("#666666"));
    p.drawText(QRectF(0, size.height() - 44, size.width(), 20), Qt::AlignCenter, label);
}

// Everything needed to paint any page: the PDF writer doubles as the measuring device, so the
// preview images and the PDF share one layout.
struct LaidOut {
    QByteArray bytes;
    std::unique_ptr<QBuffer> buffer;
    std::unique_ptr<QPdfWriter> writer;
    QSizeF pagePx;
    Fonts fonts;
    std::vector<QPicture> plots;
    std::unique_ptr<PdfFlow> flow;
    std::vector<TocEntry> toc;
    int tocPage = 1;
};

core::Result<std::unique_ptr<LaidOut>> layoutReport(const ReportDocument& doc,
                                                    const core::ProgressFn& progress)
{
    auto out = std::make_unique<LaidOut>();
    const QPageSize pageSize(doc.paper == Paper::Letter ? QPageSize::Letter : QPageSize::A4);
    out->pagePx = pageSize.sizePixels(static_cast<int>(kDpi));
    const QRectF content(kMarginX, kMarginTop, out->pagePx.width() - 2 * kMarginX,
                         out->pagePx.height() - kMarginTop - kMarginBottom);
    QString family;
    auto plots = drawPlots(doc, QSize(static_cast<int>(content.width()), static_cast<int>(kPlotHeight)),
                           &family, progress);
    if (!plots) return plots.error();
    out->plots = std::move(plots).value();

    out->buffer = std::make_unique<QBuffer>(&out->bytes);
    out->buffer->open(QIODevice::WriteOnly);
    out->writer = std::make_unique<QPdfWriter>(out->buffer.get());
    out->writer->setPageSize(pageSize);
    out->writer->setPageMargins(QMarginsF(0, 0, 0, 0));
    out->writer->setResolution(static_cast<int>(kDpi));
    out->writer->setTitle(q(doc.title + (doc.subtitle.empty() ? "" : " - " + doc.subtitle)));
    out->writer->setCreator(q(doc.labels.generatedBy));

    out->fonts = makeFonts(family);
    out->flow = std::make_unique<PdfFlow>(out->writer.get(), content);
    DocumentLayout layout(*out->flow, out->fonts, out->plots);
    layout.titlePage(doc);
    out->flow->newPage();  // contents, filled in once the page numbers are known
    out->tocPage = out->flow->page();
    out->flow->setSectionTitle(q(doc.labels.contents));
    for (const Section& s : doc.sections)
        if (s.id != "title") layout.section(s);
    out->toc = layout.toc();
    return out;
}

void paintPage(QPainter& painter, const LaidOut& l, const ReportDocument& doc, int i)
{
    const auto& pages = l.flow->pages();
    drawFrame(painter, i, static_cast<int>(pages.size()), pages[static_cast<size_t>(i)], doc, l.pagePx,
              l.fonts);
    if (i == l.tocPage) drawContents(painter, *l.flow, l.toc, doc, l.fonts);
    for (const DrawOp& op : pages[static_cast<size_t>(i)].ops) {
        painter.save();
        op(painter);
        painter.restore();
    }
}

}  // namespace

core::Result<std::string> renderPdf(const ReportDocument& doc, const core::ProgressFn& progress)
{
    auto laid = layoutReport(doc, progress);
    if (!laid) return laid.error();
    LaidOut& l = **laid;
    if (!core::reportProgress(progress, 0.2, "laying out pages"))
        return core::makeError(core::kCancelledCode, "cancelled");
    QPainter painter;
    if (!painter.begin(l.writer.get())) return core::makeError("report.pdf", "cannot start the PDF painter");
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const int total = static_cast<int>(l.flow->pages().size());
    for (int i = 0; i < total; ++i) {
        if (!core::reportProgress(progress, 0.2 + 0.8 * i / std::max(1, total),
                                  "drawing page " + std::to_string(i + 1))) {
            painter.end();
            return core::makeError(core::kCancelledCode, "cancelled while drawing the PDF");
        }
        if (i > 0) l.writer->newPage();
        paintPage(painter, l, doc, i);
    }
    painter.end();
    l.buffer->close();
    core::reportProgress(progress, 1.0, "PDF drawn");
    return std::string(l.bytes.constData(), static_cast<size_t>(l.bytes.size()));
}

core::Result<std::vector<QImage>> renderPreview(const ReportDocument& doc, double scale,
                                                const core::ProgressFn& progress)
{
    auto laid = layoutReport(doc, progress);
    if (!laid) return laid.error();
    const LaidOut& l = **laid;
    std::vector<QImage> images;
    const int total = static_cast<int>(l.flow->pages().size());
    for (int i = 0; i < total; ++i) {
        if (!core::reportProgress(progress, double(i) / std::max(1, total),
                                  "drawing preview page " + std::to_string(i + 1)))
            return core::makeError(core::kCancelledCode, "cancelled");
        QImage image((l.pagePx * scale).toSize(), QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.scale(scale, scale);
        paintPage(painter, l, doc, i);
        painter.end();
        images.push_back(std::move(image));
    }
    return images;
}

}  // namespace qatdoctor::ui
