// A dataset evaluation as the rows every face shows (the CLI's table, the Fixed-point page's
// Dataset tab): per mode its top-1 with the 95 % interval, agreement with float, SQNR vs float;
// and the sentence on fake-quant vs integer.
#pragma once

#include <string>
#include <vector>

#include "core/common/text.h"
#include "core/fixedpoint/dataset_eval.h"

namespace qatdoctor::core::fixedpoint {

struct EvaluationTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  // one per mode
    std::string fakeVsInt;                       // "" when fake-quant and integer did not both run
};

EvaluationTable evaluationTable(const DatasetEvaluation& e, Lang lang);

}  // namespace qatdoctor::core::fixedpoint
