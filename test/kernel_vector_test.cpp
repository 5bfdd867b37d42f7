// The vector unit's element-wise instructions (vector_unit.h, vector_ops.h): the high-dimensional
// forms with block and repeat strides, the mask register in normal (bit-mask, leading-count) and
// counter mode, isSetMask = false with MASK_PLACEHOLDER, the fill instructions, the integer logic
// instructions, and the checks that fail a launch with 507015.
#include <cmath>
#include <cstdint>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kFloats = 256;  // four repeats of floats

// out = the result of scenario `which` on in0, in1 (kFloats floats each).
extern "C" __global__ __aicore__ void elementwise_kernel(GM_ADDR in0, GM_ADDR in1, GM_ADDR out, int32_t which) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 3 * kFloats * sizeof(float));
    AscendC::LocalTensor<float> a = buffer.Get<float>();
    AscendC::LocalTensor<float> b = a[kFloats];
    AscendC::LocalTensor<float> dst = a[2 * kFloats];
    load_tile(a, in0, kFloats);
    load_tile(b, in1, kFloats);
    AscendC::Duplicate(dst, -1.0f, kFloats);
    switch (which) {
        case 0:  // src0's block stride 0: every block of a repeat reads src0's first block
            AscendC::Add(dst, a, b, 64, 2, {1, 0, 1, 8, 8, 8});
            break;
        case 1: {  // a bit mask: every other element of each repeat
            uint64_t mask[2] = {0x5555555555555555ull, 0};
            AscendC::Adds(dst, a, 10.0f, mask, 4, {1, 1, 8, 8});
            break;
        }
        case 2:  // counter mode, mask outside the instruction: the first 100 elements
            AscendC::SetMaskCount();
            AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, 100);
            AscendC::Muls<float, false>(dst, a, 3.0f, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
            AscendC::SetMaskNorm();
            AscendC::ResetMask();
            break;
        case 3:  // a leading-count mask of 20, destination repeats 16 blocks apart
            AscendC::Sub(dst, a, b, 20, 2, {1, 1, 1, 16, 8, 8});
            break;
        case 4:  // normal mode, mask from SetVectorMask: the first 8 elements of each of 4 repeats
            AscendC::SetVectorMask<float>(8);
            AscendC::Max<float, false>(dst, a, b, AscendC::MASK_PLACEHOLDER, 4, {1, 1, 1, 8, 8, 8});
            AscendC::ResetMask();
            break;
        case 5:  // Duplicate into every second block, CreateVecIndex counts on
            AscendC::Duplicate(dst, 7.0f, 64, 2, 2, 16);
            AscendC::CreateVecIndex(b, 100.0f, 16);
            AscendC::Add(dst, dst, b, 16);
            break;
        case 6:  // Brcb: each of a's first 16 floats fills one block
            AscendC::Brcb(dst, a, 2, {1, 8});
            break;
    }
    store_tile(out, dst, kFloats);
}

std::vector<float> ramp(float start, float step) {
    std::vector<float> values(kFloats);
    for (uint32_t i = 0; i < kFloats; ++i) values[i] = start + step * float(i);
    return values;
}

std::vector<float> run(int32_t which) {
    Runtime rt;
    Stream stream;
    DeviceArray<float> a(ramp(1.0f, 1.0f)), b(ramp(0.5f, 0.25f)), out(std::vector<float>(kFloats, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(elementwise_kernel)(1, stream, a.get(), b.get(), out.get(), which) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    return out.read();
}

}  // namespace

TEST_CASE("Add with src0BlkStride 0 reuses src0's first block in every block of a repeat") {
    const auto a = ramp(1.0f, 1.0f), b = ramp(0.5f, 0.25f);
    const auto out = run(0);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        const uint32_t repeat = i / 64, slot = i % 64;
        const float expected = repeat < 2 ? a[repeat * 64 + slot % 8] + b[i] : -1.0f;
        CHECK(out[i] == expected);
    }
}

TEST_CASE("a bit mask computes only the selected elements and leaves the others alone") {
    const auto a = ramp(1.0f, 1.0f);
    const auto out = run(1);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        CHECK(out[i] == (i % 2 == 0 ? a[i] + 10.0f : -1.0f));
    }
}

TEST_CASE("counter mode with SetVectorMask and MASK_PLACEHOLDER computes the first n elements") {
    const auto a = ramp(1.0f, 1.0f);
    const auto out = run(2);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        CHECK(out[i] == (i < 100 ? a[i] * 3.0f : -1.0f));
    }
}

