// The Matmul (lib/matmul_intf.h) and its host tiling (tiling/tiling_api.h): tilings checked against
// the rules the kernel enforces (base blocks in L0A / L0B / L0C, depths in L1, the cores covering
// the shape), golden results through real launches of kernels in the samples' style (tiling
// computed on the host, copied in, REGIST_MATMUL_OBJ, one core per singleCoreM x singleCoreN),
// and each check the kernel side makes failing its launch with 507015 and a message.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
#include "support.h"
#include "tiling/tiling_api.h"

using namespace canopy_test;

namespace {

template <typename T>
struct Device {
    explicit Device(const std::vector<T>& host) : count(host.size()) {
        REQUIRE_ACL(aclrtMalloc(&pointer, std::max<std::size_t>(1, count) * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST));
        if (count != 0) {
            REQUIRE_ACL(aclrtMemcpy(pointer, count * sizeof(T), host.data(), count * sizeof(T),
                                    ACL_MEMCPY_HOST_TO_DEVICE));
        }
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

template <typename T>
std::vector<T> random_values(std::size_t n, int seed, float low = -1.0f, float high = 1.0f) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(low, high);
    std::vector<T> v(n);
    for (auto& x : v) x = T(dist(gen));
    return v;
}

// C = op(A) x op(B) + bias in double, A stored M x K (K x M transposed), B K x N (N x K).
template <typename A, typename B, typename Bias>
std::vector<double> reference(const std::vector<A>& a, const std::vector<B>& b, const std::vector<Bias>* bias,
                              int m, int n, int k, bool trans_a, bool trans_b) {
    std::vector<double> c(std::size_t(m) * n, 0.0);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            double sum = bias != nullptr ? double(float((*bias)[j])) : 0.0;
            for (int p = 0; p < k; ++p) {
                const double x = double(float(trans_a ? a[std::size_t(p) * m + i] : a[std::size_t(i) * k + p]));
                const double y = double(float(trans_b ? b[std::size_t(j) * k + p] : b[std::size_t(p) * n + j]));
                sum += x * y;
            }
            c[std::size_t(i) * n + j] = sum;
        }
    }
    return c;
}

template <typename C>
void check_close(const std::vector<C>& got, const std::vector<double>& want, double tolerance) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        REQUIRE(std::fabs(double(float(got[i])) - want[i]) <= tolerance * (1.0 + std::fabs(want[i])));
    }
}

// The samples' tiling function.
AscendC::tiling::TCubeTiling compute_tiling(int m, int n, int k, matmul_tiling::DataType in,
                                            matmul_tiling::DataType out, bool bias, bool trans_a, bool trans_b,
                                            int cores, bool split_k = false) {
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    REQUIRE(platform != nullptr);
    matmul_tiling::MultiCoreMatmulTiling api(*platform);
    api.SetDim(cores);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, trans_a);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, in, trans_b);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, out == matmul_tiling::DataType::DT_INT32
                                                                                        ? matmul_tiling::DataType::DT_INT32
                                                                                        : matmul_tiling::DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.EnableBias(bias);
    api.EnableMultiCoreSplitK(split_k);
    api.SetBufferSpace(-1, -1, -1);
    AscendC::tiling::TCubeTiling tiling;
    REQUIRE(api.GetTiling(tiling) == 0);
    return tiling;
}

// ---- Kernels in the samples' style

