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
    run_broken(kGelu, kN * 4, kTmp, 0, 0, {"Gelu", "calCount 1024 exceeds"});
    run_broken(kFmod, kN * 3 + 1, kTmp, 0, 0, {"Fmod", "calCount 769 exceeds", "src1Tensor"});
}
