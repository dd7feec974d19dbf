// Each format on a real fixture, with exact values.
#include <algorithm>
#include <cmath>

#include "core/logs/crc32c.h"
#include "core/logs/metric_names.h"
#include "core/logs/parsed_log.h"
#include "core/logs/series_stats.h"
#include "tests/logs/test_util.h"

namespace qatdoctor::core::logs::test {
namespace {

TEST(LogFormats, TableHasOneRowPerFormat)
{
    std::vector<std::string> ids;
    for (const LogFormat& f : logFormats()) ids.push_back(f.id);
    EXPECT_EQ(ids, (std::vector<std::string>{"tfevents", "json_history", "jsonl", "csv", "text"}));
}

TEST(LogFormats, Crc32cKnownValue)
{
    // RFC 3720 B.4 test vector: 32 bytes of zeros -> 0x8a9136aa; "123456789" -> 0xe3069283
    EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8a9136aau);
    EXPECT_EQ(crc32c("123456789"), 0xe3069283u);
}

// A real PyTorch warning (tests/gen/make_torch_warning_log.py): one event, not two; the indented
// source line Python echoes under it is code.
TEST(TextLog, APythonWarningIsOneEvent)
{
    const LogSet set = readOne("logs/torch_warning/train.log");
    const logs::Run& r = set.runs.at(0);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].kind, RunEvent::Kind::Warning);
    EXPECT_EQ(r.events[0].line, 1);
    EXPECT_NE(r.events[0].text.find("UserWarning: Detected call of `lr_scheduler.step()`"),
              std::string::npos);
    EXPECT_EQ(seriesOf(r, "loss").size(), 4u);
}

// Coloured lines, each longer than the last (found by fuzz_log_text under ASan): a line read as
// drawn lives in a buffer the next such line reallocates, so it must never become the template
// later lines are matched against. Read through ASan in CI; here the values must come out whole.
TEST(TextLog, ColouredLinesThatGrowAreReadWhole)
{
    const LogSet set = readOne("logs/console_redraw/train.log");
    const logs::Run& r = set.runs.at(0);
    const Series& loss = seriesOf(r, "loss");
    ASSERT_EQ(loss.size(), 3u);
    EXPECT_FLOAT_EQ(loss.value[0], 0.5123f);
    EXPECT_FLOAT_EQ(loss.value[1], 0.4987f);
    EXPECT_FLOAT_EQ(loss.value[2], 0.4811f);
}

TEST(TextLog, HatFloatLog)
{
    const LogSet set = readOne("logs/hat/float/train.log");
    ASSERT_EQ(set.runs.size(), 1u);
    const logs::Run& r = set.runs[0];
    EXPECT_EQ(r.files.at(0).format, "text");
    const Series& loss = seriesOf(r, "loss");
    ASSERT_EQ(loss.size(), 20u);
    EXPECT_EQ(loss.step.front(), 0);
    EXPECT_EQ(loss.step.back(), 19);
    EXPECT_FLOAT_EQ(loss.value.front(), 2.5f);
    EXPECT_FLOAT_EQ(loss.value.back(), 0.8311f);
    EXPECT_EQ(loss.sourceAt(0).lineOrRecord, 2u);
    EXPECT_EQ(loss.sourceAt(19).lineOrRecord, 42u);
    ASSERT_TRUE(loss.hasEpoch());
    EXPECT_EQ(*loss.epochAt(0), 0.f);
    EXPECT_EQ(*loss.epochAt(19), 1.f);
    ASSERT_TRUE(loss.hasWallTime());
    // 2026-11-01 08:00:00 UTC
    EXPECT_NEAR(*loss.wallTimeAt(0), 1793520000.0, 1.0);
    EXPECT_EQ(seriesOf(r, "lr").size(), 20u);
    EXPECT_FLOAT_EQ(seriesOf(r, "lr").value.front(), 0.1f);
    EXPECT_EQ(seriesOf(r, "acc").size(), 20u);
    // epoch-end evaluation lines "Epoch[0] float_val: acc[...]" -> val/acc at the last step
    const Series& val = seriesOf(r, "val/acc");
    ASSERT_EQ(val.size(), 2u);
    EXPECT_EQ(val.step[0], 9);
    EXPECT_EQ(val.step[1], 19);
    EXPECT_FLOAT_EQ(val.value[1], 0.6f);
    EXPECT_EQ(val.sourceAt(0).lineOrRecord, 22u);
    // header hyper-parameters
    EXPECT_EQ(r.metadata.at("batch_size"), "64");
    EXPECT_EQ(r.metadata.at("world_size"), "2");
    EXPECT_EQ(r.metadata.at("march"), "nash-e");
    EXPECT_EQ(r.metadata.at("epochs"), "2");
    EXPECT_EQ(r.metadata.at("optimizer"), "SGD");
    EXPECT_EQ(r.metadata.at("lr_scheduler"), "CosineAnnealing");
    // checkpoint lines are events
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(r.events[0].kind, RunEvent::Kind::Checkpoint);
    EXPECT_EQ(r.events[0].line, 23);
    EXPECT_EQ(r.events[1].line, 45);
    EXPECT_TRUE(set.warnings.empty());
}