template <typename AT, typename BT, typename CT, typename BiasT>
__aicore__ inline void run_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm, uint32_t trans_a,
                                  uint32_t trans_b, uint32_t atomic) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, AT>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BT>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, CT>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BiasT>, CFG_NORM>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    const int32_t block = int32_t(AscendC::GetBlockIdx());
    if (block >= tiling.usedCoreNum) return;
    const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t nBlocks = (tiling.N + tiling.singleCoreN - 1) / tiling.singleCoreN;
    const int32_t mi = block % mBlocks, ni = (block / mBlocks) % nBlocks, ki = block / (mBlocks * nBlocks);
    AscendC::GlobalTensor<AT> ga;
    AscendC::GlobalTensor<BT> gb;
    AscendC::GlobalTensor<CT> gc;
    AscendC::GlobalTensor<BiasT> gbias;
    ga.SetGlobalBuffer((__gm__ AT*)a, uint64_t(tiling.M) * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ BT*)b, uint64_t(tiling.Kb) * tiling.N);
    gc.SetGlobalBuffer((__gm__ CT*)c, uint64_t(tiling.M) * tiling.N);
    gbias.SetGlobalBuffer((__gm__ BiasT*)bias, uint64_t(tiling.N));
    const uint64_t offA = trans_a ? uint64_t(ki) * tiling.singleCoreK * tiling.M + uint64_t(mi) * tiling.singleCoreM
                                  : uint64_t(mi) * tiling.singleCoreM * tiling.Ka + uint64_t(ki) * tiling.singleCoreK;
    const uint64_t offB = trans_b ? uint64_t(ni) * tiling.singleCoreN * tiling.Kb + uint64_t(ki) * tiling.singleCoreK
                                  : uint64_t(ki) * tiling.singleCoreK * tiling.N + uint64_t(ni) * tiling.singleCoreN;
    const int tailM = std::min(tiling.singleCoreM, tiling.M - mi * tiling.singleCoreM);
    const int tailN = std::min(tiling.singleCoreN, tiling.N - ni * tiling.singleCoreN);
    const int tailK = std::min(tiling.singleCoreK, tiling.Ka - ki * tiling.singleCoreK);
    mm.SetTail(tailM, tailN, tailK);
    mm.SetTensorA(ga[offA], trans_a != 0);
    mm.SetTensorB(gb[offB], trans_b != 0);
    if (tiling.isBias && ki == 0) mm.SetBias(gbias[uint64_t(ni) * tiling.singleCoreN]);
    mm.IterateAll(gc[uint64_t(mi) * tiling.singleCoreM * tiling.N + uint64_t(ni) * tiling.singleCoreN], uint8_t(atomic));
    mm.End();
}

__global__ __cube__ void matmul_half_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling,
                                            uint32_t trans_a, uint32_t trans_b, uint32_t atomic) {
    run_matmul<half, half, float, float>(a, b, bias, c, tiling, trans_a, trans_b, atomic);
}
__global__ __cube__ void matmul_float_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling,
                                             uint32_t trans_a, uint32_t trans_b, uint32_t atomic) {
    run_matmul<float, float, float, float>(a, b, bias, c, tiling, trans_a, trans_b, atomic);
}
__global__ __cube__ void matmul_int8_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling,
                                            uint32_t trans_a, uint32_t trans_b, uint32_t atomic) {
    run_matmul<int8_t, int8_t, int32_t, int32_t>(a, b, bias, c, tiling, trans_a, trans_b, atomic);
}

// Iterate / GetTensorC: every base block into its place in C, and packed (sequential) into `packed`.
__global__ __cube__ void matmul_iterate_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR packed, GM_ADDR tiling_gm) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc, gp;
    ga.SetGlobalBuffer((__gm__ half*)a, uint64_t(tiling.M) * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ half*)b, uint64_t(tiling.Kb) * tiling.N);
    gc.SetGlobalBuffer((__gm__ float*)c, uint64_t(tiling.M) * tiling.N);
    gp.SetGlobalBuffer((__gm__ float*)packed);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    uint64_t offset = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(gc);
        mm.GetTensorC(gp[offset], 0, true);
        offset += uint64_t(tiling.baseM) * tiling.baseN;
    }
    mm.End();
}

// Batches of the NORMAL layout: batch x (M x K) times batch x (K x N).
__global__ __cube__ void matmul_batch_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling_gm, uint32_t batch) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half*)a, uint64_t(batch) * tiling.M * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ half*)b, uint64_t(batch) * tiling.Kb * tiling.N);
    gc.SetGlobalBuffer((__gm__ float*)c, uint64_t(batch) * tiling.M * tiling.N);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateBatch(gc, batch, batch, false);
    mm.End();
}

// int8 x int8 -> half through the fixpipe's scalar dequantization.
__global__ __cube__ void matmul_dequant_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling_gm, uint64_t scale,
                                               uint32_t set_scale) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int8_t>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int8_t>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int32_t>, CFG_MDL>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    AscendC::GlobalTensor<int8_t> ga, gb;
    AscendC::GlobalTensor<half> gc;
    ga.SetGlobalBuffer((__gm__ int8_t*)a, uint64_t(tiling.M) * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ int8_t*)b, uint64_t(tiling.Kb) * tiling.N);
    gc.SetGlobalBuffer((__gm__ half*)c, uint64_t(tiling.M) * tiling.N);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if (set_scale) mm.SetQuantScalar(scale);
    mm.IterateAll(gc);
    mm.End();
}

