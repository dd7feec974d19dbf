// AMX convolution without im2col for stride-1 convolutions whose channels per group are a
// multiple of 64 (group 1): the input is copied once into a padded pixel-major (NHWC) buffer,
// and because the stride is 1, output pixel p of a row laid out on the padded width starts
// tap (ky, kx) exactly (ky*dh*wp + kx*dw) * C bytes after its own pixel. So 16 consecutive
// "virtual" pixels (the padded width, its extra columns computed and dropped) and 64 channels
// of one tap are one tileloadd at stride C, read straight from that buffer: no panel to pack.
// The weights are the signed operand in tdpbusd's layout, packed once per model; the pixels
// are the unsigned one (uint8 codes as they are, int8 codes + 128). Sums are exact integers:
// the same results as every other path (tests compare them on random shapes).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fixedpoint/conv_kernel.h"
#include "core/fixedpoint/thread_pool.h"

namespace qatdoctor::core::fixedpoint {

struct PackedInt8Weights;
struct Int8Scratch;
struct Requant8;

// The weights of a group-1 convolution with C % 64 == 0 in tdpbusd B tiles: for each block of 16
// output channels (the block count rounded up to even, zeros past M), each tap, each 64 channels:
// 16 rows (4 channels each) x 16 output channels x 4 bytes. w is ONNX [M][C][kh*kw].
std::vector<int8_t> packAmxTapMajor(const int8_t* w, int64_t m, int64_t c, int64_t taps);

// The geometry the tap-major kernel handles (and weights packed for it).
bool amxTapMajorFits(const ConvGeometry& g);

// y[n][m][p] = sum (x - xZero) w for such a convolution, or with rq the codes (convX8S8's
// contract). Needs amxAvailable() and w.amxTaps.
void convAmxTapMajor(const ConvGeometry& g, const uint8_t* x, bool xSigned, int32_t xZero,
                     const PackedInt8Weights& w, int32_t* y, ThreadPool* pool, Int8Scratch& scratch,
                     const Requant8* rq, uint8_t* codes);

}  // namespace qatdoctor::core::fixedpoint
