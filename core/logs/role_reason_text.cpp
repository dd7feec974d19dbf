#include "core/logs/role_reason_text.h"

#include <array>
#include <regex>
#include <utility>

namespace qatdoctor::core::logs {
namespace {

// English phrase -> Chinese, longest first where one contains another.
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kPhrases{{
    {"no stage word in the folder or file names or the log's header lines",
     "文件夹名、文件名和日志开头几行中都没有阶段名称"},
    {"the log's lines name the stage ", "日志内容指明了阶段 "},
    {"set by the user", "由用户设置"},
    {"checkpoint name ", "checkpoint 文件名 "},
    {"folder name ", "文件夹名 "},
    {"file name ", "文件名 "},
    {"stage marker ", "阶段标记 "},
    {"header line ", "开头的行 "},
    {"log prefix ", "日志前缀 "},
}};

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
