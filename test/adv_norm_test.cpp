// The advanced API's normalization, quantization, reduce, sort, index, filter, select, pad and
// transpose operators (kernels/include/adv_api/...): golden results through real launches, the host
// tiling functions' sizes (CANN's rules for the same shapes), and the checks that fail a launch
// with 507015 naming the API and the sizes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "tiling/tiling_api.h"
#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kTile = 4096;  // bytes of each input / output tile
constexpr uint32_t kTmp = 8192;   // bytes of the temporary buffer

template <typename T>
AscendC::LocalTensor<T> tile(AscendC::TBuf<AscendC::TPosition::VECCALC>& buffer, uint32_t index) {
    return buffer.GetWithOffset<T>(kTile / sizeof(T), index * kTile);
}

template <typename T>
T read_tiling(GM_ADDR tiling) {
    T value;
    std::memcpy(&value, tiling, sizeof(T));
    return value;
}

// Inputs a, b, c and outputs o0, o1, o2 are kTile bytes each; `tiling` holds the case's tiling
// struct. Case `which` runs one operator on the tiles.
extern "C" __global__ __aicore__ void adv_norm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o0, GM_ADDR o1,
                                                      GM_ADDR o2, GM_ADDR tiling, int32_t which) {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 6 * kTile + kTmp);
    LocalTensor<uint8_t> in0 = tile<uint8_t>(buffer, 0), in1 = tile<uint8_t>(buffer, 1), in2 = tile<uint8_t>(buffer, 2);
    LocalTensor<uint8_t> out0 = tile<uint8_t>(buffer, 3), out1 = tile<uint8_t>(buffer, 4), out2 = tile<uint8_t>(buffer, 5);
    LocalTensor<uint8_t> tmp = buffer.GetWithOffset<uint8_t>(kTmp, 6 * kTile);
    load_tile(in0, a, kTile);
    load_tile(in1, b, kTile);
    load_tile(in2, c, kTile);
    Duplicate(out0.ReinterpretCast<float>(), 0.0f, kTile / 4);
    Duplicate(out1.ReinterpretCast<float>(), 0.0f, kTile / 4);
    Duplicate(out2.ReinterpretCast<float>(), 0.0f, kTile / 4);
    PipeBarrier<PIPE_ALL>();
    auto f0 = in0.ReinterpretCast<float>(), f1 = in1.ReinterpretCast<float>(), f2 = in2.ReinterpretCast<float>();
    auto r0 = out0.ReinterpretCast<float>(), r1 = out1.ReinterpretCast<float>(), r2 = out2.ReinterpretCast<float>();
    switch (which) {
        case 0:
            Arange(r0, 1.5f, 0.25f, 100);
            break;
        case 1: {  // 3 rows of 37 floats, 40 apart
            SumParams params{3, 40, 37};
            Sum(r0, f0, tmp, params);
            break;
        }
        case 2:
            AscendQuant<float>(out0.ReinterpretCast<int8_t>(), f0, tmp, 2.0f, 0.9f, 256);
            break;
        case 3:
            AscendDequant(r0, in0.ReinterpretCast<int32_t>(), f1, tmp, DequantParams{4, 16, 16});
            break;
        case 4: {  // K = 8 rows of N = 64, offset and scale per column
            auto offset = in1.ReinterpretCast<half>();
            uint32_t shape[] = {1, 64};
            offset.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
            AscendAntiQuant<int8_t, half, false>(out0.ReinterpretCast<half>(), buffer.GetWithOffset<int8_t>(512, 0), offset,
                                                 buffer.GetWithOffset<half>(64, 2 * kTile), tmp, 8);
            break;
        }
        case 5: {
            SelectWithBytesMaskShapeInfo info;
            info.firstAxis = 2;
            info.srcLastAxis = 32;
            info.maskLastAxis = 32;
            Select(r0, f0, 7.0f, in1, tmp, info);
            break;
        }
        case 6:
        case 7: {  // byte mask [2, 64], bit mask [2, 32 bytes] (the first 8 bytes of each row used)
            DropOutShapeInfo info;
            info.firstAxis = 2;
            info.srcLastAxis = 64;
            info.maskLastAxis = which == 6 ? 64 : 32;
            DropOut(r0, f0, in1, tmp, 0.5f, info);
            break;
        }
        case 8: {
            uint32_t dst_shape[] = {16, 8};
            uint32_t src_shape[] = {16, 1};
            Broadcast<float, 2, 1>(r0, f0, dst_shape, src_shape, tmp);
            break;
        }
        case 9: {  // [4, 7] rows widened to 8
            PadParams params{0, 1, 9};
            auto t = read_tiling<AscendC::tiling::PadTiling>(tiling);
            Pad(r0, f0, params, tmp, t);
            break;
        }
        case 10: {
            UnPadParams params{1, 1};
            auto t = read_tiling<AscendC::tiling::UnPadTiling>(tiling);
            UnPad(r0, f0, params, tmp, t);
            break;
        }
        case 11: {  // AR: 4 rows of 13 (16 apart)
            uint32_t shape[] = {4, 13};
            ReduceMax<float, Pattern::Reduce::AR>(r0, f0, tmp, shape, true);
            break;
        }
        case 12: {  // RA: 5 rows of 16
            uint32_t shape[] = {5, 16};
            ReduceMin<float, Pattern::Reduce::RA>(r0, f0, tmp, shape, true);
            break;
        }
        case 13: {
            auto t = read_tiling<RmsNormTiling>(tiling);
            RmsNorm<float>(r0, f0, f1, tmp, 0.001f, t);
            break;
        }
        case 14: {
            auto t = read_tiling<DeepNormTiling>(tiling);
            DeepNorm<float>(r0, r1, r2, f0, f1, f2, f2[64], tmp, 0.5f, 0.01f, t);
            break;
        }
        case 15: {
            auto t = read_tiling<LayerNormTiling>(tiling);
            LayerNorm<float>(r0, r1, r2, f0, f1, f2, tmp, 0.01f, t);
            break;
        }
        case 16: {  // grad over [2, 4, 16]: dy in a, x in b, mean / variance / gamma in c
            auto t = read_tiling<LayerNormGradTiling>(tiling);
            LayerNormGrad<float>(r0, r1, f0, f1, f2[16], f2[0], f2[32], tmp, 0.01f, t);
            break;
        }
        case 17: {
            auto t = read_tiling<LayerNormGradBetaTiling>(tiling);
            LayerNormGradBeta<float>(r0, r1, f0, f1, tmp, t);
            break;
        }
        case 18: {  // [A, R] = [4, 24]: LayerNorm's mean and rstd, then Normalize with the variance
            auto t = read_tiling<LayerNormSeparateTiling>(tiling);
            LayerNormPara para{4, 24, 24};
            LayerNorm<float, float>(r0, r1, r2, f0, f1, f2, 0.01f, tmp, para, t);
            PipeBarrier<PIPE_V>();
            NormalizePara npara{4, 24, 24};
            auto y = r0[512];
            auto rstd = r1[512];
            Normalize<float, float>(y, rstd, f1[512], f2[512], f0, f1, f2, tmp, 0.01f, npara);
            break;
        }
        case 19: {  // one row of 16, 11 computed; then WelfordFinalize of 8 partials with counts
            WelfordUpdateParam para{1, 16, 11, 0.25f};
            static constexpr WelfordUpdateConfig kInplace = {true};
            WelfordUpdate<float, float, false, kInplace>(r0, r1, f1, f2, f0, tmp, para);
            PipeBarrier<PIPE_V>();
            WelfordFinalizePara fpara{1, 8, 1, 8, 0, 0, 0.125f, 1.0f / 10.0f, 0.0f};
            WelfordFinalize<false>(r2, r2[8], f0[64], f0[72], in0.ReinterpretCast<int32_t>()[80], tmp, fpara);
            break;
        }
        case 20: {  // 64 floats sorted in full, descending
            LocalTensor<float> concat;
            Concat(concat, f0, f2, 2);
            auto sorted = r2;  // 64 pairs of 8 bytes
            Sort<float, true>(sorted, concat, in1.ReinterpretCast<uint32_t>(), f2, 2);
            PipeBarrier<PIPE_V>();
            Extract(r0, out1.ReinterpretCast<uint32_t>(), sorted, 2);
            break;
        }
        case 21:
        case 22: {  // NCDHW (2, 20, 1, 2, 4) <-> NDC1HWC0 (2, 1, 2, 2, 4, 16), half
            static constexpr TransDataConfig kTo = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
            static constexpr TransDataConfig kFrom = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
            auto ncdhw = MakeLayout(MakeShape(2, 20, 1, 2, 4), MakeStride());
            auto nd = MakeLayout(MakeShape(2, 1, 2, 2, 4, 16), MakeStride());
            if (which == 21) {
                TransDataParams<decltype(ncdhw), decltype(nd)> params = {ncdhw, nd};
                TransData<kTo>(out0.ReinterpretCast<half>(), in0.ReinterpretCast<half>(), tmp, params);
            } else {
                TransDataParams<decltype(nd), decltype(ncdhw)> params = {nd, ncdhw};
                TransData<kFrom>(out0.ReinterpretCast<half>(), in0.ReinterpretCast<half>(), tmp, params);
            }
            break;
        }
        case 23: {  // NZ [1, 2, 32/16, 16/16, 16, 16] -> ND [1, 16, 2, 32]
            auto t = read_tiling<ConfusionTransposeTiling>(tiling);
            Transpose(out0.ReinterpretCast<half>(), in0.ReinterpretCast<half>(), tmp, TransposeType::TRANSPOSE_NZ2ND_0213,
                      t);
            break;
        }
        case 25: {  // 2 rows of 32 (30 valid), the 5 smallest, indices from b, row 1 finished
            auto t = read_tiling<TopkTiling>(tiling);
            TopKInfo info;
            info.outter = 2;
            info.inner = 32;
            info.n = 30;
            TopK<float, true, true, false, TopKMode::TOPK_NORMAL>(r0, out1.ReinterpretCast<int32_t>(), f0,
                                                                  in1.ReinterpretCast<int32_t>(),
                                                                  buffer.GetWithOffset<bool>(32, 2 * kTile), tmp, 5, t,
                                                                  info, false);
            break;
        }
        case 24: {
            GlobalTensor<float> gm;
            gm.SetGlobalBuffer((__gm__ float*)o2, 64);
            Fill(gm, 64, 3.25f);
            return;
        }
    }
    store_tile(o0, out0, kTile);
    store_tile(o1, out1, kTile);
    store_tile(o2, out2, kTile);
}