// The upper-triangle policy: only base blocks (m block <= n block) are written; C keeps the rest.
__global__ __cube__ void matmul_triangle_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling_gm) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>, CFG_NORM,
                    AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
                    AscendC::Impl::Detail::TrianUpperMatmulPolicy>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half*)a, uint64_t(tiling.M) * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ half*)b, uint64_t(tiling.Kb) * tiling.N);
    gc.SetGlobalBuffer((__gm__ float*)c, uint64_t(tiling.M) * tiling.N);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
}

// ---- Misuse

// mode 0: Iterate before SetTensorA; 1: GetTensorC before Iterate; 2: enAtomic 2; 3: A's window too
// small for the shape; 4: Init with the (broken) tiling only; 5: a computation with a bias, 6: without.
__global__ __cube__ void matmul_misuse_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling_gm, uint32_t mode) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half*)a, mode == 3 ? 16 : uint64_t(tiling.M) * tiling.Ka);
    gb.SetGlobalBuffer((__gm__ half*)b, uint64_t(tiling.Kb) * tiling.N);
    gc.SetGlobalBuffer((__gm__ float*)c, uint64_t(tiling.M) * tiling.N);
    switch (mode) {
        case 0:
            mm.SetTensorB(gb);
            mm.Iterate();
            break;
        case 1:
            mm.SetTensorA(ga);
            mm.SetTensorB(gb);
            mm.GetTensorC(gc);
            break;
        case 2:
            mm.SetTensorA(ga);
            mm.SetTensorB(gb);
            mm.IterateAll(gc, 2);
            break;
        case 3:
            mm.SetTensorA(ga);
            mm.SetTensorB(gb);
            mm.IterateAll(gc);
            break;
        case 5:  // the bias row is read from c
            mm.SetTensorA(ga);
            mm.SetTensorB(gb);
            mm.SetBias(gc);
            mm.IterateAll(gc);
            break;
        case 6:
            mm.SetTensorA(ga);
            mm.SetTensorB(gb);
            mm.IterateAll(gc);
            break;
        default: break;
    }
}

// The tiling is only read by Init, inside REGIST_MATMUL_OBJ; a TSCM buffer the kernel carves first
// leaves the Matmul too little L1 when `l1_bytes` is large.
__global__ __cube__ void matmul_l1_kernel(GM_ADDR tiling_gm, uint32_t l1_bytes) {
    TCubeTiling tiling;
    std::memcpy(&tiling, tiling_gm, sizeof(tiling));
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::TSCM, 1> scm;
    pipe.InitBuffer(scm, 1, l1_bytes);
    AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                    AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
}

