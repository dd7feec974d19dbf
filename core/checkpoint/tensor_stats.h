// What a checkpoint's tensors hold, for a program reading `checkpoint --json`: each tensor's
// range, mean, first values and non-finite counts, read one tensor at a time within a memory
// budget. A quantized tensor's figures are real values (its integers dequantized with its own
// scales and zero points), as torch's dequantize() gives them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint_file.h"
#include "core/common/memory_budget.h"

namespace qatdoctor::core::checkpoint {

struct TensorStats {
    bool read = false;
    std::string problem;                // why not read (too large for the budget, a damaged storage, a dtype)
    int64_t count = 0;                  // elements
    double min = 0, max = 0, mean = 0;  // over the finite values (0 when none)
    int64_t nan = 0, posInf = 0, negInf = 0;
    std::vector<double> first;  // the first few values in row-major order
    bool dequantized = false;   // a quantized tensor's values, dequantized
};

// One entry per file.tensors entry, in order. Each tensor is read alone (the next reuses its
// memory); one whose values do not fit the budget is not read, saying so.
std::vector<TensorStats> readTensorStats(const CheckpointFile& file, MemoryBudget& budget);

}  // namespace qatdoctor::core::checkpoint
