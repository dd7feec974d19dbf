#include "core/faq/auto_check.h"

#include "core/common/finding_catalogue.h"

namespace qatdoctor::core::faq {

const char* autoOutcomeName(AutoOutcome outcome)
{
    switch (outcome) {
        case AutoOutcome::Found:
            return "found";
        case AutoOutcome::Clear:
            return "clear";
        case AutoOutcome::Unknown:
            break;
    }
    return "unknown";
}

AutoOutcome parseAutoOutcome(const std::string& name)
{
    if (name == "found") return AutoOutcome::Found;
    if (name == "clear") return AutoOutcome::Clear;
    return AutoOutcome::Unknown;
}

AutoAnswer evaluateCheck(const CheckResults& analysis, const std::string& checkId)
{
    AutoAnswer out;
    out.check = checkId;
    if (checkId.empty()) return out;
    std::optional<Text> suggested;
    for (const Finding& f : analysis.findings) {
        if (f.id != checkId) continue;
        // one suggestive signal alone is a note: it does not answer the question for the user
        if (f.evidenceLevel == EvidenceLevel::Suggestive) {
            if (!suggested)
                suggested =
                    Text{"仅有一个迹象，未作回答：" + f.title.zh + "（" + standardText(f, Lang::Zh) + "）",
                         "only one suggestive signal, not answered: " + f.title.en + " (" +
                             standardText(f, Lang::En) + ")"};
            continue;
        }
        out.outcome = AutoOutcome::Found;
        out.evidence.insert(out.evidence.end(), f.evidence.begin(), f.evidence.end());
        out.findingTitles.push_back(f.title);
        out.standards.push_back({standardText(f, Lang::Zh), standardText(f, Lang::En)});
    }
    if (out.outcome == AutoOutcome::Unknown && suggested) {
        out.notChecked = suggested;
        return out;
    }
    // A finding wins over "ran": a check that ran and found something is Found, never Clear.
    if (out.outcome == AutoOutcome::Unknown && analysis.checksRun.count(checkId))
        out.outcome = AutoOutcome::Clear;
    if (out.outcome == AutoOutcome::Unknown)
        for (const SkippedCheck& s : analysis.checksSkipped)
            if (s.id == checkId) out.notChecked = s.reason;
    return out;
}

AutoAnswer autoAnswerFor(const Node& question, const CheckResults& analysis)
{
    if (question.isResult() || question.autoCheck.empty()) return {};
    AutoAnswer out = evaluateCheck(analysis, question.autoCheck);
    const AutoMark wanted = out.outcome == AutoOutcome::Found   ? AutoMark::Found
                            : out.outcome == AutoOutcome::Clear ? AutoMark::Clear
                                                                : AutoMark::None;
    for (const Answer& a : question.answers)
        if (wanted != AutoMark::None && a.autoMark == wanted) out.answer = &a;
    if (!out.answer) {
        out.outcome = AutoOutcome::Unknown;
        out.evidence.clear();
        out.findingTitles.clear();
    }
    return out;
}

}  // namespace qatdoctor::core::faq
