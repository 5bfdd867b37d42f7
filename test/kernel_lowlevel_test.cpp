// The low-level and older-named pieces of the Ascend C API that catlass calls on the A2: the
// reductions under their names before CANN 9.1 (WholeReduce*, BlockReduce*, PairReduceSum,
// RepeatReduceSum), MulAddDst and Axpy's half-to-float count form, Mmad's HF32 mode,
// Load3DSetFMatrixCal, the CTRL register's saturation bit (GetCtrlSpr / SetCtrlSpr), the intrinsics
// pipe_barrier and icache_preload, the scalar helpers ToFloat and SizeOfBits, and the tensors'
// public address_ (LocalTensor::SetAddr across element types, GlobalTensor address_ copies); each
// against a reference computed here, and misuse failing the launch with 507015 naming the kernel,
// the API and the sizes.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

// ---- The reductions under their older names ----------------------------------------------------

constexpr uint32_t kRepeats = 4;  // rows of 64 floats, one repeat each
constexpr uint32_t kOut = 192;

float source_value(uint32_t i) { return float(int((i * 29) % 83) - 41); }  // small integers: exact sums

extern "C" __global__ __aicore__ void old_reduce_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, (kRepeats * 64 + kOut) * sizeof(float));
    AscendC::LocalTensor<float> src = buffer.Get<float>();
    AscendC::LocalTensor<float> dst = src[kRepeats * 64];
    load_tile(src, in, kRepeats * 64);
    AscendC::Duplicate(dst, -1000.0f, kOut);
    uint64_t low32[2] = {0xFFFFFFFFull, 0};
    // dst[1, 5): row sums, at an element (not 32-byte) aligned dst as the A2 allows for a sum.
    AscendC::WholeReduceSum<float>(dst[1], src, 64, kRepeats, 1, 1, 8);
    // dst[8, 16): (max, index) of each row's first 32 elements; dst[16, 20): each row's minimum.
    AscendC::WholeReduceMax<float>(dst[8], src, low32, kRepeats, 1, 1, 8);
    AscendC::WholeReduceMin<float>(dst[16], src, 64, kRepeats, 1, 1, 8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
    // dst[24, 56), [56, 88), [88, 120): per 32-byte block sums, maxima (first 32 elements), minima.
    AscendC::BlockReduceSum<float>(dst[24], src, kRepeats, 64, 1, 1, 8);
    AscendC::BlockReduceMax<float>(dst[56], src, kRepeats, low32, 1, 1, 8);
    AscendC::BlockReduceMin<float>(dst[88], src, kRepeats, 64, 1, 1, 8);
    // dst[120, 152): pair sums of row 0; dst[152, 156): row sums (dstBlkStride ignored).
    AscendC::PairReduceSum<float>(dst[120], src, 1, 64, 1, 1, 8);
    AscendC::RepeatReduceSum<float>(dst[152], src, kRepeats, 64, 7, 1, 1, 8);
    // dst[160, 164): sums of each row's first 8 elements, the mask from the register (isSetMask false).
    AscendC::SetVectorMask<float>(0, 0xFF);
    AscendC::WholeReduceSum<float, false>(dst[160], src, AscendC::MASK_PLACEHOLDER, kRepeats, 1, 1, 8);
    AscendC::RepeatReduceSum<float, false>(dst[164], src, kRepeats, 0, 0, 1, 1, 8);
    AscendC::ResetMask();
    store_tile(out, dst, kOut);
}