template <typename T>
std::vector<uint8_t> as_bytes(const std::vector<T>& values) {
    std::vector<uint8_t> bytes(kTile, 0);
    std::memcpy(bytes.data(), values.data(), std::min<std::size_t>(kTile, values.size() * sizeof(T)));
    return bytes;
}
template <typename T>
std::vector<T> from_bytes(const std::vector<uint8_t>& bytes, std::size_t count) {
    std::vector<T> values(count);
    std::memcpy(values.data(), bytes.data(), count * sizeof(T));
    return values;
}

struct Outputs {
    std::vector<uint8_t> o0, o1, o2;
};

template <typename Tiling = uint32_t>
Outputs run(int32_t which, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b = {},
            const std::vector<uint8_t>& c = {}, const Tiling& tiling = {}) {
    Runtime rt;
    Stream stream;
    DeviceArray<uint8_t> da(a.empty() ? std::vector<uint8_t>(kTile, 0) : a);
    DeviceArray<uint8_t> db(b.empty() ? std::vector<uint8_t>(kTile, 0) : b);
    DeviceArray<uint8_t> dc(c.empty() ? std::vector<uint8_t>(kTile, 0) : c);
    DeviceArray<uint8_t> o0(kTile), o1(kTile), o2(kTile);
    std::vector<uint8_t> tiling_bytes(sizeof(Tiling) + 32, 0);
    std::memcpy(tiling_bytes.data(), &tiling, sizeof(Tiling));
    DeviceArray<uint8_t> dt(tiling_bytes);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_norm_kernel)(1, stream, da.get(), db.get(), dc.get(), o0.get(), o1.get(),
                                                 o2.get(), dt.get(), which) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    return {o0.read(), o1.read(), o2.read()};
}

std::vector<float> uniform(std::size_t count, float low, float high, uint32_t seed) {
    std::vector<float> values(count);
    uint32_t state = seed;
    for (auto& v : values) {
        state = state * 1664525u + 1013904223u;
        v = low + (high - low) * float(state >> 8) / float(1u << 24);
    }
    return values;
}

void check_close(const std::vector<float>& got, const std::vector<double>& want, double tolerance) {
    REQUIRE(got.size() >= want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        CAPTURE(i);
        CHECK(std::abs(double(got[i]) - want[i]) <= tolerance * std::max(1.0, std::abs(want[i])));
    }
}

}  // namespace

TEST_CASE("Arange and Sum (pairwise, rows `inner` apart) compute through a launch") {
    const auto arange = from_bytes<float>(run(0, {}).o0, 101);
    for (int i = 0; i < 100; ++i) CHECK(arange[i] == doctest::Approx(1.5 + 0.25 * i));
    CHECK(arange[100] == 0.0f);

    std::vector<float> rows(120);
    for (int r = 0; r < 3; ++r)
        for (int i = 0; i < 40; ++i) rows[r * 40 + i] = i < 37 ? float(r + 1) * 0.5f + float(i) : 1000.0f;
    const auto sums = from_bytes<float>(run(1, as_bytes(rows)).o0, 3);
    for (int r = 0; r < 3; ++r) CHECK(sums[r] == doctest::Approx(37 * (r + 1) * 0.5 + 36 * 37 / 2));
}