TEST(TextLog, NanTracebackAndWarning)
{
    const LogSet set = readOne("logs/hat/qat/train.log");
    const logs::Run& r = set.runs.at(0);
    const Series& loss = seriesOf(r, "loss");
    ASSERT_EQ(loss.size(), 15u);
    const SeriesStats st = seriesStats(loss);
    ASSERT_TRUE(st.firstNonFinite.has_value());
    EXPECT_EQ(loss.step[*st.firstNonFinite], 13);
    EXPECT_EQ(loss.sourceAt(*st.firstNonFinite).lineOrRecord, 16u);
    EXPECT_TRUE(std::isnan(loss.value.back()));
    EXPECT_EQ(st.nonFinite, 2u);
    EXPECT_EQ(r.metadata.at("lr"), "0.001");
    EXPECT_EQ(r.metadata.at("training_step"), "qat");
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(r.events[0].kind, RunEvent::Kind::Warning);
    EXPECT_EQ(r.events[0].line, 18);
    EXPECT_EQ(r.events[1].kind, RunEvent::Kind::Traceback);
    EXPECT_EQ(r.events[1].line, 19);
    EXPECT_NE(r.events[1].text.find("RuntimeError: CUDA error"), std::string::npos);
    EXPECT_EQ(r.events[1].step, 14.0);
}

TEST(TextLog, KeyValueFormsCountersAndScientific)
{
    const LogSet set = readOne("logs/mixed/qat_run/train.log");
    const logs::Run& r = set.runs.at(0);
    // "Epoch [e/3] Step [s/4]" (1-based) -> step (e-1)*4 + s: the iterations done
    const Series& loss = seriesOf(r, "loss");
    ASSERT_EQ(loss.size(), 12u);
    for (size_t i = 0; i < loss.size(); ++i) EXPECT_EQ(loss.step[i], static_cast<double>(i + 1));
    const Series& top1 = seriesOf(r, "top1");  // 'top1': 50.5
    EXPECT_FLOAT_EQ(top1.value.front(), 50.5f);
    const Series& g = seriesOf(r, "grad_norm");  // grad_norm=1.0e-06
    EXPECT_FLOAT_EQ(g.value.front(), 1.0e-6f);
    EXPECT_FLOAT_EQ(g.value.back(), 1.0e5f);
    EXPECT_EQ(r.metadata.at("lr"), "1e-3");
}

TEST(TextLog, TorchvisionMetricLogger)
{
    const LogSet set = readOne("logs/mixed/fp32/torchvision.log");
    const logs::Run& r = set.runs.at(0);
    const Series& loss = seriesOf(r, "loss");
    ASSERT_EQ(loss.size(), 5u);
    EXPECT_EQ(loss.step[1], 10);
    EXPECT_EQ(r.find("eta"), nullptr);  // "eta: 0:01:00" is a duration, not a metric
    EXPECT_EQ(r.find("Test"), nullptr);
    const Series& val = seriesOf(r, "val/acc1");
    ASSERT_EQ(val.size(), 1u);
    EXPECT_EQ(val.step[0], 40);
    EXPECT_FLOAT_EQ(val.value[0], 61.5f);
}

TEST(CsvLog, CommaAndTab)
{
    const LogSet csv = readOne("logs/mixed/qat_run/metrics.csv");
    const logs::Run& r = csv.runs.at(0);
    EXPECT_EQ(r.files.at(0).format, "csv");
    const Series& lr = seriesOf(r, "lr");
    ASSERT_EQ(lr.size(), 12u);
    EXPECT_FLOAT_EQ(lr.value.front(), 1e-3f);
    EXPECT_EQ(r.find("step"), nullptr);
    EXPECT_EQ(r.find("epoch"), nullptr);
    EXPECT_EQ(*seriesOf(r, "loss").epochAt(11), 2.f);

    const LogSet tsv = readOne("logs/mixed/fp32/metrics.tsv");
    const Series& acc = seriesOf(tsv.runs.at(0), "acc");
    ASSERT_EQ(acc.size(), 5u);
    EXPECT_EQ(acc.step.back(), 40);
    EXPECT_FLOAT_EQ(acc.value.back(), 0.4f);
}