TEST_CASE("WholeReduce*, BlockReduce*, PairReduceSum and RepeatReduceSum reduce as CANN 9.0 defines them") {
    Runtime rt;
    Stream stream;
    std::vector<float> in(kRepeats * 64);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = source_value(i);
    DeviceArray<float> src(in), out(kOut);
    REQUIRE(ACLRT_LAUNCH_KERNEL(old_reduce_kernel)(1, stream, src.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    CHECK(r[0] == -1000.0f);
    for (uint32_t row = 0; row < kRepeats; ++row) {
        CAPTURE(row);
        const float* x = &in[row * 64];
        float sum = 0, sum8 = 0, lowest = x[0], highest32 = x[0];
        uint32_t highest_at = 0;
        for (uint32_t i = 0; i < 64; ++i) {
            sum += x[i];
            if (i < 8) sum8 += x[i];
            lowest = std::min(lowest, x[i]);
            if (i < 32 && x[i] > highest32) highest32 = x[i], highest_at = i;
        }
        CHECK(r[1 + row] == sum);
        CHECK(r[8 + 2 * row] == highest32);
        uint32_t index_bits;
        std::memcpy(&index_bits, &r[9 + 2 * row], 4);
        CHECK(index_bits == highest_at);
        CHECK(r[16 + row] == lowest);
        CHECK(r[152 + row] == sum);
        CHECK(r[160 + row] == sum8);
        CHECK(r[164 + row] == sum8);
        for (uint32_t block = 0; block < 8; ++block) {
            CAPTURE(block);
            const float* b = x + block * 8;
            CHECK(r[24 + row * 8 + block] == b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + b[7]);
            CHECK(r[88 + row * 8 + block] == *std::min_element(b, b + 8));
            // Blocks past the mask's 32 elements have nothing active: dst keeps its value.
            CHECK(r[56 + row * 8 + block] == (block < 4 ? *std::max_element(b, b + 8) : -1000.0f));
        }
    }
    for (uint32_t pair = 0; pair < 32; ++pair) CHECK(r[120 + pair] == in[2 * pair] + in[2 * pair + 1]);
}

extern "C" __global__ __aicore__ void old_reduce_misuse_kernel(int32_t which) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 256 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    // A (value, index) pair needs 8-byte alignment, block results 32 bytes; the source must be held.
    if (which == 0) AscendC::WholeReduceMax<float>(t[129], t, 64, 2, 1, 1, 8);
    if (which == 1) AscendC::BlockReduceSum<float>(t[132], t, 2, 64, 1, 1, 8);
    if (which == 2) AscendC::RepeatReduceSum<float>(t[128], t[128], 3, 64, 0, 1, 1, 8);
}

TEST_CASE("the older-named reductions check dst alignment and the source's reach") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(old_reduce_misuse_kernel)(1, stream, 0),
                        ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"old_reduce_misuse_kernel", "WholeReduceMax", "8-byte aligned"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(old_reduce_misuse_kernel)(1, stream, 1),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"BlockReduceSum", "dst starts 16 bytes", "32-byte aligned"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(old_reduce_misuse_kernel)(1, stream, 2),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"RepeatReduceSum", "src reaches 768 bytes", "holds 512 bytes"});
}

// ---- MulAddDst ---------------------------------------------------------------------------------

constexpr uint32_t kMad = 128;

extern "C" __global__ __aicore__ void mul_add_dst_kernel(GM_ADDR halves, GM_ADDR floats, GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 2 * kMad * sizeof(half) + 5 * kMad * sizeof(float) + kMad * sizeof(half));
    AscendC::LocalTensor<half> h = buffer.Get<half>();  // h[0, 128) and h[128, 256): the half sources
    AscendC::LocalTensor<float> f = h[2 * kMad].ReinterpretCast<float>();  // f[0, 256): the float sources
    AscendC::LocalTensor<float> acc = f[2 * kMad];                          // two float accumulators
    AscendC::LocalTensor<half> hacc = f[4 * kMad].ReinterpretCast<half>();   // a half accumulator
    load_tile(h, halves, 2 * kMad);
    load_tile(f, floats, 2 * kMad);
    AscendC::CreateVecIndex(acc, 0.0f, 2 * kMad);
    AscendC::Duplicate(hacc, half(1.0f), kMad);
    AscendC::PipeBarrier<PIPE_V>();
    // acc[0, 128) += half * half (count form: the half sources' repeats are 4 blocks long).
    AscendC::MulAddDst(acc, h, h[kMad], kMad);
    // acc[128, 256) += float * float over the first 40 elements of each repeat, two repeats.
    AscendC::MulAddDst<float, float>(acc[kMad], f, f[kMad], 40, 2, AscendC::BinaryRepeatParams{});
    // hacc += half * half over the even elements of one repeat (a bit mask).
    uint64_t even[2] = {0x5555555555555555ull, 0x5555555555555555ull};
    AscendC::MulAddDst<half, half>(hacc, h, h[kMad], even, 1, AscendC::BinaryRepeatParams{});
    store_tile(out, acc, 2 * kMad);
    store_tile(out + 2 * kMad * sizeof(float), hacc, kMad);
}

