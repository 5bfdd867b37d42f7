// The Ascend 950's cube path (built for dav-3510): Mmad reading A from L0A as Nz, LoadData with
// LoadData2DParamsV2 (Nz windows, plain and transposed), the img2col load writing Nz columns
// dstStride fractals apart (LoadDataWithStride, SetLoadDataRepeatWithStride) and Fixpipe with
// FixpipeParamsArch3510, each against a reference computed here from the documented layouts; and a
// broken kernel for each 950 rule, failing the launch with 507015 and a message naming the kernel
// and the API.
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;

namespace {

static_assert(__NPU_ARCH__ == 3510, "this test is built for the Ascend 950");

template <typename T>
void dump(GM_ADDR out, const AscendC::LocalTensor<T>& tensor, uint32_t count) {
    AscendC::PipeBarrier<PIPE_ALL>();
    std::memcpy(out, reinterpret_cast<const void*>(tensor.GetPhyAddr()), count * sizeof(T));
}

template <typename T>
AscendC::LocalTensor<T> stage_in_l1(GM_ADDR in, uint32_t count, uint32_t l1_offset = 0) {
    AscendC::GlobalTensor<T> gm;
    gm.SetGlobalBuffer((__gm__ T*)in, count);
    AscendC::LocalTensor<T> l1(AscendC::TPosition::A1, l1_offset, count);
    AscendC::DataCopy(l1, gm, count);
    AscendC::PipeBarrier<PIPE_ALL>();
    return l1;
}

// ---- int8 matmul: A (32 x 64, Nz in L1) and B (64 x 32, Zn in L1) through LoadData2DParamsV2 to
// L0A / L0B, Mmad, and Fixpipe with FixpipeParamsArch3510 (ND rows) to GM.

constexpr uint32_t kM = 32, kK = 64, kN = 32;

__global__ __cube__ void matmul_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    AscendC::LocalTensor<int8_t> a1 = stage_in_l1<int8_t>(a, kM * kK);
    AscendC::LocalTensor<int8_t> b1 = stage_in_l1<int8_t>(b, kK * kN, kM * kK);
    AscendC::LocalTensor<int8_t> a2(AscendC::TPosition::A2, 0, kM * kK);
    AscendC::LocalTensor<int8_t> b2(AscendC::TPosition::B2, 0, kK * kN);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, kM * kN);
    AscendC::LoadData2DParamsV2 load;
    load.mStep = kM / 16;  // A: 2 x 2 fractals of 16 x 32, columns of fractals 2 apart
    load.kStep = kK / 32;
    load.srcStride = kM / 16;
    load.dstStride = kM / 16;
    AscendC::LoadData(a2, a1, load);
    load.mStep = kN / 16;  // B as Zn is B^T as Nz
    load.kStep = kK / 32;
    load.srcStride = kN / 16;
    load.dstStride = kN / 16;
    AscendC::LoadData(b2, b1, load);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadParams mmad;
    mmad.m = kM;
    mmad.n = kN;
    mmad.k = kK;
    AscendC::Mmad(c1, a2, b2, mmad);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t*)c, kM * kN);
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fixpipe(kN, kM, kM, kN);
    AscendC::Fixpipe<int32_t, int32_t, AscendC::CFG_ROW_MAJOR>(out, c1, fixpipe);
}

TEST_CASE("950 matmul: A is Nz in L0A, LoadData2DParamsV2 moves Nz windows, Fixpipe writes ND rows") {
    Runtime rt;
    Stream stream;
    std::vector<int8_t> a(kM * kK), b(kK * kN);
    for (uint32_t i = 0; i < kM * kK; ++i) a[i] = int8_t(int(i * 7 % 11) - 5);
    for (uint32_t i = 0; i < kK * kN; ++i) b[i] = int8_t(int(i * 5 % 13) - 6);
    // A (row r, column k) as Nz: columns of fractals (k / 32), each 2 fractals of 16 rows x 32.
    std::vector<int8_t> a_nz(a.size()), b_zn(b.size());
    for (uint32_t r = 0; r < kM; ++r) {
        for (uint32_t k = 0; k < kK; ++k) a_nz[((k / 32) * (kM / 16) + r / 16) * 512 + (r % 16) * 32 + k % 32] = a[r * kK + k];
    }
    // B (row k, column n) as Zn: rows of fractals (k / 32), each fractal 16 columns (n) x 32 k.
    for (uint32_t k = 0; k < kK; ++k) {
        for (uint32_t n = 0; n < kN; ++n) b_zn[((k / 32) * (kN / 16) + n / 16) * 512 + (n % 16) * 32 + k % 32] = b[k * kN + n];
    }
    DeviceArray<int8_t> da(a_nz), db(b_zn);
    DeviceArray<int32_t> dc(kM * kN);
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_kernel)(1, stream, da.get(), db.get(), dc.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int32_t> got = dc.read();
    for (uint32_t r = 0; r < kM; ++r) {
        for (uint32_t n = 0; n < kN; ++n) {
            int32_t expected = 0;
            for (uint32_t k = 0; k < kK; ++k) expected += int32_t(a[r * kK + k]) * int32_t(b[k * kN + n]);
            CAPTURE(r);
            CAPTURE(n);
            REQUIRE(got[r * kN + n] == expected);
        }
    }
}

