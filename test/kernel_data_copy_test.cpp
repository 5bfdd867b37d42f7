// The data-movement API (data_copy.h, data_copy_slice.h): DataCopy with SliceInfo against a
// reference computed from the slice's indices, in both directions, with block-aligned and
// unaligned GM strides, and each of its checks through a failing launch.
#include <cstdint>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

// ---- The data_copy_gm2ub_slice sample: rows 0 and 2, columns [16, 40) and [47, 71) of a 3 x 87
// float tensor, gathered into a 2 x 48 UB tensor and stored back as it is.

extern "C" __global__ __aicore__ void slice_2d_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
    AscendC::SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    AscendC::GlobalTensor<float> inGm, outGm;
    inGm.SetGlobalBuffer((__gm__ float*)in, 3 * 87);
    outGm.SetGlobalBuffer((__gm__ float*)out, 2 * 48);
    AscendC::LocalTensor<float> tile(AscendC::TPosition::VECIN, 0, 96);
    AscendC::DataCopy(tile, inGm, dst, src, 2);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(outGm, tile, dst, dst, 2);
}

// ---- Three dimensions of int16 (16 per data block). GM [4][3][40] -> UB [2][2][48]: dimension 0
// takes bursts [4, 20) and [24, 40), dimension 1 rows 1 and 2, dimension 2 planes 0 and 3; in the
// UB the two bursts are one block apart. Then UB -> GM [2][2][35] with the bursts 3 elements apart
// (not whole blocks: the GM side takes any stride), GM's untouched elements left as they were.

constexpr uint32_t kIn3d = 4 * 3 * 40;
constexpr uint32_t kUb3d = 2 * 2 * 48;
constexpr uint32_t kOut3d = 2 * 2 * 35;

extern "C" __global__ __aicore__ void slice_3d_kernel(GM_ADDR in, GM_ADDR ub_image, GM_ADDR out) {
    AscendC::SliceInfo gmIn[] = {{4, 39, 4, 1, 40}, {1, 2, 0, 1, 3}, {0, 3, 2, 1, 4}};
    AscendC::SliceInfo ub[] = {{0, 47, 16, 1, 48}, {0, 1, 0, 1, 2}, {0, 1, 0, 1, 2}};
    AscendC::SliceInfo gmOut[] = {{0, 34, 3, 1, 35}, {0, 1, 0, 1, 2}, {0, 1, 0, 1, 2}};
    AscendC::GlobalTensor<int16_t> inGm, imageGm, outGm;
    inGm.SetGlobalBuffer((__gm__ int16_t*)in, kIn3d);
    imageGm.SetGlobalBuffer((__gm__ int16_t*)ub_image, kUb3d);
    outGm.SetGlobalBuffer((__gm__ int16_t*)out, kOut3d);
    AscendC::LocalTensor<int16_t> tile(AscendC::TPosition::VECIN, 0, kUb3d);
    AscendC::Duplicate(tile, int16_t(-1), kUb3d);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::DataCopy(tile, inGm, ub, gmIn, 3);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(imageGm, tile, kUb3d);
    AscendC::DataCopy(outGm, tile, gmOut, ub, 3);
}

std::vector<float> iota_floats(uint32_t n) {
    std::vector<float> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = float(i) + 0.5f;
    return v;
}

}  // namespace