TEST_CASE("MulAddDst adds src0 * src1 into dst: half into float, float into float, half into half") {
    Runtime rt;
    Stream stream;
    std::vector<half> halves(2 * kMad);
    std::vector<float> floats(2 * kMad);
    for (uint32_t i = 0; i < 2 * kMad; ++i) {
        halves[i] = half(float(int(i % 13) - 6) * 0.5f);
        floats[i] = float(int(i % 11) - 5) * 0.25f;
    }
    DeviceArray<half> h(halves);
    DeviceArray<float> f(floats);
    DeviceArray<uint8_t> out(2 * kMad * sizeof(float) + kMad * sizeof(half));
    REQUIRE(ACLRT_LAUNCH_KERNEL(mul_add_dst_kernel)(1, stream, h.get(), f.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto bytes = out.read();
    std::vector<float> acc(2 * kMad);
    std::vector<half> hacc(kMad);
    std::memcpy(acc.data(), bytes.data(), acc.size() * sizeof(float));
    std::memcpy(hacc.data(), bytes.data() + acc.size() * sizeof(float), hacc.size() * sizeof(half));
    for (uint32_t i = 0; i < kMad; ++i) {
        CAPTURE(i);
        CHECK(acc[i] == float(i) + float(halves[i]) * float(halves[kMad + i]));
        const bool active = i % 64 < 40;
        CHECK(acc[kMad + i] == float(kMad + i) + (active ? floats[i] * floats[kMad + i] : 0.0f));
        const float h_expected = i % 2 == 0 ? 1.0f + float(halves[i]) * float(halves[kMad + i]) : 1.0f;
        CHECK(float(hacc[i]) == h_expected);
    }
}

extern "C" __global__ __aicore__ void mul_add_dst_misuse_kernel() {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 256 * sizeof(float));
    AscendC::LocalTensor<float> acc = buffer.Get<float>();
    AscendC::LocalTensor<half> h = acc[192].ReinterpretCast<half>();  // 128 halves
    AscendC::MulAddDst(acc, h, h, 192);  // the half sources hold 128 of the 192 elements
}

TEST_CASE("MulAddDst reading past its sources fails the launch with 507015") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(mul_add_dst_misuse_kernel)(1, stream),
                        ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"mul_add_dst_misuse_kernel", "MulAddDst", "src0 reaches 384 bytes", "holds 256 bytes"});
}

// Axpy's count form with a half src into a float dst: like MulAddDst's, its source repeats are as
// long as dst's (4 blocks), so 128 elements take the half source's first 128, in order.
extern "C" __global__ __aicore__ void axpy_to_float_kernel(GM_ADDR halves, GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, kMad * sizeof(half) + kMad * sizeof(float));
    AscendC::LocalTensor<half> h = buffer.Get<half>();
    AscendC::LocalTensor<float> acc = h[kMad].ReinterpretCast<float>();
    load_tile(h, halves, kMad);
    AscendC::Duplicate(acc, 1.0f, kMad);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Axpy(acc, h, half(2.0f), kMad);
    store_tile(out, acc, kMad);
}

TEST_CASE("Axpy's count form reads a half src into a float dst element by element") {
    Runtime rt;
    Stream stream;
    std::vector<half> halves(kMad);
    for (uint32_t i = 0; i < kMad; ++i) halves[i] = half(float(i));
    DeviceArray<half> h(halves);
    DeviceArray<float> out(kMad);
    REQUIRE(ACLRT_LAUNCH_KERNEL(axpy_to_float_kernel)(1, stream, h.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t i = 0; i < kMad; ++i) CHECK(r[i] == 1.0f + 2.0f * float(i));
}

// ---- Mmad in HF32 mode -------------------------------------------------------------------------

// A 16 x 8 float A (one L0A fractal, row-major 16 x 8) times an 8 x 16 B of ones (one L0B
// fractal): each C element sums a row of A. mode 0: float; 1: HF32, ties to even; 2: ties away.
__global__ __cube__ void hf32_mmad_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, int32_t mode) {
    AscendC::LocalTensor<float> a2(AscendC::TPosition::A2, 0, 16 * 8);
    AscendC::LocalTensor<float> b2(AscendC::TPosition::B2, 0, 8 * 16);
    AscendC::LocalTensor<float> c1(AscendC::TPosition::CO1, 0, 16 * 16);
    std::memcpy(reinterpret_cast<void*>(a2.GetPhyAddr()), a, 16 * 8 * sizeof(float));
    std::memcpy(reinterpret_cast<void*>(b2.GetPhyAddr()), b, 8 * 16 * sizeof(float));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::SetHF32Mode(mode != 0);
    AscendC::SetHF32TransMode(mode == 2 ? AscendC::HF32TransMode::NEAREST_ZERO : AscendC::HF32TransMode::NEAREST_EVEN);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams(16, 16, 8, 0, false, true));
    AscendC::SetHF32Mode(AscendC::HF32Mode::DISABLE);
    AscendC::PipeBarrier<PIPE_ALL>();
    std::memcpy(c, reinterpret_cast<const void*>(c1.GetPhyAddr()), 16 * 16 * sizeof(float));
}