TEST_CASE("AscendQuant computes in half and rounds to nearest even; AscendDequant and AscendAntiQuant per channel") {
    std::vector<float> src(256);
    for (int i = 0; i < 256; ++i) src[i] = float(half(-4.0f + 8.0f * float(i) / 256.0f));
    const auto q = from_bytes<int8_t>(run(2, as_bytes(src)).o0, 256);
    for (int i = 0; i < 256; ++i) {
        const float y = float(half(float(half(src[i] * 2.0f)) + float(half(0.9f))));
        CAPTURE(i);
        CHECK(q[i] == int8_t(std::nearbyint(y)));
    }

    std::vector<int32_t> ints(64);
    for (int i = 0; i < 64; ++i) ints[i] = i - 30;
    const auto scale = uniform(16, -2.0f, 2.0f, 7);
    const auto deq = from_bytes<float>(run(3, as_bytes(ints), as_bytes(scale)).o0, 64);
    for (int i = 0; i < 64; ++i) CHECK(deq[i] == float(ints[i]) * scale[i % 16]);

    std::vector<int8_t> q8(512);
    for (int i = 0; i < 512; ++i) q8[i] = int8_t(i % 17 - 8);
    std::vector<half> offset(64), hscale(64);
    for (int j = 0; j < 64; ++j) {
        offset[j] = half(float(j % 5) - 2.5f);
        hscale[j] = half(0.125f * float(j % 7 + 1));
    }
    const auto anti = from_bytes<half>(run(4, as_bytes(q8), as_bytes(offset), as_bytes(hscale)).o0, 512);
    for (int i = 0; i < 512; ++i) {
        const float want = float(half(float(half(float(q8[i]) + float(offset[i % 64]))) * float(hscale[i % 64])));
        CAPTURE(i);
        CHECK(float(anti[i]) == want);
    }
}

TEST_CASE("Select with a bytes mask and DropOut with byte and bit masks") {
    const auto src = uniform(64, -4.0f, 4.0f, 3);
    std::vector<uint8_t> mask(64);
    for (int i = 0; i < 64; ++i) mask[i] = uint8_t((i * 7) % 3 == 0);
    const auto sel = from_bytes<float>(run(5, as_bytes(src), as_bytes(mask)).o0, 64);
    for (int i = 0; i < 64; ++i) CHECK(sel[i] == (mask[i] ? 7.0f : src[i]));

    const auto x = uniform(128, -100.0f, 100.0f, 5);
    std::vector<uint8_t> bytes(128);
    for (int i = 0; i < 128; ++i) bytes[i] = uint8_t(i % 3 != 0);
    const auto byte_out = from_bytes<float>(run(6, as_bytes(x), as_bytes(bytes)).o0, 128);
    for (int i = 0; i < 128; ++i) CHECK(byte_out[i] == (bytes[i] ? x[i] * 2.0f : 0.0f));

    std::vector<uint8_t> bits(64, 0);
    for (int row = 0; row < 2; ++row)
        for (int j = 0; j < 8; ++j) bits[row * 32 + j] = uint8_t(0xA5 ^ (row * 16 + j));
    const auto bit_out = from_bytes<float>(run(7, as_bytes(x), as_bytes(bits)).o0, 128);
    for (int row = 0; row < 2; ++row)
        for (int col = 0; col < 64; ++col) {
            const bool keep = (bits[row * 32 + col / 8] >> (col % 8)) & 1;
            CHECK(bit_out[row * 64 + col] == (keep ? x[row * 64 + col] * 2.0f : 0.0f));
        }
}

TEST_CASE("Broadcast along axis 1, Pad to the 32-byte row, UnPad both sides") {
    const auto column = uniform(16, -1.0f, 1.0f, 11);
    const auto wide = from_bytes<float>(run(8, as_bytes(column)).o0, 128);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c) CHECK(wide[r * 8 + c] == column[r]);

    std::vector<float> rows(28);
    std::iota(rows.begin(), rows.end(), 0.0f);
    AscendC::tiling::PadTiling pad_tiling{};
    uint32_t max_pad = 0, min_pad = 0;
    AscendC::GetPadMaxMinTmpSize(AscendC::TensorShape({4, 7}), 4, max_pad, min_pad);
    AscendC::PadTilingFunc(AscendC::TensorShape({4, 7}), AscendC::TensorShape({4, 7}), min_pad, 4, pad_tiling);
    const auto padded = from_bytes<float>(run(9, as_bytes(rows), {}, {}, pad_tiling).o0, 32);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 7; ++c) CHECK(padded[r * 8 + c] == float(r * 7 + c));
        CHECK(padded[r * 8 + 7] == 9.0f);
    }

    std::vector<float> full(32);
    std::iota(full.begin(), full.end(), 0.0f);
    AscendC::tiling::UnPadTiling unpad_tiling{};
    AscendC::UnPadTilingFunc(AscendC::TensorShape({4, 8}), 0, 4, unpad_tiling);
    const auto narrow = from_bytes<float>(run(10, as_bytes(full), {}, {}, unpad_tiling).o0, 24);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 6; ++c) CHECK(narrow[r * 6 + c] == float(r * 8 + c + 1));
}

TEST_CASE("ReduceMax over padded AR rows and ReduceMin over RA columns") {
    const auto x = uniform(80, -50.0f, 50.0f, 13);
    const auto max = from_bytes<float>(run(11, as_bytes(x)).o0, 4);
    for (int r = 0; r < 4; ++r) CHECK(max[r] == *std::max_element(x.begin() + r * 16, x.begin() + r * 16 + 13));
    const auto min = from_bytes<float>(run(12, as_bytes(x)).o0, 16);
    for (int c = 0; c < 16; ++c) {
        float want = x[c];
        for (int r = 1; r < 5; ++r) want = std::min(want, x[r * 16 + c]);
        CHECK(min[c] == want);
    }
}

