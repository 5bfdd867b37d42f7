// The Ascend 950's register-based API (AscendC::Reg, asc_vf_call): golden results for each
// instruction family, computed by VFs over UB tensors that a kernel fills and drains as the
// samples do (DataCopy in, MTE2_V flag, the VF, V_MTE3 flag, DataCopy out).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;
using namespace AscendC;

namespace {

constexpr uint32_t kLength = 256;  // four float registers
constexpr uint32_t kFloats = GetVecLen() / sizeof(float);
static_assert(kFloats == 64 && GetVecLen() == 256);

enum Family : int32_t {
    binary = 0,    // Add, Sub, Mul, Div, Max, Min under an UpdateMask tail
    scalar_unary,  // Adds, Muls, Maxs, Exp, Abs, Relu, Sqrt, Neg, MulAddDst, Axpy, ExpSub
    compare_select,
    reductions,    // ReduceSum, ReduceMax, ReduceDataBlock, PairReduceElem
    casts,         // float -> half -> float with layouts, float -> int32 with rounding modes
    distributions, // BRC_B32 broadcast, DINTLV_B32 / INTLV_B32, DATA_BLOCK_COPY
    unaligned,     // LoadUnAlign / StoreUnAlign / StoreUnAlignPost, Squeeze + the AR store
    gather_scatter,
    masks,         // CreateMask patterns, mask logic, Duplicate, Arange, Select on masks
};

// x, y -> z for one family; z starts as what zGm held (the tails a family leaves stay visible).
__simd_vf__ inline void binary_vf(__ubuf__ float* x, __ubuf__ float* y, __ubuf__ float* z, uint32_t count) {
    Reg::RegTensor<float> a, b, r;
    Reg::MaskReg mask;
    const uint32_t ops = 6;
    for (uint32_t op = 0; op < ops; ++op) {
        uint32_t left = count;
        for (uint32_t i = 0; i < kLength / kFloats; ++i) {
            mask = Reg::UpdateMask<float>(left);
            Reg::LoadAlign(a, x + i * kFloats);
            Reg::LoadAlign(b, y + i * kFloats);
            switch (op) {
                case 0: Reg::Add(r, a, b, mask); break;
                case 1: Reg::Sub(r, a, b, mask); break;
                case 2: Reg::Mul(r, a, b, mask); break;
                case 3: Reg::Div(r, a, b, mask); break;
                case 4: Reg::Max(r, a, b, mask); break;
                default: Reg::Min(r, a, b, mask); break;
            }
            Reg::StoreAlign(z + op * kLength + i * kFloats, r, mask);
        }
    }
}

__simd_vf__ inline void scalar_unary_vf(__ubuf__ float* x, __ubuf__ float* y, __ubuf__ float* z) {
    Reg::RegTensor<float> a, b, r;
    Reg::MaskReg all = Reg::CreateMask<float>();
    for (uint32_t i = 0; i < kLength / kFloats; ++i) {
        __ubuf__ float* out = z + i * kFloats;
        Reg::LoadAlign(a, x + i * kFloats);
        Reg::LoadAlign(b, y + i * kFloats);
        Reg::Adds(r, a, 1.5f, all);
        Reg::StoreAlign(out, r, all);
        Reg::Muls(r, a, -2.0f, all);
        Reg::StoreAlign(out + kLength, r, all);
        Reg::Maxs(r, a, 0.25f, all);
        Reg::StoreAlign(out + 2 * kLength, r, all);
        Reg::Exp(r, a, all);
        Reg::StoreAlign(out + 3 * kLength, r, all);
        Reg::Abs(r, a, all);
        Reg::StoreAlign(out + 4 * kLength, r, all);
        Reg::Relu(r, a, all);
        Reg::StoreAlign(out + 5 * kLength, r, all);
        Reg::Sqrt(r, b, all);
        Reg::StoreAlign(out + 6 * kLength, r, all);
        Reg::Neg(r, a, all);
        Reg::StoreAlign(out + 7 * kLength, r, all);
        Reg::Duplicate(r, 1.0f);
        Reg::MulAddDst(r, a, b, all);  // a * b + 1
        Reg::StoreAlign(out + 8 * kLength, r, all);
        Reg::Duplicate(r, 2.0f);
        Reg::Axpy(r, a, 3.0f, all);  // 3a + 2
        Reg::StoreAlign(out + 9 * kLength, r, all);
        Reg::ExpSub(r, a, b, all);
        Reg::StoreAlign(out + 10 * kLength, r, all);
    }
}

__simd_vf__ inline void compare_select_vf(__ubuf__ float* x, __ubuf__ float* y, __ubuf__ float* z) {
    Reg::RegTensor<float> a, b, r;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::MaskReg greater, small;
    for (uint32_t i = 0; i < kLength / kFloats; ++i) {
        Reg::LoadAlign(a, x + i * kFloats);
        Reg::LoadAlign(b, y + i * kFloats);
        Reg::Compare<float, CMPMODE::GT>(greater, a, b, all);
        Reg::Select(r, a, b, greater);  // max
        Reg::StoreAlign(z + i * kFloats, r, all);
        Reg::Compares<float, CMPMODE::LT>(small, a, 0.0f, all);
        Reg::Muls<float, float, Reg::MaskMergeMode::MERGING>(a, a, 10.0f, small);  // negatives * 10
        Reg::StoreAlign(z + kLength + i * kFloats, a, all);
    }
}

__simd_vf__ inline void reductions_vf(__ubuf__ float* x, __ubuf__ float* z) {
    Reg::RegTensor<float> a, r;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::MaskReg first = Reg::CreateMask<float, Reg::MaskPattern::VL1>();
    Reg::MaskReg eight = Reg::CreateMask<float, Reg::MaskPattern::VL8>();
    Reg::MaskReg half = Reg::CreateMask<float, Reg::MaskPattern::H>();
    for (uint32_t i = 0; i < kLength / kFloats; ++i) {
        Reg::LoadAlign(a, x + i * kFloats);
        Reg::ReduceSum(r, a, all);
        Reg::StoreAlign<float, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(z + i * 8, r, first);
        Reg::ReduceMax(r, a, all);
        Reg::StoreAlign<float, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(z + 32 + i * 8, r, first);
        Reg::Reduce<ReduceType::MIN>(r, a, all);
        Reg::StoreAlign<float, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(z + 64 + i * 8, r, first);
        Reg::ReduceDataBlock<ReduceType::SUM>(r, a, all);
        Reg::StoreAlign(z + kLength + i * kFloats, r, eight);
        Reg::PairReduceElem(r, a, all);
        Reg::StoreAlign(z + 2 * kLength + i * kFloats, r, half);
    }
}

__simd_vf__ inline void casts_vf(__ubuf__ float* x, __ubuf__ float* z) {
    static constexpr Reg::CastTrait toHalf = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                              RoundMode::CAST_RINT};
    static constexpr Reg::CastTrait toInt = {Reg::RegLayout::UNKNOWN, Reg::SatMode::SAT, Reg::MaskMergeMode::ZEROING,
                                             RoundMode::CAST_FLOOR};
    Reg::RegTensor<float> a, r;
    Reg::RegTensor<half> h;
    Reg::RegTensor<int32_t> n;
    Reg::MaskReg all = Reg::CreateMask<float>();
    for (uint32_t i = 0; i < kLength / kFloats; ++i) {
        Reg::LoadAlign(a, x + i * kFloats);
        Reg::Cast<half, float, toHalf>(h, a, all);      // into the even lanes
        Reg::Cast<float, half, layoutZMrgZ>(r, h, all);  // back from the even lanes
        Reg::StoreAlign(z + i * kFloats, r, all);
        Reg::Muls(a, a, 7.0f, all);
        Reg::Cast<int32_t, float, toInt>(n, a, all);
        Reg::StoreAlign(reinterpret_cast<__ubuf__ int32_t*>(z + kLength) + i * kFloats, n, all);
        Reg::Truncate<float, RoundMode::CAST_CEIL>(r, a, all);
        Reg::StoreAlign(z + 2 * kLength + i * kFloats, r, all);
    }
}

