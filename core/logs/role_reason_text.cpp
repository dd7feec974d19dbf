#include "core/logs/role_reason_text.h"

#include <array>
#include <regex>
#include <utility>

namespace qatdoctor::core::logs {
namespace {

// English phrase -> Chinese, longest first where one contains another.
constexpr std::pair<std::string_view, std::string_view> kPhrases[] = {
    {"no stage word in the log's lines or its file or folder names",
     "日志内容、文件名和文件夹名中都没有阶段名称"},
    {"the run's role: ", "运行的阶段："},
    {"an evaluation only, of the model its name calls quantized: ",
     "只有评测，评测的是名称中标为定点的模型："},
    {"repeated evaluations of the ", "多次评测的模型："},
    {"evaluation header ", "评测标题 "},
    {"record field ", "记录字段 "},
    {"setting ", "设置项 "},
    {"label ", "行首标签 "},
    {"the TensorBoard tag ", "TensorBoard 标签 "},
    {"the key ", "键 "},
    {"the log's lines name the stage ", "日志内容指明了阶段 "},
    {"set by the user", "由用户设置"},
    {"checkpoint name ", "checkpoint 文件名 "},
    {"folder name ", "文件夹名 "},
    {"file name ", "文件名 "},
    {"stage marker ", "阶段标记 "},
};

}  // namespace

std::string roleReasonText(std::string_view reason, Lang lang)
{
    std::string out(reason);
    if (lang != Lang::Zh) return out;
    for (const auto& [en, zh] : kPhrases)
        for (size_t at = out.find(en); at != std::string::npos; at = out.find(en, at + zh.size()))
            out.replace(at, en.size(), zh);
    static const std::regex kLine(R"( \(line (\d+)\))");
    return std::regex_replace(out, kLine, "（第 $1 行）");
}

}  // namespace qatdoctor::core::logs
