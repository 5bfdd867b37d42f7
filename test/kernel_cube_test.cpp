// The cube path (load_data.h, mmad.h, fixpipe.h, cube_copy.h) against plain references computed
// here from the documented layouts: each kernel stages its input in L1 with a plain DataCopy, runs
// one instruction, and the test reads the destination memory back (the kernels copy it out with
// memcpy after a PipeBarrier, since L0A / L0B / L0C have no path to GM). Misuse fails the launch
// with 507015 and a message naming the kernel, the API and the sizes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;

namespace {

template <typename T>
struct Device {
    explicit Device(const std::vector<T>& host) : count(host.size()) {
        REQUIRE_ACL(aclrtMalloc(&pointer, count * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemcpy(pointer, count * sizeof(T), host.data(), count * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    explicit Device(std::size_t n) : Device(std::vector<T>(n)) {}
    ~Device() { aclrtFree(pointer); }
    std::vector<T> read() const {
        std::vector<T> host(count);
        REQUIRE_ACL(aclrtMemcpy(host.data(), count * sizeof(T), pointer, count * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST));
        return host;
    }
    void* pointer = nullptr;
    std::size_t count;
};

// Copies a local tensor's first `count` elements to GM once every pipe is done.
template <typename T>
void dump(GM_ADDR out, const AscendC::LocalTensor<T>& tensor, uint32_t count) {
    AscendC::PipeBarrier<PIPE_ALL>();
    std::memcpy(out, reinterpret_cast<const void*>(tensor.GetPhyAddr()), count * sizeof(T));
}

template <typename T>
AscendC::LocalTensor<T> stage_in_l1(GM_ADDR in, uint32_t count) {
    AscendC::GlobalTensor<T> gm;
    gm.SetGlobalBuffer((__gm__ T*)in, count);
    AscendC::LocalTensor<T> l1(AscendC::TPosition::A1, 0, count);
    AscendC::DataCopy(l1, gm, count);
    AscendC::PipeBarrier<PIPE_ALL>();
    return l1;
}

// ---- LoadData (2D): fractals with srcStride / dstGap, and the 16 x 16 transpose.

__global__ __cube__ void load_2d_kernel(GM_ADDR in, GM_ADDR out, uint32_t fractals, uint32_t transpose) {
    AscendC::LocalTensor<int16_t> l1 = stage_in_l1<int16_t>(in, fractals * 256);
    AscendC::LocalTensor<int16_t> l0a(AscendC::TPosition::A2, 0, fractals * 256);
    // Every other source fractal, written with one fractal of gap: fractals/2 repeats.
    AscendC::LoadData2DParams params;
    params.startIndex = 1;
    params.repeatTimes = fractals / 2;
    params.srcStride = 2;
    params.dstGap = 1;
    params.ifTranspose = transpose != 0;
    AscendC::Fill(l0a, AscendC::InitConstValueParams<int16_t>(1, fractals, 0, int16_t(-1)));
    AscendC::LoadData(l0a, l1, params);
    dump(out, l0a, fractals * 256);
}

TEST_CASE("LoadData 2D moves fractals with strides and gaps, transposing each when asked") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t fractals = 6;
    std::vector<int16_t> input(fractals * 256);
    std::iota(input.begin(), input.end(), int16_t(0));
    for (uint32_t transpose : {0u, 1u}) {
        CAPTURE(transpose);
        Device<int16_t> in(input), out(input.size());
        REQUIRE(ACLRT_LAUNCH_KERNEL(load_2d_kernel)(1, stream, in.pointer, out.pointer, fractals, transpose) == 0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        const std::vector<int16_t> got = out.read();
        for (uint32_t f = 0; f < fractals; ++f) {
            for (uint32_t row = 0; row < 16; ++row) {
                for (uint32_t column = 0; column < 16; ++column) {
                    int16_t expected = -1;  // the Fill value where nothing was loaded
                    if (f % 2 == 0) {
                        const uint32_t source = 1 + f;  // repeat f / 2 reads fractal 1 + 2 * (f / 2)
                        expected = transpose ? input[source * 256 + column * 16 + row]
                                             : input[source * 256 + row * 16 + column];
                    }
                    REQUIRE(got[f * 256 + row * 16 + column] == expected);
                }
            }
        }
    }
}

// ---- LoadDataWithTranspose: 32 x 32 squares of int8, 16 x 16 squares of float (two 16 x 8 fractals).

template <typename T>
__global__ __cube__ void load_transpose_kernel(GM_ADDR in, GM_ADDR out, uint32_t squares, uint32_t frac_gap) {
    constexpr uint32_t square = sizeof(T) == 1 ? 1024 : 256;
    const uint32_t dst_elements = squares * square + frac_gap * 512 / sizeof(T) * 2;
    AscendC::LocalTensor<T> l1 = stage_in_l1<T>(in, squares * square);
    AscendC::LocalTensor<T> l0b(AscendC::TPosition::B2, 0, dst_elements);
    AscendC::Fill(l0b, AscendC::InitConstValueParams<T>(1, uint16_t(dst_elements * sizeof(T) / 512), 0, T(0)));
    // Repeats one fractal apart, the second fractal of each square `frac_gap` further on.
    AscendC::LoadDataWithTranspose(l0b, l1, AscendC::LoadData2dTransposeParams(0, squares, 1, 0, frac_gap));
    dump(out, l0b, dst_elements);
}

template <typename T>
void check_load_transpose() {
    Runtime rt;
    Stream stream;
    constexpr uint32_t squares = 2, frac_gap = 1;
    constexpr uint32_t side = 16 * (sizeof(T) == 1 ? 2 : 1);
    constexpr uint32_t square = side * side;
    constexpr uint32_t fe = 512 / sizeof(T);
    std::vector<T> input(squares * square);
    for (uint32_t i = 0; i < input.size(); ++i) input[i] = T(int(i % 113) - 50);
    const uint32_t dst_elements = squares * square + frac_gap * fe * 2;
    Device<T> in(input), out(dst_elements);
    REQUIRE(ACLRT_LAUNCH_KERNEL(load_transpose_kernel<T>)(1, stream, in.pointer, out.pointer, squares, frac_gap) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<T> got = out.read();
    for (uint32_t s = 0; s < squares; ++s) {
        // The square as a dense side x side matrix.
        auto square_at = [&](uint32_t row, uint32_t column) -> T {
            const T* base = input.data() + s * square;
            if (sizeof(T) == 4) return column < 8 ? base[row * 8 + column] : base[128 + row * 8 + column - 8];
            return base[row * side + column];
        };
        const uint32_t first = s * fe, second = first + (frac_gap + 1) * fe;
        for (uint32_t row = 0; row < side; ++row) {
            for (uint32_t column = 0; column < side; ++column) {
                const T expected = square_at(column, row);  // transposed
                uint32_t at;
                if (sizeof(T) == 4) {  // left and right halves of the transpose
                    at = (column < 8 ? first : second) + row * 8 + column % 8;
                } else {  // upper and lower halves
                    at = (row < 16 ? first : second) + (row % 16) * side + column;
                }
                CAPTURE(s);
                CAPTURE(row);
                CAPTURE(column);
                REQUIRE(got[at] == expected);
            }
        }
    }
}

TEST_CASE("LoadDataWithTranspose transposes int8 32 x 32 squares and float 16 x 16 squares") {
    check_load_transpose<int8_t>();
    check_load_transpose<float>();
}

// ---- LoadData (img2col) into L0A, against im2col computed here.

constexpr uint32_t kH = 5, kW = 4, kC1 = 2, kC0 = 16;  // half: C0 = 16

__global__ __cube__ void load_3d_kernel(GM_ADDR in, GM_ADDR out, uint32_t m_ext, uint32_t k_ext) {
    AscendC::LocalTensor<half> l1 = stage_in_l1<half>(in, kC1 * kH * kW * kC0);
    AscendC::LocalTensor<half> l0a(AscendC::TPosition::A2, 0, m_ext * k_ext);
    AscendC::LoadData3DParamsV2<half> p;
    p.padList[0] = 1;  // left
    p.padList[2] = 1;  // top
    p.l1H = kH;
    p.l1W = kW;
    p.channelSize = kC1 * kC0;
    p.kExtension = k_ext;
    p.mExtension = m_ext;
    p.kStartPt = 16;
    p.mStartPt = 0;
    p.filterH = 2;
    p.filterW = 2;
    p.strideH = 1;
    p.strideW = 2;
    p.padValue = half(-3.0f);
    AscendC::LoadData(l0a, l1, p);
    dump(out, l0a, m_ext * k_ext);
}

TEST_CASE("LoadData img2col builds the window of the im2col matrix in L0A's Zz order, padding included") {
    Runtime rt;
    Stream stream;
    std::vector<half> input(kC1 * kH * kW * kC0);
    for (uint32_t i = 0; i < input.size(); ++i) input[i] = half(float(i % 97));
    constexpr uint32_t m_ext = 16, k_ext = 48;
    Device<half> in(input), out(m_ext * k_ext);
    REQUIRE(ACLRT_LAUNCH_KERNEL(load_3d_kernel)(1, stream, in.pointer, out.pointer, m_ext, k_ext) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<half> got = out.read();
    // Output positions: ho in [0, 5 + 1 - 2 + 1), wo in [0, (4 + 1 - 2) / 2 + 1).
    const uint32_t out_h = kH + 1 - 2 + 1, out_w = (kW + 1 - 2) / 2 + 1;
    for (uint32_t m = 0; m < out_h * out_w; ++m) {
        for (uint32_t k = 0; k < k_ext; ++k) {
            const uint32_t row = m, column = 16 + k;
            const uint32_t ho = row / out_w, wo = row % out_w;
            const uint32_t c1 = column / (4 * kC0), tap = column / kC0 % 4, c0 = column % kC0;
            const int h = int(ho) + int(tap / 2) - 1, w = int(wo * 2) + int(tap % 2) - 1;
            const float expected = (h < 0 || h >= int(kH) || w < 0 || w >= int(kW))
                                       ? -3.0f
                                       : float(input[((c1 * kH + h) * kW + w) * kC0 + c0]);
            const uint32_t at = ((m / 16) * (k_ext / 16) + k / 16) * 256 + (m % 16) * 16 + k % 16;
            CAPTURE(m);
            CAPTURE(k);
            REQUIRE(float(got[at]) == expected);
        }
    }
}

// ---- Mmad with a bias row from the bias table, Fixpipe with quantization and ReLU.

constexpr uint32_t kM = 20, kK = 32, kN = 24;  // m and n not multiples of 16

// How the Fixpipes are ordered after the Mmad: a M_FIX flag, unitFlag on both (no flag), or unitFlag
// on the Mmad alone (a race: the Fixpipes do not wait for the unit flags).
enum CubeSync : int32_t { m_fix_flag = 0, unit_flags = 1, unit_flag_on_mmad_only = 2 };

// A (m x k, int8) and B (k x n, int8) are given already in the L0 layouts; the bias (int32, n) goes
// through L1 into the bias table; C leaves through Fixpipe with REQ8 (scale 0.5, signed) and ReLU.
__global__ __cube__ void mmad_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR c_raw, int32_t sync) {
    constexpr uint32_t mf = (kM + 15) / 16, nf = (kN + 15) / 16;
    AscendC::GlobalTensor<int8_t> aGm, bGm;
    AscendC::GlobalTensor<int32_t> biasGm, rawGm;
    AscendC::GlobalTensor<int8_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int8_t*)a, mf * 16 * kK);
    bGm.SetGlobalBuffer((__gm__ int8_t*)b, kK * nf * 16);
    biasGm.SetGlobalBuffer((__gm__ int32_t*)bias, 32);
    cGm.SetGlobalBuffer((__gm__ int8_t*)c, kM * kN);
    rawGm.SetGlobalBuffer((__gm__ int32_t*)c_raw, kM * kN);
    AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
    AscendC::LocalTensor<int8_t> a1 = l1.Alloc<AscendC::TPosition::A1, int8_t>(mf * 16 * kK);
    AscendC::LocalTensor<int8_t> b1 = l1.Alloc<AscendC::TPosition::B1, int8_t>(kK * nf * 16);
    AscendC::LocalTensor<int32_t> bias1 = l1.Alloc<AscendC::TPosition::C1, int32_t>(32);
    AscendC::DataCopy(a1, aGm, mf * 16 * kK);
    AscendC::DataCopy(b1, bGm, kK * nf * 16);
    AscendC::DataCopy(bias1, biasGm, 32);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::LocalTensor<int8_t> a2(AscendC::TPosition::A2, 0, mf * 16 * kK);
    AscendC::LocalTensor<int8_t> b2(AscendC::TPosition::B2, 0, kK * nf * 16);
    AscendC::LocalTensor<int32_t> bias2(AscendC::TPosition::C2, 0, 32);
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams(0, mf, 1, 0, 0, false, 0));
    AscendC::LoadData(b2, b1, AscendC::LoadData2DParams(0, nf, 1, 0, 0, false, 0));
    AscendC::DataCopy(bias2, bias1, AscendC::DataCopyParams(1, 2, 0, 0));  // 2 x 64 bytes
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, mf * nf * 256);
    AscendC::MmadParams params(kM, kN, kK, 0, false, false);
    params.unitFlag = sync == m_fix_flag ? 0 : 3;
    AscendC::Mmad(c1, a2, b2, bias2, params);
    if (sync == m_fix_flag) {
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    }
    AscendC::FixpipeParamsV220 raw(kN, kM, mf * 16, kN, false);
    raw.unitFlag = sync == unit_flags ? 3 : 0;
    AscendC::Fixpipe(rawGm, c1, raw);
    const float half_scale = 0.5f;
    uint32_t scale_bits;
    std::memcpy(&scale_bits, &half_scale, 4);
    AscendC::FixpipeParamsV220 quantized(kN, kM, mf * 16, kN, true, REQ8, int64_t(scale_bits) | (int64_t(1) << 46),
                                         1, 0, 0, 0);
    quantized.unitFlag = raw.unitFlag;
    AscendC::Fixpipe(cGm, c1, quantized);
    AscendC::PipeBarrier<PIPE_ALL>();
}

TEST_CASE("Mmad adds the bias table's row to A x B; Fixpipe writes ND rows, requantized with ReLU; unitFlag orders them") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t mf = (kM + 15) / 16, nf = (kN + 15) / 16;
    std::vector<int8_t> a_dense(kM * kK), b_dense(kK * kN);
    for (uint32_t i = 0; i < a_dense.size(); ++i) a_dense[i] = int8_t(int(i * 7 % 23) - 11);
    for (uint32_t i = 0; i < b_dense.size(); ++i) b_dense[i] = int8_t(int(i * 5 % 19) - 9);
    std::vector<int32_t> bias(32);
    for (uint32_t n = 0; n < kN; ++n) bias[n] = int32_t(n * 13) - 150;
    // L0A Zz (16 x 32 fractals, one k block) and L0B Zn (32 (k) x 16 (n) fractals stored n-major).
    std::vector<int8_t> a_zz(mf * 16 * kK, 0), b_zn(kK * nf * 16, 0);
    for (uint32_t m = 0; m < kM; ++m)
        for (uint32_t k = 0; k < kK; ++k) a_zz[(m / 16) * 512 + (m % 16) * 32 + k] = a_dense[m * kK + k];
    for (uint32_t k = 0; k < kK; ++k)
        for (uint32_t n = 0; n < kN; ++n) b_zn[(n / 16) * 512 + (n % 16) * 32 + k] = b_dense[k * kN + n];
    Device<int8_t> a(a_zz), b(b_zn), c(kM * kN);
    Device<int32_t> bias_device(bias), raw(kM * kN);
    int32_t sync = -1;
    SUBCASE("ordered by a M_FIX flag") { sync = m_fix_flag; }
    SUBCASE("ordered by the unit flags, no flag") { sync = unit_flags; }
    SUBCASE("Mmad's unitFlag without Fixpipe's is a race") {
        REQUIRE(ACLRT_LAUNCH_KERNEL(mmad_kernel)(1, stream, a.pointer, b.pointer, bias_device.pointer, c.pointer,
                                                 raw.pointer, unit_flag_on_mmad_only) == 0u);
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        CHECK(message.find("Fixpipe (PIPE_FIX") != std::string::npos);
        CHECK(message.find("Mmad (PIPE_M") != std::string::npos);
        CHECK(message.find("or unitFlag on both the Mmad and the Fixpipe") != std::string::npos);
    }
    if (sync < 0) return;
    REQUIRE(ACLRT_LAUNCH_KERNEL(mmad_kernel)(1, stream, a.pointer, b.pointer, bias_device.pointer, c.pointer,
                                             raw.pointer, sync) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int32_t> got_raw = raw.read();
    const std::vector<int8_t> got = c.read();
    for (uint32_t m = 0; m < kM; ++m) {
        for (uint32_t n = 0; n < kN; ++n) {
            int32_t expected = bias[n];
            for (uint32_t k = 0; k < kK; ++k) expected += int32_t(a_dense[m * kK + k]) * int32_t(b_dense[k * kN + n]);
            CAPTURE(m);
            CAPTURE(n);
            REQUIRE(got_raw[m * kN + n] == expected);
            // REQ8 with ReLU: negatives scale by 0, positives by 0.5, rounded half to even, saturated.
            const float scaled = expected > 0 ? std::nearbyint(float(expected) * 0.5f) : 0.0f;
            REQUIRE(int(got[m * kN + n]) == int(std::min(127.0f, std::max(-128.0f, scaled))));
        }
    }
}

// ---- int4: LocalTensor<int4b_t> counts half bytes; Nd2Nz, the loads and Mmad on int4 data.

__global__ __aicore__ void int4_tensor_kernel(GM_ADDR out) {
    AscendC::LocalTensor<AscendC::int4b_t> l1(AscendC::TPosition::VECCALC, 0, 128);  // 64 bytes
    AscendC::LocalTensor<AscendC::int4b_t> view = l1[64];                         // 32 bytes on
    for (uint32_t i = 0; i < 6; ++i) view.SetValue(i, int32_t(i) - 3);
    int32_t* result = reinterpret_cast<int32_t*>(out);
    result[0] = int32_t(l1.GetSize());
    result[1] = int32_t(l1.GetLength());
    result[2] = int32_t(view.GetSize());
    result[3] = int32_t(reinterpret_cast<std::byte*>(view.GetPhyAddr()) - reinterpret_cast<std::byte*>(l1.GetPhyAddr()));
    result[4] = int32_t(l1.ReinterpretCast<int8_t>().GetSize());
    result[5] = int32_t(l1.ReinterpretCast<int8_t>().ReinterpretCast<AscendC::int4b_t>().GetSize());
    for (uint32_t i = 0; i < 6; ++i) result[6 + i] = int32_t(l1.GetValue(64 + i));
    const auto* bytes = reinterpret_cast<const uint8_t*>(view.GetPhyAddr());
    for (uint32_t i = 0; i < 3; ++i) result[12 + i] = bytes[i];
}

TEST_CASE("LocalTensor<int4b_t> counts elements of half a byte, the even element in the low nibble") {
    Runtime rt;
    Stream stream;
    Device<int32_t> out(15);
    REQUIRE(ACLRT_LAUNCH_KERNEL(int4_tensor_kernel)(1, stream, out.pointer) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int32_t> got = out.read();
    CHECK(got[0] == 128);
    CHECK(got[1] == 64);   // bytes
    CHECK(got[2] == 64);
    CHECK(got[3] == 32);   // element 64 is byte 32
    CHECK(got[4] == 64);   // the same memory as int8
    CHECK(got[5] == 128);
    for (int i = 0; i < 6; ++i) CHECK(got[6 + i] == i - 3);
    // -3, -2 | -1, 0 | 1, 2: low nibble first.
    CHECK(got[12] == 0xED);
    CHECK(got[13] == 0x0F);
    CHECK(got[14] == 0x21);
}

// A (m x k) and B int4 from GM through Nd2Nz into L1 Nz, then into L0A / L0B and an int4 Mmad:
// path 0 with B given as [n, k] and both loads 2D; path 1 with B given as [k, n], A through the
// img2col load and B through LoadDataWithTranspose (64 x 64 squares). C leaves through Fixpipe.
constexpr uint32_t k4M = 20, k4N = 24, k4K = 100;
constexpr uint32_t k4MAlign = 32, k4KAlign = 128, k4NAlign = 32;  // to 16 rows, 64 int4 columns

__global__ __cube__ void mmad_int4_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t path) {
    using AscendC::int4b_t;
    constexpr uint32_t mf = k4MAlign / 16, kf = k4KAlign / 64;
    AscendC::GlobalTensor<int4b_t> aGm, bGm;
    AscendC::GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int4b_t*)a, k4M * k4K);
    bGm.SetGlobalBuffer((__gm__ int4b_t*)b, k4K * k4N);
    cGm.SetGlobalBuffer((__gm__ int32_t*)c, k4M * k4N);
    AscendC::LocalTensor<int4b_t> a1(AscendC::TPosition::A1, 0, k4MAlign * k4KAlign);
    AscendC::LocalTensor<int4b_t> b1(AscendC::TPosition::B1, 65536, k4KAlign * 64);
    // Column counts in bytes: the move sees pairs of int4 as int8.
    AscendC::DataCopy(a1, aGm, AscendC::Nd2NzParams(1, k4M, k4K / 2, 0, k4K / 2, k4MAlign, 1, 0));
    if (path == 0) {
        AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams(1, k4N, k4K / 2, 0, k4K / 2, k4NAlign, 1, 0));
    } else {
        AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams(1, k4K, k4N / 2, 0, k4N / 2, k4KAlign, 1, 0));
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::LocalTensor<int4b_t> a2(AscendC::TPosition::A2, 0, k4MAlign * k4KAlign);
    AscendC::LocalTensor<int4b_t> b2(AscendC::TPosition::B2, 0, k4KAlign * 64);
    uint32_t n = k4N;
    if (path == 0) {
        // Nz fractal (mb, kb) is at kb * mf + mb; Zz wants mb * kf + kb.
        for (uint32_t mb = 0; mb < mf; ++mb) {
            AscendC::LoadData(a2[mb * kf * 1024], a1[mb * 1024], AscendC::LoadData2DParams(0, kf, mf, 0, 0, false, 0));
        }
        // B's [n, k] Nz already has Zn's fractal order (kb * nf + nb).
        AscendC::LoadData(b2, b1, AscendC::LoadData2DParams(0, kf * (k4NAlign / 16), 1, 0, 0, false, 0));
    } else {
        AscendC::LoadData3DParamsV2<int4b_t> p;
        p.l1H = 1;
        p.l1W = k4MAlign;
        p.channelSize = k4KAlign;
        p.kExtension = k4KAlign;
        p.mExtension = k4MAlign;
        AscendC::LoadData(a2, a1, p);
        // One square per k block; each transposes into 4 Zn fractals (n padded to 64), k blocks 4
        // fractals apart.
        AscendC::LoadDataWithTranspose(b2, b1, AscendC::LoadData2dTransposeParams(0, kf, 1, 3, 0));
        n = 64;
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, k4MAlign * 64);
    AscendC::MmadParams params;
    params.m = k4M;
    params.n = uint16_t(n);
    params.k = k4K;
    AscendC::Mmad(c1, a2, b2, params);
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::Fixpipe(cGm, c1, AscendC::FixpipeParamsV220(k4N, k4M, k4MAlign, k4N, false));
    AscendC::PipeBarrier<PIPE_ALL>();
}

