// Transformations of the diagnosis corpus that must not change the diagnosis: what a user would
// see differ only because of how the same run was written or stored. Generated here from the
// corpus's cases (tests/data/diagnosis), each a copy in a temporary folder:
// - junk beside the logs: a README, a JSON of expected numbers, a model's config.json, a benchmark
//   table;
// - the stage folders named in Chinese (浮点, 校准, 量化训练, 定点);
// - neutral folder names, where the logs' content names their stages;
// - every stage's log concatenated into one file, in pipeline order;
// - a resumed QAT run whose step counter restarts in the middle of its log;
// - the same records as JSON lines and as CSV (with the settings beside them in hparams.yaml).
// The finding ids (warning and error) must equal the original's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "core/analysis.h"
#include "core/common/number_text.h"

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(QATDOCTOR_TEST_DATA) / "diagnosis";
const char* const kStages[] = {"float", "calibration", "qat", "quantized"};

std::set<std::string> raised(const fs::path& dir)
{
    AnalyzeOptions options;
    options.paths = {dir.string()};
    auto a = analyze(options);
    std::set<std::string> out;
    if (!a) {
        out.insert("error: " + a.error().message);
        return out;
    }
    for (const Finding& f : a->findings)
        if (f.severity != Severity::Info) out.insert(f.id);
    return out;
}

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeAll(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

fs::path copyCase(const fs::path& from, const fs::path& to)
{
    fs::remove_all(to);
    fs::create_directories(to.parent_path());
    fs::copy(from, to, fs::copy_options::recursive);
    return to;
}

// The case's stage folders, each with its one log file, when it is laid out so.
std::optional<std::vector<fs::path>> oneLogPerStage(const fs::path& dir)
{
    std::vector<fs::path> logs;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (!e.is_directory() || std::find(std::begin(kStages), std::end(kStages), name) == std::end(kStages))
            return std::nullopt;
    }
    for (const char* stage : kStages) {
        const fs::path sub = dir / stage;
        if (!fs::exists(sub)) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(sub)) files.push_back(e.path());
        if (files.size() != 1 || (files[0].extension() != ".log" && files[0].extension() != ".txt"))
            return std::nullopt;
        logs.push_back(files[0]);
    }
    return logs.size() >= 3 ? std::optional(logs) : std::nullopt;
}

struct Transform {
    const char* name;
    // makes the transformed copy of case `from` under `to`; false: not applicable to this case
    std::function<bool(const fs::path& from, const fs::path& to, const Analysis& original)> make;
    std::set<std::string> ignored;  // ids the stored form cannot carry (events, for tables)
};

bool addJunk(const fs::path& from, const fs::path& to, const Analysis&)
{
    copyCase(from, to);
    writeAll(to / "README.txt",
             "Run notes\n=========\nFloat reached accuracy 0.91; int8 expected accuracy 0.90\n");
    writeAll(
        to / "expected.json",
        "{\"float_acc\": 0.912, \"qat_acc\": 0.905, \"quantized_acc\": 0.901, \"qat_first_loss\": 2.5}\n");
    writeAll(to / "config.json",
             "{\n  \"model_type\": \"tiny\",\n  \"hidden_size\": 64,\n  \"lr\": 0.5\n}\n");
    writeAll(to / "bench.csv", "model,precision,fps,top1\ntiny,FP32,400.1,0.912\ntiny,INT8,1500.2,0.901\n");
    return true;
}

bool renameFolders(const fs::path& from, const fs::path& to, const std::map<std::string, std::string>& names)
{
    copyCase(from, to);
    bool any = false;
    for (const auto& [old, renamed] : names)
        if (fs::is_directory(to / old)) {
            fs::rename(to / old, to / renamed);
            any = true;
        }
    return any;
}

bool chineseFolders(const fs::path& from, const fs::path& to, const Analysis&)
{
    return renameFolders(
        from, to, {{"float", "浮点"}, {"calibration", "校准"}, {"qat", "量化训练"}, {"quantized", "定点"}});
}

bool neutralFolders(const fs::path& from, const fs::path& to, const Analysis& original)
{
    // only where every run's stage comes from its content (a folder's name is all some layouts have)
    for (const logs::Run& r : original.logs.runs)
        if (r.roleReason.find("folder name") != std::string::npos || r.role == logs::RunRole::Unknown)
            return false;
    return renameFolders(
        from, to, {{"float", "run_a"}, {"calibration", "run_b"}, {"qat", "run_c"}, {"quantized", "run_d"}});
}