template <auto kernel, typename AT, typename CT, typename BiasT>
void run_golden(int m, int n, int k, bool bias, bool trans_a, bool trans_b, int cores, bool split_k,
                matmul_tiling::DataType in, matmul_tiling::DataType out, double tolerance) {
    Runtime rt;
    Stream stream;
    const auto tiling = compute_tiling(m, n, k, in, out, bias, trans_a, trans_b, cores, split_k);
    CAPTURE(tiling.singleCoreM);
    CAPTURE(tiling.singleCoreN);
    CAPTURE(tiling.singleCoreK);
    CAPTURE(tiling.usedCoreNum);
    std::vector<AT> a, b;
    std::vector<BiasT> bias_host;
    if constexpr (std::is_same_v<AT, int8_t>) {
        std::mt19937 gen(7);
        std::uniform_int_distribution<int> dist(-128, 127);
        a.resize(std::size_t(m) * k);
        b.resize(std::size_t(k) * n);
        for (auto& x : a) x = int8_t(dist(gen));
        for (auto& x : b) x = int8_t(dist(gen));
        bias_host.resize(n);
        for (auto& x : bias_host) x = BiasT(dist(gen) * 100);
    } else {
        a = random_values<AT>(std::size_t(m) * k, 1);
        b = random_values<AT>(std::size_t(k) * n, 2);
        bias_host = random_values<BiasT>(n, 3);
    }
    Device<AT> da(a), db(b);
    Device<BiasT> dbias(bias_host);
    Device<CT> dc(std::size_t(m) * n);
    Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    REQUIRE(ACLRT_LAUNCH_KERNEL(kernel)(uint32_t(tiling.usedCoreNum), stream, da.pointer, db.pointer, dbias.pointer,
                                        dc.pointer, dt.pointer, trans_a, trans_b, split_k ? 1u : 0u) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    check_close(dc.read(), reference(a, b, bias ? &bias_host : nullptr, m, n, k, trans_a, trans_b), tolerance);
}

// ---- Tiling

TEST_CASE("the multi-core tiling covers the shape with base blocks the L0 and L1 buffers hold") {
    using matmul_tiling::DataType;
    struct Case {
        int m, n, k;
        DataType in;
        bool bias, split_k;
        int cores;
    };
    for (const Case& c : {Case{128, 2048, 1024, DataType::DT_FLOAT16, true, false, 20},
                          Case{1024, 1024, 1024, DataType::DT_FLOAT, false, false, 20},
                          Case{33, 70, 129, DataType::DT_FLOAT16, true, false, 8},
                          Case{16, 16, 1024, DataType::DT_FLOAT16, false, true, 20},
                          Case{512, 256, 4096, DataType::DT_INT8, false, false, 4},
                          Case{1, 4096, 64, DataType::DT_FLOAT16, false, false, 20}}) {
        CAPTURE(c.m);
        CAPTURE(c.n);
        CAPTURE(c.k);
        const auto out = c.in == DataType::DT_INT8 ? DataType::DT_INT32 : DataType::DT_FLOAT;
        const auto t = compute_tiling(c.m, c.n, c.k, c.in, out, c.bias, false, false, c.cores, c.split_k);
        const int in_bytes = c.in == DataType::DT_FLOAT ? 4 : c.in == DataType::DT_INT8 ? 1 : 2;
        CHECK(t.M == c.m);
        CHECK(t.N == c.n);
        CHECK(t.Ka == c.k);
        CHECK(t.Kb == c.k);
        CHECK(t.isBias == int(c.bias));
        REQUIRE(t.singleCoreM > 0);
        REQUIRE(t.singleCoreN > 0);
        REQUIRE(t.singleCoreK > 0);
        const int cores = ((c.m + t.singleCoreM - 1) / t.singleCoreM) * ((c.n + t.singleCoreN - 1) / t.singleCoreN) *
                          ((c.k + t.singleCoreK - 1) / t.singleCoreK);
        CHECK(t.usedCoreNum == cores);
        CHECK(t.usedCoreNum <= c.cores);
        if (!c.split_k) CHECK(t.singleCoreK == c.k);
        if (c.split_k) CHECK(t.singleCoreK < c.k);
        CHECK(t.baseM % 16 == 0);
        CHECK(t.baseN % 16 == 0);
        CHECK(t.baseK % (32 / in_bytes) == 0);
        CHECK(t.baseM <= (t.singleCoreM + 15) / 16 * 16);
        CHECK(t.baseN <= (t.singleCoreN + 15) / 16 * 16);
        CHECK(t.baseM * t.baseK * in_bytes * t.dbL0A <= 64 * 1024);
        CHECK(t.baseN * t.baseK * in_bytes * t.dbL0B <= 64 * 1024);
        CHECK(t.baseM * t.baseN * 4 * t.dbL0C <= 128 * 1024);
        CHECK(t.depthA1 * t.baseM * t.baseK * in_bytes + t.depthB1 * t.baseN * t.baseK * in_bytes +
                  (c.bias ? t.baseN * 4 : 0) <=
              512 * 1024);
        CHECK(t.depthA1 % t.stepKa == 0);
        CHECK(t.stepKa * t.baseK <= (t.singleCoreK + t.baseK - 1) / t.baseK * t.baseK);
    }
}

TEST_CASE("the multi-core tiling refuses shapes its 32-bit fields cannot hold, and answers large ones at once") {
    using matmul_tiling::DataType;
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    REQUIRE(platform != nullptr);
    auto tiling_of = [&](int m, int n, int k, AscendC::tiling::TCubeTiling& tiling) {
        matmul_tiling::MultiCoreMatmulTiling api(*platform);
        api.SetDim(20);
        api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
        api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
        api.SetOrgShape(m, n, k);
        api.SetShape(m, n, k);
        api.SetBufferSpace(-1, -1, -1);
        return api.GetTiling(tiling);
    };
    AscendC::tiling::TCubeTiling tiling;
    constexpr int most = std::numeric_limits<int32_t>::max();
    CHECK(tiling_of(most, 256, 256, tiling) == -1);
    CHECK(tiling_of(256, most, 256, tiling) == -1);
    CHECK(tiling_of(256, 256, most, tiling) == -1);
    // The largest shape that fits is tiled with positive blocks; choosing among the splits does not
    // walk the blocks (it once took seconds for such shapes).
    constexpr int large = most - 64;
    REQUIRE(tiling_of(large, large, 1024, tiling) == 0);
    CHECK(tiling.usedCoreNum > 0);
    CHECK(tiling.singleCoreM > 0);
    CHECK(tiling.singleCoreN > 0);
    CHECK(tiling.baseM > 0);
    CHECK(tiling.baseN > 0);
    CHECK(tiling.baseK > 0);
}

TEST_CASE("the tiling's host and kernel forms hold the same 200 bytes; fixed splits and traversal are honoured") {
    using namespace matmul_tiling;
    MultiCoreMatmulTiling api;
    api.SetDim(4);
    api.SetAType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
    api.SetBType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16, true);
    api.SetCType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    api.SetOrgShape(256, 512, 384);
    api.SetShape(256, 512, 384);
    REQUIRE(api.SetFixSplit(64, 128, -1) == 0);
    REQUIRE(api.SetTraverse(MatrixTraverse::FIRSTN) == 0);
    optiling::TCubeTiling host;
    AscendC::tiling::TCubeTiling kernel;
    REQUIRE(api.GetTiling(host) == 0);
    REQUIRE(api.GetTiling(kernel) == 0);
    REQUIRE(host.GetDataSize() == sizeof(AscendC::tiling::TCubeTiling));
    AscendC::tiling::TCubeTiling saved;
    host.SaveToBuffer(&saved, sizeof(saved));
    CHECK(std::memcmp(&saved, &kernel, sizeof(saved)) == 0);
    CHECK(kernel.baseM == 64);
    CHECK(kernel.baseN == 128);
    CHECK(host.get_baseN() == 128);
    CHECK(kernel.iterateOrder == 1);
    int32_t dim = 0, mDim = 0, nDim = 0;
    api.GetCoreNum(dim, mDim, nDim);
    CHECK(dim == kernel.usedCoreNum);
    CHECK(mDim * nDim == dim);

    // A single shape set with SetSingleShape is taken as it is, even when its pieces outnumber
    // the cores (the kernel walks several per core), as CANN's tiling takes it.
    MultiCoreMatmulTiling pieces;
    pieces.SetDim(4);
    pieces.SetAType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
    pieces.SetBType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
    pieces.SetCType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    pieces.SetOrgShape(512, 384, 128);
    pieces.SetShape(512, 384, 128);
    REQUIRE(pieces.SetSingleShape(128, 96, -1) == 0);
    REQUIRE(pieces.GetTiling(kernel) == 0);
    CHECK(kernel.singleCoreM == 128);
    CHECK(kernel.singleCoreN == 96);
    CHECK(kernel.singleCoreK == 128);
    pieces.GetCoreNum(dim, mDim, nDim);
    CHECK(mDim == 4);
    CHECK(nDim == 4);
    CHECK(dim == 4);

    // Refusals: no types, a non-positive shape, a base block not a multiple of 16.
    MultiCoreMatmulTiling untyped;
    untyped.SetShape(16, 16, 16);
    CHECK(untyped.GetTiling(kernel) == -1);
    CHECK(api.SetOrgShape(0, 16, 16) == -1);
    CHECK(api.SetFixSplit(24, -1, -1) == -1);
    CHECK(api.SetBufferSpace(1024 * 1024) == -1);

    // The platform answers for the modelled Ascend910B4.
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    REQUIRE(platform != nullptr);
    CHECK(platform->GetCoreNumAic() == 20);
    CHECK(platform->GetCoreNumAiv() == 40);
    uint64_t size = 0;
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, size);
    CHECK(size == AscendC::L1_BYTES);
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, size);
    CHECK(size == AscendC::L0C_BYTES);
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, size);
    CHECK(size == 192 * 1024);
    // A 950 SoC answers for its own part (canopy/soc.h); a SoC Canopy does not model, not at all.
    auto* a5 = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend950PR_9589");
    REQUIRE(a5 != nullptr);
    CHECK(a5->GetCurNpuArch() == NpuArch::DAV_3510);
    a5->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, size);
    CHECK(size == 256 * 1024);
    CHECK(platform_ascendc::PlatformAscendCManager::GetInstance("Ascend310P3") == nullptr);
}

