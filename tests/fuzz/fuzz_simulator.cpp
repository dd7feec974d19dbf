// The fixed-point simulator's kernels on one-node models made from the bytes (see
// simulator_harness.h for the layout of the input).
#include "tests/fuzz/simulator_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)qatdoctor::test::runSimulatorHarness(data, size);
    return 0;
}