bool oneFile(const fs::path& from, const fs::path& to, const Analysis&)
{
    const auto logs = oneLogPerStage(from);
    if (!logs) return false;
    std::string all;
    for (const fs::path& p : *logs) all += readAll(p);
    fs::remove_all(to);
    writeAll(to / "pipeline.log", all);
    return true;
}

bool resumedQat(const fs::path& from, const fs::path& to, const Analysis&)
{
    const fs::path qat = from / "qat" / "train.log";
    if (!fs::exists(qat)) return false;
    const std::string text = readAll(qat);
    if (text.find("GlobalStep[") == std::string::npos) return false;
    copyCase(from, to);
    // the second half of the training lines counts its steps again from 0, after a resume line
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    size_t training = 0;
    for (const std::string& l : lines) training += l.find("GlobalStep[") != std::string::npos;
    const std::regex step(R"(GlobalStep\[(\d+)\])");
    std::string out;
    size_t seen = 0;
    long base = -1;
    for (const std::string& l : lines) {
        std::smatch m;
        const bool isStep = std::regex_search(l, m, step);
        if (isStep && ++seen == training / 2 + 1) {
            base = std::stol(m[1]);
            out +=
                "2026-12-07 09:03:40,000 INFO [train.py:120] Resuming from ./qat-checkpoint-last.pth.tar\n";
        }
        if (isStep && base >= 0)
            out += std::regex_replace(l, step, "GlobalStep[" + std::to_string(std::stol(m[1]) - base) + "]") +
                   "\n";
        else
            out += l + "\n";
    }
    writeAll(to / "qat" / "train.log", out);
    return seen >= 4;
}

// A run's series as rows (one per step) with keys a reader names alike: a stage's series under
// "<stage>_" ("calibration/val/acc" -> "calib_val_acc"), a split under "val_".
std::string keyOf(const std::string& series)
{
    std::string k = series;
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"calibration/", "calib_"}, {"quantized/", "int8_"}, {"float/", "fp32_"}, {"qat/", "qat_"}})
        if (k.starts_with(from)) k = to + k.substr(from.size());
    for (char& c : k)
        if (c == '/') c = '_';
    return k;
}

bool asRecords(const fs::path& to, const Analysis& original, bool csv)
{
    if (original.logs.runs.empty()) return false;
    fs::remove_all(to);
    for (const logs::Run& r : original.logs.runs) {
        // a file of several stages names its own stage's series too, as its log's markers did
        bool staged = false;
        for (const auto& [name, s] : r.series)
            for (const char* stage : kStages) staged = staged || name.starts_with(std::string(stage) + "/");
        const std::string own =
            staged && r.role != logs::RunRole::Unknown ? std::string(logs::roleName(r.role)) + "/" : "";
        std::map<double, std::map<std::string, float>> rows;
        std::map<double, float> epochs;
        for (const auto& [name, s] : r.series)
            for (size_t i = 0; i < s.size(); ++i) {
                rows[s.step[i]][keyOf(staged && name.find('/') != std::string::npos &&
                                              std::any_of(std::begin(kStages), std::end(kStages),
                                                          [&](const char* st) {
                                                              return name.starts_with(std::string(st) + "/");
                                                          })
                                          ? name
                                          : own + name)] = s.value[i];
                if (const auto e = s.epochAt(i)) epochs[s.step[i]] = *e;
            }
        const fs::path dir = to / (r.name == original.logs.root ? std::string("run") : r.name);
        std::string settings;
        for (const auto& [k, v] : r.metadata)
            if (k.find('/') == std::string::npos && k.find(' ') == std::string::npos)
                settings += k + ": " + v + "\n";
        std::string text;
        std::set<std::string> columns;
        for (const auto& [step, cells] : rows)
            for (const auto& [k, v] : cells) columns.insert(k);
        if (csv) {
            text = "step,epoch";
            for (const std::string& c : columns) text += "," + c;
            text += "\n";
        }
        std::map<std::string, std::string> nonFinite;
        for (const auto& [step, cells] : rows) {
            nlohmann::json j = {{"step", step}};
            std::string line = numberText(step, 10) + ",";
            if (epochs.count(step)) {
                j["epoch"] = epochs[step];
                line += numberText(epochs[step], 6);
            }
            for (const std::string& c : columns) {
                auto it = cells.find(c);
                line += ",";
                if (it == cells.end()) continue;
                // non-finite values as Python writes them (json.dumps: NaN, Infinity; csv: nan, inf)
                j[c] = std::isfinite(it->second) ? nlohmann::json(it->second) : nlohmann::json(nullptr);
                line += std::isfinite(it->second) ? numberText(it->second, 7)
                        : std::isnan(it->second)  ? "nan"
                        : it->second > 0          ? "inf"
                                                  : "-inf";
                if (!std::isfinite(it->second))
                    nonFinite[c] = std::isnan(it->second) ? "NaN" : it->second > 0 ? "Infinity" : "-Infinity";
            }
            std::string record = j.dump();
            for (const auto& [key, literal] : nonFinite) {
                const std::string null = "\"" + key + "\":null";
                if (const size_t at = record.find(null); at != std::string::npos)
                    record.replace(at, null.size(), "\"" + key + "\":" + literal);
            }
            nonFinite.clear();
            text += csv ? line + "\n" : record + "\n";
        }
        writeAll(dir / (csv ? "metrics.csv" : "metrics.jsonl"), text);
        writeAll(dir / "hparams.yaml", settings);
    }
    return true;
}

