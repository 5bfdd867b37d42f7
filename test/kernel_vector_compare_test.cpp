// Compare, Compares and Select (compare.h): bit-mask results, the compare mask register, the three
// selection modes; GatherMask, Gather and Gatherb (gather.h).
#include <cstdint>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kN = 128;  // two repeats of floats

// out bytes [0, 16): Compare LT; [32, 48): Compares GE 0; [64, 80): GetCmpMask after a masked
// register Compare EQ. out floats from 128: Select in modes 0, 1, 2.
extern "C" __global__ __aicore__ void compare_kernel(GM_ADDR a_gm, GM_ADDR b_gm, GM_ADDR sel_gm, GM_ADDR out_gm) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 8 * kN * sizeof(float));
    AscendC::LocalTensor<float> a = buffer.Get<float>();
    AscendC::LocalTensor<float> b = a[kN];
    AscendC::LocalTensor<uint8_t> sel = a[2 * kN].ReinterpretCast<uint8_t>();
    AscendC::LocalTensor<uint8_t> bits = a[3 * kN].ReinterpretCast<uint8_t>();
    AscendC::LocalTensor<float> picked = a[4 * kN];
    load_tile(a, a_gm, kN);
    load_tile(b, b_gm, kN);
    load_tile(sel, sel_gm, 32);
    AscendC::Duplicate(a[3 * kN], 0.0f, 16);
    AscendC::Compare(bits, a, b, AscendC::CMPMODE::LT, kN);
    AscendC::Compares(bits[32], a, 0.0f, AscendC::CMPMODE::GE, kN);
    AscendC::Compare(a, b, AscendC::CMPMODE::EQ, 32, AscendC::BinaryRepeatParams{});
    AscendC::GetCmpMask(bits[64]);
    AscendC::Select(picked, sel, a, b, AscendC::SELMODE::VSEL_CMPMASK_SPR, kN);
    AscendC::Select(picked[kN], sel, a, 100.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, kN);
    AscendC::Select(picked[2 * kN], sel, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, kN);
    store_tile(out_gm, a[3 * kN], 4 * kN);
}

bool bit(const std::vector<uint8_t>& bytes, uint32_t offset, uint32_t i) {
    return (bytes[offset + i / 8] >> (i % 8)) & 1u;
}

}  // namespace

TEST_CASE("Compare and Compares pack one bit per element; Select picks by the selection mask in every mode") {
    Runtime rt;
    Stream stream;
    std::vector<float> a(kN), b(kN);
    std::vector<uint8_t> sel(32);
    for (uint32_t i = 0; i < kN; ++i) {
        a[i] = float(int(i % 7) - 3);
        b[i] = float(int(i % 5) - 2);
    }
    for (uint32_t i = 0; i < 32; ++i) sel[i] = uint8_t(0x5Au ^ (i * 29u));
    DeviceArray<float> da(a), db(b), out(std::vector<float>(4 * kN, 0.0f));
    DeviceArray<uint8_t> dsel(sel);
    REQUIRE(ACLRT_LAUNCH_KERNEL(compare_kernel)(1, stream, da.get(), db.get(), dsel.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    std::vector<uint8_t> bytes(r.size() * 4);
    std::memcpy(bytes.data(), r.data(), bytes.size());
    for (uint32_t i = 0; i < kN; ++i) {
        CAPTURE(i);
        CHECK(bit(bytes, 0, i) == (a[i] < b[i]));
        CHECK(bit(bytes, 32, i) == (a[i] >= 0.0f));
        if (i < 64) CHECK(bit(bytes, 64, i) == (i < 32 && a[i] == b[i]));
        const bool same_bits = bit(sel, 0, i % 64);
        CHECK(r[kN + i] == (same_bits ? a[i] : b[i]));
        CHECK(r[2 * kN + i] == (bit(sel, 0, i) ? a[i] : 100.0f));
        CHECK(r[3 * kN + i] == (bit(sel, 0, i) ? a[i] : b[i]));
    }
    for (uint32_t i = 8; i < 16; ++i) CHECK(bytes[64 + i] == 0);  // a float compare sets 64 bits
}

namespace {

extern "C" __global__ __aicore__ void compare_misuse_kernel() {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 256 * sizeof(int32_t));
    AscendC::LocalTensor<int32_t> t = buffer.Get<int32_t>();
    AscendC::Compare(t.ReinterpretCast<uint8_t>(), t, t[64], AscendC::CMPMODE::LT, 64);
}

}  // namespace

TEST_CASE("an int32 Compare other than EQ fails the launch with 507015") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(compare_misuse_kernel)(1, stream), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"compare_misuse_kernel", "Compare", "only with CMPMODE::EQ, not LT"});
}