TEST(JsonlLog, NestedNamesNanAndMetadata)
{
    const LogSet set = readOne("logs/mixed/qat_run/metrics.jsonl");
    const logs::Run& r = set.runs.at(0);
    EXPECT_EQ(r.files.at(0).format, "jsonl");
    const Series& loss = seriesOf(r, "loss");  // {"train": {"loss": ..}} -> loss
    ASSERT_EQ(loss.size(), 12u);
    const Series& acc = seriesOf(r, "val/acc");
    ASSERT_EQ(acc.size(), 12u);
    const SeriesStats st = seriesStats(acc);
    ASSERT_TRUE(st.firstNonFinite);
    EXPECT_EQ(acc.step[*st.firstNonFinite], 7);
    EXPECT_EQ(acc.sourceAt(*st.firstNonFinite).lineOrRecord, 9u);
    EXPECT_EQ(r.metadata.at("optimizer"), "AdamW");
    EXPECT_EQ(r.metadata.at("march"), "bayes");
    EXPECT_EQ(r.metadata.at("batch_size"), "16");
}

TEST(TfEvents, SimpleValueAndScalarTensor)
{
    const LogSet set = readOne("logs/mixed/qat_run/tb/events.out.tfevents.1793433600.host.1");
    const logs::Run& r = set.runs.at(0);
    EXPECT_EQ(r.files.at(0).format, "tfevents");
    const Series& loss = seriesOf(r, "loss");  // tag train/loss
    ASSERT_EQ(loss.size(), 12u);
    EXPECT_FLOAT_EQ(loss.value.front(), 1.5f);
    EXPECT_EQ(loss.sourceAt(0).lineOrRecord, 2u);  // record 1 is the file_version event
    const Series& top1 = seriesOf(r, "val/top1");  // tag eval/top1, a scalar tensor
    ASSERT_EQ(top1.size(), 12u);
    EXPECT_FLOAT_EQ(top1.value.back(), 0.72f);
    EXPECT_EQ(top1.step.back(), 11);
    EXPECT_NEAR(*top1.wallTimeAt(11), 1793433611.0, 1.0);
    EXPECT_TRUE(set.warnings.empty());
}

TEST(LogFormats, ProbesPickTheRightFormat)
{
    auto probe = [](const std::string& rel) {
        auto head = readFileHead(fixture(rel), 65536);
        const LogFormat* f = probeLogFormat(rel.substr(rel.rfind('/') + 1), *head);
        return std::string(f ? f->id : "none");
    };
    EXPECT_EQ(probe("logs/hat/float/train.log"), "text");
    EXPECT_EQ(probe("logs/mixed/qat_run/metrics.csv"), "csv");
    EXPECT_EQ(probe("logs/mixed/fp32/metrics.tsv"), "csv");
    EXPECT_EQ(probe("logs/mixed/qat_run/metrics.jsonl"), "jsonl");
    EXPECT_EQ(probe("logs/mixed/qat_run/tb/events.out.tfevents.1793433600.host.1"), "tfevents");
    // a generic .txt that looks like a log scores low (printed models and toolchain tables win)
    EXPECT_LE(probeLogFile("notes.txt",
                           "Epoch[0] Step[1] GlobalStep[1] t: loss[1.0]\n"
                           "Epoch[0] Step[2] GlobalStep[2] t: loss[0.9]\n"),
              20);
}

TEST(LogFormats, InlineBytesParse)
{
    ParseState state;
    const std::string text = "step=1 loss=inf\nstep=2 loss=-inf\nstep=3 loss=NaN\nstep=4 loss=+2.5E-1\n";
    auto parsed = parseLogBytes(*findLogFormat("text"), text, "inline.log");
    ASSERT_TRUE(parsed.ok());
    ASSERT_EQ(parsed->names.size(), 1u);
    const Series& s = parsed->series[0];
    ASSERT_EQ(s.size(), 4u);
    EXPECT_TRUE(std::isinf(s.value[0]) && s.value[0] > 0);
    EXPECT_TRUE(std::isinf(s.value[1]) && s.value[1] < 0);
    EXPECT_TRUE(std::isnan(s.value[2]));
    EXPECT_FLOAT_EQ(s.value[3], 0.25f);
    EXPECT_EQ(s.step[3], 4);
}

