#include "core/stage_ladder.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/artifacts/text_lines.h"
#include "core/artifacts/toolchain_files.h"
#include "core/common/number_text.h"
#include "core/rules/metrics.h"
#include "core/rules/rule_support.h"
#include "core/rules/stage_views.h"

namespace qatdoctor::core {
namespace {

struct StageRow {
    LadderStage stage;
    const char* id;
    Text name;
};

const std::vector<StageRow>& stageRows()
{
    static const std::vector<StageRow> kRows = {
        {LadderStage::Float, "float", {"浮点", "Float"}},
        {LadderStage::Calibration, "calibration", {"Calibration", "Calibration"}},
        {LadderStage::Qat, "qat", {"QAT", "QAT"}},
        {LadderStage::PreExport, "pre_export", {"pre_export（查表定点）", "pre_export (fixed-point LUTs)"}},
        {LadderStage::Quantized, "quantized", {"Quantized（HBIR）", "Quantized (HBIR)"}},
        {LadderStage::Board, "board", {"板端（hbm）", "Board (hbm)"}},
        {LadderStage::SimFloat, "simulated_float", {"仿真：浮点", "Simulated float"}},
        {LadderStage::SimFake, "simulated_fake", {"仿真：伪量化", "Simulated fake-quant"}},
        {LadderStage::SimInt, "simulated_int", {"仿真：整数", "Integer simulation"}},
    };
    return kRows;
}

// What each step means: its threshold, the finding a bad step raises, the FAQ topic and the stage
// trouble starts in. Only stages that follow each other in a pipeline make a step (float to
// quantized with nothing logged between is no step: its loss cannot be put on either side). Ids
// a training rule reports (calib.low_accuracy, qat.worse_than_calibration, qat.quantized_gap)
// are found there; the ladder reports the others.
struct StepRule {
    LadderStage from;
    LadderStage to;
    double rules::Thresholds::*allowed;
    const char* thresholdKey;
    const char* findingId;
    const char* faq;
    Stage stage;
};

const std::vector<StepRule>& stepRules()
{
    using S = LadderStage;
    using T = rules::Thresholds;
    static const std::vector<StepRule> kRules = {
        {S::Float, S::Calibration, &T::calibLowMaxDrop, "calib_low.max_drop", "calib.low_accuracy",
         "qat.calibration_low", Stage::Calibration},
        {S::Calibration, S::Qat, &T::qatVsCalibMinDrop, "qat_vs_calib.min_drop", "qat.worse_than_calibration",
         "qat.accuracy_drops", Stage::Qat},
        {S::Float, S::Qat, &T::qatVsFloatMaxDrop, "qat_vs_float.max_drop", "ladder.qat_drop",
         "qat.accuracy_drops", Stage::Qat},
        {S::Qat, S::PreExport, &T::preExportMaxDrop, "pre_export.max_drop", "ladder.pre_export_drop",
         "export.precision_loss", Stage::Export},
        {S::Qat, S::Quantized, &T::quantizedGapMaxDrop, "quantized_gap.max_drop", "qat.quantized_gap",
         "qat.quantized_mismatch", Stage::Export},
        {S::PreExport, S::Quantized, &T::quantizedGapMaxDrop, "quantized_gap.max_drop", "ladder.convert_drop",
         "qat.quantized_mismatch", Stage::Export},
        {S::Calibration, S::Quantized, &T::quantizedGapMaxDrop, "quantized_gap.max_drop",
         "ladder.convert_drop", "qat.quantized_mismatch", Stage::Export},
        {S::Quantized, S::Board, &T::boardMaxDrop, "board.max_drop", "ladder.board_drop", "qat.board_drop",
         Stage::Deployment},
        {S::PreExport, S::Board, &T::boardMaxDrop, "board.max_drop", "ladder.board_drop", "qat.board_drop",
         Stage::Deployment},
        {S::Qat, S::Board, &T::boardMaxDrop, "board.max_drop", "ladder.board_drop", "qat.board_drop",
         Stage::Deployment},
        {S::SimFloat, S::SimFake, &T::calibLowMaxDrop, "calib_low.max_drop", "ladder.simulated_fake_drop",
         "qat.accuracy_triage", Stage::Qat},
        {S::SimFake, S::SimInt, &T::quantizedGapMaxDrop, "quantized_gap.max_drop",
         "ladder.simulated_int_drop", "qat.quantized_mismatch", Stage::Export},
        {S::SimFloat, S::SimInt, &T::quantizedGapMaxDrop, "quantized_gap.max_drop",
         "ladder.simulated_int_drop", "qat.quantized_mismatch", Stage::Export},
    };
    return kRules;
}

const StepRule* ruleFor(LadderStage from, LadderStage to)
{
    for (const StepRule& r : stepRules())
        if (r.to == to && r.from == from) return &r;
    return nullptr;
}

// The ids the training rules report; the ladder adds no finding of its own for them.
bool reportedByRules(const std::string& id)
{
    return id == "calib.low_accuracy" || id == "qat.worse_than_calibration" || id == "qat.quantized_gap";
}

std::optional<LadderRung> rungOf(LadderStage stage, const logs::Run& run, const rules::FinalValue& v)
{
    LadderRung r;
    r.stage = stage;
    r.metric = v.metric.name;
    r.value = v.value;
    r.source = rules::pointEvidence(run, v.metric, v.index);
    return r;
}

// The first run of the views that has the value.
template <class Get>
std::optional<LadderRung> firstRung(LadderStage stage, const std::vector<logs::Run>& views,
                                    std::optional<logs::RunRole> role, Get get,
                                    const logs::Run** chosen = nullptr)
{
    for (const logs::Run& r : views) {
        if (role && r.role != *role) continue;
        if (auto v = get(r)) {
            if (chosen) *chosen = &r;
            return rungOf(stage, r, *v);
        }
    }
    return std::nullopt;
}

void addLogRungs(const logs::LogSet& logs, std::vector<LadderRung>& rungs)
{
    logs::LogSet view;
    view.root = logs.root;
    view.runs = rules::stageViews(logs.runs);
    const auto& runs = view.runs;
    const logs::Run* quantizedRun = nullptr;
    const auto quantized =
        firstRung(LadderStage::Quantized, runs, std::nullopt, rules::finalQuantizedAccuracy, &quantizedRun);
    // the QAT run the quantized model came from, as the quantized-gap rule pairs them
    std::optional<LadderRung> qat;
    if (const logs::Run* q = quantized ? rules::qatRunFor(view, quantizedRun) : nullptr)
        if (auto v = rules::finalEvalAccuracy(*q)) qat = rungOf(LadderStage::Qat, *q, *v);
    if (!qat) qat = firstRung(LadderStage::Qat, runs, logs::RunRole::Qat, rules::finalEvalAccuracy);
    auto deployStep = [](rules::DeployStep step) {
        return [step](const logs::Run& r) { return rules::finalDeployStepAccuracy(r, step); };
    };
    for (auto rung :
         {firstRung(LadderStage::Float, runs, logs::RunRole::Float, rules::finalEvalAccuracy),
          firstRung(LadderStage::Calibration, runs, logs::RunRole::Calibration, rules::finalEvalAccuracy),
          qat,
          firstRung(LadderStage::PreExport, runs, std::nullopt, deployStep(rules::DeployStep::PreExport)),
          quantized, firstRung(LadderStage::Board, runs, std::nullopt, deployStep(rules::DeployStep::Board))})
        if (rung) rungs.push_back(std::move(*rung));
}

void addSimulatedRungs(const std::vector<fixedpoint::DatasetEvaluation>& evaluations,
                       std::vector<LadderRung>& rungs)
{
    for (const fixedpoint::DatasetEvaluation& e : evaluations) {
        if (!e.complete() || !e.labelled() || !e.classification) continue;
        for (const fixedpoint::ModeScore& s : e.modes) {
            if (s.samples == 0) continue;
            LadderRung r;
            r.stage = s.mode == fixedpoint::SimMode::Float  ? LadderStage::SimFloat
                      : s.mode == fixedpoint::SimMode::Fake ? LadderStage::SimFake
                                                            : LadderStage::SimInt;
            r.metric = "top-1";
            r.value = s.top1();
            r.interval = fixedpoint::wilson95(s.correct, s.samples);
            r.samples = s.samples;
            r.source.file = e.file.empty() ? e.modelPath : e.file;
            r.source.value = r.value;
            r.source.metric = "top-1";
            r.source.detail = std::to_string(s.correct) + " of " + std::to_string(s.samples) + " samples";
            rungs.push_back(std::move(r));
        }
        return;  // one evaluation: the first complete, labelled one
    }
}

// One check per hb_verifier table. The consistency table (bc vs hbm) passes when every output is
// consistent; the cosine table when its least similar tensor stays at or above 0.99, the level
// below which the toolchain's per-layer comparisons flag a layer.
constexpr double kMinVerifierCosine = 0.99;

const std::string& cellOf(const DataTable& t, size_t row, int column)
{
    static const std::string kNone;
    return column >= 0 && static_cast<size_t>(column) < t.rows[row].size()
               ? t.rows[row][static_cast<size_t>(column)]
               : kNone;
}

int64_t lineOf(const DataTable& t, size_t row)
{
    return row < t.rowLines.size() ? t.rowLines[row] : 0;
}

// What each consistency table judges: the tool, the step, the finding a failure raises, its FAQ
// topic. hb_mapper (the PTQ flow) compares the calibrated float model with the quantized one.
struct VerifierSpec {
    const char* tableKind;
    const char* tool;
    LadderStage from, to;
    const char* findingId;
    Severity severity;
    Stage stage;
    const char* faq;
};

constexpr VerifierSpec kVerifierSpecs[] = {
    {artifacts::kTableVerifierConsistency, "hb_verifier", LadderStage::Quantized, LadderStage::Board,
     "ladder.verifier_inconsistent", Severity::Error, Stage::Deployment, "qat.board_drop"},
    {artifacts::kTableVerifierCosine, "hb_verifier", LadderStage::Qat, LadderStage::Quantized,
     "ladder.verifier_low_cosine", Severity::Warning, Stage::Export, "qat.quantized_mismatch"},
    {artifacts::kTableMapperOutput, "hb_mapper", LadderStage::Calibration, LadderStage::Quantized,
     "ladder.mapper_low_cosine", Severity::Warning, Stage::Export, "qat.quantized_mismatch"},
};

// bc vs hbm: every output must be consistent; the failing ones are named.
void judgeConsistency(const DataTable& t, int name, LadderCheck& c)
{
    const int ok = t.column("Consistency"), mismatched = t.column("Mismatched Elements"),
              maxAbs = t.column("Max Abs Diff");
    for (size_t r = 0; r < t.rows.size(); ++r) {
        if (artifacts::toLower(cellOf(t, r, ok)) != "false") continue;
        if (c.passed) c.source.line = lineOf(t, r);
        c.passed = false;
        c.what += (c.what.empty() ? "" : "; ") + cellOf(t, r, name) + ": " + cellOf(t, r, mismatched) +
                  " elements differ, max abs diff " + cellOf(t, r, maxAbs);
    }
    if (c.passed) c.what = std::to_string(t.rows.size()) + " outputs consistent";
}

// onnx / bc cosines: judged by the least similar tensor.
void judgeCosine(const DataTable& t, int name, LadderCheck& c)
{
    int cos = -1;  // hb_verifier spells it "Consine"; hb_mapper's table says "Cosine Similarity"
    for (const char* column : {"ConsineSimilarity", "CosineSimilarity", "Cosine Similarity"})
        if (cos < 0) cos = t.column(column);
    std::optional<size_t> worst;
    double lowest = 2;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        std::optional<double> v = artifacts::parseNumber(cellOf(t, r, cos));
        if (v && std::isnan(*v)) v = -1.0;  // NaN: as far from agreeing as it gets
        if (v && *v < lowest) {
            lowest = *v;
            worst = r;
        }
    }
    if (!worst) {  // every cell unreadable or NaN: nothing says the models agree
        c.passed = false;
        c.what = "no finite cosine in the table";
        return;
    }
    c.passed = lowest >= kMinVerifierCosine;
    c.source.line = lineOf(t, *worst);
    c.what = "lowest cosine " + cellOf(t, *worst, cos) + " at " + cellOf(t, *worst, name);
}

std::optional<LadderCheck> verifierCheck(const DataTable& t)
{
    const VerifierSpec* spec = nullptr;
    for (const VerifierSpec& v : kVerifierSpecs)
        if (t.kind == v.tableKind) spec = &v;
    if (!spec || t.rows.empty()) return std::nullopt;
    LadderCheck c;
    c.tool = spec->tool;
    c.from = spec->from;
    c.to = spec->to;
    c.findingId = spec->findingId;
    c.severity = spec->severity;
    c.stage = spec->stage;
    c.faq = spec->faq;
    c.source.file = t.sourcePath;
    int name = -1;
    for (const char* column : {"OutputName", "TensorName", "Output"})
        if (name < 0) name = t.column(column);
    if (t.kind == artifacts::kTableVerifierConsistency)
        judgeConsistency(t, name, c);
    else
        judgeCosine(t, name, c);
    return c;
}

}  // namespace

