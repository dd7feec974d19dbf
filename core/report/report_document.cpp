#include "core/report/report_document.h"

#include <cmath>

namespace qatdoctor::core::report {

const char* paperName(Paper p)
{
    return p == Paper::Letter ? "letter" : "a4";
}

const Section* ReportDocument::section(const std::string& id) const
{
    for (const Section& s : sections)
        if (s.id == id) return &s;
    return nullptr;
}

Block heading(std::string text, int level)
{
    Block b;
    b.kind = BlockKind::Heading;
    b.level = level;
    b.text = std::move(text);
    return b;
}

Block paragraph(std::string text)
{
    Block b;
    b.kind = BlockKind::Paragraph;
    b.text = std::move(text);
    return b;
}

Block note(std::string text)
{
    Block b;
    b.kind = BlockKind::Note;
    b.text = std::move(text);
    return b;
}

Block code(std::string text, std::string language)
{
    Block b;
    b.kind = BlockKind::Code;
    b.text = std::move(text);
    b.language = std::move(language);
    return b;
}

Block keyValues(std::vector<std::pair<std::string, std::string>> kv)
{
    Block b;
    b.kind = BlockKind::KeyValues;
    b.keyValues = std::move(kv);
    return b;
}

Block table(TableBlock t)
{
    Block b;
    b.kind = BlockKind::Table;
    if (t.highlighted.size() != t.rows.size()) t.highlighted.resize(t.rows.size(), false);
    b.table = std::move(t);
    return b;
}

Block plot(PlotBlock p)
{
    Block b;
    b.kind = BlockKind::Plot;
    for (PlotSeries& s : p.series) markNonFinite(s);
    b.plot = std::move(p);
    return b;
}

void markNonFinite(PlotSeries& s)
{
    s.nonFinite.clear();
    for (size_t i = 0; i < s.y.size(); ++i)
        if (!std::isfinite(s.y[i])) s.nonFinite.push_back(i);
}

}  // namespace qatdoctor::core::report
