// The advanced kernel API's math and activation operators (kernels/include/adv_api/math,
// adv_api/activation): each operator against a golden result through a real launch, float and
// half; the host tmp-size functions against CANN's numbers; and each precondition check (temporary
// buffer too small, the stack buffer too small, a misaligned tensor, calCount past a tensor) with
// a broken launch.
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "tiling/tiling_api.h"
#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kN = 256;          // elements per operand
constexpr uint32_t kTmp = 16 * 1024;  // the temporary buffer the golden runs give

enum Op : int32_t {
    kAcosh, kCeil, kClampMin, kClampMax, kErf, kExp, kFmod, kFrac, kLog, kLog2, kLog10, kPowerTT, kPowerTS,
    kPowerST, kGelu, kGeGLU, kSigmoid, kSilu, kSwish, kSwiGLU, kFasterGelu, kAxpy, kErfNoTmp, kOpCount
};

// out = op(in0, in1) over `count` elements of float tiles of kN; `tmp_bytes` of temporary buffer;
// `offset` elements shift the destination (a misaligned tensor when not a multiple of 8).
extern "C" __global__ __aicore__ void adv_float_kernel(GM_ADDR in0, GM_ADDR in1, GM_ADDR out, int32_t op,
                                                       uint32_t count, uint32_t tmp_bytes, uint32_t offset,
                                                       uint32_t hog_bytes) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, tmp, hog;
    pipe.InitBuffer(tiles, 4 * kN * sizeof(float));
    pipe.InitBuffer(tmp, tmp_bytes);
    if (hog_bytes > 0) pipe.InitBuffer(hog, hog_bytes);  // leaves less UB for the stack buffer
    AscendC::LocalTensor<float> a = tiles.Get<float>();
    AscendC::LocalTensor<float> b = a[kN];
    AscendC::LocalTensor<float> dst_tile = a[2 * kN];
    AscendC::LocalTensor<float> dst = dst_tile[offset];
    AscendC::LocalTensor<uint8_t> work = tmp.Get<uint8_t>();
    load_tile(a, in0, kN);
    load_tile(b, in1, kN);
    AscendC::Duplicate(dst_tile, 0.0f, kN);
    AscendC::PipeBarrier<PIPE_V>();
    switch (op) {
        case kAcosh: AscendC::Acosh(dst, a, work, count); break;
        case kCeil: AscendC::Ceil(dst, a, work, count); break;
        case kClampMin: AscendC::ClampMin(dst, a, work, 0.5f, count); break;
        case kClampMax: AscendC::ClampMax(dst, a, work, 0.5f, count); break;
        case kErf: AscendC::Erf(dst, a, work, count); break;
        case kExp: AscendC::Exp<float, 10>(dst, a, work, count); break;
        case kFmod: AscendC::Fmod(dst, a, b, work, count); break;
        case kFrac: AscendC::Frac(dst, a, work, count); break;
        case kLog: AscendC::Log(dst, a, count); break;
        case kLog2: AscendC::Log2(dst, a, work, count); break;
        case kLog10: AscendC::Log10(dst, a, count); break;
        case kPowerTT: AscendC::Power(dst, a, b, work, count); break;
        case kPowerTS: AscendC::Power(dst, a, 2.0f, work, count); break;
        case kPowerST: AscendC::Power(dst, 2.0f, b, work, count); break;
        case kGelu: AscendC::Gelu(dst, a, work, count); break;
        case kGeGLU: AscendC::GeGLU(dst, a, b, work, count); break;
        case kSigmoid: AscendC::Sigmoid(dst, a, work, count); break;
        case kSilu: AscendC::Silu(dst, a, count); break;
        case kSwish: AscendC::Swish(dst, a, count, 1.5f); break;
        case kSwiGLU: AscendC::SwiGLU(dst, a, b, 1.0f, work, count); break;
        case kFasterGelu: AscendC::FasterGelu(dst, a, work, count); break;
        case kAxpy:
            AscendC::Adds(dst, b, 0.0f, count);  // dst starts as b
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Axpy(dst, a, 3.0f, work, count);
            break;
        case kErfNoTmp: AscendC::Erf(dst, a, count); break;
    }
    store_tile(out, dst_tile, kN);
}

std::vector<float> ramp(float start, float step) {
    std::vector<float> values(kN);
    for (uint32_t i = 0; i < kN; ++i) values[i] = start + step * float(i);
    return values;
}

double gelu(double x) { return x / (1 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x))); }

double expected(int32_t op, double x, double y, double dst0) {
    switch (op) {
        case kAcosh: return std::acosh(x);
        case kCeil: return std::ceil(x);
        case kClampMin: return std::max(x, 0.5);
        case kClampMax: return std::min(x, 0.5);
        case kErf: case kErfNoTmp: return std::erf(x);
        case kExp: return std::exp(x);
        case kFmod: return std::fmod(x, y);
        case kFrac: return x - std::trunc(x);
        case kLog: return std::log(x);
        case kLog2: return std::log2(x);
        case kLog10: return std::log10(x);
        case kPowerTT: return std::pow(x, y);
        case kPowerTS: return std::pow(x, 2.0);
        case kPowerST: return std::pow(2.0, y);
        case kGelu: return gelu(x);
        case kGeGLU: return x * gelu(y);
        case kSigmoid: return 1 / (1 + std::exp(-x));
        case kSilu: return x / (1 + std::exp(-x));
        case kSwish: return x / (1 + std::exp(-1.5 * x));
        case kSwiGLU: return x * y / (1 + std::exp(-y));
        case kFasterGelu: return x / (1 + std::exp(-1.702 * x));
        case kAxpy: return dst0 + 3.0 * x;
    }
    return NAN;
}

struct Inputs {
    std::vector<float> a, b;
};

// Inputs in each operator's domain.
Inputs inputs(int32_t op) {
    switch (op) {
        case kAcosh: return {ramp(1.0f, 0.37f), ramp(0.0f, 0.0f)};
        case kLog: case kLog2: case kLog10: return {ramp(0.01f, 0.53f), ramp(0.0f, 0.0f)};
        case kFmod: return {ramp(-50.0f, 0.41f), ramp(0.7f, 0.013f)};
        case kPowerTT: return {ramp(0.1f, 0.013f), ramp(-2.0f, 0.017f)};
        case kPowerST: return {ramp(0.0f, 0.0f), ramp(-4.0f, 0.03f)};
        case kExp: return {ramp(-8.0f, 0.06f), ramp(0.0f, 0.0f)};
        default: return {ramp(-6.0f, 0.047f), ramp(-3.0f, 0.023f)};
    }
}