const char* ladderStageId(LadderStage stage)
{
    for (const StageRow& r : stageRows())
        if (r.stage == stage) return r.id;
    return "";
}

Text ladderStageName(LadderStage stage)
{
    for (const StageRow& r : stageRows())
        if (r.stage == stage) return r.name;
    return {};
}

bool isSimulatedStage(LadderStage stage)
{
    return stage == LadderStage::SimFloat || stage == LadderStage::SimFake || stage == LadderStage::SimInt;
}

StageLadder buildStageLadder(const logs::LogSet& logs,
                             const std::vector<fixedpoint::DatasetEvaluation>& evaluations,
                             const std::vector<DataTable>& tables, const rules::Thresholds& thresholds)
{
    StageLadder ladder;
    for (const DataTable& t : tables)
        if (auto c = verifierCheck(t)) ladder.checks.push_back(std::move(*c));
    addLogRungs(logs, ladder.rungs);
    addSimulatedRungs(evaluations, ladder.rungs);
    for (size_t i = 1; i < ladder.rungs.size(); ++i) {
        const LadderRung& a = ladder.rungs[i - 1];
        const LadderRung& b = ladder.rungs[i];
        if (isSimulatedStage(a.stage) != isSimulatedStage(b.stage)) continue;  // two chains
        const StepRule* rule = ruleFor(a.stage, b.stage);
        if (!rule) continue;
        LadderStep step;
        step.from = i - 1;
        step.to = i;
        step.drop = a.value - b.value;
        step.relativeDrop = a.value > 0 ? step.drop / a.value : 0.0;
        step.allowed = thresholds.*(rule->allowed);
        step.thresholdKey = rule->thresholdKey;
        step.bad = step.relativeDrop > step.allowed;
        step.findingId = rule->findingId;
        step.faq = rule->faq;
        step.stage = rule->stage;
        // past the error drop, a step after training is a broken deployment, not a mismatch
        const bool afterTraining = rule->stage == Stage::Export || rule->stage == Stage::Deployment;
        step.severity = afterTraining && step.relativeDrop > thresholds.quantizedGapErrorDrop
                            ? Severity::Error
                            : Severity::Warning;
        ladder.steps.push_back(std::move(step));
    }
    for (size_t k = 0; k < ladder.steps.size() && !ladder.firstBad; ++k)
        if (ladder.steps[k].bad) ladder.firstBad = k;
    return ladder;
}