TEST_CASE("BatchMatmulTiling and MatmulApiTiling keep the whole shape on one core") {
    using namespace matmul_tiling;
    BatchMatmulTiling bmm;
    bmm.SetAType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
    bmm.SetBType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16);
    bmm.SetCType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    bmm.SetBatchInfoForNormal(3, 3, 64, 96, 128);
    bmm.SetShape(64, 96, 128);
    bmm.SetOrgShape(64, 96, 128);
    AscendC::tiling::TCubeTiling t;
    REQUIRE(bmm.GetTiling(t) == 0);
    CHECK(t.usedCoreNum == 1);
    CHECK(t.singleCoreM == 64);
    CHECK(t.batchM == 3);
    CHECK(t.ALayoutInfoB == 3);
    MatmulApiTiling single;
    single.SetAType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    single.SetBType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    single.SetCType(TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    single.SetShape(100, 200, 300);
    REQUIRE(single.GetTiling(t) == 0);
    CHECK(t.usedCoreNum == 1);
    CHECK(t.singleCoreN == 200);
    CHECK(t.Ka == 300);
}

// ---- Golden launches

TEST_CASE("Matmul: half x half + bias -> float over the tiling's cores") {
    run_golden<matmul_half_kernel, half, float, float>(128, 2048, 1024, true, false, false, 20, false,
                                   matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, 1e-3);
}