TEST_CASE("SetHF32Mode rounds Mmad's float inputs to 11 mantissa bits, ties as SetHF32TransMode says") {
    Runtime rt;
    Stream stream;
    // Row r holds 8 copies of one value: 1 + 2^-12 is a tie between HF32 neighbours 1 and 1 + 2^-11;
    // 1 + 3 * 2^-13 rounds up either way; 1 + 2^-13 rounds down; -(1 + 2^-12) ties symmetrically.
    const float values[4] = {1.0f + std::ldexp(1.0f, -12), 1.0f + 3 * std::ldexp(1.0f, -13),
                             1.0f + std::ldexp(1.0f, -13), -(1.0f + std::ldexp(1.0f, -12))};
    std::vector<float> a(16 * 8), b(8 * 16, 1.0f);
    for (uint32_t r = 0; r < 16; ++r) {
        for (uint32_t k = 0; k < 8; ++k) a[r * 8 + k] = values[r % 4];
    }
    const float ulp = std::ldexp(1.0f, -11);
    const float expected[3][4] = {{8 * values[0], 8 * values[1], 8 * values[2], 8 * values[3]},
                                  {8.0f, 8 * (1 + ulp), 8.0f, -8.0f},
                                  {8 * (1 + ulp), 8 * (1 + ulp), 8.0f, -8 * (1 + ulp)}};
    DeviceArray<float> da(a), db(b);
    for (int32_t mode = 0; mode < 3; ++mode) {
        CAPTURE(mode);
        DeviceArray<float> dc(16 * 16);
        REQUIRE(ACLRT_LAUNCH_KERNEL(hf32_mmad_kernel)(1, stream, da.get(), db.get(), dc.get(), mode) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        const auto c = dc.read();
        for (uint32_t m = 0; m < 16; ++m) {
            for (uint32_t n = 0; n < 16; ++n) {
                CAPTURE(m);
                CAPTURE(n);
                CHECK(c[m * 16 + n] == expected[mode][m % 4]);  // Nz: one fractal, row-major 16 x 16
            }
        }
    }
}

// ---- Load3DSetFMatrixCal -----------------------------------------------------------------------

constexpr uint32_t kFmH = 3, kFmW = 4, kFmC0 = 16;  // one C1 of a half feature map
constexpr AscendC::IsResetLoad3dConfig from_fmatrix = {false, true};

// The same img2col load twice: once with the feature map in its parameters, once with it taken
// from the register Load3DSetFMatrixCal writes (isSetFMatrix false, parameters left zero).
__global__ __cube__ void fmatrix_kernel(GM_ADDR in, GM_ADDR out) {
    constexpr uint32_t elements = 16 * 32;
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, kFmH * kFmW * kFmC0);
    std::memcpy(reinterpret_cast<void*>(l1.GetPhyAddr()), in, kFmH * kFmW * kFmC0 * sizeof(half));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<half> direct(AscendC::TPosition::A2, 0, elements);
    AscendC::LocalTensor<half> from_register(AscendC::TPosition::A2, elements * sizeof(half), elements);
    const uint8_t pad[4] = {1, 0, 1, 0};  // left, right, top, bottom
    AscendC::LoadData3DParamsV2<half> p;
    p.channelSize = kFmC0;
    p.kExtension = 32;
    p.mExtension = 16;
    p.filterH = 2;
    p.filterW = 2;
    p.strideH = 1;
    p.strideW = 1;
    p.padValue = half(-2.0f);
    AscendC::LoadData3DParamsV2<half> with_map = p;
    with_map.l1H = kFmH;
    with_map.l1W = kFmW;
    std::memcpy(with_map.padList, pad, sizeof(pad));
    AscendC::LoadData(direct, l1, with_map);
    AscendC::Load3DSetFMatrixCal(kFmH, kFmW, pad);
    AscendC::LoadData<half, from_fmatrix>(from_register, l1, p);
    AscendC::PipeBarrier<PIPE_ALL>();
    std::memcpy(out, reinterpret_cast<const void*>(direct.GetPhyAddr()), 2 * elements * sizeof(half));
}