TEST_CASE("RmsNorm, DeepNorm and LayerNorm of [2, 4, 16] against double references") {
    const auto x = uniform(128, -3.0f, 3.0f, 17);
    const auto gamma = uniform(16, 0.5f, 1.5f, 19);
    AscendC::tiling::RmsNormTiling rms{};
    uint32_t max_value = 0, min_value = 0;
    REQUIRE(AscendC::GetRmsNormMaxMinTmpSize(AscendC::TensorShape({2, 4, 16}), 4, max_value, min_value));
    REQUIRE(AscendC::GetRmsNormTilingInfo(AscendC::TensorShape({2, 4, 16}), AscendC::TensorShape({2, 4, 16}),
                                          min_value, 4, rms));
    const auto y = from_bytes<float>(run(13, as_bytes(x), as_bytes(gamma), {}, rms).o0, 128);
    std::vector<double> want(128);
    for (int r = 0; r < 8; ++r) {
        double squares = 0;
        for (int i = 0; i < 16; ++i) squares += double(x[r * 16 + i]) * x[r * 16 + i];
        const double rms_value = std::sqrt(squares / 16 + 0.001);
        for (int i = 0; i < 16; ++i) want[r * 16 + i] = x[r * 16 + i] / rms_value * gamma[i];
    }
    check_close(y, want, 1e-5);

    // DeepNorm: z = 0.5 x + gx; beta in c[0..16), gamma in c[64..80).
    const auto gx = uniform(128, -1.0f, 1.0f, 23);
    std::vector<float> params(128, 0.0f);
    for (int i = 0; i < 16; ++i) {
        params[i] = 0.1f * float(i);
        params[64 + i] = gamma[i];
    }
    AscendC::tiling::DeepNormTiling deep{};
    REQUIRE(AscendC::GetDeepNormMaxMinTmpSize(AscendC::TensorShape({2, 4, 16}), 4, false, false, max_value, min_value));
    REQUIRE(AscendC::GetDeepNormTilingInfo(AscendC::TensorShape({2, 4, 16}), AscendC::TensorShape({2, 4, 16}),
                                           min_value, 4, false, false, deep));
    const auto deep_out = run(14, as_bytes(x), as_bytes(gx), as_bytes(params), deep);
    std::vector<double> want_y(128), want_mean(8), want_var(8);
    for (int r = 0; r < 8; ++r) {
        double sum = 0, sq = 0;
        for (int i = 0; i < 16; ++i) sum += 0.5 * x[r * 16 + i] + gx[r * 16 + i];
        const double mean = sum / 16;
        for (int i = 0; i < 16; ++i) sq += std::pow(0.5 * x[r * 16 + i] + gx[r * 16 + i] - mean, 2);
        const double var = sq / 16;
        want_mean[r] = mean;
        want_var[r] = var;
        for (int i = 0; i < 16; ++i)
            want_y[r * 16 + i] = gamma[i] * (0.5 * x[r * 16 + i] + gx[r * 16 + i] - mean) / std::sqrt(var + 0.01) +
                                 0.1 * i;
    }
    check_close(from_bytes<float>(deep_out.o0, 128), want_y, 1e-5);
    check_close(from_bytes<float>(deep_out.o1, 8), want_mean, 1e-5);
    check_close(from_bytes<float>(deep_out.o2, 8), want_var, 1e-5);

    // LayerNorm of [2, 4, 16] with gamma in b and beta in c.
    AscendC::tiling::LayerNormTiling ln{};
    AscendC::GetLayerNormMaxMinTmpSize(AscendC::TensorShape({2, 4, 16, 16}), 4, false, max_value, min_value);
    AscendC::GetLayerNormNDTilingInfo(AscendC::TensorShape({2, 4, 16, 16}), min_value, 4, false, ln);
    const auto beta = uniform(16, -1.0f, 1.0f, 29);
    const auto ln_out = run(15, as_bytes(x), as_bytes(gamma), as_bytes(beta), ln);
    for (int r = 0; r < 8; ++r) {
        double sum = 0, sq = 0;
        for (int i = 0; i < 16; ++i) sum += x[r * 16 + i];
        const double mean = sum / 16;
        for (int i = 0; i < 16; ++i) sq += std::pow(x[r * 16 + i] - mean, 2);
        want_mean[r] = mean;
        want_var[r] = sq / 16;
        for (int i = 0; i < 16; ++i)
            want_y[r * 16 + i] = gamma[i] * (x[r * 16 + i] - mean) / std::sqrt(want_var[r] + 0.01) + beta[i];
    }
    check_close(from_bytes<float>(ln_out.o0, 128), want_y, 1e-5);
    check_close(from_bytes<float>(ln_out.o1, 8), want_mean, 1e-5);
    check_close(from_bytes<float>(ln_out.o2, 8), want_var, 1e-5);
}

TEST_CASE("LayerNormGrad and LayerNormGradBeta of [2, 4, 16]") {
    const auto dy = uniform(128, -2.0f, 2.0f, 31);
    const auto x = uniform(128, -3.0f, 3.0f, 37);
    std::vector<float> c(64, 0.0f);  // mean [0, 8), variance [16, 24), gamma [32, 48)
    for (int r = 0; r < 8; ++r) {
        double sum = 0, sq = 0;
        for (int i = 0; i < 16; ++i) sum += x[r * 16 + i];
        c[r] = float(sum / 16);
        for (int i = 0; i < 16; ++i) sq += std::pow(x[r * 16 + i] - c[r], 2);
        c[16 + r] = float(sq / 16);
    }
    for (int i = 0; i < 16; ++i) c[32 + i] = 0.5f + 0.0625f * float(i);
    AscendC::tiling::LayerNormGradTiling grad{};
    uint32_t max_value = 0, min_value = 0;
    AscendC::GetLayerNormGradMaxMinTmpSize(AscendC::TensorShape({2, 4, 16, 16}), 4, false, max_value, min_value);
    AscendC::GetLayerNormGradNDTilingInfo(AscendC::TensorShape({2, 4, 16, 16}), min_value, 4, false, grad);
    const auto out = run(16, as_bytes(dy), as_bytes(x), as_bytes(c), grad);
    std::vector<double> want_dx(128), want_res(128);
    for (int r = 0; r < 8; ++r) {
        const double v = c[16 + r] + 0.01, rstd = 1 / std::sqrt(v);
        double sv = 0, sm = 0, sx = 0;
        for (int i = 0; i < 16; ++i) {
            const double xm = x[r * 16 + i] - c[r], pd = double(dy[r * 16 + i]) * c[32 + i];
            sv += -0.5 * pd * xm * std::pow(v, -1.5);
            sm += -pd * rstd;
            sx += -2.0 * xm;
        }
        const double pm = sm + sv / 16 * sx;
        for (int i = 0; i < 16; ++i) {
            const double xm = x[r * 16 + i] - c[r], pd = double(dy[r * 16 + i]) * c[32 + i];
            want_dx[r * 16 + i] = pm / 16 + sv * 2.0 / 16 * xm + pd * rstd;
            want_res[r * 16 + i] = xm * rstd;
        }
    }
    check_close(from_bytes<float>(out.o0, 128), want_dx, 1e-5);
    const auto res = from_bytes<float>(out.o1, 128);
    check_close(res, want_res, 1e-5);

    AscendC::tiling::LayerNormGradBetaTiling beta{};
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(AscendC::TensorShape({2, 4, 16, 16}), 4, false, max_value, min_value);
    AscendC::GetLayerNormGradBetaNDTilingInfo(AscendC::TensorShape({2, 4, 16, 16}), min_value, 4, false, beta);
    const auto gb = run(17, as_bytes(res), as_bytes(dy), {}, beta);
    std::vector<double> want_g(16, 0.0), want_b(16, 0.0);
    for (int r = 0; r < 8; ++r)
        for (int i = 0; i < 16; ++i) {
            want_g[i] += double(dy[r * 16 + i]) * res[r * 16 + i];
            want_b[i] += dy[r * 16 + i];
        }
    check_close(from_bytes<float>(gb.o0, 16), want_g, 1e-5);
    check_close(from_bytes<float>(gb.o1, 16), want_b, 1e-5);
}