TEST(LogFormats, TwoThreadsGiveTheSameResultAsOne)
{
    // > 1 MiB so the bytes are split; the second half has counter-less lines whose step
    // depends on the first half.
    std::string text;
    for (int i = 0; i < 40000; ++i) {
        text += "Epoch[0] Step[" + std::to_string(i) + "] GlobalStep[" + std::to_string(i) + "] t: loss[" +
                std::to_string(1.0 / (i + 1)) + "] padding_padding_padding\n";
        if (i % 1000 == 999) text += "eval: top1: 0." + std::to_string(i) + "\n";
        if (i % 7 == 0) text += "extra: 1\n";
    }
    auto one = parseLogBytes(*findLogFormat("text"), text, "a.log", {}, 1);
    auto two = parseLogBytes(*findLogFormat("text"), text, "a.log", {}, 2);
    ASSERT_TRUE(one.ok() && two.ok());
    ASSERT_EQ(one->names, two->names);
    for (size_t i = 0; i < one->names.size(); ++i) {
        EXPECT_EQ(one->series[i].step, two->series[i].step) << one->names[i];
        EXPECT_EQ(one->series[i].value, two->series[i].value) << one->names[i];
        EXPECT_EQ(one->series[i].line, two->series[i].line) << one->names[i];
    }
}

TEST(LogFormats, ASettingsBlockOverHalfTheFileReadsTheSameOnTwoThreads)
{
    // > 1 MiB of `key: value` lines before the first training line: all of them are settings.
    // The second half, parsed apart, cannot know that no metric line came before it; it used to
    // read its half as 20,000 one-point series, so the reading depended on the thread count.
    std::string text;
    for (int i = 0; i < 40000; ++i)
        text += "setting_" + std::to_string(i) + ": " + std::to_string(i) + "  # padding_padding\n";
    text += "Epoch[1] Step[1] GlobalStep[1] t: loss[0.5]\n";
    auto one = parseLogBytes(*findLogFormat("text"), text, "cfg.log", {}, 1);
    auto two = parseLogBytes(*findLogFormat("text"), text, "cfg.log", {}, 2);
    ASSERT_TRUE(one.ok() && two.ok());
    EXPECT_EQ(one->names, two->names);
    EXPECT_EQ(two->metadata.size(), 40000u);
    EXPECT_EQ(two->metadata.at("setting_39999"), "39999");
    ASSERT_EQ(two->names.size(), 1u);
    EXPECT_EQ(two->series[0].line[0], 40001u);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test

namespace qatdoctor::core::logs::test {
namespace {

TEST(MetricNames, StageAndSplitComponents)
{
    EXPECT_EQ(seriesName("loss", false), "loss");
    EXPECT_EQ(seriesName("loss", true), "val/loss");
    EXPECT_EQ(seriesName("train/loss", false), "loss");
    // a stage word in a key names the series' stage (stage_words.h), before the split words
    EXPECT_EQ(stagedSeriesName("qat_train/acc", false, std::nullopt, {}), "qat/acc");
    EXPECT_EQ(stagedSeriesName("qat_val/acc", false, std::nullopt, {}), "qat/val/acc");
    EXPECT_EQ(stagedSeriesName("int8_acc", false, RunRole::Qat, {}), "quantized/val/acc");
    EXPECT_EQ(stagedSeriesName("acc_calib", false, std::nullopt, {}), "calibration/val/acc");
    EXPECT_EQ(stagedSeriesName("hbm_acc", false, std::nullopt, {}), "board/val/acc");
    EXPECT_EQ(stagedSeriesName("pre_export_val/acc", false, std::nullopt, {}), "pre_export/val/acc");
    EXPECT_EQ(stagedSeriesName("acc", true, RunRole::Quantized, {}), "quantized/val/acc");
    EXPECT_EQ(stagedSeriesName("qat", false, std::nullopt, {}), "qat");  // a stage alone is no metric
    EXPECT_EQ(seriesName("val_loss", false), "val/loss");
    EXPECT_EQ(seriesName("eval/top1", false), "val/top1");
    EXPECT_EQ(seriesName("lr_group0", false), "lr_group0");
}

TEST(TextLog, LoggingSourcePrefixAndConfigDump)
{
    const std::string text =
        "2026-11-02 10:00:00,000 INFO [train.py:30] ==== config ====\n"
        "task_name: tiny_cls\n"
        "log_freq: 8\n"
        "2026-11-02 10:00:01,000 INFO [train.py:42] steps_per_epoch: 64\n"
        "2026-11-02 10:00:02,000 INFO [metric_updater.py:120] Epoch[0] Step[7] GlobalStep[7] float: "
        "loss[1.2] \n"
        "2026-11-02 10:00:03,000 INFO [metric_updater.py:120] grad_scale: 1024\n";
    auto parsed = parseLogBytes(*findLogFormat("text"), text, "cfg.log");
    ASSERT_TRUE(parsed.ok());
    std::vector<std::string> names = parsed->names;
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"grad_scale", "loss"}));
    EXPECT_EQ(parsed->metadata.at("log_freq"), "8");
    EXPECT_EQ(parsed->metadata.at("steps_per_epoch"), "64");
    EXPECT_EQ(parsed->metadata.at("task_name"), "tiny_cls");
    EXPECT_EQ(parsed->metadata.count("config"), 0u);  // "==== config ====" is a banner
}

