#include "core/report/html_writer.h"

#include "core/report/html_escape.h"
#include "core/report/svg_plot.h"

namespace qatdoctor::core::report {
namespace {

// CJK first where the reader's system has one; Latin falls through to the generic family.
constexpr const char* kCss = R"css(
body{font-family:"Noto Sans CJK SC","Source Han Sans SC","WenQuanYi Micro Hei","Microsoft YaHei","PingFang SC","Hiragino Sans GB","DejaVu Sans",Arial,sans-serif;
 color:#222;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45;font-size:14px}
h1{font-size:1.9em;margin-bottom:.2em}h2{border-bottom:2px solid #1f77b4;padding-bottom:.2em;margin-top:2em}
h3{margin-bottom:.3em}h4{margin:.8em 0 .3em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:12px;width:100%}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top;word-break:break-word}
th{background:#eef3f8}tr.flag td{background:#fff1c2}caption{text-align:left;font-weight:bold;padding:.3em 0}
dl.kv{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dl.kv dt{font-weight:bold}dl.kv dd{margin:0}
.note{color:#555;font-style:italic}pre{background:#f6f8fa;border:1px solid #ddd;padding:.6em;overflow-x:auto;font-size:12px;
 font-family:"DejaVu Sans Mono","Noto Sans Mono CJK SC",monospace}
.finding{border-left:5px solid #999;padding:.3em .8em;margin:.8em 0;background:#fafafa}
.finding.error{border-color:#d62728}.finding.warning{border-color:#ff9f1a}.finding.info{border-color:#1f77b4}
.finding .id{font-family:monospace;color:#555}.finding ul{margin:.2em 0}
.toc ol{columns:2}.meta{color:#555}svg.plot{max-width:100%;height:auto;font-family:inherit}
footer{margin-top:3em;color:#777;font-size:12px;border-top:1px solid #ccc;padding-top:.5em}
)css";

std::string e(const std::string& s)
{
    return htmlEscape(s);
}

void writeTable(std::string& o, const TableBlock& t)
{
    o += "<table>";
    if (!t.caption.empty()) o += "<caption>" + e(t.caption) + "</caption>";
    o += "<thead><tr>";
    for (const std::string& c : t.columns) o += "<th>" + e(c) + "</th>";
    o += "</tr></thead><tbody>\n";
    for (size_t r = 0; r < t.rows.size(); ++r) {
        o += (r < t.highlighted.size() && t.highlighted[r]) ? "<tr class=\"flag\">" : "<tr>";
        for (const std::string& c : t.rows[r]) o += "<td>" + e(c) + "</td>";
        o += "</tr>\n";
    }
    o += "</tbody></table>\n";
}

void writeFindings(std::string& o, const std::vector<FindingItem>& items)
{
    for (const FindingItem& f : items) {
        o += "<div class=\"finding " + e(f.severity) + "\" id=\"finding-" + e(f.id) + "\">";
        o += "<h4>" + e(f.severityLabel) + " \u00b7 " + e(f.title) + "</h4>";
        o += "<div class=\"meta\"><span class=\"id\">" + e(f.id) + "</span> \u00b7 " + e(f.stage) + "</div>";
        if (!f.strength.empty()) o += "<p class=\"strength\">" + e(f.strength) + "</p>";
        if (!f.standard.empty()) o += "<p class=\"standard\">" + e(f.standard) + "</p>";
        if (!f.recoveredNote.empty()) o += "<p class=\"recovered\">" + e(f.recoveredNote) + "</p>";
        o += "<p>" + e(f.message) + "</p>";
        if (!f.evidence.empty()) {
            o += "<ul class=\"evidence\">";
            for (const std::string& ev : f.evidence) o += "<li>" + e(ev) + "</li>";
            o += "</ul>";
        }
        if (!f.faqTopic.empty()) {
            o += "<div class=\"faq\">FAQ: <span class=\"id\">" + e(f.faqTopic) + "</span>";
            if (!f.faqTitle.empty()) o += " \u2014 " + e(f.faqTitle);
            o += "</div>";
        }
        if (!f.advice.empty()) {
            o += "<ul class=\"advice\">";
            for (const std::string& a : f.advice) o += "<li>" + e(a) + "</li>";
            o += "</ul>";
        }
        o += "</div>\n";
    }
}

void writeBlock(std::string& o, const Block& b)
{
    switch (b.kind) {
        case BlockKind::Heading: {
            const std::string tag = b.level <= 2 ? "h3" : "h4";
            o += "<" + tag + ">" + e(b.text) + "</" + tag + ">\n";
            break;
        }
        case BlockKind::Paragraph:
            o += "<p>" + e(b.text) + "</p>\n";
            break;
        case BlockKind::Note:
            o += "<p class=\"note\">" + e(b.text) + "</p>\n";
            break;
        case BlockKind::Code:
            o += "<pre><code class=\"language-" + e(b.language) + "\">" + e(b.text) + "</code></pre>\n";
            break;
        case BlockKind::KeyValues:
            o += "<dl class=\"kv\">";
            for (const auto& [k, v] : b.keyValues) o += "<dt>" + e(k) + "</dt><dd>" + e(v) + "</dd>";
            o += "</dl>\n";
            break;
        case BlockKind::Table:
            writeTable(o, b.table);
            break;
        case BlockKind::Findings:
            writeFindings(o, b.findings);
            break;
        case BlockKind::Plot:
            o += "<figure>" + renderSvgPlot(b.plot) + "</figure>\n";
            break;
    }
}

}  // namespace

std::string renderHtml(const ReportDocument& doc)
{
    std::string o;
    o += "<!DOCTYPE html>\n<html lang=\"" + e(doc.lang == "zh" ? "zh-CN" : "en") +
         "\">\n<head><meta charset=\"utf-8\">";
    o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
    o += "<title>" + e(doc.title) + (doc.subtitle.empty() ? "" : " \u2014 " + e(doc.subtitle)) + "</title>";
    o += "<style>" + std::string(kCss) + "</style></head>\n<body>\n";
    o += "<header><h1>" + e(doc.title) + "</h1>";
    if (!doc.subtitle.empty())
        o += "<p class=\"meta\"><strong>" + e(doc.subtitle) + "</strong> \u00b7 " + e(doc.date) + "</p>";
    o += "</header>\n<nav class=\"toc\"><h2>" + e(doc.labels.contents) + "</h2><ol>";
    for (const Section& s : doc.sections) o += "<li><a href=\"#" + e(s.id) + "\">" + e(s.title) + "</a></li>";
    o += "</ol></nav>\n";
    for (const Section& s : doc.sections) {
        o += "<section id=\"" + e(s.id) + "\"><h2>" + e(s.title) + "</h2>\n";
        for (const Block& b : s.blocks) writeBlock(o, b);
        o += "</section>\n";
    }
    o += "<footer>" + e(doc.labels.generatedBy) + " \u00b7 " + e(doc.date) + "</footer>\n</body>\n</html>\n";
    return o;
}

}  // namespace qatdoctor::core::report
