// Transpose (16 x 16 and NCHW <-> NHWC), TransDataTo5HD and the vector pipe's UB-to-UB Copy
// (transpose.h, vector_ops.h).
#include <cstdint>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kSquare = 256;

// out[0, 256): Transpose of in; out[256, 512): NCHW (1, 2, 16, 8) -> NHWC; out[512, 768): TransDataTo5HD
// of in's 16 blocks into 16 blocks; out[768, 1024): Copy of every other block of in, then the
// first 100 elements in counter mode.
extern "C" __global__ __aicore__ void layout_kernel(GM_ADDR in_gm, GM_ADDR out_gm) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer, tmp;
    pipe.InitBuffer(buffer, 5 * kSquare * sizeof(uint16_t));
    pipe.InitBuffer(tmp, 1280);
    AscendC::LocalTensor<half> in = buffer.Get<half>();
    AscendC::LocalTensor<half> out = in[kSquare];
    load_tile(in, in_gm, kSquare);
    AscendC::Duplicate(out, half(-1.0f), 4 * kSquare);
    AscendC::Transpose(out, in);
    AscendC::TransposeParamsExt params(1, 2, 16, 8, AscendC::TransposeType::TRANSPOSE_NCHW2NHWC);
    AscendC::Transpose(out[256], in, tmp.Get<uint8_t>(), params);
    uint64_t dst[16], src[16];
    for (int i = 0; i < 16; ++i) {
        dst[i] = reinterpret_cast<uint64_t>(out[512 + 16 * i].GetPhyAddr());
        src[i] = reinterpret_cast<uint64_t>(in[16 * i].GetPhyAddr());
    }
    AscendC::TransDataTo5HD<half>(dst, src, AscendC::TransDataTo5HDParams(false, false, 1, 0, 0));
    AscendC::Copy(out[768], in, 128, 1, {1, 2, 8, 16});
    AscendC::SetMaskCount();
    AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(0, 100);
    AscendC::Copy<half, false>(out[896], in, AscendC::MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
    store_tile(out_gm, out, 4 * kSquare);
}

}  // namespace

TEST_CASE("Transpose, NCHW to NHWC, TransDataTo5HD and Copy move 16-bit elements where they belong") {
    Runtime rt;
    Stream stream;
    std::vector<half> values(kSquare);
    for (uint32_t i = 0; i < kSquare; ++i) values[i] = half(float(i));
    DeviceArray<half> in(values), out(std::vector<half>(4 * kSquare, half(0.0f)));
    REQUIRE(ACLRT_LAUNCH_KERNEL(layout_kernel)(1, stream, in.get(), out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const auto r = out.read();
    for (uint32_t row = 0; row < 16; ++row) {
        for (uint32_t col = 0; col < 16; ++col) {
            CAPTURE(row);
            CAPTURE(col);
            CHECK(float(r[row * 16 + col]) == float(col * 16 + row));
            CHECK(float(r[512 + row * 16 + col]) == float(col * 16 + row));
        }
    }
    for (uint32_t hw = 0; hw < 128; ++hw) {
        for (uint32_t c = 0; c < 2; ++c) CHECK(float(r[256 + hw * 2 + c]) == float(c * 128 + hw));
    }
    for (uint32_t i = 0; i < 128; ++i) {
        CAPTURE(i);
        CHECK(float(r[768 + i]) == float((i / 16) * 32 + i % 16));  // source blocks 0, 2, 4, ...
        CHECK(float(r[896 + i]) == (i < 100 ? float(i) : -1.0f));
    }
}