// Runs `op` over `count` elements; returns the destination tile.
std::vector<float> run(int32_t op, uint32_t count = kN) {
    Runtime rt;
    Stream stream;
    const Inputs in = inputs(op);
    DeviceArray<float> a(in.a), b(in.b), out(kN);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_float_kernel)(1, stream, a.get(), b.get(), out.get(), op, count, kTmp, 0u, 0u) ==
            0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    return out.read();
}

// A launch expected to fail with 507015 naming `fragments`.
void run_broken(int32_t op, uint32_t count, uint32_t tmp_bytes, uint32_t offset, uint32_t hog_bytes,
                std::initializer_list<const char*> fragments) {
    Runtime rt;
    Stream stream;
    const Inputs in = inputs(op);
    DeviceArray<float> a(in.a), b(in.b), out(kN);
    expect_launch_fault(stream,
                        ACLRT_LAUNCH_KERNEL(adv_float_kernel)(1, stream, a.get(), b.get(), out.get(), op, count,
                                                              tmp_bytes, offset, hog_bytes),
                        ACL_ERROR_RT_AICORE_EXCEPTION, fragments);
}

}  // namespace

TEST_CASE("every float operator matches its golden result over calCount elements") {
    for (int32_t op = 0; op < kOpCount; ++op) {
        CAPTURE(op);
        const uint32_t count = 200;  // fewer than the tile: the rest stays 0
        const std::vector<float> got = run(op, count);
        const Inputs in = inputs(op);
        for (uint32_t i = 0; i < kN; ++i) {
            CAPTURE(i);
            if (i >= count) {
                CHECK(got[i] == 0.0f);
                continue;
            }
            const double want = expected(op, in.a[i], in.b[i], in.b[i]);
            CHECK(std::abs(got[i] - want) <= 1e-5 * std::max(1.0, std::abs(want)));
        }
    }
}

// ---- half ----------------------------------------------------------------------------------------

namespace {

enum HalfOp : int32_t { kHalfCeil, kHalfErf, kHalfSigmoid, kHalfGelu, kHalfExp, kHalfAxpyToFloat, kHalfOpCount };

extern "C" __global__ __aicore__ void adv_half_kernel(GM_ADDR in, GM_ADDR out, GM_ADDR out_float, int32_t op,
                                                      uint32_t tmp_bytes) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, wide, tmp;
    pipe.InitBuffer(tiles, 2 * kN * sizeof(half));
    pipe.InitBuffer(wide, kN * sizeof(float));
    pipe.InitBuffer(tmp, tmp_bytes);
    AscendC::LocalTensor<half> src = tiles.Get<half>();
    AscendC::LocalTensor<half> dst = src[kN];
    AscendC::LocalTensor<float> dst_float = wide.Get<float>();
    AscendC::LocalTensor<uint8_t> work = tmp.Get<uint8_t>();
    load_tile(src, in, kN);
    AscendC::Duplicate(dst, half(0), kN);
    AscendC::Duplicate(dst_float, 1.0f, kN);
    AscendC::PipeBarrier<PIPE_V>();
    switch (op) {
        case kHalfCeil: AscendC::Ceil(dst, src, work, kN); break;
        case kHalfErf: AscendC::Erf(dst, src, work, kN); break;
        case kHalfSigmoid: AscendC::Sigmoid(dst, src, work, kN); break;
        case kHalfGelu: AscendC::Gelu(dst, src, work, kN); break;
        case kHalfExp: AscendC::Exp<half, 10>(dst, src, work, kN); break;
        case kHalfAxpyToFloat: AscendC::Axpy(dst_float, src, half(2.0f), work, kN); break;
    }
    store_tile(out, dst, kN);
    store_tile(out_float, dst_float, kN);
}

}  // namespace

TEST_CASE("half operators compute in float and round once") {
    std::vector<half> in(kN);
    for (uint32_t i = 0; i < kN; ++i) in[i] = half(-3.0f + 0.0235f * float(i));
    for (int32_t op = 0; op < kHalfOpCount; ++op) {
        CAPTURE(op);
        Runtime rt;
        Stream stream;
        DeviceArray<half> src(in), out(kN);
        DeviceArray<float> out_float(kN);
        REQUIRE(ACLRT_LAUNCH_KERNEL(adv_half_kernel)(1, stream, src.get(), out.get(), out_float.get(), op, kTmp) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        const std::vector<half> got = out.read();
        const std::vector<float> got_float = out_float.read();
        for (uint32_t i = 0; i < kN; ++i) {
            CAPTURE(i);
            const float x = float(in[i]);
            float want = 0;
            switch (op) {
                case kHalfCeil: want = std::ceil(x); break;
                case kHalfErf: want = std::erf(x); break;
                case kHalfSigmoid: want = 1 / (1 + std::exp(-x)); break;
                case kHalfGelu: want = float(gelu(x)); break;
                case kHalfExp: want = std::exp(x); break;
                case kHalfAxpyToFloat: want = 1.0f + 2.0f * x; break;
            }
            if (op == kHalfAxpyToFloat) {
                CHECK(got_float[i] == doctest::Approx(want).epsilon(1e-6));
            } else {
                CHECK(float(got[i]) == float(half(want)));  // the float result rounded once
            }
        }
    }
}

// ---- Xor, CumSum -------------------------------------------------------------------------------

namespace {

extern "C" __global__ __aicore__ void adv_xor_kernel(GM_ADDR in0, GM_ADDR in1, GM_ADDR out, uint32_t count) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, tmp;
    pipe.InitBuffer(tiles, 3 * kN * sizeof(int16_t));
    pipe.InitBuffer(tmp, 256);
    AscendC::LocalTensor<int16_t> a = tiles.Get<int16_t>();
    AscendC::LocalTensor<int16_t> b = a[kN];
    AscendC::LocalTensor<int16_t> dst = a[2 * kN];
    load_tile(a, in0, kN);
    load_tile(b, in1, kN);
    AscendC::Xor(dst, a, b, tmp.Get<uint8_t>(), count);
    store_tile(out, dst, kN);
}

constexpr uint32_t kRows = 12, kCols = 24;
constexpr AscendC::CumSumConfig kFirstAxis = {false, false, true};
constexpr AscendC::CumSumConfig kLastAxis = {true, false, true};

extern "C" __global__ __aicore__ void adv_cumsum_kernel(GM_ADDR in, GM_ADDR out, GM_ADDR last, int32_t last_axis,
                                                        uint32_t tmp_bytes) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, tmp;
    pipe.InitBuffer(tiles, (2 * kRows * kCols + kCols) * sizeof(float));
    pipe.InitBuffer(tmp, tmp_bytes);
    AscendC::LocalTensor<float> src = tiles.Get<float>();
    AscendC::LocalTensor<float> dst = src[kRows * kCols];
    AscendC::LocalTensor<float> last_row = src[2 * kRows * kCols];
    AscendC::LocalTensor<uint8_t> work = tmp.Get<uint8_t>();
    load_tile(src, in, kRows * kCols);
    const AscendC::CumSumInfo info{kRows, kCols};
    if (last_axis) {
        AscendC::CumSum<float, kLastAxis>(dst, last_row, src, work, info);
    } else {
        AscendC::CumSum<float, kFirstAxis>(dst, last_row, src, work, info);
    }
    store_tile(out, dst, kRows * kCols);
    store_tile(last, last_row, kCols);
}

}  // namespace