TEST_CASE("LayerNorm of [A, R] outputs mean and rstd; Normalize from the variance; WelfordUpdate and Finalize") {
    const auto x = uniform(96, -5.0f, 5.0f, 41);
    std::vector<float> gamma = uniform(24, 0.5f, 1.5f, 43), beta = uniform(24, -1.0f, 1.0f, 47);
    gamma.resize(1024, 0.0f);
    beta.resize(1024, 0.0f);
    std::vector<double> mean(4), var(4);
    for (int r = 0; r < 4; ++r) {
        double s = 0, q = 0;
        for (int i = 0; i < 24; ++i) s += x[r * 24 + i];
        mean[r] = s / 24;
        for (int i = 0; i < 24; ++i) q += std::pow(x[r * 24 + i] - mean[r], 2);
        var[r] = q / 24;
        gamma[512 + r] = float(mean[r]);  // Normalize's mean and variance inputs
        beta[512 + r] = float(var[r]);
    }
    AscendC::tiling::LayerNormSeparateTiling t{};
    uint32_t max_value = 0, min_value = 0;
    AscendC::GetLayerNormMaxMinTmpSize(AscendC::TensorShape({4, 24}), 4, false, true, false, max_value, min_value);
    AscendC::GetLayerNormNDTilingInfo(AscendC::TensorShape({4, 24}), min_value, 4, false, true, t);
    const auto out = run(18, as_bytes(x), as_bytes(gamma), as_bytes(beta), t);
    std::vector<double> want(96), rstd(4);
    for (int r = 0; r < 4; ++r) {
        rstd[r] = 1 / std::sqrt(var[r] + 0.01);
        for (int i = 0; i < 24; ++i) want[r * 24 + i] = gamma[i] * (x[r * 24 + i] - mean[r]) * rstd[r] + beta[i];
    }
    check_close(from_bytes<float>(out.o0, 96), want, 1e-5);
    check_close(from_bytes<float>(out.o1, 4), mean, 1e-5);
    check_close(from_bytes<float>(out.o2, 4), rstd, 1e-5);
    const auto normalized = from_bytes<float>(out.o0, 1024);
    check_close(std::vector<float>(normalized.begin() + 512, normalized.end()), want, 1e-5);
    const auto rstd2 = from_bytes<float>(out.o1, 1024);
    check_close(std::vector<float>(rstd2.begin() + 512, rstd2.end()), rstd, 1e-5);

    // Welford: x, mean and variance rows of 16, 11 computed; finalize partials at a[64], a[72], counts at a[80].
    std::vector<float> a = uniform(16, 1.0f, 10.0f, 53);
    a.resize(96, 0.0f);
    std::vector<float> partial_mean = uniform(8, -2.0f, 2.0f, 59), partial_var = uniform(8, 0.0f, 3.0f, 61);
    std::vector<int32_t> counts = {1, 2, 1, 3, 0, 1, 1, 1};
    for (int i = 0; i < 8; ++i) {
        a[64 + i] = partial_mean[i];
        a[72 + i] = partial_var[i];
        std::memcpy(&a[80 + i], &counts[i], 4);
    }
    const auto m = uniform(16, -1.0f, 1.0f, 67), v = uniform(16, 0.0f, 1.0f, 71);
    const auto w = run(19, as_bytes(a), as_bytes(m), as_bytes(v));
    const auto om = from_bytes<float>(w.o0, 16), ov = from_bytes<float>(w.o1, 16);
    for (int i = 0; i < 16; ++i) {
        CAPTURE(i);
        if (i < 11) {
            const float delta = a[i] - m[i];
            const float mean_i = m[i] + delta * 0.25f;
            CHECK(om[i] == mean_i);
            CHECK(ov[i] == v[i] + delta * (a[i] - mean_i));
        } else {  // in place: the inputs' values
            CHECK(om[i] == m[i]);
            CHECK(ov[i] == v[i]);
        }
    }
    double fm = 0;
    for (int i = 0; i < 8; ++i) fm += double(partial_mean[i]) * counts[i] / 10.0;
    double fv = 0;
    for (int i = 0; i < 8; ++i) fv += (std::pow(partial_mean[i] - fm, 2) * counts[i] + partial_var[i]) / 10.0;
    const auto fin = from_bytes<float>(w.o2, 16);
    CHECK(fin[0] == doctest::Approx(fm).epsilon(1e-5));
    CHECK(fin[8] == doctest::Approx(fv).epsilon(1e-5));
}

TEST_CASE("Sort: Concat, a full Sort of two 32-element groups and Extract give the scores descending with indices") {
    const auto scores = uniform(64, -100.0f, 100.0f, 73);
    std::vector<uint32_t> index(64);
    std::iota(index.begin(), index.end(), 100u);
    const auto out = run(20, as_bytes(scores), as_bytes(index));
    const auto values = from_bytes<float>(out.o0, 64);
    const auto indices = from_bytes<uint32_t>(out.o1, 64);
    std::vector<float> want(scores);
    std::sort(want.begin(), want.end(), std::greater<float>());
    for (int i = 0; i < 64; ++i) {
        CHECK(values[i] == want[i]);
        CHECK(scores[indices[i] - 100] == values[i]);
    }
}

TEST_CASE("TransData NCDHW -> NDC1HWC0 pads C with zeros and NDC1HWC0 -> NCDHW takes it back") {
    // NCDHW (2, 20, 1, 2, 4): planes of 8 halves padded to 16 in the UB.
    std::vector<half> ncdhw(2 * 20 * 16, half(-1.0f));
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < 20; ++c)
            for (int i = 0; i < 8; ++i) ncdhw[(n * 20 + c) * 16 + i] = half(float(n * 1000 + c * 10 + i));
    const auto nd = from_bytes<half>(run(21, as_bytes(ncdhw)).o0, 2 * 2 * 8 * 16);
    for (int n = 0; n < 2; ++n)
        for (int c1 = 0; c1 < 2; ++c1)
            for (int i = 0; i < 8; ++i)
                for (int c0 = 0; c0 < 16; ++c0) {
                    const int c = c1 * 16 + c0;
                    const float want = c < 20 ? float(n * 1000 + c * 10 + i) : 0.0f;
                    CHECK(float(nd[((n * 2 + c1) * 8 + i) * 16 + c0]) == want);
                }
    const auto back = from_bytes<half>(run(22, as_bytes(nd)).o0, ncdhw.size());
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < 20; ++c)
            for (int i = 0; i < 8; ++i) CHECK(float(back[(n * 20 + c) * 16 + i]) == float(ncdhw[(n * 20 + c) * 16 + i]));
}