TEST_CASE("Load3DSetFMatrixCal sets the feature map the img2col load reads when isSetFMatrix is false") {
    Runtime rt;
    Stream stream;
    std::vector<half> in(kFmH * kFmW * kFmC0);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = half(float(i % 89) + 1.0f);
    DeviceArray<half> fm(in), out(2 * 16 * 32);
    REQUIRE(ACLRT_LAUNCH_KERNEL(fmatrix_kernel)(1, stream, fm.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    uint32_t padded = 0;
    for (uint32_t i = 0; i < 16 * 32; ++i) {
        CAPTURE(i);
        CHECK(float(r[16 * 32 + i]) == float(r[i]));
        padded += float(r[i]) == -2.0f;
    }
    CHECK(padded > 0);  // the padding took part: the register's pad list was read too
}

// ---- CTRL[48], pipe_barrier, icache_preload ----------------------------------------------------

// out[0, 16): 60000 * 2 in half with CTRL[48] = 0 (saturating); out[16, 32): with CTRL[48] = 1.
// bits[0..1]: GetCtrlSpr<48, 48>() after each SetCtrlSpr.
extern "C" __global__ __aicore__ void ctrl_kernel(GM_ADDR out, GM_ADDR bits) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 32 * sizeof(half));
    AscendC::LocalTensor<half> t = buffer.Get<half>();
    auto* read_back = reinterpret_cast<int64_t*>(bits);
    AscendC::SetCtrlSpr<48, 48>(0);
    read_back[0] = AscendC::GetCtrlSpr<48, 48>();
    AscendC::Duplicate(t, half(60000.0f), 16);
    AscendC::Muls(t, t, half(2.0f), 16);
    AscendC::SetCtrlSpr<48, 48>(1);
    read_back[1] = AscendC::GetCtrlSpr<48, 48>();
    AscendC::Duplicate(t[16], half(60000.0f), 16);
    AscendC::Muls(t[16], t[16], half(2.0f), 16);
    store_tile(out, t, 32);
}

TEST_CASE("SetCtrlSpr<48, 48> chooses between saturating and keeping inf; GetCtrlSpr reads it back") {
    Runtime rt;
    Stream stream;
    DeviceArray<half> out(32);
    DeviceArray<int64_t> bits(2);
    REQUIRE(ACLRT_LAUNCH_KERNEL(ctrl_kernel)(1, stream, out.get(), bits.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    const auto b = bits.read();
    CHECK(b[0] == 0);
    CHECK(b[1] == 1);
    for (uint32_t i = 0; i < 16; ++i) {
        CHECK(float(r[i]) == 65504.0f);
        CHECK(std::isinf(float(r[16 + i])));
    }
}

// which 0: a GM -> UB copy and a vector instruction on it ordered by pipe_barrier(PIPE_ALL);
// 1: by pipe_barrier(PIPE_V), which orders the vector pipe only (a race); 2: pipe_barrier(PIPE_S);
// 3: icache_preload(-1).
extern "C" __global__ __aicore__ void intrinsic_kernel(GM_ADDR in, GM_ADDR out, int32_t which) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 64 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    icache_preload(which == 3 ? -1 : 1);
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer((__gm__ float*)in, 64);
    AscendC::DataCopy(t, gm, 64);
    pipe_barrier(which == 0 ? PIPE_ALL : which == 2 ? PIPE_S : PIPE_V);
    AscendC::Adds(t, t, 1.0f, 64);
    store_tile(out, t, 64);
}

TEST_CASE("pipe_barrier(PIPE_ALL) orders the pipes; other pipes, PIPE_S and icache_preload(-1) as the A2") {
    Runtime rt;
    Stream stream;
    std::vector<float> values(64);
    for (uint32_t i = 0; i < 64; ++i) values[i] = float(i);
    DeviceArray<float> in(values), out(64);
    REQUIRE(ACLRT_LAUNCH_KERNEL(intrinsic_kernel)(1, stream, in.get(), out.get(), 0) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t i = 0; i < 64; ++i) CHECK(r[i] == float(i) + 1.0f);
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(intrinsic_kernel)(1, stream, in.get(), out.get(), 1),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"intrinsic_kernel", "Adds", "MTE2_V"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(intrinsic_kernel)(1, stream, in.get(), out.get(), 2),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"pipe_barrier", "PIPE_S"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(intrinsic_kernel)(1, stream, in.get(), out.get(), 3),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"icache_preload", "preFetchLen -1 is negative"});
}

}  // namespace

// ---- Scalar helpers ----------------------------------------------------------------------------

static_assert(AscendC::SizeOfBits<half>::value == 16 && AscendC::SizeOfBits<float>::value == 32);
static_assert(AscendC::SizeOfBits<AscendC::int4b_t>::value == 4);

TEST_CASE("ToFloat widens a bfloat16_t exactly") {
    uint16_t bits = 0x3FC1;  // 1.5078125
    bfloat16_t value;
    std::memcpy(static_cast<void*>(&value), &bits, sizeof(bits));
    CHECK(AscendC::ToFloat(value) == 1.5078125f);
    bits = 0xC2F7;  // -123.5
    std::memcpy(static_cast<void*>(&value), &bits, sizeof(bits));
    CHECK(AscendC::Cast(value) == -123.5f);
}

