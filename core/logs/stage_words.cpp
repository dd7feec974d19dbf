#include "core/logs/stage_words.h"

#include <array>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

constexpr uint8_t kAll = kInText | kInKey | kInPath;

// One way of naming a stage. words: lower-case words separated by one space (matched against
// consecutive words of the text), or a Chinese term (matched as a substring).
struct StageWordRow {
    std::string_view words;
    RunRole role;
    std::string_view deployStep;  // "pre_export" | "board" (role Unknown), "" for a stage
    uint8_t context;
    bool precision = false;  // names a number format too: next to a part of the model it is that part's
};

constexpr StageWordRow kStageWords[] = {
    // float
    {"float", RunRole::Float, "", kAll, true},
    {"fp32", RunRole::Float, "", kAll, true},
    {"float32", RunRole::Float, "", kAll, true},
    {"full precision", RunRole::Float, "", kInText},
    {"floating point", RunRole::Float, "", kInText},
    {"浮点", RunRole::Float, "", kInText | kInPath},
    // calibration (post-training quantization: the calibrated fake-quant model)
    {"calib", RunRole::Calibration, "", kAll},
    {"calibration", RunRole::Calibration, "", kAll},
    {"calibrate", RunRole::Calibration, "", kAll},
    {"calibrated", RunRole::Calibration, "", kAll},
    {"calibrating", RunRole::Calibration, "", kInText | kInPath},
    {"ptq", RunRole::Calibration, "", kAll},
    {"post training quantization", RunRole::Calibration, "", kInText},
    {"校准", RunRole::Calibration, "", kInText | kInPath},
    {"标定", RunRole::Calibration, "", kInText | kInPath},
    // QAT (the fake-quant model being trained)
    {"qat", RunRole::Qat, "", kAll},
    {"quantization aware training", RunRole::Qat, "", kInText},
    {"quantization aware", RunRole::Qat, "", kInText},
    {"quant aware", RunRole::Qat, "", kInText},
    {"quantize aware", RunRole::Qat, "", kInText},
    {"fake quant", RunRole::Qat, "", kInText},
    {"fake quantized", RunRole::Qat, "", kInText},
    {"fakequant", RunRole::Qat, "", kInText | kInKey},
    {"量化感知训练", RunRole::Qat, "", kInText | kInPath},
    {"量化训练", RunRole::Qat, "", kInText | kInPath},
    // the quantized model (converted, HBIR, int_infer)
    {"quantized", RunRole::Quantized, "", kAll, true},
    {"quantised", RunRole::Quantized, "", kAll, true},
    {"int8", RunRole::Quantized, "", kAll, true},
    {"int infer", RunRole::Quantized, "", kAll},
    {"hbir", RunRole::Quantized, "", kAll},
    {"converted", RunRole::Quantized, "", kInText | kInKey | kInPath},
    {"quant", RunRole::Quantized, "", kInPath, true},
    {"quantize", RunRole::Quantized, "", kInPath},
    {"定点", RunRole::Quantized, "", kInText | kInPath},
    // deployment steps beyond the four stages
    {"pre export", RunRole::Unknown, "pre_export", kAll},
    {"preexport", RunRole::Unknown, "pre_export", kAll},
    {"export", RunRole::Unknown, "pre_export", kInKey},
    {"board", RunRole::Unknown, "board", kAll},
    {"onboard", RunRole::Unknown, "board", kAll},
    {"on board", RunRole::Unknown, "board", kInText},
    {"hbm", RunRole::Unknown, "board", kAll},
    {"bpu", RunRole::Unknown, "board", kInKey | kInPath},
    {"板端", RunRole::Unknown, "board", kInText | kInPath},
    {"上板", RunRole::Unknown, "board", kInText | kInPath},
};

// Parts of a model a folder name may give a precision to ("B_fc_weight_only_fp32_output": the
// output kept in fp32, in a QAT run).
constexpr std::string_view kModelParts[] = {
    "output",    "outputs", "out",     "head",     "heads",  "fc",         "layer",       "layers",
    "conv",      "weight",  "weights", "act",      "acts",   "activation", "activations", "input",
    "inputs",    "bias",    "bn",      "backbone", "neck",   "attn",       "attention",   "embed",
    "embedding", "linear",  "block",   "stem",     "branch", "op",         "ops",         "node",
    "nodes",     "accum",   "scale",   "scales",   "only"};

bool isAsciiAlnum(char c)
{
    return isAlpha(c) || isDigit(c);
}

bool isModelPart(std::string_view w)
{
    for (std::string_view p : kModelParts)
        if (equalsNoCase(w, p)) return true;
    return false;
}

// How many words of the row match words[i...], 0 when it does not.
size_t matchRow(const StageWordRow& row, const std::vector<WordSpan>& words, size_t i)
{
    size_t n = 0;
    std::string_view rest = row.words;
    while (!rest.empty()) {
        const size_t sp = rest.find(' ');
        const std::string_view w = rest.substr(0, sp);
        if (i + n >= words.size() || !equalsNoCase(words[i + n].word, w)) return 0;
        ++n;
        rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    }
    return n;
}