TEST_CASE("Transpose NZ2ND_0213 and Fill on GM") {
    // [B, A1, A2, A3] = [1, 2, 16, 32]: NZ source [1, 2, 2, 1, 16, 16].
    AscendC::tiling::ConfusionTransposeTiling t{};
    uint32_t max_value = 0, min_value = 0;
    AscendC::GetTransposeMaxMinTmpSize(AscendC::TensorShape({1, 2, 16, 32}), 2, 1, max_value, min_value);
    CHECK(min_value == 512);
    CHECK(max_value == 512);
    AscendC::GetTransposeTilingInfo(AscendC::TensorShape({1, 2, 16, 32}), min_value, 2, 1, t);
    std::vector<half> nz(1024);
    for (int a1 = 0; a1 < 2; ++a1)
        for (int a2 = 0; a2 < 16; ++a2)
            for (int a3 = 0; a3 < 32; ++a3)
                nz[((a1 * 2 + a3 / 16) * 16 + a2) * 16 + a3 % 16] = half(float(a1 * 512 + a2 * 32 + a3));
    const auto nd = from_bytes<half>(run(23, as_bytes(nz), {}, {}, t).o0, 1024);
    for (int a2 = 0; a2 < 16; ++a2)
        for (int a1 = 0; a1 < 2; ++a1)
            for (int a3 = 0; a3 < 32; ++a3) CHECK(float(nd[(a2 * 2 + a1) * 32 + a3]) == float(a1 * 512 + a2 * 32 + a3));

    const auto filled = from_bytes<float>(run(24, {}).o2, 65);
    for (int i = 0; i < 64; ++i) CHECK(filled[i] == 3.25f);
    CHECK(filled[64] == 0.0f);
}

TEST_CASE("TopK: the k smallest of each row, ascending, with initial indices and a finished row") {
    // The tiling functions take the platform by reference and, on the A2, never read it.
    alignas(16) static unsigned char platform_storage[64] = {};
    const auto& platform = *reinterpret_cast<const platform_ascendc::PlatformAscendC*>(platform_storage);
    AscendC::tiling::TopkTiling t{};
    REQUIRE(AscendC::TopKTilingFunc(platform, 32, 2, 5, 4, true, AscendC::TopKMode::TOPK_NORMAL, false, t));
    uint32_t max_value = 0, min_value = 0;
    REQUIRE(AscendC::GetTopKMaxMinTmpSize(platform, 32, 2, false, true, AscendC::TopKMode::TOPK_NORMAL, false, 4,
                                          max_value, min_value));
    CHECK(min_value == 16 * 32);
    CHECK(t.kAlignFourBytes == 8);
    CHECK(t.allDataSize == 64);
    auto x = uniform(64, -10.0f, 10.0f, 79);
    x[3] = x[7];  // a tie: the earlier one first
    std::vector<int32_t> index(32);
    for (int i = 0; i < 32; ++i) index[i] = 500 + i;
    std::vector<uint8_t> finish(32, 0);
    finish[1] = 1;
    const auto out = run(25, as_bytes(x), as_bytes(index), as_bytes(finish), t);
    const auto values = from_bytes<float>(out.o0, 16);
    const auto indices = from_bytes<int32_t>(out.o1, 16);
    for (int r = 0; r < 2; ++r) {
        std::vector<int> order(30);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return x[r * 32 + a] < x[r * 32 + b]; });
        for (int j = 0; j < 5; ++j) {
            CHECK(values[r * 8 + j] == x[r * 32 + order[j]]);
            CHECK(indices[r * 8 + j] == (r == 1 ? 30 : 500 + order[j]));
        }
        for (int j = 5; j < 8; ++j) CHECK(values[r * 8 + j] == 0.0f);
    }
}