namespace {

// out[0, 128): GatherMask pattern 2 in normal mode over 4 repeats (in place, as the samples do);
// out[128, 256): Gather by reversed byte offsets; out[256, 320): Gatherb, blocks in reverse.
extern "C" __global__ __aicore__ void gather_kernel(GM_ADDR in_gm, GM_ADDR offsets_gm, GM_ADDR out_gm, GM_ADDR kept_gm) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 1280 * sizeof(uint32_t));
    AscendC::LocalTensor<uint32_t> work = buffer.Get<uint32_t>();
    AscendC::LocalTensor<uint32_t> offsets = work[256];
    AscendC::LocalTensor<uint32_t> out = work[512];
    AscendC::LocalTensor<uint32_t> source = work[1024];
    load_tile(work, in_gm, 256);
    load_tile(source, in_gm, 256);
    load_tile(offsets, offsets_gm, 128);
    uint64_t kept = 0;
    AscendC::GatherMask(work, work, uint8_t(2), false, 0, {1, 4, 8, 0}, kept);
    AscendC::DataCopy(out, work, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Gather(out[128], source, offsets, 0u, 128);
    AscendC::Gatherb(out[256], source, offsets[120], 1, {1, 8});
    store_tile(out_gm, out, 256 + 64);
    AscendC::GlobalTensor<uint64_t> keptGm;
    keptGm.SetGlobalBuffer((__gm__ uint64_t*)kept_gm, 4);
    keptGm.SetValue(0, kept);
}

}  // namespace

TEST_CASE("GatherMask keeps the pattern's elements packed; Gather and Gatherb follow byte offsets") {
    Runtime rt;
    Stream stream;
    std::vector<uint32_t> in(256), offsets(128);
    for (uint32_t i = 0; i < 256; ++i) in[i] = i + 1;
    for (uint32_t i = 0; i < 120; ++i) offsets[i] = (255 - i) * 4;
    for (uint32_t j = 0; j < 8; ++j) offsets[120 + j] = (7 - j) * 32;
    DeviceArray<uint32_t> din(in), doff(offsets), out(std::vector<uint32_t>(320, 0));
    DeviceArray<uint64_t> kept(std::vector<uint64_t>(4, 0));
    REQUIRE(ACLRT_LAUNCH_KERNEL(gather_kernel)(1, stream, din.get(), doff.get(), out.get(), kept.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    CHECK(kept.read()[0] == 128u);
    for (uint32_t i = 0; i < 128; ++i) CHECK(r[i] == 2 * (i + 1));
    for (uint32_t i = 0; i < 120; ++i) CHECK(r[128 + i] == in[255 - i]);
    for (uint32_t i = 0; i < 64; ++i) {
        CAPTURE(i);
        CHECK(r[256 + i] == in[(7 - i / 8) * 8 + i % 8]);
    }
}

namespace {

extern "C" __global__ __aicore__ void gather_misuse_kernel() {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 256 * sizeof(uint32_t));
    AscendC::LocalTensor<uint32_t> t = buffer.Get<uint32_t>();
    AscendC::Duplicate(t, 4096u, 64);  // byte offset 4096: past the 128-element source
    AscendC::Gather(t[128], t[64], t, 0u, 8);
}

}  // namespace

TEST_CASE("a Gather offset outside its source fails the launch with 507015") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(gather_misuse_kernel)(1, stream), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"gather_misuse_kernel", "Gather", "byte offset 4096 is not an element of src"});
}