bool isChinese(const StageWordRow& row)
{
    return !row.words.empty() && static_cast<unsigned char>(row.words[0]) >= 0x80;
}

}  // namespace

std::vector<WordSpan> wordsOf(std::string_view text)
{
    std::vector<WordSpan> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && !isAsciiAlnum(text[i])) ++i;
        const size_t b = i;
        while (i < text.size() && isAsciiAlnum(text[i])) ++i;
        if (i > b) out.push_back({text.substr(b, i - b), b});
    }
    return out;
}

std::optional<StageMention> firstStageMention(std::string_view text, uint8_t context)
{
    std::optional<StageMention> best;
    const std::vector<WordSpan> words = wordsOf(text);
    for (size_t i = 0; i < words.size() && !best; ++i) {
        const StageWordRow* found = nullptr;
        size_t length = 0;
        for (const StageWordRow& row : kStageWords) {
            if (!(row.context & context) || isChinese(row)) continue;
            const size_t n = matchRow(row, words, i);
            if (n > length) {
                found = &row;
                length = n;
            }
        }
        if (!found) continue;
        if (context == kInPath && found->precision &&
            ((i > 0 && isModelPart(words[i - 1].word)) ||
             (i + length < words.size() && isModelPart(words[i + length].word))))
            continue;
        const WordSpan& last = words[i + length - 1];
        best = StageMention{found->role, found->deployStep, words[i].begin, last.begin + last.word.size()};
    }
    // Chinese terms: the earliest one, if it comes before the first English word found
    for (const StageWordRow& row : kStageWords) {
        if (!(row.context & context) || !isChinese(row)) continue;
        const size_t at = text.find(row.words);
        if (at == std::string_view::npos || (best && best->begin <= at)) continue;
        best = StageMention{row.role, row.deployStep, at, at + row.words.size()};
    }
    return best;
}

std::vector<StageMention> stageMentions(std::string_view text, uint8_t context)
{
    std::vector<StageMention> out;
    size_t from = 0;
    while (from < text.size()) {
        const std::optional<StageMention> m = firstStageMention(text.substr(from), context);
        if (!m) break;
        out.push_back({m->role, m->deployStep, from + m->begin, from + m->end});
        from += m->end;
    }
    return out;
}

std::optional<RunRole> stageOfWord(std::string_view word, uint8_t context)
{
    const std::optional<StageMention> m = firstStageMention(word, context);
    if (!m || m->role == RunRole::Unknown) return std::nullopt;
    return m->role;
}

std::string_view deployStepOfWord(std::string_view word, uint8_t context)
{
    const std::optional<StageMention> m = firstStageMention(word, context);
    return m ? m->deployStep : std::string_view();
}

KeyStage splitKeyStage(std::string_view key)
{
    KeyStage out;
    const std::optional<StageMention> m = firstStageMention(key, kInKey);
    if (!m) {
        out.rest = std::string(key);
        return out;
    }
    // the key without the stage's words and one separator next to them
    size_t b = m->begin, e = m->end;
    auto isSep = [](char c) { return c == '_' || c == '-' || c == ' ' || c == '/' || c == '.'; };
    if (e < key.size() && isSep(key[e]))
        ++e;
    else if (b > 0 && isSep(key[b - 1]))
        --b;
    std::string rest = std::string(key.substr(0, b)) + std::string(key.substr(e));
    // nothing but the stage ("qat", "int8/"): no metric of that stage
    bool alnum = false;
    for (char c : rest) alnum = alnum || isAsciiAlnum(c);
    if (!alnum) {
        out.rest = std::string(key);
        return out;
    }
    if (m->role != RunRole::Unknown) out.role = m->role;
    out.deployStep = m->deployStep;
    out.rest = std::move(rest);
    return out;
}

bool isStageField(std::string_view key)
{
    if (key.size() >= 13 && equalsNoCase(key.substr(key.size() - 13), "training_step")) return true;
    for (std::string_view f : {"event", "stage", "phase", "mode", "role", "split", "tag", "training_stage"})
        if (equalsNoCase(key, f)) return true;
    return false;
}

bool stageOnlyEvaluates(std::optional<RunRole> role, std::string_view deployStep)
{
    return !deployStep.empty() || role == RunRole::Calibration || role == RunRole::Quantized;
}

std::string stageWordsText(const StageMention& m, std::string_view text)
{
    const std::string words(text.substr(m.begin, m.end - m.begin));
    const std::string name = m.role != RunRole::Unknown ? roleName(m.role) : std::string(m.deployStep);
    return words == name ? name : name + " ('" + words + "')";
}

}  // namespace qatdoctor::core::logs
