// The register-based API's checks, each with a broken kernel: a register load or store outside the
// block's UB or misaligned for its distribution, a count wider than the register, a VF racing an
// MTE2 copy or an MTE3 copy for want of a flag, and a UB access outside any VF. Each fails the
// launch with ACL_ERROR_RT_AICORE_EXCEPTION naming the kernel, the block, the instruction and the
// address, and the process goes on.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;
using namespace AscendC;

namespace {

constexpr uint32_t kFloats = GetVecLen() / sizeof(float);

enum Misuse : int32_t {
    load_past_ub = 1,
    store_before_ub,
    misaligned_load,
    misaligned_broadcast,
    store_count_too_wide,
    gather_past_ub,
    outside_vf,
    missing_mte2_v,
    missing_v_mte3,
};

__simd_vf__ inline void misuse_vf(__ubuf__ float* base, int32_t misuse) {
    Reg::RegTensor<float> reg;
    Reg::MaskReg all = Reg::CreateMask<float>();
    const uint32_t ub_floats = uint32_t(GetRuntimeUBSize() / sizeof(float));
    switch (misuse) {
        case load_past_ub: Reg::LoadAlign(reg, base + ub_floats - kFloats / 2); break;
        case store_before_ub: Reg::StoreAlign(base - kFloats, reg, all); break;
        case misaligned_load: Reg::LoadAlign(reg, base + 1); break;
        case misaligned_broadcast:
            Reg::LoadAlign<uint8_t, Reg::LoadDist::DIST_BRC_B32>(*reinterpret_cast<Reg::RegTensor<uint8_t>*>(&reg),
                                                                 reinterpret_cast<__ubuf__ uint8_t*>(base) + 2);
            break;
        case store_count_too_wide: Reg::Store(base, reg, kFloats + 1); break;
        case gather_past_ub: {
            Reg::RegTensor<uint32_t> index;
            Reg::Duplicate(index, ub_floats);
            Reg::Gather(reg, base, index, all);
            break;
        }
        default: break;
    }
}

__simd_vf__ inline void double_vf(__ubuf__ float* data) {
    Reg::RegTensor<float> reg;
    Reg::MaskReg all = Reg::CreateMask<float>();
    for (uint32_t i = 0; i < 4; ++i) {
        Reg::LoadAlign(reg, data + i * kFloats);
        Reg::Add(reg, reg, reg, all);
        Reg::StoreAlign(data + i * kFloats, reg, all);
    }
}

extern "C" __global__ __vector__ void reg_misuse_kernel(GM_ADDR x, int32_t misuse) {
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 4 * kFloats);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> local = ub.Alloc<float, 4 * kFloats>();
    auto* data = reinterpret_cast<__ubuf__ float*>(local.GetPhyAddr());
    if (misuse == outside_vf) {
        Reg::RegTensor<float> reg;
        Reg::LoadAlign(reg, data);
        return;
    }
    if (misuse == missing_mte2_v || misuse == missing_v_mte3) {
        DataCopy(local, xGm, 4 * kFloats);
        if (misuse != missing_mte2_v) {
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        }
        asc_vf_call<double_vf>(data);
        if (misuse != missing_v_mte3) {
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        }
        DataCopy(xGm, local, 4 * kFloats);
        PipeBarrier<PIPE_ALL>();
        return;
    }
    asc_vf_call<misuse_vf>(data, misuse);
}

void expect_fault(aclrtStream stream, Misuse misuse, std::initializer_list<const char*> fragments) {
    DeviceArray<float> x(std::vector<float>(4 * kFloats, 1.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(reg_misuse_kernel)(2, stream, x.get(), int32_t(misuse)) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    MESSAGE(message);
    CHECK(message.find("kernel reg_misuse_kernel block ") != std::string::npos);
    for (const char* fragment : fragments) {
        CAPTURE(fragment);
        CHECK(message.find(fragment) != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

}  // namespace

TEST_CASE("a register load or store outside the block's UB fails the launch") {
    Runtime rt;
    Stream stream;
    SUBCASE("past the end") {
        expect_fault(stream, load_past_ub,
                     {"Reg::LoadAlign: in __simd_vf__ ", "misuse_vf: loads 256 bytes at UB byte 253824",
                      "past the end of the block's 253952-byte Unified Buffer"});
    }
    SUBCASE("before the start") {
        expect_fault(stream, store_before_ub,
                     {"Reg::StoreAlign: in __simd_vf__ ", "misuse_vf: stores 256 bytes at address ",
                      "(UB byte offset -256), outside the block's"});
    }
    SUBCASE("a gather index past the end") {
        expect_fault(stream, gather_past_ub, {"Reg::Gather: in __simd_vf__ ", "misuse_vf: loads 253956 bytes at UB byte 0, past the end"});
    }
}

TEST_CASE("a misaligned register access fails the launch") {
    Runtime rt;
    Stream stream;
    SUBCASE("LoadAlign of a whole register") {
        expect_fault(stream, misaligned_load,
                     {"Reg::LoadAlign: in __simd_vf__ ", "misuse_vf: UB byte 4 is not 32-byte aligned, as LoadDist::DIST_NORM requires"});
    }
    SUBCASE("a b32 broadcast from a 2-byte aligned address") {
        expect_fault(stream, misaligned_broadcast, {"UB byte 2 is not 4-byte aligned, as LoadDist::DIST_BRC_B32 requires"});
    }
}

TEST_CASE("a count wider than the register fails the launch") {
    Runtime rt;
    Stream stream;
    expect_fault(stream, store_count_too_wide, {"Reg::Store: in __simd_vf__ ", "misuse_vf: count 65 is more than the register's 64 elements"});
}

TEST_CASE("a VF takes part in the pipe model as the vector pipe") {
    Runtime rt;
    Stream stream;
    SUBCASE("MTE2 -> V: the VF reads what the copy may still be writing") {
        expect_fault(stream, missing_mte2_v,
                     {"data race on UB bytes [0, 1024)", "Reg::LoadAlign (PIPE_V",
                      "DataCopy (PIPE_MTE2", "HardEvent::MTE2_V"});
    }
    SUBCASE("V -> MTE3: the copy out reads what the VF may still be writing") {
        expect_fault(stream, missing_v_mte3,
                     {"data race on UB bytes [0, 1024)", "DataCopy (PIPE_MTE3", "Reg::StoreAlign (PIPE_V",
                      "HardEvent::V_MTE3"});
    }
    SUBCASE("with both flags the kernel runs") {
        DeviceArray<float> x(std::vector<float>(4 * kFloats, 1.5f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(reg_misuse_kernel)(1, stream, x.get(), int32_t(0)) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
    }
}

TEST_CASE("a register load outside any VF fails the launch") {
    Runtime rt;
    Stream stream;
    expect_fault(stream, outside_vf,
                 {"Reg::LoadAlign: a Reg instruction that accesses the UB runs only inside a __simd_vf__ function "
                  "launched with asc_vf_call"});
}
