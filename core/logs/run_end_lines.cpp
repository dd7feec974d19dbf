#include "core/logs/run_end_lines.h"

#include <cctype>

namespace qatdoctor::core::logs {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Nothing but a timedelta ("0:12:34", "1 day, 2:03:04"): "Training time per epoch 0:01:00"
// is no end.
bool isDuration(std::string_view rest)
{
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
    if (rest.size() < 7 || rest.find_first_not_of("0123456789:, days") != std::string_view::npos)
        return false;
    const std::string_view t = rest.substr(rest.size() - 6);  // ":MM:SS"
    if (t[0] != ':' || !isDigit(t[1]) || !isDigit(t[2]) || t[3] != ':' || !isDigit(t[4]) || !isDigit(t[5]))
        return false;
    return isDigit(rest[rest.size() - 7]);
}

// HAT's "=====END QAT STAGE=====" banner (BEGIN opens the stage, END closes it).
bool hatEndBanner(std::string_view line, size_t at)
{
    const size_t end = line.find(" STAGE", at + 4);
    return at > 0 && line[at - 1] == '=' && end != std::string_view::npos && end > at + 4 &&
           line.find(' ', at + 4) == end;
}

struct EndLine {
    const char* framework;
    std::string_view needle;
    // the rest of the test once the needle was found at `at` (null: the needle is enough)
    bool (*confirm)(std::string_view line, size_t at);
};

// Sources: Lightning's fit_loop.py ("`Trainer.fit` stopped: `max_epochs=N` reached."), HF
// Trainer's _inner_training_loop, YOLOv5 and ultralytics train.py ("N epochs completed in H
// hours."), torchvision's references/*/train.py ("Training time 0:12:34"), timm's train.py
// ("*** Best metric: ..."), HAT's tools/train.py stage banner, PyTorch's CIFAR-10 tutorial.
// mmengine and mmcv print no end line: their runs end by their planned epochs.
constexpr EndLine kEndLines[] = {
    {"lightning", "`Trainer.fit` stopped:", nullptr},
    {"hf_trainer", "Training completed. Do not forget to share your model", nullptr},
    {"yolo", " epochs completed in ",
     [](std::string_view l, size_t at) {
         return at > 0 && isDigit(l[at - 1]) && l.find(" hours.", at) != std::string_view::npos;
     }},
    {"torchvision", "Training time ",
     [](std::string_view l, size_t at) { return isDuration(l.substr(at + 14)); }},
    {"timm", "*** Best metric: ", nullptr},
    {"hat", "END ", hatEndBanner},
    {"pytorch_tutorial", "Finished Training",
     [](std::string_view l, size_t at) {
         return l.substr(at + 17).find_first_not_of(" \r") == std::string_view::npos;
     }},
};

}  // namespace

const char* runEndFramework(std::string_view line)
{
    for (const EndLine& row : kEndLines) {
        const size_t at = line.find(row.needle);
        if (at == std::string_view::npos) continue;
        if (!row.confirm || row.confirm(line, at)) return row.framework;
    }
    return nullptr;
}

}  // namespace qatdoctor::core::logs
