// Max pooling's fast 2-D path (padded rows, stride-2 rows split into even and odd runs) against a
// direct window-by-window reference on random geometries: kernel, stride 1-3, asymmetric pads,
// ceil mode, uint8 / int8 / float.
#include "core/fixedpoint/pool_kernel.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace qatdoctor::core::fixedpoint;

namespace {

onnx::NodeProto poolNode(std::vector<int64_t> k, std::vector<int64_t> s, std::vector<int64_t> pads, bool ceil)
{
    onnx::NodeProto n;
    n.set_op_type("MaxPool");
    auto add = [&](const char* name, const std::vector<int64_t>& v) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t x : v) a->add_ints(x);
    };
    add("kernel_shape", k);
    add("strides", s);
    add("pads", pads);
    auto* c = n.add_attribute();
    c->set_name("ceil_mode");
    c->set_type(onnx::AttributeProto::INT);
    c->set_i(ceil ? 1 : 0);
    return n;
}

// One output element straight from the definition.
template <class T>
T windowMax(const PoolGeometry& g, const T* plane, int64_t oy, int64_t ox)
{
    T m = std::numeric_limits<T>::lowest();
    for (int64_t ky = 0; ky < g.k[1]; ++ky)
        for (int64_t kx = 0; kx < g.k[2]; ++kx) {
            const int64_t iy = oy * g.s[1] - g.pb[1] + ky, ix = ox * g.s[2] - g.pb[2] + kx;
            if (iy >= 0 && iy < g.in[1] && ix >= 0 && ix < g.in[2]) m = std::max(m, plane[iy * g.in[2] + ix]);
        }
    return m;
}

template <class T>
int checkRandom(std::mt19937& rng, int iterations)
{
    auto r = [&](int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(rng() % static_cast<uint32_t>(hi - lo + 1));
    };
    int compared = 0;
    for (int iter = 0; iter < iterations; ++iter) {
        const int64_t c = r(1, 3), h = r(1, 20), w = r(1, 90);
        const int64_t kh = r(1, 4), kw = r(1, 5), sh = r(1, 3), sw = r(1, 3);
        const int64_t pt = r(0, kh - 1), pl = r(0, kw - 1), pb = r(0, kh - 1), pr = r(0, kw - 1);
        const bool ceil = r(0, 1) == 1;
        auto g = poolGeometry(poolNode({kh, kw}, {sh, sw}, {pt, pl, pb, pr}, ceil), {1, c, h, w}, false);
        if (!g) continue;
        std::vector<T> x(static_cast<size_t>(c * h * w));
        for (T& v : x) v = static_cast<T>(static_cast<int>(rng() % 256) - (std::is_signed_v<T> ? 128 : 0));
        std::vector<T> y(static_cast<size_t>(c * g->outPixels()));
        maxPool<T>(*g, x.data(), y.data());
        for (int64_t ci = 0; ci < c; ++ci)
            for (int64_t oy = 0; oy < g->out[1]; ++oy)
                for (int64_t ox = 0; ox < g->out[2]; ++ox) {
                    const T want = windowMax(*g, x.data() + ci * h * w, oy, ox);
                    const T got = y[static_cast<size_t>((ci * g->out[1] + oy) * g->out[2] + ox)];
                    if (got != want) {
                        ADD_FAILURE() << "h=" << h << " w=" << w << " k=" << kh << "x" << kw << " s=" << sh
                                      << "," << sw << " pads=" << pt << "," << pl << "," << pb << "," << pr
                                      << " ceil=" << ceil << " at " << ci << "," << oy << "," << ox << ": "
                                      << double(got) << " != " << double(want);
                        return compared;
                    }
                }
        ++compared;
    }
    return compared;
}

}  // namespace

TEST(MaxPoolKernel, MatchesWindowDefinitionOnRandomGeometries)
{
    std::mt19937 rng(77);
    EXPECT_GT(checkRandom<uint8_t>(rng, 300), 250);
    EXPECT_GT(checkRandom<int8_t>(rng, 300), 250);
    EXPECT_GT(checkRandom<float>(rng, 200), 150);
}

TEST(MaxPoolKernel, ResnetStemPool)
{
    std::mt19937 rng(1);
    auto g = poolGeometry(poolNode({3, 3}, {2, 2}, {1, 1, 1, 1}, false), {1, 4, 112, 112}, false);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->out[1], 56);
    EXPECT_EQ(g->out[2], 56);
    std::vector<uint8_t> x(4 * 112 * 112), y(4 * 56 * 56);
    for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
    maxPool<uint8_t>(*g, x.data(), y.data());
    for (int64_t ci = 0; ci < 4; ++ci)
        for (int64_t oy = 0; oy < 56; ++oy)
            for (int64_t ox = 0; ox < 56; ++ox)
                ASSERT_EQ(y[static_cast<size_t>((ci * 56 + oy) * 56 + ox)],
                          windowMax(*g, x.data() + ci * 112 * 112, oy, ox));
}