TEST_CASE("a leading-count mask with a destination repeat stride of 16 blocks") {
    const auto a = ramp(1.0f, 1.0f), b = ramp(0.5f, 0.25f);
    const auto out = run(3);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        const uint32_t repeat = i / 128, slot = i % 128;  // dst repeats are 128 floats apart
        const float expected = slot < 20 ? a[repeat * 64 + slot] - b[repeat * 64 + slot] : -1.0f;
        CHECK(out[i] == expected);
    }
}

TEST_CASE("normal mode with the mask register set by SetVectorMask(len)") {
    const auto a = ramp(1.0f, 1.0f), b = ramp(0.5f, 0.25f);
    const auto out = run(4);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        CHECK(out[i] == (i % 64 < 8 ? std::max(a[i], b[i]) : -1.0f));
    }
}

TEST_CASE("Duplicate with block stride 2 fills every second block; CreateVecIndex counts from its first value") {
    const auto out = run(5);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        const uint32_t block = i / 8;
        const bool filled = block % 2 == 0 && block / 2 < 16;  // 2 repeats of 8 blocks, 16 blocks apart
        float expected = filled ? 7.0f : -1.0f;
        if (i < 16) expected += 100.0f + float(i);
        CHECK(out[i] == expected);
    }
}

TEST_CASE("Brcb broadcasts each source element into one 32-byte block") {
    const auto a = ramp(1.0f, 1.0f);
    const auto out = run(6);
    for (uint32_t i = 0; i < 128; ++i) {
        CAPTURE(i);
        CHECK(out[i] == a[i / 8]);
    }
}

namespace {

// And, Or, Not, ShiftLeft, ShiftRight on uint16 and LeakyRelu / AddRelu / Axpy on half.
extern "C" __global__ __aicore__ void logic_kernel(GM_ADDR bits, GM_ADDR halves, GM_ADDR out_bits, GM_ADDR out_halves) {
    constexpr uint32_t n = 128;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 16 * n * sizeof(uint16_t));
    AscendC::LocalTensor<uint16_t> u = buffer.Get<uint16_t>();
    AscendC::LocalTensor<uint16_t> r = u[n];
    AscendC::LocalTensor<half> h = u[6 * n].ReinterpretCast<half>();
    AscendC::LocalTensor<half> hr = u[7 * n].ReinterpretCast<half>();
    load_tile(u, bits, n);
    load_tile(h, halves, n);
    AscendC::And(r, u, u[0], 32);
    AscendC::Or(r[32], u[32], u[0], 32);
    AscendC::Not(r[64], u[64], 16);
    AscendC::ShiftLeft(r[80], u[80], uint16_t(3), 16);
    AscendC::ShiftRight(r[96], u[96], uint16_t(2), 32);
    AscendC::LeakyRelu(hr, h, half(0.5f), 128, 1, {1, 1, 8, 8});
    store_tile(out_bits, r, n);
    store_tile(out_halves, hr, n);
}

}  // namespace

TEST_CASE("And, Or, Not and the shifts on uint16; LeakyRelu on half in its high-dimensional form") {
    Runtime rt;
    Stream stream;
    std::vector<uint16_t> bits(128);
    std::vector<half> halves(128);
    for (uint32_t i = 0; i < 128; ++i) {
        bits[i] = uint16_t(0x1234u * (i + 1));
        halves[i] = half(float(i) - 64.0f);
    }
    DeviceArray<uint16_t> in_bits(bits), out_bits(std::vector<uint16_t>(128, 0));
    DeviceArray<half> in_halves(halves), out_halves(std::vector<half>(128, half(0.0f)));
    REQUIRE(ACLRT_LAUNCH_KERNEL(logic_kernel)(1, stream, in_bits.get(), in_halves.get(), out_bits.get(),
                                               out_halves.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out_bits.read();
    const auto hr = out_halves.read();
    for (uint32_t i = 0; i < 128; ++i) {
        CAPTURE(i);
        uint16_t expected;
        if (i < 32) expected = uint16_t(bits[i] & bits[i]);
        else if (i < 64) expected = uint16_t(bits[i] | bits[i - 32]);
        else if (i < 80) expected = uint16_t(~bits[i]);
        else if (i < 96) expected = uint16_t(bits[i] << 3);
        else expected = uint16_t(bits[i] >> 2);
        CHECK(r[i] == expected);
        const float x = float(i) - 64.0f;
        CHECK(float(hr[i]) == (x >= 0 ? x : x * 0.5f));
    }
}

namespace {

// Misuse, in block `faulty_block` only.
extern "C" __global__ __aicore__ void vector_misuse_kernel(int32_t which, int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 128 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    switch (which) {
        case 0: AscendC::Add(t, t, t, 64, 3, {1, 1, 1, 8, 8, 8}); break;  // 3 repeats of a 2-repeat tensor
        case 1: AscendC::Adds(t, t, 1.0f, 64, 1, {0, 1, 8, 8}); break;    // dstBlkStride 0
        case 2: AscendC::Exp(t, t, 129); break;                            // count past the tensor
        case 3:                                                            // counter mode past the tensor
            AscendC::SetMaskCount();
            AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, 200);
            AscendC::Relu<float, false>(t, t, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
            break;
    }
}

}  // namespace

TEST_CASE("a vector instruction reaching past its operand's allocation fails the launch with 507015") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(vector_misuse_kernel)(2, stream, 0, 1),
                        ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"vector_misuse_kernel", "block 1/2", "Add", "src0 reaches 768 bytes", "3 repeats",
                         "holds 512 bytes"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(vector_misuse_kernel)(2, stream, 1, 1),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Adds", "dstBlkStride 0"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(vector_misuse_kernel)(2, stream, 2, 0),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"block 0/2", "Exp", "reaches 516 bytes"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(vector_misuse_kernel)(2, stream, 3, 0),
                        ACL_ERROR_RT_AICORE_EXCEPTION, {"Relu", "reaches 800 bytes"});
}

