// Title page: what was examined (paths, sizes, SHA-256), when, with which version.
#include <filesystem>

#include "core/common/input_set_name.h"
#include "core/common/sha256.h"
#include "core/common/version.h"
#include "core/report/report_sections.h"

namespace qatdoctor::core::report::detail {
namespace {

namespace fs = std::filesystem;

std::string kindLabel(InputKind k, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    switch (k) {
        case InputKind::LogFolder:
            return zh ? "日志文件夹" : "log folder";
        case InputKind::LogFile:
            return zh ? "日志文件" : "log file";
        case InputKind::Model:
            return zh ? "模型" : "model";
        case InputKind::Artifact:
            return zh ? "工具链文件" : "toolchain file";
        case InputKind::Unknown:
            break;
    }
    return zh ? "未知" : "unknown";
}

bool isUnder(const std::string& file, const std::string& folder)
{
    if (folder.empty() || file.size() <= folder.size() || file.compare(0, folder.size(), folder) != 0)
        return false;
    return file[folder.size()] == '/' || folder.back() == '/';
}

// Files the log reader took from a folder input, in load order (a folder has no hash of its
// own; its files do).
std::vector<const logs::RunFile*> filesUnder(const Analysis& a, const std::string& folder)
{
    std::vector<const logs::RunFile*> out;
    for (const logs::Run& r : a.logs.runs)
        for (const logs::RunFile& f : r.files)
            if (isUnder(f.path, folder)) out.push_back(&f);
    return out;
}

}  // namespace

std::string projectName(const Analysis& analysis, const ReportOptions& options)
{
    if (!options.projectName.empty()) return options.projectName;
    std::vector<std::string> paths;
    for (const InputItem& in : analysis.inputs) paths.push_back(in.path);
    return inputSetName(paths);
}

// The stage ladder on the first page: one accuracy per stage, the step into it, the first bad
// step marked (the rows every face shows, core/stage_ladder.h).
Block ladderTable(const BuildContext& c)
{
    TableBlock t;
    t.caption = tr(c, "Stage ladder: accuracy per stage, and where it is first lost",
                   "阶段阶梯：各阶段精度，以及精度首先在哪一步丢失");
    t.columns = {tr(c, "Stage", "阶段"), tr(c, "Accuracy", "精度"), tr(c, "Change", "变化"),
                 tr(c, "Step", "这一步"), tr(c, "Source", "来源")};
    for (const LadderRow& r : ladderRows(c.analysis.ladder, c.lang)) {
        t.rows.push_back({r.name, r.value + (r.interval.empty() ? "" : " (" + r.interval + ")"),
                          r.change.empty() ? "-" : r.change, r.judgement, r.source});
        t.highlighted.push_back(r.bad);
    }
    return table(std::move(t));
}

Result<Section> titleSection(BuildContext& c, const ProgressFn& progress)
{
    Section s;
    s.id = "title";
    s.title = sectionTitle("title", c.lang);
    s.blocks.push_back(keyValues({{tr(c, "Project", "项目"), projectName(c.analysis, c.options)},
                                  {tr(c, "Date", "日期"), c.date},
                                  {tr(c, "Tool version", "工具版本"), std::string("QAT Doctor ") + kVersion},
                                  {tr(c, "Language", "语言"), tr(c, "English (en)", "中文 (zh)")},
                                  {tr(c, "Inputs", "输入"), std::to_string(c.analysis.inputs.size())}}));
    // what a reader needs first: the verdict and where the accuracy is lost, stage by stage
    if (!c.analysis.ladder.empty()) {
        s.blocks.push_back(paragraph(verdictOf(c.analysis).text.in(c.lang)));
        s.blocks.push_back(ladderTable(c));
    }

    TableBlock t;
    t.caption = tr(c, "Inputs", "输入文件");
    t.columns = {tr(c, "Path", "路径"), tr(c, "Kind", "类型"), tr(c, "Size", "大小"), "SHA-256"};
    std::vector<std::pair<std::string, size_t>> toHash;  // path, row
    for (const InputItem& in : c.analysis.inputs) {
        t.rows.push_back({in.path,
                          kindLabel(in.kind, c.lang) + (in.format.empty() ? "" : " (" + in.format + ")"),
                          formatBytes(in.size), ""});
        if (in.kind == InputKind::LogFolder || fs::is_directory(in.path)) {
            t.rows.back()[3] = tr(c, "(folder: files below)", "（文件夹：见下列文件）");
            const std::vector<const logs::RunFile*> files = filesUnder(c.analysis, in.path);
            if (in.size == 0) {  // loaders may leave a folder's size to the files
                uint64_t sum = 0;
                for (const logs::RunFile* f : files) sum += f->size;
                t.rows.back()[2] = formatBytes(sum);
            }
            for (const logs::RunFile* f : files) {
                t.rows.push_back({"  " + f->path, f->format, formatBytes(f->size), ""});
                toHash.emplace_back(f->path, t.rows.size() - 1);
            }
        } else {
            toHash.emplace_back(in.path, t.rows.size() - 1);
        }
    }
    for (size_t i = 0; i < toHash.size(); ++i) {
        const auto& [path, row] = toHash[i];
        if (!c.options.hashInputs) {
            t.rows[row][3] = tr(c, "(computed on export)", "（导出时计算）");
            continue;
        }
        const double base = double(i) / double(toHash.size());
        Result<std::string> h = sha256File(path, [&](double f, std::string_view stage) {
            return reportProgress(progress, base + f / double(toHash.size()), stage);
        });
        if (!h && h.error().code == kCancelledCode) return h.error();
        t.rows[row][3] = h ? *h : tr(c, "unreadable", "无法读取");
        if (!h) c.notes.push_back(h.error().toString());
    }
    if (!t.rows.empty())
        s.blocks.push_back(table(std::move(t)));
    else
        s.blocks.push_back(note(tr(c, "No inputs were loaded.", "没有加载任何输入。")));
    return s;
}

}  // namespace qatdoctor::core::report::detail