__simd_vf__ inline void distributions_vf(__ubuf__ float* x, __ubuf__ float* z) {
    Reg::RegTensor<float> a, b;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BRC_B32>(a, x + 5);  // x[5] everywhere
    Reg::StoreAlign(z, a, all);
    Reg::LoadAlign<float, Reg::LoadDist::DIST_DINTLV_B32>(a, b, x);  // even / odd of x[0..128)
    Reg::StoreAlign(z + kLength, a, all);
    Reg::StoreAlign(z + kLength + kFloats, b, all);
    Reg::StoreAlign<float, Reg::StoreDist::DIST_INTLV_B32>(z + 2 * kLength, a, b, all);  // x[0..128) again
    // Every other 32-byte block of x: blocks 0, 2, ..., 14.
    Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY>(a, x, 2, all);
    Reg::StoreAlign(z + 3 * kLength, a, all);
    __ubuf__ float* walk = x;
    Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(a, walk, kFloats);
    Reg::LoadAlign<float, Reg::PostLiteral::POST_MODE_UPDATE>(a, walk, kFloats);  // the second register
    Reg::StoreAlign(z + 3 * kLength + kFloats, a, all);
    Reg::AddrReg offset = Reg::CreateAddrReg<float>(3, kFloats);
    Reg::LoadAlign(a, x, offset);  // the fourth register
    Reg::StoreAlign(z + 3 * kLength + 2 * kFloats, a, all);
}