void addLadderFindings(StageLadder& ladder, CheckResults& results)
{
    // QAT -> pre_export -> quantized: the rule's qat.quantized_gap already reports the loss QAT to
    // quantized; the step points at it rather than saying the same twice
    const bool gapReported = std::any_of(results.findings.begin(), results.findings.end(),
                                         [](const Finding& f) { return f.id == "qat.quantized_gap"; });
    for (LadderStep& s : ladder.steps)
        if (s.bad && s.findingId == "ladder.convert_drop" && gapReported &&
            ladder.rungs[s.from].stage == LadderStage::PreExport)
            s.findingId = "qat.quantized_gap";
    for (const LadderCheck& c : ladder.checks) {
        results.checksRun.insert(c.findingId);
        if (c.passed) continue;
        const Text from = ladderStageName(c.from), to = ladderStageName(c.to);
        Finding f = makeFinding(
            c.findingId, c.severity, c.stage,
            {c.tool + "：" + from.zh + " 与 " + to.zh + " 不一致（" + c.what + "）",
             c.tool + ": " + from.en + " and " + to.en + " disagree (" + c.what + ")"},
            {"工具链的一致性检查在这一步未通过。quantized.bc 与 hbm "
             "运行同一定点程序，应逐元素一致；不一致指向部署链路"
             "（编译、板端输入格式、前后处理）。onnx / bc 的余弦相似度偏低时，按导出一致性问题逐层排查。",
             "The toolchain's consistency check fails at this step. quantized.bc and the hbm run the same "
             "fixed-point program and should agree element for element; a difference points at the "
             "deployment "
             "chain (compilation, the board's input format, pre- and post-processing). A low onnx / bc "
             "cosine is "
             "an export-consistency problem: compare layer by layer."},
            c.faq.c_str());
        f.evidence.push_back(c.source);
        f.evidence.back().detail = c.what;
        results.findings.push_back(std::move(f));
    }
    if (ladder.steps.empty()) return;
    results.checksRun.insert("ladder.steps");
    for (const LadderStep& s : ladder.steps) {
        results.checksRun.insert(s.findingId);
        if (!s.bad || reportedByRules(s.findingId)) continue;
        const LadderRung& a = ladder.rungs[s.from];
        const LadderRung& b = ladder.rungs[s.to];
        const Text from = ladderStageName(a.stage), to = ladderStageName(b.stage);
        const std::string what = percentText(b.value) + " vs " + percentText(a.value);
        Finding f = makeFinding(
            s.findingId, s.severity, s.stage,
            {"从 " + from.zh + " 到 " + to.zh + " 精度下降（" + what + "）",
             "Accuracy drops from " + from.en + " to " + to.en + " (" + what + ")"},
            {"阶段阶梯中这一步的下降超出预期范围（阈值 " + s.thresholdKey +
                 "）。按这一步对应的 FAQ 排查：先确定问题出在训练、导出还是部署，再看该阶段的逐层对比。",
             "This step of the stage ladder drops more than expected (threshold " + s.thresholdKey +
                 "). Follow the FAQ topic of this step: decide first whether the loss happens in training, "
                 "export or deployment, then compare that stage layer by layer."},
            s.faq.c_str());
        f.strength =
            rules::measuredAbove({"相对上一阶段的精度下降", "accuracy drop relative to the stage before"},
                                 s.relativeDrop, s.allowed, true);
        f.evidence.push_back(b.source);
        f.evidence.push_back(a.source);
        results.findings.push_back(std::move(f));
    }
}

