#include "core/fixedpoint/dataset_eval_table.h"

#include "core/common/number_text.h"

namespace qatdoctor::core::fixedpoint {

EvaluationTable evaluationTable(const DatasetEvaluation& e, Lang lang)
{
    const bool zh = lang == Lang::Zh;
    const bool top1 = e.labelled() && e.classification;
    const bool againstFloat = e.score(SimMode::Float) != nullptr;
    EvaluationTable t;
    t.columns.push_back(zh ? "模式" : "mode");
    if (top1) {
        t.columns.push_back("top-1");
        t.columns.push_back(zh ? "95% 区间" : "95% interval");
    }
    if (e.classification && againstFloat) t.columns.push_back(zh ? "与浮点相同" : "same as float");
    if (againstFloat) t.columns.push_back(zh ? "相对浮点 SQNR" : "SQNR vs float");
    for (const ModeScore& s : e.modes) {
        std::vector<std::string> row{simModeName(s.mode)};
        if (top1) {
            const Interval ci = wilson95(s.correct, s.samples);
            row.push_back(percentText(s.top1()) + " (" + std::to_string(s.correct) + "/" +
                          std::to_string(s.samples) + ")");
            row.push_back(percentText(ci.low) + " - " + percentText(ci.high));
        }
        if (e.classification && againstFloat)
            row.push_back(std::to_string(s.agreeFloat) + "/" + std::to_string(s.samples));
        if (againstFloat) row.push_back(s.vsFloat.count ? fixedText(s.vsFloat.sqnrDb, 1) + " dB" : "-");
        t.rows.push_back(std::move(row));
    }
    if (e.score(SimMode::Fake) && e.score(SimMode::Int)) {
        const std::string figures =
            "SQNR " + fixedText(e.fakeVsInt.sqnrDb, 1) + " dB, cosine " + fixedText(e.fakeVsInt.cosine, 5);
        if (!e.classification)
            t.fakeVsInt = (zh ? "伪量化与整数的输出：" : "Fake-quant vs integer output: ") + figures;
        else
            t.fakeVsInt = zh ? "伪量化与整数：" + std::to_string(e.samples) + " 个样本中有 " +
                                   std::to_string(e.fakeIntDisagree) + " 个答案不同；输出 " + figures
                             : "Fake-quant vs integer: " + std::to_string(e.fakeIntDisagree) + " of " +
                                   std::to_string(e.samples) + " samples change their answer; output " +
                                   figures;
    }
    return t;
}

}  // namespace qatdoctor::core::fixedpoint