__simd_vf__ inline void unaligned_vf(__ubuf__ float* x, __ubuf__ float* z) {
    Reg::RegTensor<float> a, kept;
    Reg::UnalignRegForLoad uload;
    Reg::UnalignRegForStore ustore;
    Reg::MaskReg all = Reg::CreateMask<float>();
    // z[3 + 50k ...] = x[1 + 50k ...] for 3 chunks of 50: unaligned on both sides.
    __ubuf__ float* src = x + 1;
    __ubuf__ float* dst = z + 3;
    Reg::LoadUnAlignPre(uload, src);
    for (int chunk = 0; chunk < 3; ++chunk) {
        Reg::LoadUnAlign(a, uload, src, 50);
        Reg::StoreUnAlign(dst, a, ustore, 50);
    }
    Reg::StoreUnAlignPost(dst, ustore, 0);
    // The negative elements of x squeezed together, stored through the AR register.
    Reg::ClearSpr<SpecialPurposeReg::AR>();
    __ubuf__ float* out = z + kLength;
    for (uint32_t i = 0; i < kLength / kFloats; ++i) {
        Reg::MaskReg negative;
        Reg::LoadAlign(a, x + i * kFloats);
        Reg::Compares<float, CMPMODE::LT>(negative, a, 0.0f, all);
        Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(kept, a, negative);
        Reg::StoreUnAlign(out, kept, ustore);
    }
    Reg::StoreUnAlignPost(out, ustore);
}

__simd_vf__ inline void gather_scatter_vf(__ubuf__ float* x, __ubuf__ float* z, __ubuf__ uint32_t* index) {
    Reg::RegTensor<float> a;
    Reg::RegTensor<uint32_t> idx;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::Arange(idx, 0u);  // 0, 1, ..., 63
    Reg::Muls(idx, idx, 3u, all);
    Reg::Gather(a, x, idx, all);  // x[3i]
    Reg::StoreAlign(z, a, all);
    Reg::LoadAlign(idx, index);
    Reg::LoadAlign(a, x);
    Reg::Scatter(z + kLength, a, idx, all);  // z[kLength + index[i]] = x[i]
    Reg::RegTensor<float> reversed;
    Reg::Arange<uint32_t, Reg::IndexOrder::DECREASE_ORDER>(idx, 63u);
    Reg::Gather(reversed, a, idx);  // in-register: x[63 - i]
    Reg::StoreAlign(z + 2 * kLength, reversed, all);
}

__simd_vf__ inline void masks_vf(__ubuf__ float* x, __ubuf__ float* z) {
    Reg::RegTensor<float> a, r;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::MaskReg m3 = Reg::CreateMask<float, Reg::MaskPattern::M3>();
    Reg::MaskReg q = Reg::CreateMask<float, Reg::MaskPattern::Q>();
    Reg::MaskReg both, either, inverted;
    Reg::And(both, m3, q, all);
    Reg::Or(either, m3, q, all);
    Reg::Not(inverted, either, all);
    Reg::LoadAlign(a, x);
    Reg::Duplicate(r, -1.0f);
    Reg::Move(r, a, both);  // merging: x where both, -1 elsewhere
    Reg::StoreAlign(z, r, all);
    Reg::Duplicate(r, a, inverted);  // x[0] where neither, 0 elsewhere
    Reg::StoreAlign(z + kFloats, r, all);
    uint32_t count = 10;
    Reg::MaskReg ten = Reg::UpdateMask<float>(count);
    Reg::Arange(r, 100.0f);
    Reg::StoreAlign(z + 2 * kFloats, r, ten);  // 100..109, the rest of the register untouched
    Reg::StoreAlign<float>(reinterpret_cast<__ubuf__ float*>(z + 3 * kFloats), m3);  // the mask's 32 bytes
}