// ---- address_ and SetAddr ----------------------------------------------------------------------

constexpr uint32_t kAddrHalves = 256;

// catlass's rebinding (copy_l1_to_l0b.hpp: `dstLocal.SetAddr(dstTensor.data()[l0bOffset].address_)`):
// tensors of other element types pointed at the bytes of a half tensor from an element offset on.
// facts[i]: what the rebound tensors' addresses and sizes read, 1 where they are as expected.
extern "C" __global__ __aicore__ void set_addr_kernel(GM_ADDR halves, GM_ADDR out, GM_ADDR facts) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, kAddrHalves * sizeof(half));
    AscendC::LocalTensor<half> h = buffer.Get<half>();
    load_tile(h, halves, kAddrHalves);
    // int16 over halves [64, 256): 192 elements; +1 to the bit patterns of halves [64, 192).
    AscendC::LocalTensor<int16_t> bits;
    bits.SetAddr(h[64].address_);
    AscendC::Adds(bits, bits, int16_t(1), 128);
    // bytes over halves [192, 256): 128 of them; the low byte of half 192 set through it.
    AscendC::LocalTensor<uint8_t> raw;
    raw.SetAddr(h[192].address_);
    AscendC::PipeBarrier<PIPE_ALL>();
    raw.SetValue(0, uint8_t(0xAB));
    // float over halves [224, 256), then shrunk to 8 floats: halves [224, 240) become 2.5f's.
    AscendC::LocalTensor<float> f;
    f.SetAddr(raw[64].address_);
    const uint32_t f_elements = f.GetSize();
    f.SetSize(8);
    AscendC::Duplicate(f, 2.5f, 8);
    store_tile(out, h, kAddrHalves);
    auto* fact = reinterpret_cast<__gm__ int32_t*>(facts);
    const auto* base = reinterpret_cast<const uint8_t*>(h.GetPhyAddr());
    fact[0] = bits.GetSize() == 192 && bits.address_.dataLen == 384 && bits.GetPosition() == int32_t(h.GetPosition());
    fact[1] = raw.GetSize() == 128 && raw.address_.absAddr == base + 384 &&
              raw.address_.bufferAddr == h.address_.bufferAddr + 384 && raw.address_.dataLen == 128;
    fact[2] = raw.GetBufferHandle() == h.GetBufferHandle() && raw.GetBufferHandle() != nullptr;
    fact[3] = f_elements == 16 && f.GetSize() == 8 && f.address_.dataLen == 32;
    // Reading x[i].address_ gives element i's address and the length left after it.
    const AscendC::TBuffAddr tail = h[250].address_;
    fact[4] = tail.absAddr == base + 500 && tail.dataLen == 12 && tail.bufferAddr == h.address_.bufferAddr + 500 &&
              tail.logicPos == uint8_t(AscendC::TPosition::VECCALC);
    // SetSize regrows a rebound tensor up to the end of its TPipe buffer, no further.
    f.SetSize(16);
    fact[5] = f.GetSize() == 16;
}