TEST(Invariance, TheDiagnosisDoesNotDependOnHowTheRunWasStored)
{
    // what a stored table cannot carry: the log's events (tracebacks, warnings, fingerprints)
    const std::set<std::string> eventIds = {"run.crashed",      "env.no_gpu",
                                            "qat.not_learning", "calib.multi_gpu",
                                            "config.march",     "train.batch_scaled_lr_unchanged"};
    const std::vector<Transform> transforms = {
        {"junk beside the logs", addJunk, {}},
        {"Chinese folder names", chineseFolders, {}},
        {"neutral folder names", neutralFolders, {}},
        {"one file", oneFile, {}},
        {"resumed QAT", resumedQat, {}},
        {"JSON lines",
         [](const fs::path&, const fs::path& to, const Analysis& a) { return asRecords(to, a, false); },
         eventIds},
        {"CSV", [](const fs::path&, const fs::path& to, const Analysis& a) { return asRecords(to, a, true); },
         eventIds},
    };
    const fs::path work = fs::temp_directory_path() / "qatdoctor_invariance";
    std::ifstream in(kCorpus / "MANIFEST.json");
    const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
    ASSERT_TRUE(manifest.is_object());
    std::map<std::string, size_t> applied, differed;
    std::string report;
    for (const auto& [name, c] : manifest["cases"].items()) {
        AnalyzeOptions options;
        options.paths = {(kCorpus / name).string()};
        auto original = analyze(options);
        ASSERT_TRUE(original.ok()) << name;
        const std::set<std::string> expected = raised(kCorpus / name);
        for (const Transform& t : transforms) {
            const fs::path to = work / (name + "__" + std::to_string(&t - transforms.data()));
            if (!t.make(kCorpus / name, to, *original)) continue;
            ++applied[t.name];
            std::set<std::string> got = raised(to), want = expected;
            for (const std::string& id : t.ignored) {
                got.erase(id);
                want.erase(id);
            }
            if (got != want) {
                ++differed[t.name];
                std::string g, w;
                for (const auto& s : got) g += s + " ";
                for (const auto& s : want) w += s + " ";
                report += "\n  " + name + " / " + t.name + ": got {" + g + "} want {" + w + "}";
            }
            if (!std::getenv("QATDOCTOR_KEEP_INVARIANCE")) fs::remove_all(to);  // kept to look at a failure
        }
    }
    for (const Transform& t : transforms) {
        EXPECT_GT(applied[t.name], 2u) << t.name << " applied to too few cases";
        std::cout << "[ invariance ] " << t.name << ": " << applied[t.name] - differed[t.name] << " of "
                  << applied[t.name] << " cases diagnosed alike\n";
    }
    EXPECT_TRUE(report.empty()) << report;
}

}  // namespace
}  // namespace qatdoctor::core