extern "C" __global__ __vector__ void reg_family_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR index, int32_t family,
                                                          uint32_t count) {
    GlobalTensor<float> xGm, yGm, zGm;
    GlobalTensor<uint32_t> indexGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, kLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, kLength);
    zGm.SetGlobalBuffer((__gm__ float*)z, 12 * kLength);
    indexGm.SetGlobalBuffer((__gm__ uint32_t*)index, kFloats);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> xLocal = ub.Alloc<float, kLength>();
    LocalTensor<float> yLocal = ub.Alloc<float, kLength>();
    LocalTensor<float> zLocal = ub.Alloc<float, 12 * kLength>();
    LocalTensor<uint32_t> indexLocal = ub.Alloc<uint32_t, kFloats>();
    DataCopy(xLocal, xGm, kLength);
    DataCopy(yLocal, yGm, kLength);
    DataCopy(zLocal, zGm, 12 * kLength);
    DataCopy(indexLocal, indexGm, kFloats);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    auto* xs = reinterpret_cast<__ubuf__ float*>(xLocal.GetPhyAddr());
    auto* ys = reinterpret_cast<__ubuf__ float*>(yLocal.GetPhyAddr());
    auto* zs = reinterpret_cast<__ubuf__ float*>(zLocal.GetPhyAddr());
    auto* is = reinterpret_cast<__ubuf__ uint32_t*>(indexLocal.GetPhyAddr());
    switch (family) {
        case binary: asc_vf_call<binary_vf>(xs, ys, zs, count); break;
        case scalar_unary: asc_vf_call<scalar_unary_vf>(xs, ys, zs); break;
        case compare_select: asc_vf_call<compare_select_vf>(xs, ys, zs); break;
        case reductions: asc_vf_call<reductions_vf>(xs, zs); break;
        case casts: asc_vf_call<casts_vf>(xs, zs); break;
        case distributions: asc_vf_call<distributions_vf>(xs, zs); break;
        case unaligned: asc_vf_call<unaligned_vf>(xs, zs); break;
        case gather_scatter: asc_vf_call<gather_scatter_vf>(xs, zs, is); break;
        default: asc_vf_call<masks_vf>(xs, zs); break;
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zGm, zLocal, 12 * kLength);
}

// The asc-devkit add sample's shape: y = x + x in place, each block a contiguous slice.
template <typename T, uint32_t singleCoreLength>
__simd_vf__ inline void AddVF(__ubuf__ T* dstAddr, uint32_t count) {
    constexpr uint32_t oneRepeatSize = GetVecLen() / sizeof(T);
    Reg::MaskReg mask;
    Reg::RegTensor<T> srcReg, dstReg;
    for (uint32_t i = 0; i < (singleCoreLength + oneRepeatSize - 1) / oneRepeatSize; ++i) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(srcReg, dstAddr + i * oneRepeatSize);
        Reg::LoadAlign(dstReg, dstAddr + i * oneRepeatSize);
        Reg::Add(dstReg, dstReg, srcReg, mask);
        Reg::StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask);
    }
}

constexpr uint32_t kSlice = 4096;

extern "C" __global__ __vector__ void reg_add_kernel(GM_ADDR x, GM_ADDR y) {
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x);
    yGm.SetGlobalBuffer((__gm__ float*)y);
    const uint32_t offset = GetBlockIdx() * kSlice;
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> local = ub.Alloc<float, kSlice>();
    DataCopy(local, xGm[offset], kSlice);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    asc_vf_call<AddVF<float, kSlice>>(reinterpret_cast<__ubuf__ float*>(local.GetPhyAddr()), kSlice);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm[offset], local, kSlice);
}

struct Run {
    std::vector<float> x, y, z;
};

