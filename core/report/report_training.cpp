// Training: one plot per metric with every run on it (float vs calibration vs QAT vs quantized),
// NaN/Inf kept and marked, and the run table with the metadata that explains most surprises
// (batch size, lr, world size, march).
#include <algorithm>
#include <cmath>
#include <map>

#include "core/logs/run_palette.h"
#include "core/report/report_sections.h"
#include "core/rules/metrics.h"

namespace qatdoctor::core::report::detail {
namespace {

constexpr size_t kMaxPlots = 6;
constexpr size_t kMaxPointsPerSeries = 1200;
constexpr size_t kMaxEventRows = 40;

// Loss first, then evaluation metrics, then the rest alphabetically: the order a reader checks.
int metricRank(const std::string& name)
{
    if (name == "loss") return 0;
    if (name == "val/loss") return 1;
    if (name.rfind("val/", 0) == 0) return 2;
    if (name.find("acc") != std::string::npos || name.find("map") != std::string::npos) return 3;
    if (name == "lr") return 5;
    return 4;
}

// Keeps the shape of a long series in few points: first/min/max/last of each bucket, and every
// non-finite point (the reader must see where NaN/Inf appeared).
PlotSeries downsample(const logs::Series& s, std::string name, std::string role)
{
    PlotSeries out;
    out.name = std::move(name);
    out.role = std::move(role);
    const size_t n = s.size();
    auto take = [&](size_t i) {
        out.x.push_back(s.step[i]);
        out.y.push_back(s.value[i]);
    };
    if (n <= kMaxPointsPerSeries) {
        for (size_t i = 0; i < n; ++i) take(i);
        return out;
    }
    const size_t buckets = kMaxPointsPerSeries / 4;
    for (size_t b = 0; b < buckets; ++b) {
        const size_t lo = b * n / buckets, hi = (b + 1) * n / buckets;
        size_t mn = SIZE_MAX, mx = SIZE_MAX;
        std::vector<size_t> keep{lo};
        for (size_t i = lo; i < hi; ++i) {
            const float v = s.value[i];
            if (!std::isfinite(v)) {
                keep.push_back(i);
                continue;
            }
            if (mn == SIZE_MAX || v < s.value[mn]) mn = i;
            if (mx == SIZE_MAX || v > s.value[mx]) mx = i;
        }
        if (mn != SIZE_MAX) keep.push_back(mn);
        if (mx != SIZE_MAX) keep.push_back(mx);
        keep.push_back(hi - 1);
        std::sort(keep.begin(), keep.end());
        keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
        for (size_t i : keep) take(i);
    }
    return out;
}

std::string meta(const logs::Run& r, std::initializer_list<const char*> keys)
{
    for (const char* k : keys) {
        auto it = r.metadata.find(k);
        if (it != r.metadata.end() && !it->second.empty()) return it->second;
    }
    return "-";
}

const char* eventKindLabel(logs::RunEvent::Kind k, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    switch (k) {
        case logs::RunEvent::Kind::Error:
            return zh ? "错误" : "error";
        case logs::RunEvent::Kind::Traceback:
            return zh ? "异常栈" : "traceback";
        case logs::RunEvent::Kind::Warning:
            return zh ? "警告" : "warning";
        case logs::RunEvent::Kind::Checkpoint:
            return zh ? "检查点" : "checkpoint";
        case logs::RunEvent::Kind::Parameters:
            return zh ? "参数指纹" : "parameters";
        case logs::RunEvent::Kind::Finished:
            return zh ? "训练结束" : "finished";
        case logs::RunEvent::Kind::Info:
            break;
    }
    return zh ? "信息" : "info";
}

void addRunTable(BuildContext& c, Section& s)
{
    TableBlock t;
    t.caption = tr(c, "Runs (rows named by a finding are highlighted)", "运行（被发现引用的行已高亮）");
    t.columns = {tr(c, "Run", "运行"),          tr(c, "Role", "角色"),
                 tr(c, "Points", "数据点"),     tr(c, "Last step", "最后一步"),
                 tr(c, "Batch size", "批大小"), "lr",
                 tr(c, "World size", "卡数"),   "march",
                 tr(c, "Files", "文件")};
    for (const logs::Run& r : c.analysis.logs.runs) {
        size_t points = 0;
        double lastStep = NAN;
        for (const auto& [name, series] : r.series) {
            points += series.size();
            if (!series.empty())
                lastStep = std::isnan(lastStep) ? series.step.back() : std::max(lastStep, series.step.back());
        }
        std::string files;
        for (const logs::RunFile& f : r.files)
            files += (files.empty() ? "" : ", ") + f.path.substr(f.path.rfind('/') + 1);
        t.rows.push_back({r.name, logs::roleName(r.role), std::to_string(points),
                          std::isnan(lastStep) ? "-" : fullNumber(lastStep),
                          meta(r, {"batch_size", "batch_size_per_gpu", "total_batch_size"}),
                          meta(r, {"lr", "base_lr", "learning_rate"}),
                          meta(r, {"world_size", "num_gpus", "gpus"}), meta(r, {"march"}), files});
        t.highlighted.push_back(c.flaggedRuns.count(r.name) > 0);
    }
    s.blocks.push_back(table(std::move(t)));
}

void addEvents(BuildContext& c, Section& s)
{
    TableBlock t;
    t.caption = tr(c, "Errors and warnings in the logs", "日志中的错误与警告");
    t.columns = {tr(c, "Run", "运行"), tr(c, "Kind", "类型"), tr(c, "Place", "位置"), tr(c, "Text", "内容")};
    size_t total = 0;
    for (const logs::Run& r : c.analysis.logs.runs) {
        for (const logs::RunEvent& e : r.events) {
            if (e.kind != logs::RunEvent::Kind::Warning && e.kind != logs::RunEvent::Kind::Error &&
                e.kind != logs::RunEvent::Kind::Traceback)
                continue;
            ++total;
            if (t.rows.size() >= kMaxEventRows) continue;
            const std::string file = e.file < r.files.size() ? r.files[e.file].path : "";
            std::string text = e.text.size() > 400 ? e.text.substr(0, 400) + " ..." : e.text;
            t.rows.push_back(
                {r.name, eventKindLabel(e.kind, c.lang), file + ":" + std::to_string(e.line), text});
            t.highlighted.push_back(e.kind != logs::RunEvent::Kind::Warning);
        }
    }
    if (t.rows.empty()) return;
    const size_t listed = t.rows.size();  // (read before the table is moved into the section)
    s.blocks.push_back(table(std::move(t)));
    if (total > listed)
        s.blocks.push_back(note(tr(c, "Only the first " + std::to_string(listed) + " of ",
                                   "仅列出前 " + std::to_string(listed) + " 条，共 ") +
                                std::to_string(total) + tr(c, " events are listed.", " 条。")));
}

}  // namespace

Section trainingSection(BuildContext& c)
{
    Section s;
    const auto& runs = c.analysis.logs.runs;
    if (runs.empty()) {
        s.blocks.push_back(note(tr(c, "No training logs were loaded.", "没有加载训练日志。")));
        return s;
    }
    // the Curves page's headline metrics first (training loss, main evaluation metric), then by rank
    const std::vector<std::string> headline = rules::headlineMetrics(runs);
    std::map<std::string, int> metrics;
    for (const logs::Run& r : runs)
        for (const auto& [name, series] : r.series)
            if (!series.empty()) {
                const auto h = std::find(headline.begin(), headline.end(), name);
                metrics[name] =
                    h != headline.end() ? -10 + static_cast<int>(h - headline.begin()) : metricRank(name);
            }
    std::vector<std::string> order;
    for (const auto& [name, rank] : metrics) order.push_back(name);
    std::stable_sort(order.begin(), order.end(),
                     [&](const auto& a, const auto& b) { return metrics[a] < metrics[b]; });

    s.blocks.push_back(heading(tr(c, "Curves", "曲线")));
    const std::vector<std::string> colors = logs::runColors(runs);
    for (size_t m = 0; m < order.size() && m < kMaxPlots; ++m) {
        const std::string& metric = order[m];
        PlotBlock p;
        p.title = metric;
        p.xLabel = tr(c, "step", "步");
        p.yLabel = metric;
        p.nonFiniteLabel = tr(c, "NaN/Inf", "NaN/Inf（非有限值）");
        p.autoScaleY = true;
        p.offScaleLabel = tr(c, "%1 point(s) off the scale", "%1 个点超出坐标范围");
        const logs::Run* floatRun = nullptr;
        for (size_t i = 0; i < runs.size(); ++i) {
            const logs::Run& r = runs[i];
            const logs::Series* series = r.find(metric);
            if (!series || series->empty()) continue;
            p.series.push_back(downsample(*series, r.name, logs::roleName(r.role)));
            p.series.back().color = colors[i];
            if (r.role == logs::RunRole::Float) floatRun = &r;
        }
        // The float model's final evaluation is the bar QAT and the quantized model are held to.
        if (floatRun && metric.rfind("val/", 0) == 0 && p.series.size() > 1) {
            const logs::Series* fs = floatRun->find(metric);
            for (size_t i = fs->size(); i-- > 0;)
                if (std::isfinite(fs->value[i])) {
                    p.references.push_back(
                        {fs->value[i], tr(c, "float final ", "浮点最终 ") + fullNumber(fs->value[i])});
                    break;
                }
        }
        s.blocks.push_back(plot(std::move(p)));
    }
    if (order.size() > kMaxPlots)
        s.blocks.push_back(note(tr(c, "Further metrics not plotted: ", "未绘制的其他指标：") + [&] {
            std::string rest;
            for (size_t m = kMaxPlots; m < order.size(); ++m) rest += (rest.empty() ? "" : ", ") + order[m];
            return rest;
        }()));
    s.blocks.push_back(heading(tr(c, "Runs", "运行")));
    addRunTable(c, s);
    addEvents(c, s);
    return s;
}

}  // namespace qatdoctor::core::report::detail