TEST_CASE("SetAddr points a tensor of another element type at a tensor's bytes from an offset on") {
    Runtime rt;
    Stream stream;
    std::vector<half> in(kAddrHalves);
    for (uint32_t i = 0; i < kAddrHalves; ++i) in[i] = half(float(int(i % 37) - 18) * 0.25f);
    DeviceArray<half> src(in), out(kAddrHalves);
    DeviceArray<int32_t> facts(std::vector<int32_t>(6, -1));
    REQUIRE(ACLRT_LAUNCH_KERNEL(set_addr_kernel)(1, stream, src.get(), out.get(), facts.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t i = 0; i < kAddrHalves; ++i) {
        CAPTURE(i);
        uint16_t expected, got;
        std::memcpy(&expected, &in[i], 2);
        std::memcpy(&got, &r[i], 2);
        if (i >= 64 && i < 192) expected = uint16_t(expected + 1);
        if (i == 192) expected = uint16_t((expected & 0xFF00) | 0xAB);
        if (i >= 224 && i < 240) {
            const float two_and_a_half = 2.5f;
            std::memcpy(&expected, reinterpret_cast<const uint8_t*>(&two_and_a_half) + 2 * (i % 2), 2);
        }
        CHECK(got == expected);
    }
    const auto f = facts.read();
    for (uint32_t i = 0; i < f.size(); ++i) {
        CAPTURE(i);
        CHECK(f[i] == 1);
    }
}

// The cube side of the pattern: an L1 -> L0B load between tensors rebound at offsets, as int8 over
// half data (one fractal of 512 bytes), and L0B read back through the half tensor.
__global__ __cube__ void set_addr_cube_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::LocalTensor<half> l1(AscendC::TPosition::B1, 0, 1024);
    AscendC::LocalTensor<half> l0b(AscendC::TPosition::B2, 0, 1024);
    std::memcpy(reinterpret_cast<void*>(l1.GetPhyAddr()), in, 1024 * sizeof(half));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<int8_t> dstLocal, srcLocal;
    dstLocal.SetAddr(l0b[512].address_);
    srcLocal.SetAddr(l1[256].address_);
    AscendC::LoadData(dstLocal, srcLocal, AscendC::LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    AscendC::PipeBarrier<PIPE_ALL>();
    std::memcpy(out, reinterpret_cast<const void*>(l0b[512].GetPhyAddr()), 256 * sizeof(half));
}

TEST_CASE("SetAddr rebinds L1 and L0B tensors for a LoadData at an offset, across element types") {
    Runtime rt;
    Stream stream;
    std::vector<half> in(1024);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = half(float(i % 512));
    DeviceArray<half> src(in), out(256);
    REQUIRE(ACLRT_LAUNCH_KERNEL(set_addr_cube_kernel)(1, stream, src.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t i = 0; i < 256; ++i) {
        CAPTURE(i);
        CHECK(float(r[i]) == float(in[256 + i]));
    }
}

// matmul_full_dequant.hpp's `aGm_.address_ = tempA.address_`: a default-constructed GlobalTensor
// given another's address (a window of unknown length, as after SetGlobalBuffer(buffer)); and a
// windowed tensor given an address inside its window, checked against that window from there.
extern "C" __global__ __aicore__ void gm_address_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR facts) {
    AscendC::GlobalTensor<float> tempX, tempY;
    tempX.SetGlobalBuffer((__gm__ float*)x, 64);
    tempY.SetGlobalBuffer((__gm__ float*)y, 64);
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.address_ = tempX.address_;
    yGm.address_ = tempY.address_;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 64 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    AscendC::DataCopy(t, xGm[16], 48);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 2.0f, 48);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, 48);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<float> windowed;
    windowed.SetGlobalBuffer((__gm__ float*)x, 64);
    windowed.address_ = tempX[40].address_;
    auto* fact = reinterpret_cast<__gm__ int32_t*>(facts);
    fact[0] = windowed.GetSize() == 24 && windowed.GetValue(23) == tempX.GetValue(63);
    fact[1] = xGm.GetSize() == 0 && xGm.address_ == (__gm__ float*)x;
}

TEST_CASE("GlobalTensor address_ copies: the copy reads and writes where the original points") {
    Runtime rt;
    Stream stream;
    std::vector<float> in(64);
    for (uint32_t i = 0; i < 64; ++i) in[i] = float(i) - 20.0f;
    DeviceArray<float> x(in), y(std::vector<float>(64, -1.0f));
    DeviceArray<int32_t> facts(std::vector<int32_t>(2, -1));
    REQUIRE(ACLRT_LAUNCH_KERNEL(gm_address_kernel)(1, stream, x.get(), y.get(), facts.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = y.read();
    for (uint32_t i = 0; i < 64; ++i) {
        CAPTURE(i);
        CHECK(r[i] == (i < 48 ? 2.0f * in[16 + i] : -1.0f));
    }
    const auto f = facts.read();
    CHECK(f[0] == 1);
    CHECK(f[1] == 1);
}

// A GlobalTensor given an address_ is checked against its own SetGlobalBuffer window.
extern "C" __global__ __aicore__ void gm_address_misuse_kernel(GM_ADDR x, int32_t which) {
    AscendC::GlobalTensor<float> whole, part;
    whole.SetGlobalBuffer((__gm__ float*)x, 64);
    part.SetGlobalBuffer((__gm__ float*)x + 16, 32);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 64 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    if (which == 0) {
        part.address_ = whole[32].address_;  // element 16 of part's window: 16 elements left
        AscendC::DataCopy(t, part, 24);
    }
    if (which == 1) {
        part.address_ = whole.address_;  // before part's window
        (void)part.GetValue(0);
    }
}

TEST_CASE("a GlobalTensor given another's address_ reaches only its own SetGlobalBuffer window") {
    Runtime rt;
    Stream stream;
    DeviceArray<float> x(std::vector<float>(64, 1.0f));
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(gm_address_misuse_kernel)(1, stream, x.get(), 0),
                        ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                        {"gm_address_misuse_kernel", "DataCopy", "reads elements [16, 40)",
                         "SetGlobalBuffer size is 32 elements"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(gm_address_misuse_kernel)(1, stream, x.get(), 1),
                        ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                        {"GlobalTensor::GetValue", "address_ lies 64 bytes before its SetGlobalBuffer window"});
}

// SetAddr's misuse, and the checks a rebound tensor keeps (its length comes from dataLen).
extern "C" __global__ __aicore__ void set_addr_misuse_kernel(GM_ADDR x, int32_t which) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 1, 256 * sizeof(half));
    AscendC::LocalTensor<half> t = queue.AllocTensor<half>();
    AscendC::LocalTensor<half> l0b(AscendC::TPosition::B2, 0, 256);
    AscendC::LocalTensor<int16_t> r;
    AscendC::TBuffAddr a = t[64].address_;
    if (which == 0) a.logicPos = uint8_t(AscendC::TPosition::GM);  // not a local memory
    if (which == 1) a.dataLen += 32;                               // past the end of the queue buffer
    if (which == 2) a = l0b[256].address_, a.dataLen = 65536;      // past the end of L0B
    if (which == 3) a.logicPos = uint8_t(AscendC::TPosition::B2);  // UB bytes called L0B
    if (which == 4) a.bufferAddr += 32;                            // bufferAddr and absAddr disagree
    if (which == 5) a.dataLen = 64;                                // 32 elements, then index 32
    if (which == 6) a.dataLen = 64;                                // 32 elements, then 64 of them
    if (which == 7) a.dataLen = 64;                                // then no MTE2 -> V synchronization
    r.SetAddr(a);
    if (which == 5) (void)r.GetValue(32);
    if (which == 6) AscendC::Adds(r, r, int16_t(1), 64);
    if (which == 7) {
        AscendC::GlobalTensor<half> gm;
        gm.SetGlobalBuffer((__gm__ half*)x, 256);
        AscendC::DataCopy(t, gm, 256);
        AscendC::Adds(r, r, int16_t(1), 32);
    }
    queue.FreeTensor(t);
}