namespace {

// Gather on 16-bit elements reads 64 offsets per repeat: dst[i] = src[127 - i] over two repeats.
// Then Copy in counter mode: 3 repeats of 20 floats each (3 blocks at block stride 2), repeats
// 8 blocks apart in src and 3 blocks apart in dst.
extern "C" __global__ __aicore__ void gather_copy_kernel(GM_ADDR src16, GM_ADDR offsets, GM_ADDR out16,
                                                         GM_ADDR src32, GM_ADDR out32) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sourceBuf, gatheredBuf, offsetBuf, floatBuf, copiedBuf;
    pipe.InitBuffer(sourceBuf, 128 * sizeof(uint16_t));
    pipe.InitBuffer(gatheredBuf, 128 * sizeof(uint16_t));
    pipe.InitBuffer(offsetBuf, 128 * sizeof(uint32_t));
    pipe.InitBuffer(floatBuf, kFloats * sizeof(float));
    pipe.InitBuffer(copiedBuf, kFloats * sizeof(float));
    AscendC::LocalTensor<uint16_t> source = sourceBuf.Get<uint16_t>();
    AscendC::LocalTensor<uint16_t> gathered = gatheredBuf.Get<uint16_t>();
    AscendC::LocalTensor<uint32_t> offset = offsetBuf.Get<uint32_t>();
    AscendC::LocalTensor<float> floats = floatBuf.Get<float>();
    AscendC::LocalTensor<float> copied = copiedBuf.Get<float>();
    load_tile(source, src16, 128);
    load_tile(offset, offsets, 128);
    load_tile(floats, src32, kFloats);
    AscendC::Duplicate(copied, -1.0f, kFloats);
    AscendC::Gather(gathered, source, offset, 0u, 128);
    AscendC::SetMaskCount();
    AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(20);
    AscendC::Copy<float, false>(copied, floats, AscendC::MASK_PLACEHOLDER, 3, {1, 2, 3, 8});
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
    store_tile(out16, gathered, 128);
    store_tile(out32, copied, kFloats);
}

}  // namespace

TEST_CASE("Gather on 16-bit elements over two repeats; Copy in counter mode takes the mask per repeat") {
    Runtime rt;
    Stream stream;
    std::vector<uint16_t> src16(128), zeros16(128, 0);
    std::vector<uint32_t> offsets(128);
    for (uint32_t i = 0; i < 128; ++i) {
        src16[i] = uint16_t(1000 + i);
        offsets[i] = (127 - i) * sizeof(uint16_t);
    }
    DeviceArray<uint16_t> a(src16), out16(zeros16);
    DeviceArray<uint32_t> o(offsets);
    DeviceArray<float> f(ramp(1.0f, 1.0f)), out32(std::vector<float>(kFloats, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(gather_copy_kernel)(1, stream, a.get(), o.get(), out16.get(), f.get(),
                                                    out32.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto gathered = out16.read();
    for (uint32_t i = 0; i < 128; ++i) {
        CAPTURE(i);
        CHECK(gathered[i] == src16[127 - i]);
    }
    const auto floats = ramp(1.0f, 1.0f);
    const auto copied = out32.read();
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        // dst: repeat r at block 3r, its 20 elements in blocks 3r .. 3r + 2 (the last one partly);
        // src: repeat r at block 8r, element e in block 8r + 2 * (e / 8).
        const uint32_t block = i / 8, repeat = block / 3, e = (block % 3) * 8 + i % 8;
        const float expected = repeat < 3 && e < 20 ? floats[(8 * repeat + 2 * (e / 8)) * 8 + e % 8] : -1.0f;
        CHECK(copied[i] == expected);
    }
}