TEST_CASE("Matmul: unaligned shapes with tails, transposed A and B") {
    for (bool trans_a : {false, true}) {
        for (bool trans_b : {false, true}) {
            CAPTURE(trans_a);
            CAPTURE(trans_b);
            run_golden<matmul_half_kernel, half, float, float>(97, 130, 75, true, trans_a, trans_b, 6, false,
                                           matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT,
                                           1e-3);
        }
    }
}

TEST_CASE("Matmul: float, through the in-place GEMM, with transposes") {
    for (bool trans : {false, true}) {
        run_golden<matmul_float_kernel, float, float, float>(256, 192, 160, true, trans, !trans, 8, false,
                                        matmul_tiling::DataType::DT_FLOAT, matmul_tiling::DataType::DT_FLOAT, 1e-4);
    }
}

TEST_CASE("Matmul: split-K cores accumulate into C with enAtomic") {
    run_golden<matmul_half_kernel, half, float, float>(16, 16, 1024, false, false, false, 20, true,
                                   matmul_tiling::DataType::DT_FLOAT16, matmul_tiling::DataType::DT_FLOAT, 1e-3);
}

TEST_CASE("Matmul: int8 x int8 + int32 bias -> int32, exactly") {
    run_golden<matmul_int8_kernel, int8_t, int32_t, int32_t>(64, 96, 256, true, false, true, 4, false,
                                         matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_INT32, 0.0);
}

TEST_CASE("Matmul: int8 -> half through SetQuantScalar") {
    Runtime rt;
    Stream stream;
    const int m = 32, n = 48, k = 64;
    const auto tiling = compute_tiling(m, n, k, matmul_tiling::DataType::DT_INT8, matmul_tiling::DataType::DT_FLOAT16,
                                       false, false, false, 1);
    std::vector<int8_t> a(m * k), b(k * n);
    for (int i = 0; i < m * k; ++i) a[i] = int8_t(i % 7 - 3);
    for (int i = 0; i < k * n; ++i) b[i] = int8_t(i % 5 - 2);
    const float scale = 0.25f;
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    Device<int8_t> da(a), db(b);
    Device<half> dc(m * n);
    Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_dequant_kernel)(1, stream, da.pointer, db.pointer, dc.pointer, dt.pointer,
                                                       uint64_t(bits), 1u) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<double> want = reference(a, b, static_cast<std::vector<int>*>(nullptr), m, n, k, false, false);
    for (double& x : want) x *= scale;
    check_close(dc.read(), want, 1e-3);

    // Without the scale the result cannot be quantized.
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_dequant_kernel)(1, stream, da.pointer, db.pointer, dc.pointer, dt.pointer,
                                                       uint64_t(bits), 0u) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(recent_error().find("SetQuantScalar") != std::string::npos);
}