TEST(LogFormats, LinesLikeThePreviousOneParseTheSameAsAFullScan)
{
    // Lines with the previous metric line's layout only have their numbers parsed (the line
    // template); every change of layout around the numbers must take the full scan.
    const std::string text =
        "2026-11-01 08:00:00,000 - INFO - Epoch[0] Step[1] GlobalStep[1] float: loss[1.5] acc[0.5]\n"
        "2026-11-01 08:00:00,500 - INFO - Epoch[0] Step[2] GlobalStep[2] float: loss[1.4] acc[0.55]\n"
        "2026-11-01 08:00:01,000 - INFO - Epoch[0] Step[3] GlobalStep[3] float: loss[nan] acc[0.6]\n"
        "2026-11-01 08:00:01,500 - INFO - Epoch[0] Step[3] GlobalStep[3] float_val: loss[1.2] acc[0.7]\n"
        "2026-11-01 08:00:02,000 - INFO - Epoch[0] Step[4] GlobalStep[4] float: loss[1.3] acc[0.62]\n"
        "2026-11-01 08:00:02,500 - INFO - Epoch[0] Step[5] GlobalStep[5] float: loss[1.25] acc[0.63] eta: "
        "0:10:22\n"
        "2026-11-01 08:00:03,000 - INFO - Epoch[0] Step[6] GlobalStep[6] float: loss[1.2e-1] acc[0.64] eta: "
        "0:10:21\n"
        "2026-11-01 08:00:03,500 - INFO - Epoch[0] Step[7] GlobalStep[7] float: loss[abc] acc[0.65] eta: "
        "0:10:20\n"
        "2026-11-01 08:00:04,000 - INFO - Epoch[0] Step[8] GlobalStep[8] float: loss[-inf] acc[0.66] eta: "
        "0:10:20\n"
        "2026-11-01 08:00:04,500 - WARNING - Epoch[0] Step[9] GlobalStep[9] float: loss[0.9] acc[0.67] eta: "
        "0:10:20\n";
    auto parsed = parseLogBytes(*findLogFormat("text"), text, "t.log", {}, 1);
    ASSERT_TRUE(parsed.ok());
    auto series = [&](const std::string& name) -> const Series& {
        static const Series kEmpty;
        for (size_t i = 0; i < parsed->names.size(); ++i)
            if (parsed->names[i] == name) return parsed->series[i];
        ADD_FAILURE() << "no series " << name;
        return kEmpty;
    };
    const Series& loss = series("loss");
    ASSERT_EQ(loss.size(), 8u);
    EXPECT_EQ(loss.step, (std::vector<double>{1, 2, 3, 4, 5, 6, 8, 9}));
    EXPECT_EQ(loss.line, (std::vector<uint32_t>{1, 2, 3, 5, 6, 7, 9, 10}));
    EXPECT_FLOAT_EQ(loss.value[1], 1.4f);
    EXPECT_TRUE(std::isnan(loss.value[2]));
    EXPECT_FLOAT_EQ(loss.value[5], 0.12f);
    EXPECT_TRUE(std::isinf(loss.value[6]) && loss.value[6] < 0);
    EXPECT_FLOAT_EQ(loss.value[7], 0.9f);
    const Series& acc = series("acc");
    ASSERT_EQ(acc.size(), 9u);
    EXPECT_FLOAT_EQ(acc.value[7], 0.66f);
    EXPECT_EQ(acc.step.back(), 9);
    const Series& valLoss = series("val/loss");
    ASSERT_EQ(valLoss.size(), 1u);
    EXPECT_FLOAT_EQ(valLoss.value[0], 1.2f);
    EXPECT_EQ(valLoss.step[0], 3);
    EXPECT_FLOAT_EQ(series("val/acc").value.at(0), 0.7f);
    // the wall time follows each line's own timestamp, also on templated lines
    ASSERT_TRUE(acc.wallTimeAt(8).has_value());
    EXPECT_NEAR(*acc.wallTimeAt(8) - *acc.wallTimeAt(0), 4.5, 1e-6);
    // "eta" is a time, never a series
    for (const std::string& n : parsed->names) EXPECT_EQ(n.find("eta"), std::string::npos) << n;
}

}  // namespace
}  // namespace qatdoctor::core::logs::test