TEST_CASE("Xor of int16 tensors") {
    Runtime rt;
    Stream stream;
    std::vector<int16_t> x(kN), y(kN);
    for (uint32_t i = 0; i < kN; ++i) {
        x[i] = int16_t(i * 977 - 30000);
        y[i] = int16_t(i * 131 + 7);
    }
    DeviceArray<int16_t> a(x), b(y), out(kN);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_xor_kernel)(1, stream, a.get(), b.get(), out.get(), kN - 16) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int16_t> got = out.read();
    for (uint32_t i = 0; i < kN - 16; ++i) CHECK(got[i] == int16_t(x[i] ^ y[i]));
}

TEST_CASE("CumSum along either axis, with the last row") {
    std::vector<float> in(kRows * kCols);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(int(i % 7) - 3) * 0.5f + float(i) * 0.01f;
    for (int32_t last_axis = 0; last_axis < 2; ++last_axis) {
        CAPTURE(last_axis);
        uint32_t max_tmp = 0, min_tmp = 0;
        AscendC::GetCumSumMaxMinTmpSize(AscendC::TensorShape({kRows, kCols}), sizeof(float), last_axis != 0, false,
                                        max_tmp, min_tmp);
        Runtime rt;
        Stream stream;
        DeviceArray<float> src(in), out(kRows * kCols), last(kCols);
        REQUIRE(ACLRT_LAUNCH_KERNEL(adv_cumsum_kernel)(1, stream, src.get(), out.get(), last.get(), last_axis,
                                                       std::max(min_tmp, 32u)) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        const std::vector<float> got = out.read();
        const std::vector<float> got_last = last.read();
        std::vector<float> want = in;
        for (uint32_t r = 0; r < kRows; ++r) {
            for (uint32_t c = 0; c < kCols; ++c) {
                if (last_axis && c > 0) want[r * kCols + c] += want[r * kCols + c - 1];
                if (!last_axis && r > 0) want[r * kCols + c] += want[(r - 1) * kCols + c];
            }
        }
        for (uint32_t i = 0; i < want.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-6));
        for (uint32_t c = 0; c < kCols; ++c) CHECK(got_last[c] == doctest::Approx(want[(kRows - 1) * kCols + c]));
    }
}

// ---- the host functions ---------------------------------------------------------------------------

TEST_CASE("tmp-size functions answer CANN's numbers for the A2") {
    uint32_t max = 0, min = 0;
    const AscendC::TensorShape shape({1024});
    AscendC::GetAcoshMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 256);
    CHECK(max == 4096);
    AscendC::GetAcoshMaxMinTmpSize(shape, 2, false, max, min);
    CHECK(min == 512);
    CHECK(max == 4096);
    AscendC::GetAxpyMaxMinTmpSize(AscendC::TensorShape{{512}}, 2, false, max, min);
    CHECK(min == 1024);
    CHECK(max == 4096);
    AscendC::GetAxpyMaxMinTmpSize(AscendC::TensorShape{{512}}, 4, false, max, min);
    CHECK(min == 0);
    CHECK(max == 0);
    AscendC::GetCeilMaxMinTmpSize(shape, 2, false, max, min);
    CHECK(min == 512);
    CHECK(max == 4096);
    AscendC::GetClampMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 64);
    CHECK(max == 1024);
    AscendC::GetCumSumMaxMinTmpSize(AscendC::TensorShape({32, 160}), 4, true, false, max, min);
    CHECK(min == 20480);
    CHECK(max == 40960);
    AscendC::GetCumSumMaxMinTmpSize(AscendC::TensorShape({32, 160}), 2, false, false, max, min);
    CHECK(min == 20480);
    AscendC::GetErfMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 768);
    CHECK(max == 12288);
    AscendC::GetExpMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 768);
    CHECK(max == 12288);
    AscendC::GetExpMaxMinTmpSize(shape, 4, true, max, min);
    CHECK(min == 512);
    AscendC::GetFmodMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 256);
    CHECK(max == 4096);
    AscendC::GetFmodMaxMinTmpSize(shape, 2, false, max, min);
    CHECK(min == 2048);
    AscendC::GetFracMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 0);
    CHECK(max == 0);
    AscendC::GetLog2MaxMinTmpSize(shape, 2, false, max, min);
    CHECK(min == 256);
    CHECK(max == 4096);
    AscendC::GetPowerMaxMinTmpSize(shape, shape, false, 4, false, max, min);
    CHECK(min == 1280);
    CHECK(max == 16640);
    AscendC::GetPowerMaxMinTmpSize(shape, AscendC::TensorShape({1}), false, 4, false, max, min);
    CHECK(min == 1536);
    AscendC::GetPowerMaxMinTmpSize(shape, shape, false, 2, false, max, min);
    CHECK(min == 2048);
    AscendC::GetXorMaxMinTmpSize(shape, 2, false, max, min);
    CHECK(min == 256);
    CHECK(max == 2048);
    CHECK(AscendC::GetGeluMinTmpSize(shape, 4) == 768);
    CHECK(AscendC::GetGeluMaxTmpSize(shape, 4) == 12288);
    AscendC::GetGeGLUMaxMinTmpSize(shape, 2, false, max, min);
    CHECK(min == 1024);
    CHECK(max == 8192);
    AscendC::GetSigmoidMaxMinTmpSize(shape, 4, false, max, min);
    CHECK(min == 256);
    CHECK(max == 4096);
    AscendC::GetSwiGLUMaxMinTmpSize(shape, 2, max, min, false);
    CHECK(min == 1536);
    CHECK(max == 12288);
}