Run run_family(aclrtStream stream, Family family, uint32_t count = kLength) {
    Run run;
    for (uint32_t i = 0; i < kLength; ++i) {
        run.x.push_back(float(int(i * 37 % 101) - 50) / 8.0f);
        run.y.push_back(float(i % 13 + 1) / 4.0f);
    }
    std::vector<uint32_t> index(kFloats);
    for (uint32_t i = 0; i < kFloats; ++i) index[i] = (i * 5) % kFloats;  // a permutation (5 is coprime to 64)
    DeviceArray<float> x(run.x), y(run.y), z(std::vector<float>(12 * kLength, -7.0f));
    DeviceArray<uint32_t> idx(index);
    REQUIRE(ACLRT_LAUNCH_KERNEL(reg_family_kernel)(1, stream, x.get(), y.get(), z.get(), idx.get(), int32_t(family),
                                                   count) == 0u);
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    run.z = z.read();
    return run;
}

}  // namespace

TEST_CASE("binary register instructions with an UpdateMask tail") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, binary, 200);
    for (uint32_t i = 0; i < kLength; ++i) {
        const float a = run.x[i], b = run.y[i];
        const float expected[] = {a + b, a - b, a * b, a / b, std::max(a, b), std::min(a, b)};
        for (int op = 0; op < 6; ++op) {
            CAPTURE(i);
            CAPTURE(op);
            // Elements past the count are not selected: StoreAlign leaves the UB as it was.
            CHECK(run.z[op * kLength + i] == (i < 200 ? expected[op] : -7.0f));
        }
    }
}

TEST_CASE("binary-scalar, unary, ternary and fused register instructions") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, scalar_unary);
    for (uint32_t i = 0; i < kLength; ++i) {
        const float a = run.x[i], b = run.y[i];
        CAPTURE(i);
        CHECK(run.z[i] == a + 1.5f);
        CHECK(run.z[kLength + i] == a * -2.0f);
        CHECK(run.z[2 * kLength + i] == std::max(a, 0.25f));
        CHECK(run.z[3 * kLength + i] == doctest::Approx(std::exp(a)).epsilon(1e-6));
        CHECK(run.z[4 * kLength + i] == std::fabs(a));
        CHECK(run.z[5 * kLength + i] == std::max(a, 0.0f));
        CHECK(run.z[6 * kLength + i] == doctest::Approx(std::sqrt(b)).epsilon(1e-6));
        CHECK(run.z[7 * kLength + i] == -a);
        CHECK(run.z[8 * kLength + i] == a * b + 1.0f);
        CHECK(run.z[9 * kLength + i] == a * 3.0f + 2.0f);
        CHECK(run.z[10 * kLength + i] == doctest::Approx(std::exp(a - b)).epsilon(1e-6));
    }
}

TEST_CASE("Compare, Compares and Select, and a merging Muls under a compare's mask") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, compare_select);
    for (uint32_t i = 0; i < kLength; ++i) {
        CAPTURE(i);
        CHECK(run.z[i] == std::max(run.x[i], run.y[i]));
        CHECK(run.z[kLength + i] == (run.x[i] < 0 ? run.x[i] * 10.0f : run.x[i]));
    }
}

TEST_CASE("reductions over a register and its data blocks") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, reductions);
    for (uint32_t r = 0; r < kLength / kFloats; ++r) {
        double sum = 0;
        float high = -INFINITY, low = INFINITY;
        for (uint32_t i = 0; i < kFloats; ++i) {
            const float v = run.x[r * kFloats + i];
            sum += v;
            high = std::max(high, v);
            low = std::min(low, v);
        }
        CAPTURE(r);
        CHECK(run.z[r * 8] == doctest::Approx(sum));
        CHECK(run.z[32 + r * 8] == high);
        CHECK(run.z[64 + r * 8] == low);
        for (uint32_t b = 0; b < 8; ++b) {
            float block = 0;
            for (uint32_t k = 0; k < 8; ++k) block += run.x[r * kFloats + b * 8 + k];
            CHECK(run.z[kLength + r * kFloats + b] == doctest::Approx(block));
        }
        for (uint32_t b = 8; b < kFloats; ++b) CHECK(run.z[kLength + r * kFloats + b] == -7.0f);
        for (uint32_t p = 0; p < kFloats / 2; ++p) {
            CHECK(run.z[2 * kLength + r * kFloats + p] == run.x[r * kFloats + 2 * p] + run.x[r * kFloats + 2 * p + 1]);
        }
    }
}