TEST_CASE("Matmul: Iterate hands out every base block, in place and packed") {
    Runtime rt;
    Stream stream;
    const int m = 80, n = 100, k = 64;
    matmul_tiling::MatmulApiTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetFixSplit(32, 48, -1);
    AscendC::tiling::TCubeTiling tiling;
    REQUIRE(api.GetTiling(tiling) == 0);
    const auto a = random_values<half>(m * k, 4), b = random_values<half>(k * n, 5);
    const int mIter = (m + 31) / 32, nIter = (n + 47) / 48;
    Device<half> da(a), db(b);
    Device<float> dc(m * n), dp(std::size_t(mIter) * nIter * 32 * 48);
    Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_iterate_kernel)(1, stream, da.pointer, db.pointer, dc.pointer, dp.pointer,
                                                       dt.pointer) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto want = reference(a, b, static_cast<std::vector<float>*>(nullptr), m, n, k, false, false);
    check_close(dc.read(), want, 1e-3);
    // Packed: block i (M first) holds rows of baseN.
    const auto packed = dp.read();
    for (int i = 0; i < mIter * nIter; ++i) {
        const int mi = i % mIter, ni = i / mIter;
        for (int r = 0; r < std::min(32, m - mi * 32); ++r) {
            for (int c = 0; c < std::min(48, n - ni * 48); ++c) {
                CAPTURE(i);
                REQUIRE(std::fabs(packed[std::size_t(i) * 32 * 48 + r * 48 + c] -
                                  want[std::size_t(mi * 32 + r) * n + ni * 48 + c]) < 1e-3 * (1 + std::fabs(want[std::size_t(mi * 32 + r) * n + ni * 48 + c])));
            }
        }
    }
}

TEST_CASE("Matmul: IterateBatch multiplies each batch of the NORMAL layout") {
    Runtime rt;
    Stream stream;
    const int batch = 3, m = 32, n = 64, k = 48;
    matmul_tiling::BatchMatmulTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBatchInfoForNormal(batch, batch, m, n, k);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBatchNum(batch);
    AscendC::tiling::TCubeTiling tiling;
    REQUIRE(api.GetTiling(tiling) == 0);
    const auto a = random_values<half>(batch * m * k, 6), b = random_values<half>(batch * k * n, 7);
    Device<half> da(a), db(b);
    Device<float> dc(batch * m * n);
    Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_batch_kernel)(1, stream, da.pointer, db.pointer, dc.pointer, dt.pointer,
                                                     uint32_t(batch)) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto got = dc.read();
    for (int i = 0; i < batch; ++i) {
        std::vector<half> ai(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
        std::vector<half> bi(b.begin() + i * k * n, b.begin() + (i + 1) * k * n);
        std::vector<float> ci(got.begin() + i * m * n, got.begin() + (i + 1) * m * n);
        check_close(ci, reference(ai, bi, static_cast<std::vector<float>*>(nullptr), m, n, k, false, false), 1e-3);
    }
}

TEST_CASE("Matmul: the upper-triangle policy writes only the base blocks on and above the diagonal") {
    Runtime rt;
    Stream stream;
    const int m = 96, n = 80, k = 32;
    matmul_tiling::MatmulApiTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetFixSplit(32, 16, -1);
    AscendC::tiling::TCubeTiling tiling;
    REQUIRE(api.GetTiling(tiling) == 0);
    const auto a = random_values<half>(m * k, 8), b = random_values<half>(k * n, 9);
    Device<half> da(a), db(b);
    Device<float> dc(std::vector<float>(m * n, -7.0f));
    Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_triangle_kernel)(1, stream, da.pointer, db.pointer, dc.pointer, dt.pointer) ==
            0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const auto want = reference(a, b, static_cast<std::vector<float>*>(nullptr), m, n, k, false, false);
    const auto got = dc.read();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            CAPTURE(i);
            CAPTURE(j);
            const double expected = i / 32 <= j / 16 ? want[std::size_t(i) * n + j] : -7.0;
            REQUIRE(std::fabs(got[std::size_t(i) * n + j] - expected) <= 1e-3 * (1 + std::fabs(expected)));
        }
    }
}