// ---- the checks ---------------------------------------------------------------------------------

TEST_CASE("a sharedTmpBuffer below the minimum fails the launch") {
    run_broken(kErf, kN, 512, 0, 0, {"Erf", "sharedTmpBuffer holds 512 bytes", "768 bytes", "GetErfMaxMinTmpSize"});
    run_broken(kPowerTT, kN, 1024, 0, 0, {"Power", "1024 bytes", "1280 bytes"});
    run_broken(kSigmoid, kN, 32, 0, 0, {"Sigmoid", "32 bytes", "256 bytes"});
}

TEST_CASE("without a sharedTmpBuffer, the UB left after the TPipe must hold the minimum") {
    const uint32_t ub = 192 * 1024;
    const uint32_t carved = 4 * kN * sizeof(float) + kTmp;
    run_broken(kErfNoTmp, kN, kTmp, 0, ub - carved - 512, {"Erf", "no sharedTmpBuffer", "512 bytes", "768 bytes"});
}

TEST_CASE("a misaligned tensor fails the launch") {
    run_broken(kAcosh, 16, kTmp, 3, 0, {"Acosh", "dstTensor", "32-byte"});
}

TEST_CASE("calCount past a tensor fails the launch") {
    run_broken(kGelu, kN * 4, kTmp, 0, 0, {"Gelu", "needs 1024 elements (calCount)"});
    run_broken(kFmod, kN * 3 + 1, kTmp, 0, 0, {"Fmod", "src1Tensor needs 769 elements (calCount)"});
}

// ---- the SoftMax family ----------------------------------------------------------------------------

namespace {

constexpr uint32_t kM = 8, kK = 64;
constexpr AscendC::SoftmaxConfig kStrictTiling = {false, 0, 0};
constexpr AscendC::SoftmaxConfig kNoBroadcast = {true, 0, 0, AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

enum SoftmaxOp : int32_t {
    kSoftMax, kSimpleSoftMax, kFlashV2, kLogSoftMax, kGrad, kGradFront, kAdjust, kSoftMaxStrict, kFlashV2NoTmp,
    kSoftMaxBasic, kFlashV2NoBroadcast
};

// out (kM x kK) and stats (max, sum: kM x 8 each) of `op` on x (and y); the tiling from the host.
extern "C" __global__ __aicore__ void adv_softmax_kernel(GM_ADDR x_gm, GM_ADDR y_gm, GM_ADDR out_gm, GM_ADDR stats_gm,
                                                         int32_t op, SoftMaxTiling tiling, uint32_t tmp_bytes,
                                                         uint32_t rows, uint32_t cols) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, stats, tmp;
    pipe.InitBuffer(tiles, 3 * kM * kK * sizeof(float));
    pipe.InitBuffer(stats, 3 * kM * 8 * sizeof(float));
    pipe.InitBuffer(tmp, tmp_bytes);
    AscendC::LocalTensor<float> x = tiles.Get<float>();
    AscendC::LocalTensor<float> y = x[kM * kK];
    AscendC::LocalTensor<float> dst = x[2 * kM * kK];
    AscendC::LocalTensor<float> max = stats.Get<float>();
    AscendC::LocalTensor<float> sum = max[kM * 8];
    AscendC::LocalTensor<float> exp_max = max[2 * kM * 8];
    AscendC::LocalTensor<uint8_t> work = tmp.Get<uint8_t>();
    load_tile(x, x_gm, kM * kK);
    load_tile(y, y_gm, kM * kK);
    AscendC::Duplicate(dst, 0.0f, kM * kK);
    AscendC::Duplicate(max, 0.0f, 3 * kM * 8);
    AscendC::PipeBarrier<PIPE_V>();
    const AscendC::SoftMaxShapeInfo shape{rows, cols, rows, cols};
    switch (op) {
        case kSoftMax: AscendC::SoftMax<float>(dst, sum, max, x, work, tiling, shape); break;
        case kSimpleSoftMax:
            AscendC::SoftMax<float>(dst, sum, max, x, work, tiling, shape);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::SimpleSoftMax<float>(dst, sum, max, y, work, tiling, shape);  // y with x's statistics
            break;
        case kFlashV2: {  // two column halves, the second updating the first's statistics
            const AscendC::SoftMaxShapeInfo half_shape{rows, cols / 2, rows, cols / 2};
            // y holds x rearranged on the host side: rows of the left halves, then of the right halves
            AscendC::LocalTensor<float> left = y, right = y[kM * kK / 2];
            AscendC::SoftmaxFlashV2<float, false>(dst, sum, max, left, exp_max, sum, max, work, tiling, half_shape);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::SoftmaxFlashV2<float, true>(dst[kM * kK / 2], sum, max, right, exp_max, sum, max, work, tiling,
                                                 half_shape);
            break;
        }
        case kLogSoftMax: {
            LogSoftMaxTiling log_tiling;
            AscendC::LogSoftMax<float>(dst, sum, max, x, work, log_tiling, shape);
            break;
        }
        case kGrad: AscendC::SoftmaxGrad<float>(dst, y, x, work, tiling, false, shape); break;
        case kGradFront: AscendC::SoftmaxGradFront<float>(sum, y, x, work, tiling, shape); break;
        case kAdjust:
            AscendC::SoftMax<float>(dst, sum, max, x, work, tiling, shape);
            AscendC::PipeBarrier<PIPE_V>();
            // rows whose max is exactly 3.0f get -1
            AscendC::AdjustSoftMaxRes<float, float>(dst, max, 0x40400000u, -1.0f, shape);
            break;
        case kSoftMaxStrict: AscendC::SoftMax<float, false, false, false, kStrictTiling>(dst, sum, max, x, work, tiling, shape); break;
        case kFlashV2NoTmp: AscendC::SoftmaxFlashV2<float, false>(dst, sum, max, x, exp_max, sum, max, tiling, shape); break;
        case kSoftMaxBasic: AscendC::SoftMax<float, false, true>(dst, sum, max, x, work, tiling, shape); break;
        case kFlashV2NoBroadcast:
            AscendC::SoftmaxFlashV2<float, false, false, false, false, kNoBroadcast>(dst, sum, max, x, exp_max, sum,
                                                                                     max, work, tiling, shape);
            break;
    }
    store_tile(out_gm, dst, kM * kK);
    store_tile(stats_gm, max, 3 * kM * 8);
}

struct SoftmaxResult {
    std::vector<float> out, stats;
};

std::vector<float> softmax_input(float phase) {
    std::vector<float> v(kM * kK);
    for (uint32_t i = 0; i < v.size(); ++i) v[i] = 3.0f * std::sin(0.37f * float(i) + phase) + float(i / kK) * 0.25f;
    return v;
}

SoftMaxTiling host_tiling(uint32_t rows, uint32_t cols, uint32_t tmp_bytes) {
    SoftMaxTiling tiling;
    AscendC::SoftMaxTilingFunc(AscendC::TensorShape({rows, cols}), sizeof(float), tmp_bytes, tiling);
    return tiling;
}

SoftmaxResult run_softmax(int32_t op, const std::vector<float>& x, const std::vector<float>& y) {
    Runtime rt;
    Stream stream;
    DeviceArray<float> xs(x), ys(y), out(kM * kK), stats(3 * kM * 8);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_softmax_kernel)(1, stream, xs.get(), ys.get(), out.get(), stats.get(), op,
                                                    host_tiling(kM, kK, kTmp), kTmp, kM, kK) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    return {out.read(), stats.read()};
}