// ---- LoadData2DParamsV2 with ifTranspose: a 32 x 16 window of int16 (two fractals in a column)
// becomes its 16 x 32 transpose, Nz (two columns of one fractal, dstStride 3 apart).

__global__ __cube__ void load_2dv2_transpose_kernel(GM_ADDR in, GM_ADDR out) {
    AscendC::LocalTensor<int16_t> l1 = stage_in_l1<int16_t>(in, 512);
    AscendC::LocalTensor<int16_t> l0b(AscendC::TPosition::B2, 0, 4 * 256);
    AscendC::Fill(l0b, AscendC::InitConstValueParams<int16_t>(1, 4, 0, int16_t(-1)));
    AscendC::LoadData2DParamsV2 load(0, 0, 2, 1, 2, 3, true, 0);
    AscendC::LoadData(l0b, l1, load);
    dump(out, l0b, 4 * 256);
}

TEST_CASE("950 LoadData2DParamsV2 with ifTranspose writes the window's transpose as Nz") {
    Runtime rt;
    Stream stream;
    std::vector<int16_t> input(512);
    std::iota(input.begin(), input.end(), int16_t(0));
    DeviceArray<int16_t> in(input), out(4 * 256);
    REQUIRE(ACLRT_LAUNCH_KERNEL(load_2dv2_transpose_kernel)(1, stream, in.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int16_t> got = out.read();
    // Source S (32 rows x 16): fractal r / 16, element (r % 16) * 16 + c. D = S^T (16 x 32).
    for (uint32_t i = 0; i < 16; ++i) {
        for (uint32_t j = 0; j < 32; ++j) {
            const int16_t s = input[(j / 16) * 256 + (j % 16) * 16 + i];
            REQUIRE(got[(j / 16) * 3 * 256 + i * 16 + j % 16] == s);
        }
    }
    for (uint32_t e = 256; e < 3 * 256; ++e) REQUIRE(got[e] == -1);  // the gap between the columns
}

// ---- img2col (1 x 1 filter over a 32 x 1 map of 32 half channels: the matrix is the map) into L0A
// as Nz, its columns of fractals SetLoadDataRepeatWithStride's dstStride (3) apart.

__global__ __cube__ void img2col_kernel(GM_ADDR in, GM_ADDR out, uint32_t with_stride) {
    AscendC::LocalTensor<int16_t> l1 = stage_in_l1<int16_t>(in, 32 * 32);
    AscendC::LocalTensor<int16_t> l0a(AscendC::TPosition::A2, 0, 6 * 256);
    AscendC::Fill(l0a, AscendC::InitConstValueParams<int16_t>(1, 6, 0, int16_t(-1)));
    AscendC::LoadData3DParamsV2<int16_t> p;
    p.l1H = 32;
    p.l1W = 1;
    p.channelSize = 32;
    p.kExtension = 32;
    p.mExtension = 32;
    p.strideW = p.strideH = 1;
    p.filterW = p.filterH = 1;
    p.dilationFilterW = p.dilationFilterH = 1;
    if (with_stride != 0) {
        AscendC::SetLoadDataRepeatWithStride({0, 1, 0, 3});
        AscendC::LoadDataWithStride(l0a, l1, p);
    } else {
        AscendC::LoadData(l0a, l1, p);  // sets dstStride to the window's 2 rows of fractals
    }
    dump(out, l0a, 6 * 256);
}

TEST_CASE("950 img2col writes Nz columns dstStride fractals apart") {
    Runtime rt;
    Stream stream;
    // NC1HWC0: two planes (c / 16) of 32 rows x 16 channels.
    std::vector<int16_t> input(32 * 32);
    std::iota(input.begin(), input.end(), int16_t(0));
    for (uint32_t with_stride : {0u, 1u}) {
        CAPTURE(with_stride);
        const uint32_t stride = with_stride ? 3 : 2;
        DeviceArray<int16_t> in(input), out(6 * 256);
        REQUIRE(ACLRT_LAUNCH_KERNEL(img2col_kernel)(1, stream, in.get(), out.get(), with_stride) == 0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        const std::vector<int16_t> got = out.read();
        for (uint32_t m = 0; m < 32; ++m) {
            for (uint32_t k = 0; k < 32; ++k) {
                const int16_t s = input[((k / 16) * 32 + m) * 16 + k % 16];
                REQUIRE(got[((k / 16) * stride + m / 16) * 256 + (m % 16) * 16 + k % 16] == s);
            }
        }
        if (with_stride) {
            for (uint32_t e = 2 * 256; e < 3 * 256; ++e) REQUIRE(got[e] == -1);
        }
    }
}

// ---- Broken kernels.

__global__ __cube__ void boundary_kernel() { AscendC::SetLoadDataBoundary(2048); }

__global__ __cube__ void transpose_b8_odd_kernel() {
    AscendC::LocalTensor<int8_t> l1(AscendC::TPosition::A1, 0, 2048);
    AscendC::LocalTensor<int8_t> l0a(AscendC::TPosition::A2, 0, 2048);
    AscendC::LoadData(l0a, l1, AscendC::LoadData2DParamsV2(0, 0, 1, 1, 1, 1, true, 0));
}

__global__ __cube__ void img2col_overlap_kernel() {
    AscendC::LocalTensor<int16_t> l1(AscendC::TPosition::A1, 0, 32 * 32);
    AscendC::LocalTensor<int16_t> l0a(AscendC::TPosition::A2, 0, 6 * 256);
    AscendC::LoadData3DParamsV2<int16_t> p;
    p.l1H = 32;
    p.l1W = 1;
    p.channelSize = 32;
    p.kExtension = 32;
    p.mExtension = 32;
    p.strideW = p.strideH = 1;
    p.filterW = p.filterH = 1;
    p.dilationFilterW = p.dilationFilterH = 1;
    AscendC::SetLoadDataRepeatWithStride({0, 1, 0, 1});  // 2 rows of fractals need a stride of 2
    AscendC::LoadDataWithStride(l0a, l1, p);
}

__global__ __cube__ void k_direction_align_kernel() {
    AscendC::LocalTensor<float> a(AscendC::TPosition::A2, 0, 256);
    AscendC::LocalTensor<float> b(AscendC::TPosition::B2, 0, 256);
    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);
    AscendC::MmadParams p;
    p.m = 16;
    p.n = 16;
    p.k = 8;
    p.kDirectionAlign = true;
    AscendC::Mmad(c, a, b, p);
}

__global__ __cube__ void load_2dv2_past_l0a_kernel() {
    AscendC::LocalTensor<int16_t> l1(AscendC::TPosition::A1, 0, 128 * 256);
    AscendC::LocalTensor<int16_t> l0a(AscendC::TPosition::A2, 32768, 256);
    // 2 x 40 fractals (40 KiB) from the middle of the 64 KiB L0A: past its end.
    AscendC::LoadData(l0a, l1, AscendC::LoadData2DParamsV2(0, 0, 2, 40, 2, 2, false, 0));
}

__global__ __cube__ void fixpipe_nz_stride_kernel(GM_ADDR out) {
    AscendC::GlobalTensor<float> gm;
    gm.SetGlobalBuffer((__gm__ float*)out, 1024);
    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);
    // The 950's Nz output counts dstStride in elements: 3 floats are not whole 32-byte blocks.
    AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::NZ> p(16, 16, 16, 3);
    AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(gm, c, p);
}

void* nz_out = nullptr;  // the GM the Fixpipe case writes to (a captureless lambda reads it)

TEST_CASE("950 cube misuse fails the launch with 507015 naming the kernel and the API") {
    Runtime rt;
    Stream stream;
    DeviceArray<float> nz_device(1024);
    nz_out = nz_device.get();
    struct Case {
        std::string kernel;
        aclError (*launch)(aclrtStream);
        std::string api;
        std::string detail;
    };
    const Case cases[] = {
        {"boundary_kernel", [](aclrtStream s) { return aclError(ACLRT_LAUNCH_KERNEL(boundary_kernel)(1, s)); },
         "SetLoadDataBoundary", "no img2col boundary register"},
        {"transpose_b8_odd_kernel",
         [](aclrtStream s) { return aclError(ACLRT_LAUNCH_KERNEL(transpose_b8_odd_kernel)(1, s)); },
         "LoadData(LoadData2DParamsV2)", "must fill whole 16 x 32 fractals"},
        {"img2col_overlap_kernel",
         [](aclrtStream s) { return aclError(ACLRT_LAUNCH_KERNEL(img2col_overlap_kernel)(1, s)); },
         "LoadData(img2col)", "dstStride 1"},
        {"k_direction_align_kernel",
         [](aclrtStream s) { return aclError(ACLRT_LAUNCH_KERNEL(k_direction_align_kernel)(1, s)); }, "Mmad",
         "kDirectionAlign"},
        {"load_2dv2_past_l0a_kernel",
         [](aclrtStream s) { return aclError(ACLRT_LAUNCH_KERNEL(load_2dv2_past_l0a_kernel)(1, s)); },
         "LoadData(LoadData2DParamsV2)", "dst (the fractals written)"},
        {"fixpipe_nz_stride_kernel",
         [](aclrtStream s) { return aclError(ACLRT_LAUNCH_KERNEL(fixpipe_nz_stride_kernel)(1, s, nz_out)); },
         "Fixpipe", "not a whole number of 32-byte blocks"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.kernel);
        REQUIRE(c.launch(stream) == ACL_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        CAPTURE(message);
        CHECK(message.find(c.kernel) != std::string::npos);
        CHECK(message.find(c.api) != std::string::npos);
        CHECK(message.find(c.detail) != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

}  // namespace