namespace qatdoctor::core::logs::test {
namespace {

// The same rows written plainly (the fast path) and with spaces and quotes (parseRow) must give
// the same series; a missing cell leaves that row's point out of its column only.
TEST(CsvLog, PlainRowsParseLikeTheGeneralPath)
{
    std::string plain = "step,global_step,epoch,loss,acc\n", spaced = plain;
    for (int i = 0; i < 300; ++i) {
        const std::string loss = i == 17 ? "nan" : std::to_string(2.0 / (i + 1));
        const std::string acc = std::to_string(i * 0.003);
        const std::string row[] = {std::to_string(i % 50), std::to_string(1000 + i), std::to_string(i / 50),
                                   loss, acc};
        plain += row[0] + "," + row[1] + "," + row[2] + "," + row[3] + "," + row[4] + "\n";
        spaced += row[0] + ", " + row[1] + ",\"" + row[2] + "\", " + row[3] + " ," + row[4] + "\n";
    }
    auto a = parseLogBytes(*findLogFormat("csv"), plain, "plain.csv", {}, 1);
    auto b = parseLogBytes(*findLogFormat("csv"), spaced, "spaced.csv", {}, 1);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->names, (std::vector<std::string>{"loss", "acc"}));
    ASSERT_EQ(a->names, b->names);
    for (size_t i = 0; i < a->names.size(); ++i) {
        EXPECT_EQ(a->series[i].step, b->series[i].step) << a->names[i];
        EXPECT_EQ(a->series[i].line, b->series[i].line) << a->names[i];
        ASSERT_EQ(a->series[i].size(), 300u);
        for (size_t k = 0; k < 300; ++k)
            if (!std::isnan(a->series[i].value[k])) EXPECT_EQ(a->series[i].value[k], b->series[i].value[k]);
        EXPECT_EQ(a->series[i].epochAt(299), 5.0f);
    }
    EXPECT_EQ(a->series[0].step[3], 1003);  // the global step wins over the step column
    EXPECT_TRUE(std::isnan(a->series[0].value[17]));
    auto gap =
        parseLogBytes(*findLogFormat("csv"), "step,loss,acc\n1,0.5,0.1\n2,,0.2\n3,0.25,0.3\n", "gap.csv");
    ASSERT_TRUE(gap.ok());
    EXPECT_EQ(gap->series[0].step, (std::vector<double>{1, 3}));
    EXPECT_EQ(gap->series[1].step, (std::vector<double>{1, 2, 3}));
}

// Plain rows are written to the series a batch at a time. Across batch boundaries, epochs
// that change inside a batch (and a NaN epoch), a general row in between, a wall-time column
// and a file without a step column, they must give exactly what the row-by-row path gives.
TEST(CsvLog, ACsvOfCountersOnlyHasNoSeries)
{
    std::string csv = "step,epoch\n";
    for (int i = 0; i < 600; ++i) csv += std::to_string(i) + "," + std::to_string(i / 100) + "\n";
    auto parsed = parseLogBytes(*findLogFormat("csv"), csv, "counters.csv", {}, 1);
    ASSERT_TRUE(parsed.ok());
    EXPECT_TRUE(parsed->names.empty());
    EXPECT_EQ(parsed->points(), 0u);
}

TEST(CsvLog, BatchedRowsGiveTheSamePointsAndMarks)
{
    for (const std::string header : {"step,epoch,loss,acc", "wall_time,step,epoch,loss", "epoch,loss,acc"}) {
        std::string plain = header + "\n", spaced = plain;
        const size_t cols = static_cast<size_t>(std::count(header.begin(), header.end(), ',')) + 1;
        const auto epochCol =
            static_cast<size_t>(std::count(header.begin(), header.begin() + header.find("epoch"), ','));
        for (int i = 0; i < 1000; ++i) {
            std::vector<std::string> row;
            for (size_t c = 0; c < cols; ++c) row.push_back(std::to_string((i + 1) * (c + 1) * 0.37));
            // the epoch column: changes every 37 rows, NaN for rows 300..309
            row[epochCol] = (i >= 300 && i < 310) ? "nan" : std::to_string(i / 37);
            if (header.rfind("wall_time", 0) == 0) row[0] = std::to_string(1.7e9 + i * 0.25);  // a wall time
            std::string p, q;
            for (size_t c = 0; c < cols; ++c) {
                p += (c ? "," : "") + row[c];
                q += (c ? ", " : "") + row[c];
            }
            // every 97th row of the plain file takes the general path too
            plain += (i % 97 == 5 ? q : p) + "\n";
            spaced += q + "\n";
        }
        auto a = parseLogBytes(*findLogFormat("csv"), plain, "plain.csv", {}, 1);
        auto b = parseLogBytes(*findLogFormat("csv"), spaced, "spaced.csv", {}, 1);
        ASSERT_TRUE(a.ok() && b.ok()) << header;
        ASSERT_EQ(a->names, b->names) << header;
        ASSERT_FALSE(a->names.empty()) << header;
        for (size_t k = 0; k < a->names.size(); ++k) {
            const Series& x = a->series[k];
            const Series& y = b->series[k];
            ASSERT_EQ(x.size(), 1000u) << header;
            EXPECT_EQ(x.step, y.step) << header;
            EXPECT_EQ(x.value, y.value) << header;
            EXPECT_EQ(x.line, y.line) << header;
            ASSERT_EQ(x.epochs.size(), y.epochs.size()) << header;
            for (size_t m = 0; m < x.epochs.size(); ++m) {
                EXPECT_EQ(x.epochs[m].begin, y.epochs[m].begin) << header << " mark " << m;
                EXPECT_EQ(std::isnan(x.epochs[m].value), std::isnan(y.epochs[m].value))
                    << header << " mark " << m;
                if (!std::isnan(x.epochs[m].value)) EXPECT_EQ(x.epochs[m].value, y.epochs[m].value) << header;
            }
            ASSERT_EQ(x.wallTimes.size(), y.wallTimes.size()) << header;
            for (size_t m = 0; m < x.wallTimes.size(); ++m) {
                EXPECT_EQ(x.wallTimes[m].begin, y.wallTimes[m].begin) << header;
                EXPECT_EQ(x.wallTimes[m].value, y.wallTimes[m].value) << header;
            }
            EXPECT_EQ(*x.epochAt(999), 27.0f) << header;
            EXPECT_TRUE(std::isnan(*x.epochAt(305))) << header;
        }
        if (header.rfind("wall_time", 0) == 0) EXPECT_TRUE(a->series[0].hasWallTime());
        if (header.rfind("epoch", 0) == 0) EXPECT_EQ(a->series[0].step[999], 999);  // steps by order
    }
}

// A CSV big enough for progress ticks, the column sizing and a two-thread split, whose widths
// change every few hundred rows, read in runs of one shape: every value is strtod's, every
// line number right, with LF or CRLF line ends and one or two threads.
TEST(CsvLog, RunsOfOneShapeReadEveryRowExactly)
{
    std::string lf = "step,epoch,loss,lr\n";
    std::vector<double> loss, lr;
    constexpr int kRows = 400000;
    for (int i = 0; i < kRows; ++i) {
        char a[32], b[32];
        std::snprintf(a, sizeof a, (i / 700) % 2 ? "%.4f" : "%.6f", 10.0 / (1 + i % 977));
        std::snprintf(b, sizeof b, "%.*f", 1 + (i / 300) % 8, 0.1 / (1 + i));
        loss.push_back(std::strtod(a, nullptr));
        lr.push_back(std::strtod(b, nullptr));
        char row[96];
        lf.append(row,
                  static_cast<size_t>(std::snprintf(row, sizeof row, "%d,%d,%s,%s\n", i, i / 5000, a, b)));
    }
    ASSERT_GT(lf.size(), 9u << 20);  // halves past 4 MiB: ticks and sizing in both
    std::string crlf;
    crlf.reserve(lf.size() + kRows + 1);
    for (size_t b = 0, nl; (nl = lf.find('\n', b)) != std::string::npos; b = nl + 1)
        crlf.append(lf, b, nl - b).append("\r\n");
    for (const auto& [bytes, threads] : {std::pair{&lf, 1u}, {&lf, 2u}, {&crlf, 1u}, {&crlf, 2u}}) {
        auto parsed = parseLogBytes(*findLogFormat("csv"), *bytes, "big.csv", {}, threads);
        ASSERT_TRUE(parsed.ok());
        ASSERT_EQ(parsed->names, (std::vector<std::string>{"loss", "lr"}));
        const Series& l = parsed->series[0];
        const Series& r = parsed->series[1];
        ASSERT_EQ(l.size(), static_cast<size_t>(kRows));
        ASSERT_EQ(r.size(), static_cast<size_t>(kRows));
        size_t firstWrong = kRows;  // (one comparison per row, not four assertions: 1.6M rows)
        for (size_t i = 0; i < kRows && firstWrong == kRows; ++i)
            if (l.value[i] != static_cast<float>(loss[i]) || r.value[i] != static_cast<float>(lr[i]) ||
                l.step[i] != static_cast<double>(i) || l.line[i] != i + 2)
                firstWrong = i;
        ASSERT_EQ(firstWrong, static_cast<size_t>(kRows))
            << "threads " << threads << (bytes == &crlf ? " CRLF" : " LF") << ": row " << firstWrong << " is "
            << l.step[firstWrong] << " " << l.value[firstWrong] << " " << r.value[firstWrong] << " line "
            << l.line[firstWrong];
        EXPECT_EQ(*l.epochAt(kRows - 1), static_cast<float>((kRows - 1) / 5000));
        EXPECT_EQ(l.epochs.size(), static_cast<size_t>(kRows / 5000));
        EXPECT_TRUE(parsed->warnings.empty());
    }
}

// Cancelling in the middle of a split parse (both halves running) returns "cancelled" and leaves
// the caller's state as it was.
TEST(LogFormats, CancelDuringATwoThreadParse)
{
    std::string text;
    for (int i = 0; i < 400000; ++i)
        text += "step=" + std::to_string(i) + " loss=" + std::to_string(1.0 / (i + 1)) + "\n";
    ASSERT_GT(text.size(), 8u << 20);  // two progress ticks at least
    int calls = 0;
    double lastFraction = -1;
    ProgressFn cancelSecond = [&](double f, std::string_view) {
        lastFraction = f;
        return ++calls < 2;
    };
    ParseState state;
    auto r = parseBlocks(*findLogFormat("text"), text, "big.log", state, cancelSecond, 2, true);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, kCancelledCode);
    EXPECT_EQ(calls, 2);
    EXPECT_GT(lastFraction, 0.0);
    EXPECT_EQ(state.offset, 0u);
    EXPECT_EQ(state.line, 0u);
    // and without cancelling, progress rises to the end
    std::vector<double> seen;
    ProgressFn record = [&](double f, std::string_view) {
        seen.push_back(f);
        return true;
    };
    auto full = parseLogBytes(*findLogFormat("text"), text, "big.log", record, 2);
    ASSERT_TRUE(full.ok());
    EXPECT_EQ(full->series.at(0).size(), 400000u);
    ASSERT_GE(seen.size(), 2u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_LE(seen.back(), 1.0);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test

namespace qatdoctor::core::logs::test {
namespace {

// JSONL lines laid out like the previous one only have their numbers parsed (NumberLayout); the
// result must equal a full read of every line (here forced by alternating the spacing), also
// when keys change order, a string value appears or a number becomes NaN.
TEST(JsonlLog, LinesLikeThePreviousOneParseTheSameAsAFullRead)
{
    std::string same, varied;
    for (int i = 0; i < 200; ++i) {
        std::string loss = i == 50 ? "NaN" : std::to_string(3.0 / (i + 1));
        const std::string acc = std::to_string(0.001 * i), lr = i < 100 ? "0.1" : "0.0009999999999975326";
        std::string line;
        if (i == 120)
            line = "{\"epoch\": 2, \"step\": " + std::to_string(i) + ", \"loss\": " + loss +
                   ", \"acc\": " + acc + "}";
        else if (i == 130)
            line = "{\"step\": " + std::to_string(i) + ", \"loss\": " + loss +
                   ", \"note\": \"x\", \"lr\": " + lr + "}";
        else
            line = "{\"step\": " + std::to_string(i) + ", \"epoch\": " + std::to_string(i / 100) +
                   ", \"loss\": " + loss + ", \"acc\": " + acc + ", \"lr\": " + lr + "}";
        same += line + "\n";
        varied += (i % 2 ? line : "  " + line + " ") + "\n";
    }
    auto a = parseLogBytes(*findLogFormat("jsonl"), same, "same.jsonl", {}, 1);
    auto b = parseLogBytes(*findLogFormat("jsonl"), varied, "varied.jsonl", {}, 1);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->names, (std::vector<std::string>{"loss", "acc", "lr"}));
    ASSERT_EQ(a->names, b->names);
    for (size_t i = 0; i < a->names.size(); ++i) {
        EXPECT_EQ(a->series[i].step, b->series[i].step) << a->names[i];
        EXPECT_EQ(a->series[i].line, b->series[i].line) << a->names[i];
        ASSERT_EQ(a->series[i].size(), b->series[i].size());
        for (size_t k = 0; k < a->series[i].size(); ++k)
            if (!std::isnan(b->series[i].value[k])) EXPECT_EQ(a->series[i].value[k], b->series[i].value[k]);
        EXPECT_EQ(a->series[i].epochAt(a->series[i].size() - 1),
                  b->series[i].epochAt(b->series[i].size() - 1));
    }
    EXPECT_EQ(a->series[0].size(), 200u);
    EXPECT_TRUE(std::isnan(a->series[0].value[50]));
    EXPECT_EQ(a->series[1].size(), 199u);  // no acc on the line with a string value
    EXPECT_EQ(a->series[2].size(), 199u);  // no lr on the reordered line
    EXPECT_FLOAT_EQ(a->series[2].value.back(), 0.001f);
    EXPECT_EQ(a->series[0].epochAt(120), 2.0f);
}

}  // namespace
}  // namespace qatdoctor::core::logs::test