struct RowStats {
    double max, sum;
};
RowStats row_stats(const std::vector<float>& x, uint32_t r, uint32_t from = 0, uint32_t to = kK) {
    double m = -INFINITY, s = 0;
    for (uint32_t c = from; c < to; ++c) m = std::max(m, double(x[r * kK + c]));
    for (uint32_t c = from; c < to; ++c) s += std::exp(x[r * kK + c] - m);
    return {m, s};
}

}  // namespace

TEST_CASE("SoftMax, SimpleSoftMax, LogSoftMax: rows and their statistics, one 32-byte block a row") {
    const std::vector<float> x = softmax_input(0.0f), y = softmax_input(1.0f);
    const SoftmaxResult soft = run_softmax(kSoftMax, x, y);
    const SoftmaxResult simple = run_softmax(kSimpleSoftMax, x, y);
    const SoftmaxResult log = run_softmax(kLogSoftMax, x, y);
    CHECK(run_softmax(kSoftMaxBasic, x, y).out == soft.out);  // 8 x 64 is a basic block: same results
    for (uint32_t r = 0; r < kM; ++r) {
        const RowStats st = row_stats(x, r);
        for (uint32_t j = 0; j < 8; ++j) {
            CHECK(soft.stats[r * 8 + j] == doctest::Approx(st.max).epsilon(1e-6));
            CHECK(soft.stats[kM * 8 + r * 8 + j] == doctest::Approx(st.sum).epsilon(1e-5));
            CHECK(log.stats[kM * 8 + r * 8 + j] == doctest::Approx(st.sum).epsilon(1e-5));
        }
        for (uint32_t c = 0; c < kK; ++c) {
            const double p = std::exp(x[r * kK + c] - st.max) / st.sum;
            CHECK(soft.out[r * kK + c] == doctest::Approx(p).epsilon(1e-5));
            CHECK(log.out[r * kK + c] == doctest::Approx(std::log10(p)).epsilon(1e-5));
            CHECK(simple.out[r * kK + c] == doctest::Approx(std::exp(y[r * kK + c] - st.max) / st.sum).epsilon(1e-5));
        }
    }
}

TEST_CASE("SoftmaxFlashV2 over two column blocks equals the statistics of the whole row") {
    const std::vector<float> x = softmax_input(0.5f);
    std::vector<float> halves(kM * kK);  // [kM, kK/2] of the left halves, then of the right halves
    for (uint32_t r = 0; r < kM; ++r) {
        for (uint32_t c = 0; c < kK / 2; ++c) {
            halves[r * (kK / 2) + c] = x[r * kK + c];
            halves[kM * kK / 2 + r * (kK / 2) + c] = x[r * kK + kK / 2 + c];
        }
    }
    const SoftmaxResult flash = run_softmax(kFlashV2, x, halves);
    for (uint32_t r = 0; r < kM; ++r) {
        const RowStats whole = row_stats(x, r);
        const RowStats left = row_stats(x, r, 0, kK / 2);
        const double new_max = whole.max;
        CHECK(flash.stats[r * 8] == doctest::Approx(new_max).epsilon(1e-6));
        CHECK(flash.stats[kM * 8 + r * 8 + 7] == doctest::Approx(whole.sum).epsilon(1e-5));
        CHECK(flash.stats[2 * kM * 8 + r * 8] == doctest::Approx(std::exp(left.max - new_max)).epsilon(1e-5));
        // the second block's exponentials use the updated max
        for (uint32_t c = 0; c < kK / 2; ++c) {
            CHECK(flash.out[kM * kK / 2 + r * (kK / 2) + c] ==
                  doctest::Approx(std::exp(x[r * kK + kK / 2 + c] - new_max)).epsilon(1e-5));
        }
    }
}

TEST_CASE("SOFTMAX_OUTPUT_WITHOUT_BRC writes one statistic per row") {
    const std::vector<float> x = softmax_input(0.7f);
    const SoftmaxResult flash = run_softmax(kFlashV2NoBroadcast, x, x);
    for (uint32_t r = 0; r < kM; ++r) {
        const RowStats st = row_stats(x, r);
        CHECK(flash.stats[r] == doctest::Approx(st.max).epsilon(1e-6));
        CHECK(flash.stats[kM * 8 + r] == doctest::Approx(st.sum).epsilon(1e-5));
    }
    for (uint32_t i = kM; i < kM * 8; ++i) CHECK(flash.stats[i] == 0.0f);  // the rest stays as it was
}

