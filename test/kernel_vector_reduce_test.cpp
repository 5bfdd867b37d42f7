// The vector unit's reductions (reduce.h): ReduceRepeat (one result per repeat, with index orders),
// ReduceDataBlock (one per 32-byte block), ReducePairElem, the high-dimensional ReduceMax with its
// index, ReduceSum and the value it leaves for GetReduceRepeatSumSpr.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kRows = 13, kCols = 57, kPitch = 64;  // rows of 57 floats, 64 apart

extern "C" __global__ __aicore__ void reduce_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, (kRows * kPitch + 256) * sizeof(float));
    AscendC::LocalTensor<float> src = buffer.Get<float>();
    AscendC::LocalTensor<float> dst = src[kRows * kPitch];
    load_tile(src, in, kRows * kPitch);
    AscendC::Duplicate(dst, -1.0f, 256);
    // dst[0, 13): row sums; dst[16, 42): per-repeat (value, index) minima of the first 13 repeats;
    // dst[48, 152): block maxima of the first 13 repeats; dst[160, 192): pair sums of repeat 0;
    // dst[192, 194): max and index of everything; dst[200]: the sum of row 0 via the register.
    AscendC::ReduceRepeat<AscendC::ReduceType::SUM, float>(dst, src, kCols, kRows, 1, 1, kPitch / 8);
    AscendC::ReduceRepeat<AscendC::ReduceType::MIN, float>(dst[16], src, 64, kRows, 1, 1, 8);
    AscendC::ReduceDataBlock<AscendC::ReduceType::MAX, float>(dst[48], src, 64, kRows, 1, 1, 8);
    AscendC::ReducePairElem<AscendC::ReduceType::SUM, float>(dst[160], src, 64, 1, 1, 1, 8);
    AscendC::ReduceMax<float>(dst[192], src, dst[224], 64, kRows, 8, true);
    AscendC::ReduceSum<float>(dst[208], src, dst[224], kCols);
    AscendC::PipeBarrier<PIPE_ALL>();
    dst.SetValue(200, AscendC::GetReduceRepeatSumSpr<float>());
    store_tile(out, dst, 256);
}

}  // namespace

TEST_CASE("ReduceRepeat, ReduceDataBlock, ReducePairElem, ReduceMax with index and ReduceSum") {
    Runtime rt;
    Stream stream;
    std::vector<float> in(kRows * kPitch);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = float((i * 37) % 101) - 50.0f;  // small integers: exact sums
    DeviceArray<float> src(in), out(std::vector<float>(256, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(reduce_kernel)(1, stream, src.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t row = 0; row < kRows; ++row) {
        CAPTURE(row);
        float sum = 0;
        for (uint32_t c = 0; c < kCols; ++c) sum += in[row * kPitch + c];
        CHECK(r[row] == sum);
        const auto first = in.begin() + row * 64;
        const auto lowest = std::min_element(first, first + 64);
        CHECK(r[16 + 2 * row] == *lowest);
        uint32_t index_bits;
        std::memcpy(&index_bits, &r[17 + 2 * row], 4);
        CHECK(index_bits == uint32_t(lowest - first));
        for (uint32_t block = 0; block < 8; ++block) {
            CHECK(r[48 + row * 8 + block] == *std::max_element(first + block * 8, first + block * 8 + 8));
        }
    }
    for (uint32_t pair = 0; pair < 32; ++pair) CHECK(r[160 + pair] == in[2 * pair] + in[2 * pair + 1]);
    const auto highest = std::max_element(in.begin(), in.end());
    CHECK(r[192] == *highest);
    uint32_t index_bits;
    std::memcpy(&index_bits, &r[193], 4);
    CHECK(index_bits == uint32_t(highest - in.begin()));
    CHECK(r[208] == r[0]);
    CHECK(r[200] == r[0]);
}

namespace {

extern "C" __global__ __aicore__ void reduce_misuse_kernel(int32_t which) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 128 * sizeof(float));
    AscendC::LocalTensor<float> t = buffer.Get<float>();
    if (which == 0) AscendC::ReduceRepeat<AscendC::ReduceType::SUM, float>(t, t, 64, 3, 1, 1, 8);
    if (which == 1) AscendC::ReduceDataBlock<AscendC::ReduceType::SUM, float>(t[120], t, 64, 2, 1, 1, 8);
}

}  // namespace

TEST_CASE("a reduction reading or writing past its tensors fails the launch with 507015") {
    Runtime rt;
    Stream stream;
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(reduce_misuse_kernel)(1, stream, 0), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"reduce_misuse_kernel", "ReduceRepeat", "src reaches 768 bytes"});
    expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(reduce_misuse_kernel)(1, stream, 1), ACL_ERROR_RT_AICORE_EXCEPTION,
                        {"ReduceDataBlock", "count 9 does not fit dst"});
}