// Two int4 values to a byte, the even one in the low nibble.
std::vector<uint8_t> pack_int4(const std::vector<int8_t>& values) {
    std::vector<uint8_t> packed(values.size() / 2);
    for (std::size_t i = 0; i < packed.size(); ++i) {
        packed[i] = uint8_t((values[2 * i] & 0xF) | ((values[2 * i + 1] & 0xF) << 4));
    }
    return packed;
}

TEST_CASE("int4 Mmad multiplies int4 matrices loaded by Nd2Nz, LoadData 2D, img2col and LoadDataWithTranspose") {
    Runtime rt;
    Stream stream;
    std::vector<int8_t> a(k4M * k4K), b(k4K * k4N), b_t(k4N * k4K);
    for (uint32_t i = 0; i < a.size(); ++i) a[i] = int8_t(int(i * 7 % 16) - 8);
    for (uint32_t i = 0; i < b.size(); ++i) b[i] = int8_t(int(i * 5 % 13) - 6);
    for (uint32_t k = 0; k < k4K; ++k)
        for (uint32_t n = 0; n < k4N; ++n) b_t[n * k4K + k] = b[k * k4N + n];
    for (uint32_t path : {0u, 1u}) {
        CAPTURE(path);
        Device<uint8_t> a_device(pack_int4(a)), b_device(pack_int4(path == 0 ? b_t : b));
        Device<int32_t> c(k4M * k4N);
        REQUIRE(ACLRT_LAUNCH_KERNEL(mmad_int4_kernel)(1, stream, a_device.pointer, b_device.pointer, c.pointer,
                                                      path) == 0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        const std::vector<int32_t> got = c.read();
        for (uint32_t m = 0; m < k4M; ++m) {
            for (uint32_t n = 0; n < k4N; ++n) {
                int32_t expected = 0;
                for (uint32_t k = 0; k < k4K; ++k) expected += int32_t(a[m * k4K + k]) * int32_t(b[k * k4N + n]);
                CAPTURE(m);
                CAPTURE(n);
                REQUIRE(got[m * k4N + n] == expected);
            }
        }
    }
}

// LoadDataWithTranspose on int4 against the transpose computed here: a 64 x 64 square in, four
// 16 x 64 fractals out, dstFracGap fractals apart.
__global__ __cube__ void load_transpose_int4_kernel(GM_ADDR in, GM_ADDR out) {
    using AscendC::int4b_t;
    AscendC::LocalTensor<int8_t> staged = stage_in_l1<int8_t>(in, 2048);
    AscendC::LocalTensor<int4b_t> l1 = staged.ReinterpretCast<int4b_t>();
    AscendC::LocalTensor<int4b_t> l0b(AscendC::TPosition::B2, 0, 7 * 1024);
    AscendC::Fill(l0b.ReinterpretCast<int8_t>(), AscendC::InitConstValueParams<int8_t>(1, 7, 0, int8_t(0x77)));
    AscendC::LoadDataWithTranspose(l0b, l1, AscendC::LoadData2dTransposeParams(0, 1, 1, 0, 1));
    dump(out, l0b.ReinterpretCast<int8_t>(), 7 * 512);
}

TEST_CASE("LoadDataWithTranspose transposes an int4 64 x 64 square into four fractals of B2") {
    Runtime rt;
    Stream stream;
    std::vector<int8_t> square(64 * 64);
    for (uint32_t i = 0; i < square.size(); ++i) square[i] = int8_t(int(i * 11 % 16) - 8);
    const std::vector<uint8_t> packed = pack_int4(square);
    Device<int8_t> in(std::vector<int8_t>(packed.begin(), packed.end())), out(7 * 512);
    REQUIRE(ACLRT_LAUNCH_KERNEL(load_transpose_int4_kernel)(1, stream, in.pointer, out.pointer) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int8_t> got = out.read();
    auto nibble = [&](uint32_t index) {
        const int value = (uint8_t(got[index / 2]) >> (4 * (index % 2))) & 0xF;
        return value >= 8 ? value - 16 : value;
    };
    for (uint32_t row = 0; row < 64; ++row) {
        for (uint32_t column = 0; column < 64; ++column) {
            const uint32_t at = (row / 16) * 2 * 1024 + (row % 16) * 64 + column;  // dstFracGap 1
            CAPTURE(row);
            CAPTURE(column);
            REQUIRE(nibble(at) == square[column * 64 + row]);
        }
    }
    for (uint32_t gap : {1u, 3u, 5u}) CHECK(uint8_t(got[gap * 512 + 100]) == 0x77);  // untouched
}

__global__ __cube__ void mmad_int4_odd_k_kernel() {
    AscendC::LocalTensor<AscendC::int4b_t> a2(AscendC::TPosition::A2, 0, 1024);
    AscendC::LocalTensor<AscendC::int4b_t> b2(AscendC::TPosition::B2, 0, 1024);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, 256);
    AscendC::MmadParams params;
    params.m = 16;
    params.n = 16;
    params.k = 63;
    AscendC::Mmad(c1, a2, b2, params);
}

__global__ __cube__ void int4_transpose_into_l0a_kernel() {
    AscendC::LocalTensor<AscendC::int4b_t> l1(AscendC::TPosition::A1, 0, 4096);
    AscendC::LocalTensor<AscendC::int4b_t> a2(AscendC::TPosition::A2, 0, 4096);
    AscendC::LoadDataWithTranspose(a2, l1, AscendC::LoadData2dTransposeParams(0, 1, 1, 0, 0));
}

__global__ __cube__ void int4_odd_offset_kernel() {
    AscendC::LocalTensor<AscendC::int4b_t> l1(AscendC::TPosition::A1, 0, 64);
    AscendC::LocalTensor<AscendC::int4b_t> view = l1[3];
    (void)view;
}

TEST_CASE("int4 misuse: Mmad with odd k, a transposing load into L0A, an odd element offset") {
    Runtime rt;
    Stream stream;
    REQUIRE(ACLRT_LAUNCH_KERNEL(mmad_int4_odd_k_kernel)(1, stream) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    std::string message = recent_error();
    CHECK(message.find("Mmad") != std::string::npos);
    CHECK(message.find("k 63 must be even") != std::string::npos);

    REQUIRE(ACLRT_LAUNCH_KERNEL(int4_transpose_into_l0a_kernel)(1, stream) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    message = recent_error();
    CHECK(message.find("LoadDataWithTranspose") != std::string::npos);
    CHECK(message.find("only into B2") != std::string::npos);

    REQUIRE(ACLRT_LAUNCH_KERNEL(int4_odd_offset_kernel)(1, stream) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    message = recent_error();
    CHECK(message.find("LocalTensor::operator[]") != std::string::npos);
    CHECK(message.find("offset 3") != std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

// ---- Fixpipe from an L0C filled directly (plain stores, then a barrier): Nz output to L1 with a
// cast, ND output with per-column scale words, and DataCopy L0C -> GM configured by registers.

constexpr uint32_t kFixM = 24, kFixN = 40;  // 2 x 3 fractals of 16 x 16, partly used
constexpr uint32_t kFixRows = 32;           // srcStride: m rounded up to 16

template <typename T>
AscendC::LocalTensor<T> l0c_from(GM_ADDR nz) {
    AscendC::LocalTensor<T> c(AscendC::TPosition::CO1, 0, 3 * kFixRows * 16);
    std::memcpy(reinterpret_cast<void*>(c.GetPhyAddr()), nz, 3 * kFixRows * 16 * sizeof(T));
    AscendC::PipeBarrier<PIPE_ALL>();
    return c;
}

__global__ __cube__ void fixpipe_nz_to_l1_kernel(GM_ADDR nz, GM_ADDR out) {
    AscendC::LocalTensor<float> c = l0c_from<float>(nz);
    AscendC::LocalTensor<half> l1(AscendC::TPosition::C1, 0, 3 * kFixM * 16);
    // Nz half: column blocks of 16, kFixM rows each (dstStride in 32-byte blocks), ReLU on.
    AscendC::FixpipeParamsV220 params(48, kFixM, kFixRows, kFixM * 16 * 2 / 32, true, F322F16, 0, 1, 0, 0, 0);
    AscendC::Fixpipe<half, float, AscendC::CFG_NZ>(l1, c, params);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<half> gm;
    gm.SetGlobalBuffer((__gm__ half*)out, 3 * kFixM * 16);
    AscendC::DataCopy(gm, l1, 3 * kFixM * 16);
}

__global__ __cube__ void fixpipe_vector_quant_kernel(GM_ADDR nz, GM_ADDR words, GM_ADDR out) {
    AscendC::LocalTensor<float> c = l0c_from<float>(nz);
    AscendC::GlobalTensor<uint64_t> wordsGm;
    wordsGm.SetGlobalBuffer((__gm__ uint64_t*)words, 48);
    AscendC::LocalTensor<uint64_t> l1Words(AscendC::TPosition::C1, 0, 48);
    AscendC::DataCopy(l1Words, wordsGm, 48);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::GlobalTensor<int8_t> gm;
    gm.SetGlobalBuffer((__gm__ int8_t*)out, kFixM * kFixN);
    AscendC::FixpipeParamsV220 params(kFixN, kFixM, kFixRows, kFixN, false, VQF322B8_PRE, 0, 1, 0, 0, 0);
    AscendC::Fixpipe<int8_t, float, AscendC::CFG_ROW_MAJOR>(gm, c, l1Words, params);
}

// Copies the 48 quantization words from GM to L1 and on to the fixpipe buffer, and points the FPC
// register at them (SetFixPipeConfig), as catlass's per-channel epilogue does; returns the L1 copy.
__aicore__ inline AscendC::LocalTensor<uint64_t> configure_fixpipe_words(GM_ADDR words) {
    AscendC::GlobalTensor<uint64_t> wordsGm;
    wordsGm.SetGlobalBuffer((__gm__ uint64_t*)words, 48);
    AscendC::LocalTensor<uint64_t> l1Words(AscendC::TPosition::C1, 0, 48);
    AscendC::DataCopy(l1Words, wordsGm, 48);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<uint64_t> fbWords(AscendC::TPosition::C2PIPE2GM, 0, 48);
    AscendC::DataCopy(fbWords, l1Words, AscendC::DataCopyParams(1, 48 * sizeof(uint64_t) / 128, 0, 0));
    AscendC::SetFixPipeConfig<uint64_t, false>(fbWords, false);
    AscendC::PipeBarrier<PIPE_FIX>();
    return l1Words;
}

// The same per-column quantization with the words in the fixpipe buffer: copied there from L1, pointed
// at by SetFixPipeConfig, and Fixpipe given no cbufWorkspace scales by them (catlass's per-channel
// CopyL0CToGm). The scalar mode's deqScalar lands in the QUANT_PRE register and its ndNum (1) in
// ND_PARA, which a DataCopy L0C -> GM then uses: the last `kFixN` bytes of `out` are columns
// 0..kFixN-1 of row 0 scaled by it.
__global__ __cube__ void fixpipe_configured_vector_quant_kernel(GM_ADDR nz, GM_ADDR words, GM_ADDR out) {
    AscendC::LocalTensor<float> c = l0c_from<float>(nz);
    configure_fixpipe_words(words);
    AscendC::GlobalTensor<int8_t> gm;
    gm.SetGlobalBuffer((__gm__ int8_t*)out, kFixM * kFixN + kFixN);
    AscendC::FixpipeParamsV220 params(kFixN, kFixM, kFixRows, kFixN, false, VQF322B8_PRE, 0, 1, 0, 0, 0);
    AscendC::Fixpipe<int8_t, float, AscendC::CFG_ROW_MAJOR>(gm, c, params);
    // A scalar mode: 16 rows of 16 columns into a scratch spot, leaving 0.5 (signed) in QUANT_PRE.
    const float half_scale = 0.5f;
    uint32_t bits;
    std::memcpy(&bits, &half_scale, 4);
    AscendC::FixpipeParamsV220 scalar(16, 1, kFixRows, 16, false, QF322B8_PRE, 0, 1, 0, 0, 0);
    scalar.deqScalar = uint64_t(bits) | uint64_t(1) << 46;
    AscendC::Fixpipe<int8_t, float, AscendC::CFG_ROW_MAJOR>(gm[kFixM * kFixN], c, scalar);
    AscendC::PipeBarrier<PIPE_FIX>();
    AscendC::DataCopyCO12DstParams registers(kFixN, 1, kFixN, kFixRows, QF322B8_PRE, 0, false, true);
    AscendC::DataCopy(gm[kFixM * kFixN], c, registers);
}

// A Fixpipe given its words in L1 stages them through a temporary of the fixpipe buffer, repointing
// the FPC register: a vector Fixpipe after it without words has none to scale by.
__global__ __cube__ void fixpipe_vector_without_words_kernel(GM_ADDR nz, GM_ADDR words, GM_ADDR out) {
    AscendC::LocalTensor<float> c = l0c_from<float>(nz);
    AscendC::LocalTensor<uint64_t> l1Words = configure_fixpipe_words(words);
    AscendC::GlobalTensor<int8_t> gm;
    gm.SetGlobalBuffer((__gm__ int8_t*)out, kFixM * kFixN);
    AscendC::FixpipeParamsV220 params(kFixN, kFixM, kFixRows, kFixN, false, VQF322B8_PRE, 0, 1, 0, 0, 0);
    AscendC::Fixpipe<int8_t, float, AscendC::CFG_ROW_MAJOR>(gm, c, l1Words, params);
    AscendC::Fixpipe<int8_t, float, AscendC::CFG_ROW_MAJOR>(gm, c, params);
}

// Fixpipe into GM under the atomic mode combines each result with what GM holds: every block adds
// its L0C twice into the same output, then (atomic max) raises it to at least the L0C value.
__global__ __cube__ void fixpipe_atomic_kernel(GM_ADDR nz, GM_ADDR sum, GM_ADDR most) {
    AscendC::LocalTensor<float> c = l0c_from<float>(nz);
    AscendC::GlobalTensor<float> sumGm, mostGm;
    sumGm.SetGlobalBuffer((__gm__ float*)sum, kFixM * kFixN);
    mostGm.SetGlobalBuffer((__gm__ float*)most, kFixM * kFixN);
    AscendC::FixpipeParamsV220 params(kFixN, kFixM, kFixRows, kFixN, false, NoQuant, 0, 1, 0, 0, 0);
    AscendC::SetAtomicAdd<float>();
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(sumGm, c, params);
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(sumGm, c, params);
    AscendC::SetAtomicMax<float>();
    AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(mostGm, c, params);
    AscendC::SetAtomicNone();
}

// The atomic mode's type must be the destination's.
__global__ __cube__ void fixpipe_atomic_type_kernel(GM_ADDR nz, GM_ADDR out) {
    AscendC::LocalTensor<float> c = l0c_from<float>(nz);
    AscendC::GlobalTensor<half> gm;
    gm.SetGlobalBuffer((__gm__ half*)out, kFixM * kFixN);
    AscendC::SetAtomicAdd<float>();
    AscendC::FixpipeParamsV220 params(kFixN, kFixM, kFixRows, kFixN, false, F322F16, 0, 1, 0, 0, 0);
    AscendC::Fixpipe<half, float, AscendC::CFG_ROW_MAJOR>(gm, c, params);
}

__global__ __cube__ void data_copy_l0c_kernel(GM_ADDR nz, GM_ADDR out, uint64_t scale_word) {
    AscendC::LocalTensor<int32_t> c = l0c_from<int32_t>(nz);
    AscendC::GlobalTensor<half> gm;
    gm.SetGlobalBuffer((__gm__ half*)out, 2 * kFixM * 16);
    // Two ND matrices: the column blocks 0 and 1 (16 columns each), side by side rows apart.
    AscendC::SetFixpipeNz2ndFlag(2, uint16_t(kFixRows * 16 / 256), uint32_t(kFixM * 16));
    AscendC::SetFixpipePreQuantFlag(scale_word);
    AscendC::DataCopyCO12DstParams params(16, kFixM, 16, kFixRows, DEQF16, 0, false, true);
    AscendC::DataCopy(gm, c, params);
}

TEST_CASE("Fixpipe casts into Nz in L1, quantizes per column into ND rows; DataCopy L0C->GM follows the registers") {
    Runtime rt;
    Stream stream;
    // The L0C Nz image: column block b holds kFixRows rows of 16.
    auto nz_index = [](uint32_t m, uint32_t n) { return (n / 16) * kFixRows * 16 + m * 16 + n % 16; };
    std::vector<float> nz(3 * kFixRows * 16, 0.0f);
    std::vector<int32_t> nz_int(nz.size(), 0);
    for (uint32_t m = 0; m < kFixRows; ++m) {
        for (uint32_t n = 0; n < 48; ++n) {
            nz[nz_index(m, n)] = float(int(m * 7 + n * 3) % 41 - 20) * 1.25f;
            nz_int[nz_index(m, n)] = int32_t(m * 5 + n) - 60;
        }
    }
    {
        Device<float> in(nz);
        Device<half> out(3 * kFixM * 16);
        REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_nz_to_l1_kernel)(1, stream, in.pointer, out.pointer) == 0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        const std::vector<half> got = out.read();
        for (uint32_t m = 0; m < kFixM; ++m) {
            for (uint32_t n = 0; n < 48; ++n) {
                CAPTURE(m);
                CAPTURE(n);
                REQUIRE(float(got[(n / 16) * kFixM * 16 + m * 16 + n % 16]) == std::max(0.0f, nz[nz_index(m, n)]));
            }
        }
    }
    {
        // Column n scales by (n % 4 + 1) / 2; even columns signed int8, odd ones unsigned, offset 3 on column 5.
        std::vector<uint64_t> words(48);
        for (uint32_t n = 0; n < 48; ++n) {
            const float scale = float(n % 4 + 1) / 2.0f;
            uint32_t bits;
            std::memcpy(&bits, &scale, 4);
            words[n] = uint64_t(bits) | (n % 2 == 0 ? uint64_t(1) << 46 : 0) | (n == 5 ? uint64_t(3) << 37 : 0);
        }
        Device<float> in(nz);
        Device<uint64_t> words_device(words);
        auto check_quantized = [&](const std::vector<int8_t>& got) {
            for (uint32_t m = 0; m < kFixM; ++m) {
                for (uint32_t n = 0; n < kFixN; ++n) {
                    const float scaled =
                        std::nearbyint(nz[nz_index(m, n)] * float(n % 4 + 1) / 2.0f) + (n == 5 ? 3 : 0);
                    const float expected = n % 2 == 0 ? std::min(127.0f, std::max(-128.0f, scaled))
                                                      : std::min(255.0f, std::max(0.0f, scaled));
                    CAPTURE(m);
                    CAPTURE(n);
                    const int value = n % 2 == 0 ? int(got[m * kFixN + n]) : int(uint8_t(got[m * kFixN + n]));
                    REQUIRE(value == int(expected));
                }
            }
        };
        {
            Device<int8_t> out(kFixM * kFixN);
            REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_vector_quant_kernel)(1, stream, in.pointer, words_device.pointer,
                                                                     out.pointer) == 0u);
            REQUIRE_ACL(aclrtSynchronizeStream(stream));
            check_quantized(out.read());
        }
        {
            Device<int8_t> out(kFixM * kFixN + kFixN);
            REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_configured_vector_quant_kernel)(1, stream, in.pointer,
                                                                                words_device.pointer,
                                                                                out.pointer) == 0u);
            REQUIRE_ACL(aclrtSynchronizeStream(stream));
            const std::vector<int8_t> got = out.read();
            check_quantized(got);
            for (uint32_t n = 0; n < kFixN; ++n) {
                CAPTURE(n);
                const float scaled = std::nearbyint(nz[nz_index(0, n)] * 0.5f);
                REQUIRE(int(got[kFixM * kFixN + n]) == int(std::min(127.0f, std::max(-128.0f, scaled))));
            }
        }
        {
            Device<int8_t> out(kFixM * kFixN);
            REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_vector_without_words_kernel)(1, stream, in.pointer,
                                                                             words_device.pointer,
                                                                             out.pointer) == 0u);
            CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
            const std::string message = recent_error();
            CHECK(message.find("Fixpipe") != std::string::npos);
            CHECK(message.find("quantPre 23 scales by a vector, but no cbufWorkspace was given") !=
                  std::string::npos);
            CHECK_ACL(aclrtSynchronizeStream(stream));
        }
    }
    {
        const float scale = 0.25f;
        uint32_t bits;
        std::memcpy(&bits, &scale, 4);
        Device<int32_t> in(nz_int);
        Device<half> out(2 * kFixM * 16);
        REQUIRE(ACLRT_LAUNCH_KERNEL(data_copy_l0c_kernel)(1, stream, in.pointer, out.pointer, uint64_t(bits)) == 0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        const std::vector<half> got = out.read();
        for (uint32_t matrix = 0; matrix < 2; ++matrix) {
            for (uint32_t m = 0; m < kFixM; ++m) {
                for (uint32_t n = 0; n < 16; ++n) {
                    CAPTURE(matrix);
                    CAPTURE(m);
                    CAPTURE(n);
                    REQUIRE(float(got[matrix * kFixM * 16 + m * 16 + n]) ==
                            float(nz_int[nz_index(m, matrix * 16 + n)]) * 0.25f);
                }
            }
        }
    }
}