TEST_CASE("SoftmaxGrad and SoftmaxGradFront") {
    const std::vector<float> x = softmax_input(0.2f), dy = softmax_input(2.0f);
    const SoftmaxResult grad = run_softmax(kGrad, x, dy);
    const SoftmaxResult front = run_softmax(kGradFront, x, dy);
    for (uint32_t r = 0; r < kM; ++r) {
        double dot = 0;
        for (uint32_t c = 0; c < kK; ++c) dot += double(x[r * kK + c]) * dy[r * kK + c];
        for (uint32_t j = 0; j < 8; ++j) CHECK(front.stats[kM * 8 + r * 8 + j] == doctest::Approx(dot).epsilon(1e-5));
        for (uint32_t c = 0; c < kK; ++c) {
            CHECK(grad.out[r * kK + c] ==
                  doctest::Approx((dy[r * kK + c] - dot) * x[r * kK + c]).epsilon(1e-4).scale(10));
        }
    }
}

TEST_CASE("AdjustSoftMaxRes rewrites the rows whose max has the given bits") {
    std::vector<float> x = softmax_input(0.0f);
    for (uint32_t c = 0; c < kK; ++c) x[2 * kK + c] = c == 5 ? 3.0f : -1.0f;  // row 2's max is 3.0f
    for (uint32_t r = 0; r < kM; ++r) {
        if (r != 2) x[r * kK] = 100.0f;
    }
    const SoftmaxResult adjusted = run_softmax(kAdjust, x, x);
    for (uint32_t c = 0; c < kK; ++c) CHECK(adjusted.out[2 * kK + c] == -1.0f);
    CHECK(adjusted.out[3 * kK] == doctest::Approx(1.0).epsilon(1e-5));
}

TEST_CASE("SoftMax family tilings and tmp sizes are CANN's") {
    const AscendC::TensorShape shape({16, 128});
    CHECK(AscendC::GetSoftMaxMinTmpSize(shape, 4, false) == (8 + 128 + 64) * 4);
    CHECK(AscendC::GetSoftMaxMaxTmpSize(shape, 4, false) == 16 * (8 + 128 + 64) * 4);
    CHECK(AscendC::GetSoftMaxMinTmpSize(shape, 2, false) == (16 + 128 + 64) * 4);
    CHECK(AscendC::GetLogSoftMaxMinTmpSize(shape, 4, false) == (8 + 128 + 64) * 4);
    CHECK(AscendC::GetSoftMaxFlashV2MinTmpSize(shape, 4, 4, true, false) == (8 + 64) * 4);
    CHECK(AscendC::GetSoftMaxFlashV2MinTmpSize(shape, 4, 4, true, true) == 8 * (8 + 64) * 4);
    CHECK(AscendC::GetSoftMaxFlashV2MinTmpSize(shape, 2, 2, true, false) == (32 + 128 + 64) * 4);
    CHECK(AscendC::GetSoftMaxGradMinTmpSize(shape, 4, false, false) == (16 + 128 + 64) * 4);
    CHECK(AscendC::GetSoftMaxGradMinTmpSize(shape, 4, true, false) == (8 + 128 + 64) * 4);
    CHECK(AscendC::GetSoftMaxGradMinTmpSize(shape, 2, false, false) == (32 + 384 + 64) * 4);
    uint32_t max = 0, min = 0;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(AscendC::TensorShape({8, 2048}), 2, 4, max, min, true);
    CHECK(min == (40 + 4096 + 64) * 4);
    CHECK(max == 8 * min);

    // 2.5 rows' worth of buffer: blocks of 2 rows, the tail none.
    SoftMaxTiling tiling;
    AscendC::SoftMaxTilingFunc(shape, 4, 5 * 200 * 4 / 2, tiling);
    CHECK(tiling.srcM == 16);
    CHECK(tiling.srcK == 128);
    CHECK(tiling.outMaxK == 8);
    CHECK(tiling.splitM == 2);
    CHECK(tiling.rangeM == 8);
    CHECK(tiling.tailM == 0);
    CHECK(tiling.reduceSize == 16);
    // The host class's bytes are the kernel struct's.
    optiling::SoftMaxTiling host;
    AscendC::SoftMaxTilingFunc(AscendC::TensorShape({20, 64}), 4, 11 * 136 * 4, host);
    SoftMaxTiling copied;
    host.SaveToBuffer(&copied, sizeof(copied));
    CHECK(copied.splitM == 8);  // 11 rows fit; a multiple of 8 below srcM
    CHECK(copied.rangeM == 2);
    CHECK(copied.tailM == 4);
    CHECK(copied.tailSplitSize == 256);
    CHECK(host.get_tailReduceSize() == 32);
}

TEST_CASE("SoftMax family checks: tmp buffer, alignment, statistics tensors, tiling") {
    const std::vector<float> x = softmax_input(0.0f);
    auto broken = [&](int32_t op, SoftMaxTiling tiling, uint32_t tmp_bytes, uint32_t rows, uint32_t cols,
                      std::initializer_list<const char*> fragments) {
        Runtime rt;
        Stream stream;
        DeviceArray<float> xs(x), out(kM * kK), stats(3 * kM * 8);
        expect_launch_fault(stream,
                            ACLRT_LAUNCH_KERNEL(adv_softmax_kernel)(1, stream, xs.get(), xs.get(), out.get(),
                                                                    stats.get(), op, tiling, tmp_bytes, rows, cols),
                            ACL_ERROR_RT_AICORE_EXCEPTION, fragments);
    };
    const SoftMaxTiling good = host_tiling(kM, kK, kTmp);
    // below (8 + 64 + 64) * 4 = 544 bytes
    broken(kSoftMax, good, 512, kM, kK, {"SoftMax", "sharedTmpBuffer holds 512 bytes", "544 bytes", "GetSoftMaxMinTmpSize"});
    // 12 floats a row: 48 bytes, not 32-byte aligned
    broken(kSoftMax, good, kTmp, kM, 12, {"SoftMax", "srcK 12", "not 32-byte aligned"});
    // 16 rows: the source holds them (the x and y tiles follow each other) but the destination does not
    broken(kSoftMax, good, kTmp, 2 * kM, kK, {"SoftMax", "dstTensor needs 1024 elements (the shape)"});
    // isCheckTiling false with a tiling of another shape
    broken(kSoftMaxStrict, host_tiling(kM, 2 * kK, kTmp), kTmp, kM, kK, {"SoftMax", "does not match the shape", "isCheckTiling"});
    // the basic block needs rows in 8s and columns in 64s
    broken(kSoftMaxBasic, good, kTmp, 4, kK, {"SoftMax", "isBasicBlock", "4 x 64"});
    // no sharedTmpBuffer: the stack buffer is what the TPipe left, plenty here, so this one passes
    Runtime rt;
    Stream stream;
    DeviceArray<float> xs(x), out(kM * kK), stats(3 * kM * 8);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_softmax_kernel)(1, stream, xs.get(), xs.get(), out.get(), stats.get(),
                                                    int32_t(kFlashV2NoTmp), good, kTmp, kM, kK) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