std::vector<LadderRow> ladderRows(const StageLadder& ladder, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    auto where = [](const Evidence& e) {
        return e.file.empty() ? std::string() : e.file + (e.line > 0 ? ":" + std::to_string(e.line) : "");
    };
    std::vector<LadderRow> rows;
    for (size_t i = 0; i < ladder.rungs.size(); ++i) {
        const LadderRung& r = ladder.rungs[i];
        LadderRow row;
        row.name = ladderStageName(r.stage).in(lang);
        row.value = percentText(r.value);
        if (r.interval) row.interval = percentText(r.interval->low) + "-" + percentText(r.interval->high);
        row.evidence = r.source;
        row.source = where(r.source);
        for (const LadderStep& s : ladder.steps) {
            if (s.to != i) continue;
            row.joined = true;
            row.bad = s.bad;
            row.firstBad = ladder.firstBadStep() == &s;
            row.change = signedFixedText(-100.0 * s.drop, 2) + (zh ? " 个百分点" : " pts");
            const std::string allowed = percentText(s.allowed);
            if (!s.bad)
                row.judgement = zh ? "在范围内（相对下降 ≤ " + allowed + "）"
                                   : "in range (<= " + allowed + " relative drop)";
            else
                row.judgement = std::string(row.firstBad ? (zh ? "首个异常步骤：" : "FIRST BAD STEP: ")
                                                         : (zh ? "超出范围：" : "out of range: ")) +
                                (zh ? "相对下降 " : "relative drop ") + percentText(s.relativeDrop) +
                                (zh ? "，允许 " : ", allowed ") + allowed + " -> FAQ " + s.faq;
        }
        rows.push_back(std::move(row));
    }
    for (const LadderCheck& c : ladder.checks) {
        LadderRow row;
        row.name = c.tool + ": " + ladderStageName(c.from).in(lang) + " -> " + ladderStageName(c.to).in(lang);
        row.value = c.passed ? (zh ? "一致" : "consistent") : (zh ? "不一致" : "inconsistent");
        if (c.findingId != "ladder.verifier_inconsistent")  // the cosine tables
            row.value =
                c.passed ? (zh ? "余弦 ≥ 0.99" : "cosine >= 0.99") : (zh ? "余弦 < 0.99" : "cosine < 0.99");
        row.judgement = c.what + (c.passed ? "" : " -> FAQ " + c.faq);
        row.evidence = c.source;
        row.source = where(c.source);
        row.bad = !c.passed;
        rows.push_back(std::move(row));
    }
    return rows;
}

