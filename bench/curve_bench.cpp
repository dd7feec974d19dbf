// Curves plot benchmark: 10 million points (4 runs x 2.5 M) in the real CurvePlot, offscreen;
// prints the time of a full redraw (decimate + replot) after a reset, a pan and a zoom.
#include <QApplication>
#include <QElapsedTimer>
#include <cmath>
#include <cstdio>
#include <memory>

#include "ui/plots/curve_plot.h"

using namespace qatdoctor;

int main(int argc, char** argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const size_t perRun = 2'500'000;
    auto logs = std::make_shared<core::logs::LogSet>();
    const core::logs::RunRole roles[] = {core::logs::RunRole::Float, core::logs::RunRole::Calibration,
                                         core::logs::RunRole::Qat, core::logs::RunRole::Quantized};
    for (int r = 0; r < 4; ++r) {
        core::logs::Run run;
        run.name = "run" + std::to_string(r);
        run.role = roles[r];
        core::logs::Series s;
        s.step.reserve(perRun);
        for (size_t i = 0; i < perRun; ++i) {
            const float v = 1.0f + std::exp(-static_cast<float>(i) / 4e5f) + 0.05f * std::sin(static_cast<float>(i) * 0.37f);
            s.push(static_cast<double>(i), (i % 999983 == 0 && i) ? NAN : v, static_cast<uint32_t>(i + 1));
        }
        run.series.emplace("loss", std::move(s));
        logs->runs.push_back(std::move(run));
    }
    ui::CurvePlot plot;
    plot.resize(1400, 800);
    plot.show();
    QElapsedTimer t;
    t.start();
    plot.setCurves(logs, {"loss"}, ui::XAxisMode::Step);
    std::printf("points: %zu\nfirst show (x, decimate, replot): %.1f ms\n", perRun * 4, t.nsecsElapsed() / 1e6);
    double total = 0;
    for (int i = 0; i < 10; ++i) {
        plot.redrawNow();
        total += plot.lastRedrawMs();
    }
    std::printf("redraw, full range: %.1f ms (mean of 10)\n", total / 10);
    plot.zoomTo(1'200'000, QString());
    std::printf("redraw, zoomed: %.1f ms\n", plot.lastRedrawMs());
    plot.setSmoothing(0.9);
    std::printf("redraw with smoothing 0.9 (raw behind): %.1f ms\n", plot.lastRedrawMs());
    return 0;
}
