#include "core/fixedpoint/dataset_eval_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/common/error_codes.h"
#include "core/common/json_depth.h"

namespace qatdoctor::core::fixedpoint {
namespace {

constexpr int kVersion = 1;

nlohmann::json num(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

// The figures for people and the sums for merging.
nlohmann::json agreementJson(const Agreement& a)
{
    return {{"cosine", num(a.cosine)},
            {"sqnr_db", num(a.sqnrDb)},
            {"max_abs", num(a.maxAbs)},
            {"count", a.count},
            {"sums",
             {{"dot", a.sums.dot},
              {"ref_sq", a.sums.refSq},
              {"other_sq", a.sums.otherSq},
              {"err_sq", a.sums.errSq},
              {"abs_err", a.sums.absErr}}}};
}

// A field a part claims that is wrong in a way JSON's types do not catch: thrown by the readers
// below, refused with its message.
struct BadField {
    std::string why;
};

// A count: a whole number from 0 to max. A float or a negative is an error naming the field, never
// a cast (a float beyond the integer's range is undefined behaviour) or a wrap.
uint64_t countOf(const nlohmann::json& parent, const char* key, uint64_t max = UINT64_MAX)
{
    const nlohmann::json& v = parent.at(key);
    if (!v.is_number_integer())
        throw BadField{"'" + std::string(key) + "' is not a whole number: " + v.dump()};
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
        throw BadField{"'" + std::string(key) + "' is negative: " + v.dump()};
    const uint64_t u = v.get<uint64_t>();
    if (u > max)
        throw BadField{"'" + std::string(key) + "' is " + v.dump() + ", above " + std::to_string(max)};
    return u;
}

// A signed whole number (a class index).
int64_t integerOf(const nlohmann::json& parent, const char* key)
{
    const nlohmann::json& v = parent.at(key);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX))
        throw BadField{"'" + std::string(key) + "' is not a whole number: " + v.dump()};
    return v.get<int64_t>();
}

// How many samples shards of a dataset of `size` split in `count` hold: shard s takes s, s + count, ...
uint64_t shareOf(const std::vector<uint32_t>& shards, uint64_t size, uint32_t count)
{
    uint64_t n = 0;
    for (uint32_t s : shards)
        if (s < size) n += (size - s + count - 1) / count;
    return n;
}

Agreement agreementFrom(const nlohmann::json& j)
{
    Agreement a;
    a.count = j.contains("count") ? static_cast<int64_t>(countOf(j, "count", INT64_MAX)) : 0;
    const nlohmann::json& s = j.at("sums");
    a.sums = {s.at("dot").get<double>(), s.at("ref_sq").get<double>(), s.at("other_sq").get<double>(),
              s.at("err_sq").get<double>(), s.at("abs_err").get<double>()};
    a.maxAbs = j.at("max_abs").is_number() ? j.at("max_abs").get<double>() : 0.0;
    return a.count ? agreementWithFigures(a) : a;
}

std::optional<SimMode> modeNamed(const std::string& name)
{
    for (SimMode m : {SimMode::Float, SimMode::Fake, SimMode::Int})
        if (name == simModeName(m)) return m;
    return std::nullopt;
}

}  // namespace

nlohmann::json evaluationToJson(const DatasetEvaluation& e)
{
    nlohmann::json modes = nlohmann::json::object();
    for (const ModeScore& s : e.modes) {
        nlohmann::json m = {{"samples", s.samples}, {"agree_float", s.agreeFloat}};
        if (e.labelled() && e.classification) {
            const Interval ci = wilson95(s.correct, s.samples);
            m["correct"] = s.correct;
            m["top1"] = s.top1();
            m["ci95"] = {ci.low, ci.high};
        }
        if (s.vsFloat.count) m["vs_float"] = agreementJson(s.vsFloat);
        modes[simModeName(s.mode)] = std::move(m);
    }
    nlohmann::json worst = nlohmann::json::array();
    for (const WorstSample& w : e.worst)
        worst.push_back({{"index", w.index},
                         {"sample", w.where},
                         {"cosine", num(w.cosine)},
                         {"label", w.label},
                         {"fake", w.fakeClass},
                         {"int", w.intClass}});
    nlohmann::json j = {{kEvaluationMark, kVersion},
                        {"model", e.modelPath},
                        {"sources", e.sources},
                        {"labels", e.labelsPath},
                        {"dataset_size", e.datasetSize},
                        {"samples", e.samples},
                        {"shards", e.shards},
                        {"shard_count", e.shardCount},
                        {"requant", e.requant},
                        {"classification", e.classification},
                        {"modes", std::move(modes)},
                        {"fake_int_disagree", e.fakeIntDisagree},
                        {"worst", std::move(worst)},
                        {"worst_count", e.worstCount},
                        {"threads", e.threads},
                        {"seconds", e.seconds}};
    if (e.fakeVsInt.count) j["fake_vs_int"] = agreementJson(e.fakeVsInt);
    return j;
}