// ---- half SoftMax with float statistics, SoftmaxFlashV3 ------------------------------------------

namespace {

constexpr uint32_t kV3Rows = 8, kV3Cols = 512;

extern "C" __global__ __aicore__ void adv_softmax_half_kernel(GM_ADDR x_gm, GM_ADDR out_gm, GM_ADDR stats_gm,
                                                              SoftMaxTiling tiling) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, stats, tmp;
    pipe.InitBuffer(tiles, 2 * kM * kK * sizeof(half));
    pipe.InitBuffer(stats, 2 * kM * 8 * sizeof(float));
    pipe.InitBuffer(tmp, kTmp);
    AscendC::LocalTensor<half> x = tiles.Get<half>();
    AscendC::LocalTensor<half> dst = x[kM * kK];
    AscendC::LocalTensor<float> max = stats.Get<float>();
    AscendC::LocalTensor<float> sum = max[kM * 8];
    load_tile(x, x_gm, kM * kK);
    AscendC::SoftMax<half>(dst, sum, max, x, tmp.Get<uint8_t>(), tiling, {kM, kK, kM, kK});
    store_tile(out_gm, dst, kM * kK);
    store_tile(stats_gm, max, 2 * kM * 8);
}

// SoftmaxFlashV3 with isUpdate over one [kV3Rows, kV3Cols] half tile; statistics in 8-float blocks.
extern "C" __global__ __aicore__ void adv_flash_v3_kernel(GM_ADDR x_gm, GM_ADDR in_gm, GM_ADDR out_gm,
                                                          GM_ADDR stats_gm, SoftMaxTiling tiling, uint32_t tmp_bytes) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, stats, exp_max_buf, tmp;
    pipe.InitBuffer(tiles, 2 * kV3Rows * kV3Cols * sizeof(half));
    pipe.InitBuffer(stats, 3 * kV3Rows * 8 * sizeof(float));
    pipe.InitBuffer(exp_max_buf, kV3Rows * 16 * sizeof(half));
    pipe.InitBuffer(tmp, tmp_bytes);
    AscendC::LocalTensor<half> x = tiles.Get<half>();
    AscendC::LocalTensor<half> dst = x[kV3Rows * kV3Cols];
    AscendC::LocalTensor<float> mean = stats.Get<float>();
    AscendC::LocalTensor<float> sum = mean[kV3Rows * 8];
    AscendC::LocalTensor<float> max = mean[2 * kV3Rows * 8];
    AscendC::LocalTensor<half> exp_max = exp_max_buf.AllocTensor<half>();
    load_tile(x, x_gm, kV3Rows * kV3Cols);
    load_tile(mean, in_gm, 3 * kV3Rows * 8);
    uint32_t dims[2] = {kV3Rows, kV3Cols};
    x.SetShapeInfo(AscendC::ShapeInfo(2, dims));
    const AscendC::SoftMaxParams params = {kV3Rows, kV3Cols, kV3Rows, kV3Cols, 2, 8, 0.9375f};
    AscendC::SoftmaxFlashV3<half, float, true>(dst, mean, sum, max, x, exp_max, mean, sum, max, tmp.Get<uint8_t>(),
                                               tiling, params);
    store_tile(out_gm, dst, kV3Rows * kV3Cols);
    store_tile(stats_gm, mean, 3 * kV3Rows * 8);
    exp_max_buf.FreeTensor(exp_max);
}

}  // namespace

TEST_CASE("half SoftMax writes float statistics") {
    const std::vector<float> values = softmax_input(0.3f);
    std::vector<half> in(values.size());
    for (size_t i = 0; i < values.size(); ++i) in[i] = half(values[i]);
    Runtime rt;
    Stream stream;
    DeviceArray<half> x(in), out(kM * kK);
    DeviceArray<float> stats(2 * kM * 8);
    SoftMaxTiling tiling;
    AscendC::SoftMaxTilingFunc(AscendC::TensorShape({kM, kK}), sizeof(half), kTmp, tiling);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_softmax_half_kernel)(1, stream, x.get(), out.get(), stats.get(), tiling) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<half> got = out.read();
    const std::vector<float> st = stats.read();
    for (uint32_t r = 0; r < kM; ++r) {
        double m = -INFINITY, s = 0;
        for (uint32_t c = 0; c < kK; ++c) m = std::max(m, double(float(in[r * kK + c])));
        for (uint32_t c = 0; c < kK; ++c) s += std::exp(double(float(in[r * kK + c])) - m);
        CHECK(st[r * 8 + 7] == doctest::Approx(m));
        CHECK(st[kM * 8 + r * 8] == doctest::Approx(s).epsilon(1e-5));
        for (uint32_t c = 0; c < kK; ++c) {
            CHECK(float(got[r * kK + c]) ==
                  doctest::Approx(std::exp(double(float(in[r * kK + c])) - m) / s).epsilon(2e-3));
        }
    }
}