TEST_CASE("DataCopy with SliceInfo gathers the sample's 2-D slice into the UB and stores it back") {
    Runtime rt;
    Stream stream;
    const std::vector<float> input = iota_floats(3 * 87);
    DeviceArray<float> in(input), out(std::vector<float>(2 * 48, -1.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(slice_2d_kernel)(1, stream, in.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> r = out.read();
    for (uint32_t row = 0; row < 2; ++row) {
        for (uint32_t col = 0; col < 48; ++col) {
            CAPTURE(row);
            CAPTURE(col);
            const uint32_t src_row = row * 2;
            const uint32_t src_col = col < 24 ? 16 + col : 47 + (col - 24);
            CHECK(r[row * 48 + col] == input[src_row * 87 + src_col]);
        }
    }
}

TEST_CASE("DataCopy with SliceInfo in three dimensions, block strides in the UB and an unaligned GM stride") {
    Runtime rt;
    Stream stream;
    std::vector<int16_t> input(kIn3d);
    for (uint32_t i = 0; i < kIn3d; ++i) input[i] = int16_t(i);
    DeviceArray<int16_t> in(input), image(std::vector<int16_t>(kUb3d, 0)),
        out(std::vector<int16_t>(kOut3d, int16_t(-7)));
    REQUIRE(ACLRT_LAUNCH_KERNEL(slice_3d_kernel)(1, stream, in.get(), image.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int16_t> ub = image.read();
    const std::vector<int16_t> r = out.read();
    // The reference, index by index: plane p, row w, burst b, element e.
    std::vector<int16_t> ub_expected(kUb3d, int16_t(-1));
    std::vector<int16_t> out_expected(kOut3d, int16_t(-7));
    const uint32_t planes[2] = {0, 3}, rows[2] = {1, 2}, bursts[2] = {4, 24};
    for (uint32_t p = 0; p < 2; ++p) {
        for (uint32_t w = 0; w < 2; ++w) {
            for (uint32_t b = 0; b < 2; ++b) {
                for (uint32_t e = 0; e < 16; ++e) {
                    const int16_t value = input[(planes[p] * 3 + rows[w]) * 40 + bursts[b] + e];
                    ub_expected[(p * 2 + w) * 48 + b * 32 + e] = value;
                    out_expected[(p * 2 + w) * 35 + b * 19 + e] = value;
                }
            }
        }
    }
    for (uint32_t i = 0; i < kUb3d; ++i) {
        CAPTURE(i);
        CHECK(ub[i] == ub_expected[i]);
    }
    for (uint32_t i = 0; i < kOut3d; ++i) {
        CAPTURE(i);
        CHECK(r[i] == out_expected[i]);
    }
}

namespace {

// Misuse of DataCopy with SliceInfo, one kind per `which`.
extern "C" __global__ __aicore__ void slice_misuse_kernel(GM_ADDR gm, int32_t which) {
    AscendC::GlobalTensor<float> global;
    global.SetGlobalBuffer((__gm__ float*)gm, 3 * 87);
    AscendC::LocalTensor<float> tile(AscendC::TPosition::VECIN, 0, 96);
    AscendC::SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
    AscendC::SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    switch (which) {
        case 0: src[0].endIndex = 69; break;      // 54 elements: not whole bursts of 24 apart by 7
        case 1: dst[0] = {0, 50, 3, 3, 51}; break;  // UB bursts 3 floats apart: not whole blocks
        case 2: src[0].shapeValue = 0; break;     // the shape from the (absent) ShapeInfo
        case 3: dst[1] = {0, 2, 0, 1, 3}; break;  // 3 UB rows for 2 GM rows
        case 4: src[1].shapeValue = 1; break;     // rows 0..2 of a 1-row GM tensor
        case 5: src[0] = {40, 94, 7, 3, 95}; break;  // 95-float rows: row 2 ends past the GlobalTensor
        case 6: dst[1].burstLen = 2; src[1].burstLen = 2; break;
        case 7: break;                            // dimValue 9
        case 8: tile = AscendC::LocalTensor<float>(AscendC::TPosition::VECIN, 0, 64); break;
    }
    AscendC::DataCopy(tile, global, dst, src, which == 7 ? 9 : 2);
}

}  // namespace

TEST_CASE("DataCopy with SliceInfo checks its slices and fails the launch on a misuse") {
    Runtime rt;
    Stream stream;
    DeviceArray<float> gm(std::vector<float>(3 * 87, 0.0f));
    const auto run = [&](int32_t which) { return ACLRT_LAUNCH_KERNEL(slice_misuse_kernel)(1, stream, gm.get(), which); };
    expect_launch_fault(stream, run(0), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"DataCopy(SliceInfo)", "srcSliceInfo[0] spans 54 elements", "burstLen 3"});
    expect_launch_fault(stream, run(1), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"DataCopy(SliceInfo)", "dstSliceInfo[0].stride 3 elements (12 bytes)", "32-byte"});
    expect_launch_fault(stream, run(2), ACL_ERROR_RT_AICORE_EXCEPTION, {"srcSliceInfo[0].shapeValue is 0"});
    expect_launch_fault(stream, run(3), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"dstSliceInfo[1] selects 3 indices and srcSliceInfo[1] 2"});
    expect_launch_fault(stream, run(4), ACL_ERROR_RT_AICORE_EXCEPTION, {"srcSliceInfo[1]", "endIndex 2", "shapeValue 1"});
    expect_launch_fault(stream, run(5), ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                        {"DataCopy(SliceInfo)", "reads elements [0, 285)", "SetGlobalBuffer size is 261 elements"});
    expect_launch_fault(stream, run(6), ACL_ERROR_RT_AICORE_EXCEPTION, {"dstSliceInfo[1].burstLen is 2"});
    expect_launch_fault(stream, run(7), ACL_ERROR_RT_AICORE_EXCEPTION, {"dimValue 9 is outside 1..8"});
    expect_launch_fault(stream, run(8), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"DataCopy(SliceInfo)", "spans 384 bytes of dst", "64 elements"});
}