TEST_CASE("SetAddr outside the memory or past the buffer fails the launch; a rebound tensor keeps its checks") {
    Runtime rt;
    Stream stream;
    DeviceArray<half> x(256);
    auto run = [&](int32_t which, std::initializer_list<const char*> fragments) {
        CAPTURE(which);
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(set_addr_misuse_kernel)(1, stream, x.get(), which),
                            ACL_ERROR_RT_AICORE_EXCEPTION, fragments);
    };
    run(0, {"set_addr_misuse_kernel", "LocalTensor::SetAddr", "logicPos 0 (GM) is not a local memory position"});
    run(1, {"LocalTensor::SetAddr", "416 bytes at byte 128 of UB", "not within the 512-byte VECIN buffer"});
    run(2, {"LocalTensor::SetAddr", "65536 bytes at byte 512 of L0B", "run past its 65536 bytes"});
    run(3, {"LocalTensor::SetAddr", "absAddr is not in L0B"});
    run(4, {"LocalTensor::SetAddr", "absAddr is byte", "but bufferAddr says byte"});
    run(5, {"LocalTensor::GetValue", "index 32 is past the end of a VECIN LocalTensor of 32 elements"});
    run(6, {"Adds", "src reaches 128 bytes", "VECIN LocalTensor holds 64 bytes"});
    run(7, {"Adds", "data race on UB bytes [128, 192)", "MTE2_V"});
}


// catlass's CopyL1ToBT: a half bias widened into the float bias table, blockLen in 64-byte units of
// the source (32 halves a unit).
__global__ __cube__ void widen_bias_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, 64);
    AscendC::LocalTensor<float> bias(AscendC::TPosition::C2, 0, 64);
    std::memcpy(reinterpret_cast<void*>(l1.GetPhyAddr()), in, 64 * sizeof(half));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(bias, l1, AscendC::DataCopyParams(1, 2, 0, 0));
    AscendC::PipeBarrier<PIPE_ALL>();
    std::memcpy(out, reinterpret_cast<const void*>(bias.GetPhyAddr()), 64 * sizeof(float));
}

TEST_CASE("DataCopy from L1 into the bias table counts blockLen in 64 bytes of the source") {
    Runtime rt;
    Stream stream;
    std::vector<half> in(64);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = half(float(i) - 20.5f);
    DeviceArray<half> src(in);
    DeviceArray<float> out(64);
    REQUIRE(ACLRT_LAUNCH_KERNEL(widen_bias_kernel)(1, stream, src.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t i = 0; i < 64; ++i) {
        CAPTURE(i);
        CHECK(r[i] == float(in[i]));
    }
}