nlohmann::json ladderToJson(const StageLadder& ladder, Lang lang)
{
    auto source = [](const Evidence& e) {
        nlohmann::json j = {{"file", e.file}, {"line", e.line}};
        if (!e.run.empty()) j["run"] = e.run;
        return j;
    };
    nlohmann::json stages = nlohmann::json::array();
    for (const LadderRung& r : ladder.rungs) {
        nlohmann::json j = {{"stage", ladderStageId(r.stage)},
                            {"name", ladderStageName(r.stage).in(lang)},
                            {"metric", r.metric},
                            {"value", r.value},
                            {"source", source(r.source)}};
        if (r.interval) j["interval"] = {r.interval->low, r.interval->high};
        if (r.samples) j["samples"] = r.samples;
        stages.push_back(std::move(j));
    }
    auto stepJson = [&](const LadderStep& s) {
        return nlohmann::json{{"from", ladderStageId(ladder.rungs[s.from].stage)},
                              {"to", ladderStageId(ladder.rungs[s.to].stage)},
                              {"drop", s.drop},
                              {"relative_drop", s.relativeDrop},
                              {"allowed", s.allowed},
                              {"threshold", s.thresholdKey},
                              {"bad", s.bad},
                              {"finding", s.findingId},
                              {"faq", s.faq}};
    };
    nlohmann::json steps = nlohmann::json::array();
    for (const LadderStep& s : ladder.steps) steps.push_back(stepJson(s));
    nlohmann::json checks = nlohmann::json::array();
    for (const LadderCheck& c : ladder.checks)
        checks.push_back({{"tool", c.tool},
                          {"from", ladderStageId(c.from)},
                          {"to", ladderStageId(c.to)},
                          {"passed", c.passed},
                          {"what", c.what},
                          {"source", source(c.source)},
                          {"finding", c.findingId},
                          {"faq", c.faq}});
    return {{"stages", std::move(stages)},
            {"steps", std::move(steps)},
            {"checks", std::move(checks)},
            {"first_bad", ladder.firstBadStep() ? stepJson(*ladder.firstBadStep()) : nlohmann::json()}};
}

}  // namespace qatdoctor::core