TEST_CASE("Cast through half with a RegLayout, to int32 with floor and saturation, and Truncate") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, casts);
    for (uint32_t i = 0; i < kLength; ++i) {
        CAPTURE(i);
        CHECK(run.z[i] == float(half(run.x[i])));
        int32_t converted;
        std::memcpy(&converted, &run.z[kLength + i], 4);
        CHECK(converted == int32_t(std::floor(run.x[i] * 7.0f)));
        CHECK(run.z[2 * kLength + i] == std::ceil(run.x[i] * 7.0f));
    }
}

TEST_CASE("load and store distributions, post-update and AddrReg addressing") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, distributions);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        CHECK(run.z[i] == run.x[5]);
        CHECK(run.z[kLength + i] == run.x[2 * i]);
        CHECK(run.z[kLength + kFloats + i] == run.x[2 * i + 1]);
        CHECK(run.z[3 * kLength + i] == run.x[(i / 8) * 16 + i % 8]);
        CHECK(run.z[3 * kLength + kFloats + i] == run.x[kFloats + i]);
        CHECK(run.z[3 * kLength + 2 * kFloats + i] == run.x[3 * kFloats + i]);
    }
    for (uint32_t i = 0; i < 2 * kFloats; ++i) CHECK(run.z[2 * kLength + i] == run.x[i]);
}

TEST_CASE("unaligned loads and stores, and Squeeze's count through the AR register") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, unaligned);
    CHECK(run.z[0] == -7.0f);
    CHECK(run.z[1] == -7.0f);
    CHECK(run.z[2] == -7.0f);
    for (uint32_t i = 0; i < 150; ++i) {
        CAPTURE(i);
        CHECK(run.z[3 + i] == run.x[1 + i]);
    }
    CHECK(run.z[153] == -7.0f);
    std::vector<float> negatives;
    for (float v : run.x) {
        if (v < 0) negatives.push_back(v);
    }
    for (std::size_t i = 0; i < negatives.size(); ++i) CHECK(run.z[kLength + i] == negatives[i]);
    CHECK(run.z[kLength + negatives.size()] == -7.0f);
}

TEST_CASE("Gather and Scatter through the UB, and the in-register Gather") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, gather_scatter);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        CHECK(run.z[i] == run.x[3 * i]);
        CHECK(run.z[kLength + (i * 5) % kFloats] == run.x[i]);
        CHECK(run.z[2 * kLength + i] == run.x[63 - i]);
    }
}

TEST_CASE("mask patterns and logic, Move, Duplicate and Arange") {
    Runtime rt;
    Stream stream;
    const Run run = run_family(stream, masks);
    for (uint32_t i = 0; i < kFloats; ++i) {
        CAPTURE(i);
        const bool m3 = i % 3 == 0, q = i < 16;
        CHECK(run.z[i] == (m3 && q ? run.x[i] : -1.0f));
        CHECK(run.z[kFloats + i] == (!(m3 || q) ? run.x[0] : 0.0f));
        CHECK(run.z[2 * kFloats + i] == (i < 10 ? 100.0f + float(i) : -7.0f));
    }
    // The M3 mask of floats: every bit of every third element's 4-bit group.
    uint8_t bits[32];
    std::memcpy(bits, &run.z[3 * kFloats], 32);
    for (uint32_t k = 0; k < 256; ++k) {
        CAPTURE(k);
        CHECK(((bits[k / 8] >> (k % 8)) & 1) == ((k / 4) % 3 == 0 ? 1 : 0));
    }
}

TEST_CASE("the add sample's shape over several blocks: y = x + x") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t blocks = 8;
    std::vector<float> x(blocks * kSlice);
    for (uint32_t i = 0; i < x.size(); ++i) x[i] = float(i % 1000) * 0.5f;
    DeviceArray<float> xd(x), yd(x.size());
    REQUIRE(ACLRT_LAUNCH_KERNEL(reg_add_kernel)(blocks, stream, xd.get(), yd.get()) == 0u);
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    const std::vector<float> y = yd.read();
    for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(y[i] == x[i] + x[i]);
}