TEST_CASE("the tiling functions return CANN's sizes for the same shapes") {
    uint32_t max_value = 0, min_value = 0;
    AscendC::GetSumMaxMinTmpSize(37, 4, false, max_value, min_value);
    CHECK(min_value == 32);
    AscendC::GetSumMaxMinTmpSize(1000, 2, false, max_value, min_value);
    CHECK(min_value == 32);  // 8 repeats of 128 halves, rounded up to a block of 16
    AscendC::GetAscendQuantMaxMinTmpSize(AscendC::TensorShape({1024}), 4, max_value, min_value);
    CHECK(max_value == 2048);
    CHECK(min_value == 512);
    AscendC::GetAscendDequantMaxMinTmpSize(AscendC::TensorShape({128, 32}), 4, max_value, min_value);
    CHECK(max_value == (64 + 128 * 32 + 40) * 4);
    CHECK(min_value == (64 + 32 + 40) * 4);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(AscendC::TensorShape({8, 128}), AscendC::TensorShape({1, 128}), false,
                                             AscendC::TensorDataType::DT_INT8, AscendC::TensorDataType::DT_BF16,
                                             max_value, min_value);
    CHECK(min_value == 128 * 2 * 4 + 64 * 8 * 4);
    AscendC::GetDropOutMaxMinTmpSize(AscendC::TensorShape({4, 256, 32}), 4, false, max_value, min_value);
    CHECK(min_value == 512);
    CHECK(max_value == 2 * 4 * 256 * 32 * 4);
    AscendC::GetSelectMaxMinTmpSize(AscendC::TensorShape({2, 32}), AscendC::TensorShape({1}), 4,
                                    AscendC::TensorShape({2, 32}), 1, false, max_value, min_value);
    CHECK(min_value == 1024);
    AscendC::GetReduceMaxMaxMinTmpSize(AscendC::TensorShape({32, 136}), AscendC::TensorDataType::DT_FLOAT,
                                       AscendC::ReducePattern::RA, true, false, max_value, min_value);
    CHECK(min_value == 16 * 544);
    AscendC::GetReduceMaxMaxMinTmpSize(AscendC::TensorShape({8, 100}), AscendC::TensorDataType::DT_FLOAT,
                                       AscendC::ReducePattern::AR, true, false, max_value, min_value);
    CHECK(min_value == 8 * 64 * 4);
    alignas(16) static unsigned char platform_storage[64] = {};
    const auto& platform = *reinterpret_cast<const platform_ascendc::PlatformAscendC*>(platform_storage);
    AscendC::GetBroadCastMaxMinTmpSize(platform, AscendC::TensorShape({16, 1}), AscendC::TensorShape({16, 8}), 4,
                                       false, max_value, min_value);
    CHECK(min_value == 256);
    CHECK(max_value == 512);
    AscendC::GetBroadCastMaxMinTmpSize(platform, AscendC::TensorShape({1, 8}), AscendC::TensorShape({16, 8}), 4,
                                       false, max_value, min_value);
    CHECK(min_value == 32);
    AscendC::GetBroadCastMaxMinTmpSize(platform, AscendC::TensorShape({16, 1}), AscendC::TensorShape({16, 32}), 1,
                                       false, max_value, min_value);
    CHECK(min_value == 512 + (16 + 512) * 2);
    CHECK(AscendC::GetSortTmpSize(platform, 64, 4) == 512);
    CHECK(AscendC::GetSortTmpSize(platform, 64, 2) == 512);
    CHECK(AscendC::GetConcatTmpSize(platform, 64, 4) == 0);
    AscendC::GetPadMaxMinTmpSize(AscendC::TensorShape({16, 31}), 4, max_value, min_value);
    CHECK(min_value == 1024);
    CHECK(max_value == 31 * 16 * 8 * 2 * 4);
    REQUIRE(AscendC::GetRmsNormMaxMinTmpSize(AscendC::TensorShape({4, 8, 64}), 4, max_value, min_value));
    CHECK(min_value == (64 + 8) * 4);
    CHECK(max_value == (4 * 8 * 64 + 32) * 4);
    CHECK_FALSE(AscendC::GetRmsNormMaxMinTmpSize(AscendC::TensorShape({1, 3, 64}), 4, max_value, min_value, true));
    REQUIRE(AscendC::GetDeepNormMaxMinTmpSize(AscendC::TensorShape({4, 16, 64}), 4, false, true, max_value, min_value));
    CHECK(min_value == 3 * 256 + 2 * 256);
    AscendC::GetLayerNormMaxMinTmpSize(AscendC::TensorShape({2, 32, 16, 16}), 4, false, max_value, min_value);
    CHECK(min_value == 3 * 64 + 2 * 256);
    AscendC::GetLayerNormGradMaxMinTmpSize(AscendC::TensorShape({2, 32, 16, 16}), 4, false, max_value, min_value);
    CHECK(min_value == 256 * 6 * 4);
    CHECK(max_value == 1024 * 6 * 4);
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(AscendC::TensorShape({2, 32, 16, 16}), 4, false, max_value, min_value);
    CHECK(min_value == 128);
    AscendC::GetWelfordUpdateMaxMinTmpSize(AscendC::TensorShape({1, 64}), 4, 4, false, true, max_value, min_value);
    CHECK(min_value == 512);
    AscendC::GetLayerNormMaxMinTmpSize(AscendC::TensorShape({32, 32}), 4, false, true, false, max_value, min_value);
    CHECK(min_value == 384);  // Normalize's 2R floats (256) plus the variances (128)

    // The LayerNorm tiling of the layernorm sample's shapes, CANN's field values.
    optiling::LayerNormTiling ln;
    AscendC::GetLayerNormNDTilingInfo(AscendC::TensorShape({2, 32, 16, 16}), 6144, 4, false, ln);
    CHECK(ln.get_oneTmpSize() == 512);
    CHECK(ln.get_loopRound() == 2);
    CHECK(ln.get_meanVarRoundSize() == 32);
    CHECK(ln.get_lastDimValueBack() == 1.0f / 16);
    // The optiling class is the plain struct's bytes.
    AscendC::tiling::LayerNormTiling plain{};
    ln.SaveToBuffer(&plain, sizeof(plain));
    CHECK(plain.oneTmpSize == 512);
    CHECK(plain.hLength == 16);
    CHECK(sizeof(optiling::LayerNormTiling) == sizeof(AscendC::tiling::LayerNormTiling));
}

