// Curves plot benchmark: 10 million points (4 runs x 2.5 M) in the real CurvePlot, offscreen;
// prints the time of a full redraw (decimate + replot) at full range, zoomed and with smoothing,
// and the decimation alone: the linear scan against the min/max pyramid (same result checked).
#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
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
            const float v = 1.0f + std::exp(-static_cast<float>(i) / 4e5f) +
                            0.05f * std::sin(static_cast<float>(i) * 0.37f);
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
    std::printf("points: %zu\nfirst show (x, decimate, replot): %.1f ms\n", perRun * 4,
                t.nsecsElapsed() / 1e6);
    double total = 0;
    for (int i = 0; i < 10; ++i) {
        plot.redrawNow();
        total += plot.lastRedrawMs();
    }
    std::printf("redraw, full range: %.1f ms (mean of 10)\n", total / 10);
    auto mean10 = [&] {
        double sum = 0;
        for (int i = 0; i < 10; ++i) {
            plot.redrawNow();
            sum += plot.lastRedrawMs();
        }
        return sum / 10;
    };
    plot.zoomTo(1'200'000, QString());
    std::printf("redraw, zoomed to 10%%: %.1f ms (mean of 10)\n", mean10());
    t.restart();
    plot.setSmoothing(0.9);
    std::printf("smoothing 0.9 on (EMA + its pyramid + redraw): %.1f ms\n", t.nsecsElapsed() / 1e6);
    std::printf("redraw with smoothing 0.9 (raw behind), zoomed: %.1f ms (mean of 10)\n", mean10());

    // decimation alone, one 2.5 M series, 1400 pixels
    const core::logs::Series& s = logs->runs.front().series.at("loss");
    std::vector<double> x(s.step.begin(), s.step.end());
    t.restart();
    const ui::DecimationIndex index(s.value.data(), s.size());
    std::printf("pyramid build (2.5 M points): %.1f ms, %.2f bytes/point\n", t.nsecsElapsed() / 1e6,
                static_cast<double>(index.bytes()) / static_cast<double>(s.size()));
    for (double frac : {1.0, 0.1, 0.001}) {
        const double hi = static_cast<double>(perRun) * frac;
        // best of 5: the machine is shared, a time slice lost to a neighbour is not ours
        ui::DecimatedCurve a, b;
        double linear = 1e9, pyramid = 1e9;
        for (int rep = 0; rep < 5; ++rep) {
            t.restart();
            a = ui::decimate(x, s.value.data(), s.size(), 0, hi, 1400);
            linear = std::min(linear, t.nsecsElapsed() / 1e6);
            t.restart();
            b = ui::decimate(x, index, s.value.data(), 0, hi, 1400);
            pyramid = std::min(pyramid, t.nsecsElapsed() / 1e6);
        }
        const bool same = a.x == b.x && a.badX == b.badX && a.isolatedX == b.isolatedX &&
                          std::equal(a.y.begin(), a.y.end(), b.y.begin(), b.y.end(), [](double u, double v) {
                              return u == v || (std::isnan(u) && std::isnan(v));
                          });
        std::printf(
            "decimate %5.1f%% of the range (best of 5): linear %7.2f ms, pyramid %6.3f ms, %zu line points, "
            "%s\n",
            frac * 100, linear, pyramid, b.x.size(), same ? "same result" : "DIFFERENT RESULT");
    }
    return 0;
}