bool looksLikeEvaluation(std::string_view head)
{
    const size_t open = head.find_first_not_of(" \t\r\n");
    return open != std::string_view::npos && head[open] == '{' &&
           head.find(std::string("\"") + kEvaluationMark + "\"") != std::string_view::npos;
}

Result<DatasetEvaluation> evaluationFromJson(std::string_view text, const std::string& path)
{
    auto refuse = [&](const std::string& why, int64_t line = 0) {
        return makeError(codes::kSimulateMerge, path + ": " + why, path, line);
    };
    // the document is four levels deep; a deeper one is not ours, refused before it is built
    if (jsonNestingDepth(text) > 6) return refuse("not an evaluation result (nested too deep)");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        const size_t at = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        return refuse("not valid JSON (" + std::string(e.what()) + ")",
                      1 + std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n'));
    }
    if (!j.is_object() || !j.contains(kEvaluationMark)) return refuse("not a QAT Doctor evaluation result");
    if (j[kEvaluationMark] != kVersion)
        return refuse("evaluation result version " + j[kEvaluationMark].dump() + " (this build reads " +
                      std::to_string(kVersion) + ")");
    try {
        DatasetEvaluation e;
        e.file = path;
        e.modelPath = j.at("model").get<std::string>();
        e.sources = j.at("sources").get<std::vector<std::string>>();
        e.labelsPath = j.at("labels").get<std::string>();
        e.datasetSize = countOf(j, "dataset_size");
        e.samples = countOf(j, "samples");
        e.shardCount = static_cast<uint32_t>(countOf(j, "shard_count", kMaxShards));
        if (!j.at("shards").is_array() || j.at("shards").size() > e.shardCount)
            return refuse("'shards' is not a list of at most shard_count shards");
        e.shards.clear();
        for (const nlohmann::json& s : j.at("shards")) {
            const nlohmann::json one = {{"shard", s}};
            e.shards.push_back(static_cast<uint32_t>(countOf(one, "shard", kMaxShards)));
        }
        e.requant = j.at("requant").get<std::string>();
        e.classification = j.at("classification").get<bool>();
        e.fakeIntDisagree = countOf(j, "fake_int_disagree", e.samples);
        e.threads = j.contains("threads") ? static_cast<int>(countOf(j, "threads", 4096)) : 1;
        e.seconds = j.value("seconds", 0.0);
        e.worstCount = j.contains("worst_count") ? countOf(j, "worst_count", 10000) : 10;
        const std::set<uint32_t> distinct(e.shards.begin(), e.shards.end());
        if (e.shardCount == 0 || e.shards.empty() || distinct.size() != e.shards.size() ||
            std::any_of(e.shards.begin(), e.shards.end(), [&](uint32_t s) { return s >= e.shardCount; }))
            return refuse("shards do not fit shard_count (each once, below it)");
        if (e.samples > shareOf(e.shards, e.datasetSize, e.shardCount))
            return refuse("samples (" + std::to_string(e.samples) +
                          ") more than its shards hold of dataset_size " + std::to_string(e.datasetSize));
        if (e.worstCount > 10000 || j.at("worst").size() > e.worstCount)
            return refuse("a worst list longer than its worst_count");
        for (SimMode mode : {SimMode::Float, SimMode::Fake, SimMode::Int}) {
            const auto it = j.at("modes").find(simModeName(mode));
            if (it == j.at("modes").end()) continue;
            ModeScore s{mode, 0, 0, 0, {}};
            s.samples = countOf(*it, "samples");
            s.agreeFloat = countOf(*it, "agree_float");
            s.correct = it->contains("correct") ? countOf(*it, "correct") : 0;
            if (s.correct > s.samples || s.agreeFloat > s.samples)
                return refuse("counts larger than samples");
            if (s.samples != e.samples)
                return refuse("mode '" + std::string(simModeName(mode)) + "' has " +
                              std::to_string(s.samples) + " samples, the part " + std::to_string(e.samples));
            if (it->contains("vs_float")) s.vsFloat = agreementFrom(it->at("vs_float"));
            e.modes.push_back(s);
        }
        for (const auto& [name, value] : j.at("modes").items())
            if (!modeNamed(name)) return refuse("unknown mode '" + name + "'");
        if (j.contains("fake_vs_int")) e.fakeVsInt = agreementFrom(j.at("fake_vs_int"));
        for (const nlohmann::json& w : j.at("worst"))
            e.worst.push_back({countOf(w, "index"), w.at("sample").get<std::string>(),
                               w.at("cosine").is_number() ? w.at("cosine").get<double>() : NAN,
                               integerOf(w, "label"), integerOf(w, "fake"), integerOf(w, "int")});
        sortWorst(e.worst);  // merged by insertion: in order whatever the file said
        return e;
    } catch (const nlohmann::json::exception& ex) {
        return refuse(std::string("a field is missing or of the wrong type (") + ex.what() + ")");
    } catch (const BadField& bad) {
        return refuse(bad.why);
    }
}

}  // namespace qatdoctor::core::fixedpoint