TEST_CASE("SoftmaxFlashV3 re-centres on the running means and updates the statistics") {
    std::vector<half> in(kV3Rows * kV3Cols);
    for (size_t i = 0; i < in.size(); ++i) in[i] = half(5.0f + 4.0f * std::sin(0.013f * float(i * i % 977)));
    std::vector<float> stats_in(3 * kV3Rows * 8, 0.5f);  // mean, sum, max
    uint32_t max_tmp = 0, min_tmp = 0;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(AscendC::TensorShape({kV3Rows, kV3Cols}), 2, 4, max_tmp, min_tmp, true);
    SoftMaxTiling tiling;
    AscendC::SoftMaxFlashV3TilingFunc(AscendC::TensorShape({kV3Rows, kV3Cols}), 2, 4, min_tmp, tiling, true);
    CHECK(tiling.splitM == 1);
    Runtime rt;
    Stream stream;
    DeviceArray<half> x(in), out(in.size());
    DeviceArray<float> stats_dev(stats_in), stats_out(stats_in.size());
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_flash_v3_kernel)(1, stream, x.get(), stats_dev.get(), out.get(), stats_out.get(),
                                                     tiling, min_tmp) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<half> got = out.read();
    const std::vector<float> st = stats_out.read();
    const double scalar = 0.9375 / (1 - 0.9375), n = 2;
    for (uint32_t r = 0; r < kV3Rows; ++r) {
        // The local means: 64 lanes, the first 512 columns (here all) as 8-column blocks.
        double local[8] = {}, global = 0;
        for (uint32_t c = 0; c < kV3Cols; ++c) local[c / 64] += float(in[r * kV3Cols + c]);
        for (double& l : local) {
            l /= kV3Cols / 8;
            global += l / 8;
        }
        std::vector<double> shifted(kV3Cols);
        double row_max = -INFINITY;
        for (uint32_t c = 0; c < kV3Cols; ++c) {
            shifted[c] = float(in[r * kV3Cols + c]) - (global - local[c / (kV3Cols / 8)]) * scalar;
            row_max = std::max(row_max, shifted[c]);
        }
        const double mean = (global + 0.5 * (n - 1)) / n;
        const double shift_curr = (global - mean) * scalar, shift_prev = (0.5 - mean) * scalar;
        const double max = std::max(row_max + shift_curr, 0.5 + shift_prev);
        double sum = 0;
        for (uint32_t c = 0; c < kV3Cols; ++c) {
            const double e = std::exp(shifted[c] - max + shift_curr);
            sum += e;
            CHECK(float(got[r * kV3Cols + c]) == doctest::Approx(e).epsilon(2e-3).scale(1e-3));
        }
        const double exp_max = std::exp(0.5 - max + shift_prev);
        CHECK(st[r * 8] == doctest::Approx(mean).epsilon(1e-5));
        CHECK(st[kV3Rows * 8 + r * 8] == doctest::Approx(exp_max * 0.5 + sum).epsilon(1e-4));
        CHECK(st[2 * kV3Rows * 8 + r * 8] == doctest::Approx(max).epsilon(1e-5));
    }
}

TEST_CASE("SoftmaxFlashV3 checks its split and its temporary buffer") {
    std::vector<half> in(kV3Rows * kV3Cols, half(1.0f));
    std::vector<float> stats_in(3 * kV3Rows * 8, 0.5f);
    SoftMaxTiling tiling;
    AscendC::SoftMaxFlashV3TilingFunc(AscendC::TensorShape({kV3Rows, kV3Cols}), 2, 4, 1 << 16, tiling, true);
    Runtime rt;
    Stream stream;
    DeviceArray<half> x(in), out(in.size());
    DeviceArray<float> stats_dev(stats_in), stats_out(stats_in.size());
    expect_launch_fault(stream,
                        ACLRT_LAUNCH_KERNEL(adv_flash_v3_kernel)(1, stream, x.get(), stats_dev.get(), out.get(),
                                                                 stats_out.get(), tiling, 1024u),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"SoftmaxFlashV3", "sharedTmpBuffer holds 1024 bytes", "4512 bytes"});
}

// ---- utils -------------------------------------------------------------------------------------

TEST_CASE("AscendC::Std type traits, ShapeInfo, the scalar min and max") {
    static_assert(AscendC::Std::is_same_v<AscendC::Std::remove_cv_t<const volatile int>, int>);
    static_assert(AscendC::Std::is_floating_point<float>::value && !AscendC::Std::is_integral<float>::value);
    static_assert(AscendC::Std::is_same_v<AscendC::Std::add_rvalue_reference_t<int&>, int&>);
    static_assert(AscendC::Std::is_array<int[3]>::value && !AscendC::Std::is_pointer<int[3]>::value);
    const uint32_t dims[3] = {2, 3, 4};
    const AscendC::ShapeInfo info(3, dims);
    CHECK(AscendC::GetShapeSize(info) == 24);
    CHECK(info.dataFormat == AscendC::DataFormat::ND);
    CHECK(min(uint32_t(7), uint32_t(3)) == 3u);
    CHECK(max(-1.5f, 2.5f) == 2.5f);
    const AscendC::TensorShape shape({4, 8, 16});
    CHECK(shape.GetShapeSize() == 512);
    CHECK(shape.GetDimNum() == 3);
    CHECK(shape.GetDim(2) == 16);
}

// ---- the pipe model ----------------------------------------------------------------------------

namespace {

// Loads x with DataCopy (MTE2) and, when `synchronized`, orders the load before Sigmoid (V).
extern "C" __global__ __aicore__ void adv_sync_kernel(GM_ADDR x_gm, GM_ADDR out_gm, int32_t synchronized) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tiles, tmp;
    pipe.InitBuffer(tiles, 2 * kN * sizeof(float));
    pipe.InitBuffer(tmp, 1024);
    AscendC::LocalTensor<float> x = tiles.Get<float>();
    AscendC::LocalTensor<float> dst = x[kN];
    AscendC::GlobalTensor<float> global;
    global.SetGlobalBuffer((__gm__ float*)x_gm, kN);
    AscendC::DataCopy(x, global, kN);
    if (synchronized) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AscendC::Sigmoid(dst, x, tmp.Get<uint8_t>(), kN);
    store_tile(out_gm, dst, kN);
}

}  // namespace

TEST_CASE("an advanced API call is a vector-pipe instruction: a missing MTE2_V flag is caught") {
    Runtime rt;
    Stream stream;
    DeviceArray<float> x(ramp(-2.0f, 0.01f)), out(kN);
    REQUIRE(ACLRT_LAUNCH_KERNEL(adv_sync_kernel)(1, stream, x.get(), out.get(), 1) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read()[0] == doctest::Approx(1 / (1 + std::exp(2.0))));
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(adv_sync_kernel)(1, stream, x.get(), out.get(), 0),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Sigmoid", "MTE2_V"});
}