namespace {

// Misuse, in block 1 of 2.
extern "C" __global__ __aicore__ void adv_norm_misuse_kernel(GM_ADDR tiling, int32_t which) {
    using namespace AscendC;
    if (GetBlockIdx() != 1) return;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 4 * kTile);
    LocalTensor<float> a = buffer.GetWithOffset<float>(kTile / 4, 0);
    LocalTensor<float> b = buffer.GetWithOffset<float>(kTile / 4, kTile);
    LocalTensor<float> c = buffer.GetWithOffset<float>(kTile / 4, 2 * kTile);
    LocalTensor<uint8_t> small = buffer.GetWithOffset<uint8_t>(64, 3 * kTile);
    switch (which) {
        case 0: {  // RmsNorm's buffer below its minimum
            auto t = read_tiling<RmsNormTiling>(tiling);
            RmsNorm<float>(c, a, b, small, 0.01f, t);
            break;
        }
        case 1: {  // Sum with inner not n rounded up to 32 bytes
            SumParams params{2, 16, 5};
            Sum(c, a, small, params);
            break;
        }
        case 2: {  // DropOut with keepProb 0
            DropOutShapeInfo info;
            info.firstAxis = 1;
            info.srcLastAxis = 8;
            info.maskLastAxis = 8;
            DropOut(c, a, buffer.GetWithOffset<uint8_t>(32, kTile), 0.0f, info);
            break;
        }
        case 3:  // Arange past its tensor
            Arange(c, 0.0f, 1.0f, 2000);
            break;
        case 4: {  // a LayerNorm whose tiling was never filled
            LayerNormTiling t{};
            LayerNorm<float>(c, b, b[64], a, b[128], b[256], 0.01f, t);
            break;
        }
        case 5: {  // an operand off its 32-byte alignment
            AscendQuant<float>(buffer.GetWithOffset<int8_t>(256, 2 * kTile), a[1], 1.0f, 0.0f, 64);
            break;
        }
        case 6: {  // Pad to a width that is not the row's 32-byte alignment
            PadParams params{0, 9, 1};
            auto t = read_tiling<AscendC::tiling::PadTiling>(tiling);
            Pad(c, a, params, t);
            break;
        }
        case 7: {  // the vector unit still writing when the scalar unit reads
            Arange(c, 0.0f, 1.0f, 64);
            (void)c.GetValue(3);
            break;
        }
        case 8: {  // Select whose mask rows are shorter than the source's
            SelectWithBytesMaskShapeInfo info;
            info.firstAxis = 2;
            info.srcLastAxis = 64;
            info.maskLastAxis = 32;
            Select(c, a, 1.0f, buffer.GetWithOffset<uint8_t>(128, kTile), buffer.GetWithOffset<uint8_t>(2048, 2 * kTile), info);
            break;
        }
        case 9: {  // a bit mask too short for its rows
            DropOutShapeInfo info;
            info.firstAxis = 1;
            info.srcLastAxis = 512;
            info.maskLastAxis = 32;
            DropOut(c, a, buffer.GetWithOffset<uint8_t>(32, kTile), 0.5f, info);
            break;
        }
        case 10: {  // Broadcast along axis 1 from a row that is not [M, 1]
            uint32_t dst_shape[] = {4, 8};
            uint32_t src_shape[] = {4, 2};
            BroadCast<float, 2, 1>(c, a, dst_shape, src_shape);
            break;
        }
        case 11: {  // ReduceMax without srcInnerPad
            uint32_t shape[] = {4, 16};
            ReduceMax<float, Pattern::Reduce::AR>(c, a, shape, false);
            break;
        }
        case 12: {  // TopK with k past n
            TopkTiling t{};
            t.allDataSize = 64;
            TopKInfo info;
            info.outter = 2;
            info.inner = 32;
            info.n = 30;
            TopK<float>(c, b.ReinterpretCast<int32_t>(), a, b.ReinterpretCast<int32_t>(),
                        buffer.GetWithOffset<bool>(32, 3 * kTile), 31, t, info);
            break;
        }
        case 13: {  // TransData whose NDC1HWC0 layout does not cover C
            static constexpr TransDataConfig kTo = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
            auto ncdhw = MakeLayout(MakeShape(1, 40, 1, 2, 4), MakeStride());
            auto nd = MakeLayout(MakeShape(1, 1, 2, 2, 4, 16), MakeStride());
            TransDataParams<decltype(ncdhw), decltype(nd)> params = {ncdhw, nd};
            TransData<kTo>(c.ReinterpretCast<half>(), a.ReinterpretCast<half>(), params);
            break;
        }
        case 14: {  // a transpose type Canopy does not model
            ConfusionTransposeTiling t{};
            Transpose(c.ReinterpretCast<half>(), a.ReinterpretCast<half>(), TransposeType::TRANSPOSE_ND2ND_ONLY, t);
            break;
        }
        case 15:  // AscendDequant rows that are not 32 bytes of int32
            AscendDequant(c, a.ReinterpretCast<int32_t>(), b, DequantParams{2, 12, 12});
            break;
        case 16: {  // WelfordUpdate computing past its rows
            WelfordUpdateParam para{1, 16, 17, 0.5f};
            WelfordUpdate<float, float>(c, c[64], b, b[64], a, para);
            break;
        }
        case 17: {  // a full Sort with a temporary buffer too small for the pairs
            LocalTensor<float> concat;
            Concat(concat, a, b, 4);
            LocalTensor<float> too_small = buffer.GetWithOffset<float>(64, 3 * kTile);
            Sort<float, true>(c, concat, b.ReinterpretCast<uint32_t>(), too_small, 4);
            break;
        }
        case 18: {  // DeepNorm on a basic block whose B*S is not a multiple of 8
            auto t = read_tiling<DeepNormTiling>(tiling);
            DeepNorm<float, false, true>(c, b, b[64], a, a[512], b[128], b[256], 0.5f, 0.01f, t);
            break;
        }
    }
}

}  // namespace

TEST_CASE("advanced-API preconditions fail the launch with 507015 naming the kernel, block, API and sizes") {
    Runtime rt;
    Stream stream;
    AscendC::tiling::RmsNormTiling rms{};
    uint32_t max_value = 0, min_value = 0;
    REQUIRE(AscendC::GetRmsNormMaxMinTmpSize(AscendC::TensorShape({2, 4, 64}), 4, max_value, min_value));
    REQUIRE(AscendC::GetRmsNormTilingInfo(AscendC::TensorShape({2, 4, 64}), AscendC::TensorShape({2, 4, 64}),
                                          min_value, 4, rms));
    DeviceArray<uint8_t> rms_tiling(as_bytes(std::vector<AscendC::tiling::RmsNormTiling>{rms}));
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, rms_tiling.get(), 0),
                        ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"adv_norm_misuse_kernel", "block 1/2", "RmsNorm", "sharedTmpBuffer holds 64 bytes",
                         "at least 288"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, rms_tiling.get(), 1),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Sum", "inner 16", "n 5", "(8)"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, rms_tiling.get(), 2),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"DropOut", "keepProb 0"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, rms_tiling.get(), 3),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Arange", "dst needs 2000 elements", "holds 1024"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, rms_tiling.get(), 4),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"LayerNorm", "is empty"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, rms_tiling.get(), 5),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"AscendQuant", "srcTensor starts 4 bytes past a 32-byte"});
    AscendC::tiling::PadTiling pad{};
    AscendC::PadTilingFunc(AscendC::TensorShape({4, 7}), AscendC::TensorShape({4, 7}), 1024, 4, pad);
    DeviceArray<uint8_t> pad_tiling(as_bytes(std::vector<AscendC::tiling::PadTiling>{pad}));
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, pad_tiling.get(), 6),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Pad", "7 to 16 elements"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, pad_tiling.get(), 7),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Arange", "GetValue", "V_S"});
    const std::vector<std::pair<int32_t, std::vector<const char*>>> cases = {
        {8, {"Select", "maskLastAxis 32", "srcLastAxis 64"}},
        {9, {"DropOut", "maskLastAxis 32 bytes", "srcLastAxis 512 bits"}},
        {10, {"Broadcast", "axis 1", "srcShape [4, 2]"}},
        {11, {"ReduceMax", "srcInnerPad must be true"}},
        {12, {"TopK", "k 31", "n 30"}},
        {13, {"TransData", "C1 2", "C 40"}},
        {14, {"Transpose", "TransposeType 7"}},
        {15, {"AscendDequant", "params.n 12"}},
        {16, {"WelfordUpdate", "abComputeLength 17", "abLength 16"}},
        {17, {"Sort", "tmp holds 256 bytes", "at least 1024"}},
    };
    for (const auto& [which, fragments] : cases) {
        CAPTURE(which);
        REQUIRE(ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, pad_tiling.get(), which) == 0u);
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        for (const char* fragment : fragments) {
            CAPTURE(fragment);
            CHECK(message.find(fragment) != std::string::npos);
        }
        CHECK(message.find("block 1/2") != std::string::npos);
    }
    AscendC::tiling::DeepNormTiling deep{};
    deep.bLength = 1;
    deep.sLength = 3;
    deep.hLength = 64;
    deep.originalHLength = 64;
    DeviceArray<uint8_t> deep_tiling(as_bytes(std::vector<AscendC::tiling::DeepNormTiling>{deep}));
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_norm_misuse_kernel)(2, stream, deep_tiling.get(), 18),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"DeepNorm", "basic block", "B*S a multiple of 8 (3)"});
}