// ---- Misuse: each check fails the launch with 507015 and says why

TEST_CASE("Matmul misuse fails the launch with a message naming the API and the sizes") {
    Runtime rt;
    Stream stream;
    const auto good = compute_tiling(64, 64, 64, matmul_tiling::DataType::DT_FLOAT16,
                                     matmul_tiling::DataType::DT_FLOAT, false, false, false, 1);
    Device<half> da(64 * 64), db(64 * 64);
    Device<float> dc(64 * 64);
    auto launch = [&](const AscendC::tiling::TCubeTiling& tiling, uint32_t mode) {
        Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
        REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_misuse_kernel)(1, stream, da.pointer, db.pointer, dc.pointer, dt.pointer,
                                                          mode) == 0u);
        const aclError result = aclrtSynchronizeStream(stream);
        return std::make_pair(result, recent_error());
    };
    auto expect = [&](const AscendC::tiling::TCubeTiling& tiling, uint32_t mode, aclError code,
                      std::vector<std::string> parts) {
        CAPTURE(mode);
        const auto [result, message] = launch(tiling, mode);
        CHECK(result == code);
        CAPTURE(message);
        CHECK(message.find("matmul_misuse_kernel") != std::string::npos);
        for (const auto& part : parts) CHECK(message.find(part) != std::string::npos);
    };
    expect(good, 0, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Iterate", "SetTensorA was not called"});
    expect(good, 1, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::GetTensorC", "call Iterate"});
    expect(good, 2, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::IterateAll", "enAtomic 2"});
    expect(good, 3, ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW, {"Matmul::IterateAll", "SetGlobalBuffer size is 16"});

    auto broken = good;
    broken.baseM = 256;
    broken.baseN = 256;
    expect(broken, 4, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Init", "L0C", "131072"});
    broken = good;
    broken.baseK = 512;
    expect(broken, 4, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Init", "L0A", "65536"});
    broken = good;
    broken.depthA1 = 64;
    broken.depthB1 = 64;
    broken.baseK = 64;
    broken.dbL0A = 1;
    broken.dbL0B = 1;
    expect(broken, 4, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Init", "bytes of L1"});
    // A and B blocks filling L1 exactly leave no room for the bias row the tiling enables: as on the
    // NPU, that only matters once a bias is set.
    broken = good;
    broken.depthA1 = 524288 / 2 / (2 * broken.baseM * broken.baseK);
    broken.depthB1 = 524288 / 2 / (2 * broken.baseN * broken.baseK);
    broken.isBias = 1;
    CHECK(launch(broken, 6).first == ACL_SUCCESS);
    expect(broken, 5, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::SetBias", "L1 capacity exceeded"});
    broken = good;
    broken.singleCoreM = 128;
    expect(broken, 4, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Init", "exceeds the shape"});
    broken = good;
    broken.baseM = 24;
    expect(broken, 4, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Init", "multiples of 16"});
    broken = good;
    broken.stepKa = 0;
    expect(broken, 4, ACL_ERROR_RT_AICORE_EXCEPTION, {"Matmul::Init", "stepKa 0"});
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("the Matmul's L1 comes out of the block's TPipe with the kernel's own L1 buffers") {
    Runtime rt;
    Stream stream;
    const auto tiling = compute_tiling(256, 256, 2048, matmul_tiling::DataType::DT_FLOAT16,
                                       matmul_tiling::DataType::DT_FLOAT, false, false, false, 1);
    Device<AscendC::tiling::TCubeTiling> dt(std::vector<AscendC::tiling::TCubeTiling>{tiling});
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_l1_kernel)(1, stream, dt.pointer, 1024u) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    REQUIRE(ACLRT_LAUNCH_KERNEL(matmul_l1_kernel)(1, stream, dt.pointer, 500u * 1024u) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    CHECK(message.find("Matmul::Init") != std::string::npos);
    CHECK(message.find("L1 capacity exceeded") != std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

}  // namespace
