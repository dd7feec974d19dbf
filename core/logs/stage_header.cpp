#include "core/logs/stage_header.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "core/logs/scan_util.h"

namespace qatdoctor::core::logs {
namespace {

bool oneOf(std::string_view w, std::initializer_list<std::string_view> words)
{
    for (std::string_view x : words)
        if (equalsNoCase(w, x)) return true;
    return false;
}

// "Stage float", "stage: qat", "--stage calibration", "training_step: qat", "phase=calibration"
bool isSelectorWord(std::string_view w)
{
    return oneOf(w, {"stage", "phase", "step", "mode"});
}
// "Starting QAT training", "BEGIN INT_INFER PREDICT", "Running calibration", "Now: float"
bool isStartWord(std::string_view w)
{
    return oneOf(w, {"start", "starting", "started", "begin", "beginning", "begins", "enter", "entering",
                     "running", "run", "now", "resume", "resuming", "launch", "launching"});
}
// "QAT training starts", "Calibration begins"
bool isStartedWord(std::string_view w)
{
    return oneOf(w, {"start", "starts", "started", "begin", "begins"});
}
// the words a banner may hold beside the stage: "===== QAT training =====", "[Calibration]"
bool isBannerWord(std::string_view w)
{
    return oneOf(w, {"training", "train", "finetune", "finetuning", "fine", "tuning", "stage", "phase",
                     "model", "run", "the", "mode", "of", "step"});
}
// an evaluation: "Evaluate Quantized model", "Testing the int8 model", "Accuracy of QAT model:"
bool isEvaluationWord(std::string_view w)
{
    return oneOf(w, {"evaluate", "evaluating", "evaluation", "evaluated",    "eval",    "test",     "testing",
                     "tested",   "validate",   "validating", "validation",   "val",     "accuracy", "acc",
                     "results",  "result",     "benchmark",  "benchmarking", "metrics", "inference"});
}

// "QAT model converted to int8", "Converting the calibrated model into HBIR", "模型转换为定点": a
// conversion names what the model was and what it now is; the stage after "to" is the one the
// lines that follow measure.
bool isConversionWord(std::string_view w)
{
    return oneOf(w, {"convert", "converted", "converting", "conversion", "export", "exported", "exporting"});
}
// The first stage named from `from` on, as offsets into text; none for a deployment step.
std::optional<StageMention> stageFrom(std::string_view text, size_t from, uint8_t context)
{
    auto m = firstStageMention(text.substr(from), context);
    if (!m || m->role == RunRole::Unknown) return std::nullopt;
    m->begin += from;
    m->end += from;
    return m;
}
std::optional<StageMention> conversionTarget(std::string_view text, const std::vector<WordSpan>& words)
{
    for (size_t i = 0; i < words.size(); ++i) {
        if (!isConversionWord(words[i].word)) continue;
        for (size_t k = i + 1; k < words.size(); ++k)
            if (oneOf(words[k].word, {"to", "into", "as"}))
                return stageFrom(text, words[k].begin + words[k].word.size(), kInText | kInKey);
    }
    for (std::string_view into : {"转换为", "转换成", "转为", "转成"})
        if (const size_t at = text.find(into); at != std::string_view::npos)
            if (auto m = stageFrom(text, at + into.size(), kInText)) return m;
    return std::nullopt;
}

bool hasChineseAround(std::string_view text, const StageMention& m, std::string_view term, bool after)
{
    const size_t at = text.find(term);
    if (at == std::string_view::npos) return false;
    return after ? at >= m.end && at <= m.end + 2 : at + term.size() <= m.begin;
}

}  // namespace

// The message of a logging record without its prefix: "- qat - INFO - [val-int8] epoch 1" ->
// "[val-int8] epoch 1", "INFO:qat_trainer:epoch 3" -> "epoch 3". The logger's name is the same on
// every line of the file (the file's, not the line's), the level says nothing of a stage.
std::string_view withoutRecordPrefix(std::string_view text)
{
    const std::vector<WordSpan> words = wordsOf(text.substr(0, std::min<size_t>(text.size(), 80)));
    for (const WordSpan& w : words) {
        if (!oneOf(w.word, {"INFO", "DEBUG", "WARNING", "WARN", "ERROR", "CRITICAL", "TRACE"}) ||
            !std::all_of(w.word.begin(), w.word.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
            continue;
        size_t at = w.begin + w.word.size();
        const bool pythonDefault = at < text.size() && text[at] == ':';  // "INFO:logger:message"
        while (at < text.size() &&
               (text[at] == ' ' || text[at] == '-' || text[at] == ':' || text[at] == '|' || text[at] == ']'))
            ++at;
        if (pythonDefault) {
            const size_t colon = text.find(':', at);
            const size_t space = text.find(' ', at);
            if (colon != std::string_view::npos && (space == std::string_view::npos || colon < space))
                at = colon + 1;
        }
        return text.substr(std::min(at, text.size()));
    }
    return text;
}

std::string labelText(std::string_view text)
{
    std::string out(withoutRecordPrefix(text));
    size_t i = 0;
    while (i < out.size()) {
        while (i < out.size() && (out[i] == ' ' || out[i] == '\t')) ++i;
        const size_t b = i;
        while (i < out.size() && out[i] != ' ' && out[i] != '\t') ++i;
        const std::string_view chunk(out.data() + b, i - b);
        // a path, a URL, a "train.py:42" source or a file name: its folder words are not the line's
        const bool path =
            chunk.find('/') != std::string_view::npos || chunk.find('\\') != std::string_view::npos ||
            chunk.find(".py") != std::string_view::npos || chunk.find(".pth") != std::string_view::npos ||
            chunk.find(".tar") != std::string_view::npos || chunk.find(".ckpt") != std::string_view::npos ||
            chunk.find(".onnx") != std::string_view::npos || chunk.find(".pt\"") != std::string_view::npos;
        if (path)
            for (size_t k = b; k < i; ++k) out[k] = ' ';
    }
    return out;
}

std::optional<StageHeader> readStageHeader(std::string_view line)
{
    const std::string text = labelText(line);
    const std::optional<StageMention> m = firstStageMention(text, kInText | kInKey);
    if (!m) return std::nullopt;
    const std::vector<WordSpan> words = wordsOf(text);
    if (words.size() > 12) return std::nullopt;  // a sentence, not a header
    if (auto target = conversionTarget(text, words)) return StageHeader{StageHeader::Kind::Pipeline, *target};
    // the words before and after the stage's own
    size_t first = 0;
    while (first < words.size() && words[first].begin < m->begin) ++first;
    size_t after = first;
    while (after < words.size() && words[after].begin < m->end) ++after;
    const std::string_view prev = first > 0 ? words[first - 1].word : std::string_view();
    const std::string_view prev2 = first > 1 ? words[first - 2].word : std::string_view();
    const std::string_view next = after < words.size() ? words[after].word : std::string_view();
    const std::string_view next2 = after + 1 < words.size() ? words[after + 1].word : std::string_view();

    // a banner: the stage and words of a heading only; set off by decoration ("===== QAT ====="),
    // or naming a training ("QAT training"), or the stage word alone ("Calibrating"). A bare
    // "Float model" is no banner: scripts print it before a model's structure.
    bool banner = true, training = false;
    for (size_t i = 0; i < words.size(); ++i) {
        if (i >= first && i < after) continue;
        // "量化训练（QAT）": the stage's name in a second language is part of the banner
        const bool sameStage = stageOfWord(words[i].word, kInText) == m->role;
        banner = banner && (isBannerWord(words[i].word) || sameStage);
        training = training ||
                   oneOf(words[i].word, {"training", "train", "finetune", "finetuning", "stage", "phase"});
    }
    const bool decorated =
        text.find_first_of("=#*[<>|") != std::string::npos || text.find("--") != std::string::npos;
    const bool pipeline = isSelectorWord(prev) || oneOf(next, {"stage", "phase"}) || isStartWord(prev) ||
                          (equalsNoCase(prev, "the") && isStartWord(prev2)) || isStartedWord(next) ||
                          (isBannerWord(next) && isStartedWord(next2)) ||
                          (banner && (decorated || training || words.size() == after - first)) ||
                          hasChineseAround(text, *m, "阶段", true) ||
                          hasChineseAround(text, *m, "阶段", false) ||
                          hasChineseAround(text, *m, "开始", false);
    if (pipeline && m->role != RunRole::Unknown) return StageHeader{StageHeader::Kind::Pipeline, *m};

    bool evaluation = text.find("评测") != std::string::npos || text.find("测试") != std::string::npos ||
                      text.find("验证") != std::string::npos || text.find("精度") != std::string::npos;
    for (const WordSpan& w : words) evaluation = evaluation || isEvaluationWord(w.word);
    if (evaluation || pipeline) return StageHeader{StageHeader::Kind::Evaluation, *m};
    return std::nullopt;
}

}  // namespace qatdoctor::core::logs