TEST_CASE("Fixpipe into GM combines under the atomic mode, across blocks, in the mode's type") {
    Runtime rt;
    Stream stream;
    auto nz_index = [](uint32_t m, uint32_t n) { return (n / 16) * kFixRows * 16 + m * 16 + n % 16; };
    std::vector<float> nz(3 * kFixRows * 16, 0.0f);
    for (uint32_t m = 0; m < kFixRows; ++m) {
        for (uint32_t n = 0; n < 48; ++n) nz[nz_index(m, n)] = float(int(m * 7 + n * 3) % 41 - 20) * 0.5f;
    }
    std::vector<float> start(kFixM * kFixN), floor(kFixM * kFixN);
    for (uint32_t i = 0; i < start.size(); ++i) {
        start[i] = float(int(i % 13) - 6) * 0.25f;
        floor[i] = float(int(i % 7) - 3);
    }
    constexpr uint32_t kBlocks = 4;
    Device<float> in(nz), sum(start), most(floor);
    REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_atomic_kernel)(kBlocks, stream, in.pointer, sum.pointer, most.pointer) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> sums = sum.read(), mosts = most.read();
    for (uint32_t m = 0; m < kFixM; ++m) {
        for (uint32_t n = 0; n < kFixN; ++n) {
            CAPTURE(m);
            CAPTURE(n);
            const uint32_t i = m * kFixN + n;
            REQUIRE(sums[i] == start[i] + 2 * kBlocks * nz[nz_index(m, n)]);
            REQUIRE(mosts[i] == std::max(floor[i], nz[nz_index(m, n)]));
        }
    }

    Device<half> out(kFixM * kFixN);
    REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_atomic_type_kernel)(1, stream, in.pointer, out.pointer) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    CHECK(message.find("Fixpipe") != std::string::npos);
    CHECK(message.find("the atomic mode combines float elements but the move writes 2-byte elements") !=
          std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

// ---- MmadWithSparse: B given densified 4:2 with its indices; GEMV (m = 1).

__global__ __cube__ void sparse_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c) {
    AscendC::LocalTensor<int8_t> a1 = stage_in_l1<int8_t>(a, 16 * 64);
    AscendC::GlobalTensor<int8_t> bGm;
    AscendC::GlobalTensor<uint8_t> idxGm;
    bGm.SetGlobalBuffer((__gm__ int8_t*)b, 512);
    idxGm.SetGlobalBuffer((__gm__ uint8_t*)idx, 128);
    AscendC::LocalTensor<int8_t> b1(AscendC::TPosition::B1, 4096, 512);
    AscendC::LocalTensor<uint8_t> idx1(AscendC::TPosition::B1, 8192, 128);
    AscendC::DataCopy(b1, bGm, 512);
    AscendC::DataCopy(idx1, idxGm, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::LocalTensor<int8_t> a2(AscendC::TPosition::A2, 0, 16 * 64);
    AscendC::LocalTensor<int8_t> b2(AscendC::TPosition::B2, 1024, 512);
    AscendC::LocalTensor<int32_t> c1(AscendC::TPosition::CO1, 0, 256);
    AscendC::LoadData(a2, a1, AscendC::LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    AscendC::LoadData2DParams sparse;
    sparse.repeatTimes = 1;
    AscendC::LoadDataWithSparse(b2, b1, idx1, sparse);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadWithSparse(c1, a2, b2, AscendC::MmadParams(16, 16, 64, 0, false, true));
    dump(c, c1, 256);
}

TEST_CASE("MmadWithSparse pairs each densified B value with the A column its 2-bit index selects") {
    Runtime rt;
    Stream stream;
    // A: 16 x 64 as two Zz fractals of 16 x 32 (one m block).
    std::vector<int8_t> a(16 * 64), a_zz(16 * 64);
    for (uint32_t i = 0; i < a.size(); ++i) a[i] = int8_t(int(i * 11 % 17) - 8);
    for (uint32_t m = 0; m < 16; ++m)
        for (uint32_t k = 0; k < 64; ++k) a_zz[(k / 32) * 512 + m * 32 + k % 32] = a[m * 64 + k];
    // B: 64 x 16 with two non-zeros in every group of 4 k-values, densified to 32 x 16 (one Zn fractal)
    // and indices (one 128-byte fractal: 16 n x 8 bytes).
    std::vector<int8_t> b_dense(512);
    std::vector<uint8_t> idx(128, 0);
    std::vector<int32_t> expected(16 * 16, 0);
    for (uint32_t n = 0; n < 16; ++n) {
        for (uint32_t group = 0; group < 16; ++group) {
            const uint32_t first = (n + group) % 3;                 // 0..2
            const uint32_t second = first + 1 + (n * group) % (3 - first);  // first + 1 .. 3
            const int8_t x = int8_t(int(n + 2 * group) % 9 - 4), y = int8_t(int(3 * n + group) % 7 - 3);
            b_dense[n * 32 + 2 * group] = x;
            b_dense[n * 32 + 2 * group + 1] = y;
            const uint32_t dense = 2 * group;  // index pair of this group: first, second - 1
            idx[n * 8 + dense / 4] |= uint8_t(first << (2 * (dense % 4)));
            idx[n * 8 + (dense + 1) / 4] |= uint8_t((second - 1) << (2 * ((dense + 1) % 4)));
            for (uint32_t m = 0; m < 16; ++m) {
                expected[m * 16 + n] += int32_t(a[m * 64 + 4 * group + first]) * x +
                                        int32_t(a[m * 64 + 4 * group + second]) * y;
            }
        }
    }
    Device<int8_t> a_device(a_zz), b_device(b_dense);
    Device<uint8_t> idx_device(idx);
    Device<int32_t> c(256);
    REQUIRE(ACLRT_LAUNCH_KERNEL(sparse_kernel)(1, stream, a_device.pointer, b_device.pointer, idx_device.pointer,
                                               c.pointer) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int32_t> got = c.read();
    for (uint32_t m = 0; m < 16; ++m) {
        for (uint32_t n = 0; n < 16; ++n) {
            CAPTURE(m);
            CAPTURE(n);
            REQUIRE(got[m * 16 + n] == expected[m * 16 + n]);  // L0C Nz: one 16 x 16 block
        }
    }
}

// ---- Misuse.

__global__ __cube__ void load_into_ub_kernel() {
    AscendC::LocalTensor<half> l1(AscendC::TPosition::A1, 0, 256);
    AscendC::LocalTensor<half> ub(AscendC::TPosition::VECCALC, 0, 256);
    AscendC::LoadData(ub, l1, AscendC::LoadData2DParams(0, 1, 1, 0, 0, false, 0));
}

__global__ __cube__ void mmad_too_small_kernel() {
    AscendC::LocalTensor<half> a(AscendC::TPosition::A2, 0, 256);
    AscendC::LocalTensor<half> b(AscendC::TPosition::B2, 0, 512);
    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 512);
    // 256 x 256 half values of A are 128 KiB: twice L0A.
    AscendC::Mmad(c, a, b, AscendC::MmadParams(256, 16, 256, 0, false, true));
}

__global__ __cube__ void fixpipe_wrong_quant_kernel(GM_ADDR out) {
    AscendC::GlobalTensor<half> gm;
    gm.SetGlobalBuffer((__gm__ half*)out, 256);
    AscendC::LocalTensor<float> c(AscendC::TPosition::CO1, 0, 256);
    AscendC::Fixpipe(gm, c, AscendC::FixpipeParamsV220(16, 16, 16, 16, false, REQ8, 0, 1, 0, 0, 0));
}

TEST_CASE("cube misuse fails the launch with 507015 naming the kernel, the API and the sizes") {
    Runtime rt;
    Stream stream;
    REQUIRE(ACLRT_LAUNCH_KERNEL(load_into_ub_kernel)(1, stream) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    std::string message = recent_error();
    CHECK(message.find("load_into_ub_kernel") != std::string::npos);
    CHECK(message.find("LoadData") != std::string::npos);
    CHECK(message.find("VECCALC") != std::string::npos);

    REQUIRE(ACLRT_LAUNCH_KERNEL(mmad_too_small_kernel)(1, stream) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    message = recent_error();
    CHECK(message.find("Mmad") != std::string::npos);
    CHECK(message.find("fm (A) for the given m and k") != std::string::npos);
    CHECK(message.find("65536 elements") != std::string::npos);
    CHECK(message.find("65536-byte L0A") != std::string::npos);

    Device<half> out(256);
    REQUIRE(ACLRT_LAUNCH_KERNEL(fixpipe_wrong_quant_kernel)(1, stream, out.pointer) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    message = recent_error();
    CHECK(message.find("Fixpipe") != std::string::npos);
    CHECK(message.find("quantPre 9") != std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

}  // namespace
