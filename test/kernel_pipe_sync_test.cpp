// The pipe model (canopy/kernel/pipes.h) and the current kernel API around it: static allocation,
// explicit SetFlag/WaitFlag/PipeBarrier synchronization, atomic copies, asserts and the system
// builtins. Every check has a broken kernel here: the launch fails with CANN's code and a message
// naming the kernel, the block, both instructions and the range, and the process goes on.
// The kernel asserts under test must survive the Release build's NDEBUG.
#undef NDEBUG

#include <type_traits>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kBlocks = 4;
constexpr uint32_t kTile = 256;  // floats per block

// What a broken kernel leaves out.
enum Omission : int32_t {
    nothing = 0,
    mte2_to_v,      // DataCopy in, then Add with no MTE2_V flag
    v_to_mte3,      // Add, then DataCopy out with no V_MTE3 flag
    mte3_to_mte2,   // DataCopy out, then DataCopy in over the same buffer with no MTE3_MTE2 flag
    mte2_to_s,      // DataCopy in, then GetValue with no MTE2_S flag
};

// z = x + y through statically allocated UB tensors, synchronized with SetFlag/WaitFlag (or not).
extern "C" __global__ __aicore__ void static_add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t omission) {
    AscendC::InitSocState();
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + block_idx * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ float*)y + block_idx * kTile, kTile);
    zGm.SetGlobalBuffer((__gm__ float*)z + block_idx * kTile, kTile);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> xLocal = ub.Alloc<float, kTile>();
    AscendC::LocalTensor<float> yLocal = ub.Alloc<float, kTile>();
    AscendC::LocalTensor<float> zLocal = ub.Alloc<float, kTile>();

    AscendC::DataCopy(xLocal, xGm, kTile);
    AscendC::DataCopy(yLocal, yGm, kTile);
    if (omission == mte2_to_s) {
        static_cast<void>(xLocal.GetValue(0));
    }
    if (omission != mte2_to_v) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AscendC::Add(zLocal, xLocal, yLocal, kTile);
    if (omission != v_to_mte3) {
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    }
    AscendC::DataCopy(zGm, zLocal, kTile);
    if (omission == mte3_to_mte2) {
        AscendC::DataCopy(zLocal, xGm, kTile);  // reuses zLocal while MTE3 may still read it
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}

// The official add sample's shape: PipeBarrier<PIPE_ALL> between the stages.
extern "C" __global__ __vector__ void barrier_add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ float*)y + AscendC::GetBlockIdx() * kTile, kTile);
    zGm.SetGlobalBuffer((__gm__ float*)z + AscendC::GetBlockIdx() * kTile, kTile);
    AscendC::LocalTensor<float> xLocal(AscendC::TPosition::VECIN, 0, kTile);
    AscendC::LocalTensor<float> yLocal(AscendC::TPosition::VECIN, kTile * sizeof(float), kTile);
    AscendC::LocalTensor<float> zLocal(AscendC::TPosition::VECOUT, 2 * kTile * sizeof(float), kTile);
    AscendC::DataCopy(xLocal, xGm, kTile);
    AscendC::DataCopy(yLocal, yGm, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(zLocal, xLocal, yLocal, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, zLocal, kTile);
}

// A TQue pipeline that skips the EnQue/DeQue hand-over between the copy in and the Add.
extern "C" __global__ __aicore__ void queue_add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t skip_handover) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ float*)y + AscendC::GetBlockIdx() * kTile, kTile);
    zGm.SetGlobalBuffer((__gm__ float*)z + AscendC::GetBlockIdx() * kTile, kTile);
    pipe.InitBuffer(inX, 1, kTile * sizeof(float));
    pipe.InitBuffer(inY, 1, kTile * sizeof(float));
    pipe.InitBuffer(outZ, 1, kTile * sizeof(float));
    AscendC::LocalTensor<float> xLocal = inX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inY.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm, kTile);
    AscendC::DataCopy(yLocal, yGm, kTile);
    if (!skip_handover) {
        inX.EnQue(xLocal);
        inY.EnQue(yLocal);
        xLocal = inX.DeQue<float>();
        yLocal = inY.DeQue<float>();
    }
    AscendC::LocalTensor<float> zLocal = outZ.AllocTensor<float>();
    AscendC::Add(zLocal, xLocal, yLocal, kTile);
    outZ.EnQue(zLocal);
    inX.FreeTensor(xLocal);
    inY.FreeTensor(yLocal);
    zLocal = outZ.DeQue<float>();
    AscendC::DataCopy(zGm, zLocal, kTile);
    outZ.FreeTensor(zLocal);
}

enum FlagMisuse : int32_t { wait_without_set = 1, left_set, set_sixteen_times, bad_event_id, set_twice_wait_twice,
                            set_twice_wait_once };

// z = x + x read from a buffer whose tracked range moves before the read: MTE2 fills a buffer, then
// a buffer below it, so the model's record of the first shifts. Unsynchronized, the read races with
// the first fill only.
extern "C" __global__ __aicore__ void shifted_range_kernel(GM_ADDR x, GM_ADDR z, int32_t synchronized) {
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + block_idx * kTile, kTile);
    zGm.SetGlobalBuffer((__gm__ float*)z + block_idx * kTile, kTile);
    AscendC::LocalTensor<float> below(AscendC::TPosition::VECCALC, 0, kTile);
    AscendC::LocalTensor<float> filled(AscendC::TPosition::VECIN, (kTile + 8) * sizeof(float), kTile);
    AscendC::LocalTensor<float> sum(AscendC::TPosition::VECOUT, 4 * kTile * sizeof(float), kTile);
    AscendC::DataCopy(filled, xGm, kTile);
    if (synchronized) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AscendC::DataCopy(below, xGm, kTile);  // not ordered before the Add, which does not read it
    AscendC::Add(sum, filled, filled, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, sum, kTile);
}

extern "C" __global__ __aicore__ void flag_misuse_kernel(int32_t misuse) {
    switch (misuse) {
        case wait_without_set: AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1); break;
        case left_set: AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2); break;
        case set_sixteen_times:
            for (int i = 0; i < 16; ++i) AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
            break;
        case set_twice_wait_twice:
        case set_twice_wait_once:
            AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
            AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
            if (misuse == set_twice_wait_twice) AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
            break;
        case bad_event_id: AscendC::SetFlag<AscendC::HardEvent::S_V>(8); break;
        default: break;
    }
}

// Flags paired through TQueSync: the object form must order like SetFlag/WaitFlag.
extern "C" __global__ __aicore__ void tque_sync_kernel(GM_ADDR x, GM_ADDR z) {
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * kTile, kTile);
    zGm.SetGlobalBuffer((__gm__ float*)z + AscendC::GetBlockIdx() * kTile, kTile);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> local = ub.Alloc<float>(kTile);
    AscendC::DataCopy(local, xGm, kTile);
    AscendC::TQueSync<PIPE_MTE2, PIPE_MTE3> sync;
    sync.SetFlag(0);
    sync.WaitFlag(0);
    AscendC::DataCopy(zGm, local, kTile);
}

enum StaticMisuse : int32_t { allocator_overflow = 1, tensor_outside_ub };

extern "C" __global__ __aicore__ void static_misuse_kernel(int32_t misuse) {
    if (misuse == allocator_overflow) {
        AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
        ub.Alloc<float>(32 * 1024);  // 128 KiB
        ub.Alloc<float>(32 * 1024);  // 256 KiB > 192 KiB
    } else if (misuse == tensor_outside_ub) {
        AscendC::LocalTensor<float> tensor(AscendC::TPosition::VECCALC, 190 * 1024, 1024);
        static_cast<void>(tensor);
    }
}

extern "C" __global__ __aicore__ void assert_kernel(int64_t faulty_block, int32_t formatted) {
    const int64_t block = AscendC::GetBlockIdx();
    if (formatted) ascendc_assert(block != faulty_block, "block %d must not reach here (%s)\n", block, "by design");
    else assert(block != faulty_block);
}

// Every block adds its 64 floats into the same GM with an atomic copy.
extern "C" __global__ __aicore__ void atomic_add_kernel(GM_ADDR x, GM_ADDR sum, int32_t reset_first) {
    AscendC::GlobalTensor<float> xGm, sumGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * 64, 64);
    sumGm.SetGlobalBuffer((__gm__ float*)sum, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> local = ub.Alloc<float>(64);
    AscendC::DataCopy(local, xGm, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::SetAtomicAdd<float>();
    if (reset_first) AscendC::InitSocState();  // back to plain copies: the last block's values remain
    AscendC::DataCopyPad(sumGm, local, AscendC::DataCopyExtParams(1, 64 * sizeof(float), 0, 0, 0));
    AscendC::DisableDmaAtomic();
}

extern "C" __global__ __aicore__ void atomic_type_mismatch_kernel(GM_ADDR sum) {
    AscendC::GlobalTensor<float> sumGm;
    sumGm.SetGlobalBuffer((__gm__ float*)sum, 64);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> local = ub.Alloc<float>(64);
    AscendC::SetAtomicAdd<half>();
    AscendC::DataCopy(sumGm, local, 64);
}

// The builtins, written into GM per block.
extern "C" __global__ __vector__ void builtins_kernel(GM_ADDR out) {
    AscendC::GlobalTensor<int64_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int64_t*)out + AscendC::GetBlockIdx() * 8, 8);
    outGm.SetValue(0, block_idx);
    outGm.SetValue(1, AscendC::GetBlockNum());
    outGm.SetValue(2, AscendC::GetSubBlockIdx());
    outGm.SetValue(3, AscendC::GetTaskRation());
    outGm.SetValue(4, ASCEND_IS_AIV ? 1 : 0);
    outGm.SetValue(5, ASCEND_IS_AIC ? 1 : 0);
    outGm.SetValue(6, AscendC::CeilDivision(10, 4) * 100 + AscendC::CeilDivision(10, 0));
    outGm.SetValue(7, AscendC::DivCeil(33, AscendC::ONE_BLK_SIZE));
}

static_assert(AscendC::IsSameType<float, float>::value && !AscendC::IsSameType<float, half>::value);
static_assert(std::is_same_v<AscendC::Conditional<true, float, half>::type, float> &&
              std::is_same_v<AscendC::Conditional<false, float, half>::type, half>);
static_assert(std::is_same_v<AscendC::ConditionalMulti<true, false, int8_t, int16_t, int32_t, int64_t>::type, int16_t> &&
              std::is_same_v<AscendC::ConditionalMulti<false, true, int8_t, int16_t, int32_t, int64_t>::type, int32_t>);
static_assert(AscendC::DivCeil(65, 32) == 3 && AscendC::AlignUp(65, 32) == 96);

// A DumpTensor of a UB tensor, after the copy that filled it.
extern "C" __global__ __aicore__ void dump_kernel(GM_ADDR x) {
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> local = ub.Alloc<float>(8);
    AscendC::DataCopy(local, xGm, 8);
    AscendC::DumpTensor(local, 7, 8);
}

// Block 1 waits in IBWait until block 0 has written its value and called IBSet; then it reads it.
extern "C" __global__ __aicore__ void ib_handoff_kernel(GM_ADDR data, GM_ADDR workspace) {
    AscendC::GlobalTensor<int32_t> dataGm, syncGm;
    dataGm.SetGlobalBuffer((__gm__ int32_t*)data, 16);
    syncGm.SetGlobalBuffer((__gm__ int32_t*)workspace, 2 * 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> syncLocal = ub.Alloc<int32_t>(8);
    if (AscendC::GetBlockIdx() == 1) {
        AscendC::IBWait(syncGm, syncLocal, 0, 0);
        dataGm.SetValue(8, dataGm.GetValue(0) + 1);
    } else {
        for (int spin = 0; spin < 20000; ++spin) AscendC::GetSystemCycle();  // let block 1 wait first
        dataGm.SetValue(0, 41);
        AscendC::IBSet(syncGm, syncLocal, 0, 0);
    }
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(ib_handoff_kernel);

extern "C" __global__ __aicore__ void ib_block_parallel_kernel(GM_ADDR workspace) {
    AscendC::GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t*)workspace, 2 * 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> syncLocal = ub.Alloc<int32_t>(8);
    if (AscendC::GetBlockIdx() == 1) AscendC::IBWait(syncGm, syncLocal, 0, 0);
}

// Each block appends its index to a log in GM, three rounds, in blockIdx order: the later blocks
// spin less, so without the turn-taking they would write first.
constexpr int32_t sequential_blocks = 4;
constexpr int32_t sequential_rounds = 3;
extern "C" __global__ __aicore__ void sequential_blocks_kernel(GM_ADDR log, GM_ADDR workspace) {
    AscendC::GlobalTensor<int32_t> logGm, syncGm;
    logGm.SetGlobalBuffer((__gm__ int32_t*)log, 1 + sequential_blocks * sequential_rounds);
    syncGm.SetGlobalBuffer((__gm__ int32_t*)workspace, sequential_blocks * 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> syncLocal = ub.Alloc<int32_t>(sequential_blocks * 8 + 8);
    AscendC::InitDetermineComputeWorkspace(syncGm, syncLocal);
    for (int32_t round = 0; round < sequential_rounds; ++round) {
        for (int64_t spin = 0; spin < 5000 * (sequential_blocks - AscendC::GetBlockIdx()); ++spin) {
            AscendC::GetSystemCycle();
        }
        AscendC::WaitPreBlock(syncGm, syncLocal);
        const int32_t written = logGm.GetValue(0);
        logGm.SetValue(1 + written, int32_t(AscendC::GetBlockIdx()));
        logGm.SetValue(0, written + 1);
        AscendC::NotifyNextBlock(syncGm, syncLocal);
    }
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(sequential_blocks_kernel);

// A UB workspace without room for the round counter past the blocks' slots.
extern "C" __global__ __aicore__ void sequential_small_workspace_kernel(GM_ADDR workspace) {
    AscendC::GlobalTensor<int32_t> syncGm;
    syncGm.SetGlobalBuffer((__gm__ int32_t*)workspace, 2 * 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<int32_t> syncLocal = ub.Alloc<int32_t>(2 * 8);
    AscendC::InitDetermineComputeWorkspace(syncGm, syncLocal);
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(sequential_small_workspace_kernel);

class DeviceInts {
public:
    explicit DeviceInts(std::size_t count) : host_(count, -1) {
        REQUIRE_ACL(aclrtMalloc(&device_, bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemcpy(device_, bytes(), host_.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ~DeviceInts() { aclrtFree(device_); }
    void* get() const { return device_; }
    std::size_t bytes() const { return host_.size() * sizeof(int64_t); }
    std::vector<int64_t> read() {
        REQUIRE_ACL(aclrtMemcpy(host_.data(), bytes(), device_, bytes(), ACL_MEMCPY_DEVICE_TO_HOST));
        return host_;
    }

private:
    std::vector<int64_t> host_;
    void* device_ = nullptr;
};

std::vector<float> iota(std::size_t count, float scale) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = float(i) * scale;
    return values;
}

class DeviceVector {
public:
    explicit DeviceVector(const std::vector<float>& values) : host_(values) {
        REQUIRE_ACL(aclrtMalloc(&device_, bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemcpy(device_, bytes(), host_.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ~DeviceVector() { aclrtFree(device_); }
    void* get() const { return device_; }
    std::size_t bytes() const { return host_.size() * sizeof(float); }
    std::vector<float> read() {
        REQUIRE_ACL(aclrtMemcpy(host_.data(), bytes(), device_, bytes(), ACL_MEMCPY_DEVICE_TO_HOST));
        return host_;
    }

private:
    std::vector<float> host_;
    void* device_ = nullptr;
};

// The launch was accepted, its stream's synchronize returns `code` and the message holds every
// fragment; the stream works again afterwards.
void expect_fault(aclrtStream stream, uint32_t launch_rc, int code, std::initializer_list<const char*> fragments) {
    REQUIRE(launch_rc == 0u);
    CHECK(aclrtSynchronizeStream(stream) == code);
    const std::string message = recent_error();
    MESSAGE(message);
    for (const char* fragment : fragments) {
        CAPTURE(fragment);
        CHECK(message.find(fragment) != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

void check_sum(DeviceVector& z, const std::vector<float>& x, const std::vector<float>& y) {
    const std::vector<float> result = z.read();
    for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(result[i] == x[i] + y[i]);
}

}  // namespace

TEST_CASE("synchronized static-tensor kernels compute their golden results") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = iota(kBlocks * kTile, 0.5f), y = iota(kBlocks * kTile, 0.25f);
    DeviceVector xd(x), yd(y);
    SUBCASE("SetFlag/WaitFlag") {
        DeviceVector zd(std::vector<float>(x.size(), 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(static_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), nothing) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        check_sum(zd, x, y);
    }
    SUBCASE("PipeBarrier<PIPE_ALL> and LocalTensor(TPosition, addr, size)") {
        DeviceVector zd(std::vector<float>(x.size(), 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(barrier_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get()) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        check_sum(zd, x, y);
    }
    SUBCASE("TQue EnQue/DeQue hand-overs") {
        DeviceVector zd(std::vector<float>(x.size(), 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(queue_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), 0) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        check_sum(zd, x, y);
    }
    SUBCASE("a synchronized read of a buffer whose tracked range moved, next to an unsynchronized fill") {
        DeviceVector zd(std::vector<float>(x.size(), 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(shifted_range_kernel)(kBlocks, stream, xd.get(), zd.get(), 1) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        check_sum(zd, x, x);
    }
    SUBCASE("TQueSync") {
        DeviceVector zd(std::vector<float>(x.size(), 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(tque_sync_kernel)(kBlocks, stream, xd.get(), zd.get()) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        CHECK(zd.read() == x);
    }
}

TEST_CASE("a missing synchronization between pipes fails the launch naming both instructions and the range") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = iota(kBlocks * kTile, 1.0f);
    DeviceVector xd(x), yd(x), zd(x);
    SUBCASE("MTE2 -> V: the vector unit reads what the copy may still be writing") {
        expect_fault(stream,
                     ACLRT_LAUNCH_KERNEL(static_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), mte2_to_v),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"kernel static_add_kernel block ", "data race on UB bytes [0, 1024)", "Add (PIPE_V",
                      "DataCopy (PIPE_MTE2, instruction 1) may still be writing it", "HardEvent::MTE2_V"});
    }
    SUBCASE("V -> MTE3: the copy out reads what the vector unit may still be writing") {
        expect_fault(stream,
                     ACLRT_LAUNCH_KERNEL(static_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), v_to_mte3),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"data race on UB bytes [2048, 3072)", "DataCopy (PIPE_MTE3", "reads it while Add (PIPE_V",
                      "HardEvent::V_MTE3"});
    }
    SUBCASE("MTE3 -> MTE2: a buffer is refilled while the copy out may still read it") {
        expect_fault(stream,
                     ACLRT_LAUNCH_KERNEL(static_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), mte3_to_mte2),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"DataCopy (PIPE_MTE2", "writes it while DataCopy (PIPE_MTE3", "may still be reading it",
                      "HardEvent::MTE3_MTE2"});
    }
    SUBCASE("MTE2 -> S: a scalar read of what the copy may still be writing") {
        expect_fault(stream,
                     ACLRT_LAUNCH_KERNEL(static_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), mte2_to_s),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"data race on UB bytes [0, 4)", "LocalTensor::GetValue (PIPE_S", "HardEvent::MTE2_S"});
    }
    SUBCASE("MTE2 -> V on a buffer whose tracked range moved when a lower one was filled") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(shifted_range_kernel)(kBlocks, stream, xd.get(), zd.get(), 0),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"data race on UB bytes [1056, 2080)", "Add (PIPE_V, instruction 3)",
                      "DataCopy (PIPE_MTE2, instruction 1)", "HardEvent::MTE2_V"});
    }
    SUBCASE("a TQue tensor used without its EnQue/DeQue hand-over") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(queue_add_kernel)(kBlocks, stream, xd.get(), yd.get(), zd.get(), 1),
                     ACL_ERROR_RT_AICORE_EXCEPTION, {"kernel queue_add_kernel block ", "Add (PIPE_V", "DataCopy (PIPE_MTE2"});
    }
}

TEST_CASE("flag misuse fails the launch") {
    Runtime rt;
    Stream stream;
    SUBCASE("WaitFlag with no SetFlag: the NPU would wait forever") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(flag_misuse_kernel)(2, stream, wait_without_set),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"kernel flag_misuse_kernel block ", "WaitFlag: WaitFlag<HardEvent::MTE2_V>(1) has no matching SetFlag"});
    }
    SUBCASE("a flag left set when the kernel returns") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(flag_misuse_kernel)(2, stream, left_set), ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"flags still set when the kernel returned, never waited for: SetFlag<HardEvent::V_MTE3>(2)"});
    }
    SUBCASE("an event is a counter: set twice, it is waited for twice") {
        REQUIRE(ACLRT_LAUNCH_KERNEL(flag_misuse_kernel)(2, stream, set_twice_wait_twice) == ACL_SUCCESS);
        CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(flag_misuse_kernel)(2, stream, set_twice_wait_once),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"flags still set when the kernel returned, never waited for: SetFlag<HardEvent::S_V>(3)"});
    }
    SUBCASE("an event set more often than its counter holds") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(flag_misuse_kernel)(2, stream, set_sixteen_times),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"SetFlag<HardEvent::S_V>(3) is already set 15 times without a WaitFlag: an event counts at most 15"});
    }
    SUBCASE("an event id outside [0, 8)") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(flag_misuse_kernel)(2, stream, bad_event_id),
                     ACL_ERROR_RT_AICORE_EXCEPTION, {"SetFlag: event id 8 is outside [0, 8)"});
    }
}

TEST_CASE("static allocation past the modelled memory fails the launch with the sizes") {
    Runtime rt;
    Stream stream;
    SUBCASE("LocalMemAllocator") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(static_misuse_kernel)(1, stream, allocator_overflow),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"kernel static_misuse_kernel block 0/1", "LocalMemAllocator::Alloc: UB capacity exceeded",
                      "requested at offset 131072", "196608 bytes"});
    }
    SUBCASE("LocalTensor(TPosition, addr, tileSize)") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(static_misuse_kernel)(1, stream, tensor_outside_ub),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"LocalTensor: 1024 elements (4096 bytes) at byte offset 194560 of UB do not fit its 196608 bytes"});
    }
}

TEST_CASE("a failing kernel assert fails its launch with an AI Core exception, as CANN's; the process goes on") {
    Runtime rt;
    Stream stream;
    SUBCASE("assert(expr)") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(assert_kernel)(kBlocks, stream, 2, 0),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"kernel assert_kernel block 2/4: assert:", ": : Assertion `block != faulty_block' failed."});
    }
    SUBCASE("ascendc_assert(expr, fmt, args...)") {
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(assert_kernel)(kBlocks, stream, 1, 1),
                     ACL_ERROR_RT_AICORE_EXCEPTION, {"failed. block 1 must not reach here (by design)"});
    }
    REQUIRE(ACLRT_LAUNCH_KERNEL(assert_kernel)(kBlocks, stream, -1, 0) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("atomic copies accumulate across blocks running in parallel") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t blocks = 16;
    std::vector<float> x(blocks * 64);
    for (uint32_t b = 0; b < blocks; ++b) {
        for (uint32_t i = 0; i < 64; ++i) x[b * 64 + i] = float(b + 1) + float(i);
    }
    DeviceVector xd(x);
    SUBCASE("SetAtomicAdd<float> adds every block's tile to what GM holds") {
        DeviceVector sum(std::vector<float>(64, 1000.0f));
        for (int repeat = 0; repeat < 5; ++repeat) {
            REQUIRE(ACLRT_LAUNCH_KERNEL(atomic_add_kernel)(blocks, stream, xd.get(), sum.get(), 0) == 0u);
        }
        CHECK_ACL(aclrtSynchronizeStream(stream));
        const std::vector<float> result = sum.read();
        for (uint32_t i = 0; i < 64; ++i) {
            float expected = 0;
            for (uint32_t b = 0; b < blocks; ++b) expected += float(b + 1) + float(i);
            REQUIRE(result[i] == 1000.0f + 5 * expected);
        }
    }
    SUBCASE("InitSocState returns to plain copies") {
        DeviceVector sum(std::vector<float>(64, 1000.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(atomic_add_kernel)(blocks, stream, xd.get(), sum.get(), 1) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        const std::vector<float> result = sum.read();
        for (uint32_t i = 0; i < 64; ++i) {
            bool from_some_block = false;
            for (uint32_t b = 0; b < blocks; ++b) from_some_block |= result[i] == float(b + 1) + float(i);
            REQUIRE(from_some_block);
        }
    }
    SUBCASE("an atomic mode of another type than the copy's is a misuse") {
        DeviceVector sum(std::vector<float>(64, 0.0f));
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(atomic_type_mismatch_kernel)(1, stream, sum.get()),
                     ACL_ERROR_RT_AICORE_EXCEPTION, {"DataCopy: the atomic mode combines half elements"});
    }
}

TEST_CASE("system builtins: block and core indices, core type, arithmetic helpers") {
    Runtime rt;
    Stream stream;
    DeviceInts out(kBlocks * 8);
    REQUIRE(ACLRT_LAUNCH_KERNEL(builtins_kernel)(kBlocks, stream, out.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int64_t> values = out.read();
    for (uint32_t b = 0; b < kBlocks; ++b) {
        CAPTURE(b);
        const int64_t* v = &values[b * 8];
        CHECK(v[0] == b);
        CHECK(v[1] == kBlocks);
        CHECK(v[2] == 0);
        CHECK(v[3] == 1);
        CHECK(v[4] == 1);
        CHECK(v[5] == 0);
        CHECK(v[6] == 300);
        CHECK(v[7] == 2);
    }
}

TEST_CASE("DumpTensor prints the tensor's elements under a header naming desc, type, position and size") {
    Runtime rt;
    Stream stream;
    DeviceVector xd({0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f});
    char path[] = "/tmp/canopy-dump-XXXXXX";
    const int file = ::mkstemp(path);
    REQUIRE(file >= 0);
    std::fflush(stdout);
    const int saved_stdout = ::dup(STDOUT_FILENO);
    ::dup2(file, STDOUT_FILENO);
    const uint32_t rc = ACLRT_LAUNCH_KERNEL(dump_kernel)(1, stream, xd.get());
    const aclError sync = aclrtSynchronizeStream(stream);
    std::fflush(stdout);
    ::dup2(saved_stdout, STDOUT_FILENO);
    ::close(saved_stdout);
    ::close(file);
    REQUIRE(rc == 0u);
    REQUIRE(sync == ACL_SUCCESS);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    ::unlink(path);
    CHECK(text.str() ==
          "[block 0/1] DumpTensor: desc=7, addr=0, data_type=float32, position=UB, dump_size=8\n"
          "[block 0/1] [0.500000, 1.500000, 2.500000, 3.500000, 4.500000, 5.500000, 6.500000, 7.500000]\n");
}

TEST_CASE("WaitPreBlock / NotifyNextBlock run the blocks' sections in blockIdx order, round after round") {
    Runtime rt;
    Stream stream;
    SUBCASE("the log holds 0 1 2 3 three times") {
        DeviceInts log(1 + sequential_blocks * sequential_rounds), workspace(sequential_blocks * 8);
        REQUIRE_ACL(aclrtMemset(log.get(), log.bytes(), 0, log.bytes()));
        REQUIRE(ACLRT_LAUNCH_KERNEL(sequential_blocks_kernel)(sequential_blocks, stream, log.get(), workspace.get()) ==
                0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        std::vector<int64_t> raw = log.read();
        std::vector<int32_t> entries(raw.size() * 2);
        std::memcpy(entries.data(), raw.data(), entries.size() * sizeof(int32_t));
        REQUIRE(entries[0] == sequential_blocks * sequential_rounds);
        for (int32_t i = 0; i < sequential_blocks * sequential_rounds; ++i) CHECK(entries[1 + i] == i % sequential_blocks);
    }
    SUBCASE("a UB workspace without the round counter's block is refused") {
        DeviceInts workspace(8);
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(sequential_small_workspace_kernel)(2, stream, workspace.get()),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"kernel sequential_small_workspace_kernel block ", "InitDetermineComputeWorkspace", "ubWorkspace"});
    }
}

TEST_CASE("IBSet / IBWait hand a value from one block to another through global memory") {
    Runtime rt;
    Stream stream;
    std::vector<float> zeros(16, 0.0f);
    SUBCASE("in a cooperative launch the waiting block sees the other block's write") {
        DeviceVector data(zeros), workspace(zeros);
        REQUIRE(ACLRT_LAUNCH_KERNEL(ib_handoff_kernel)(2, stream, data.get(), workspace.get()) == 0u);
        CHECK_ACL(aclrtSynchronizeStream(stream));
        std::vector<float> raw = data.read();
        int32_t value = 0;
        std::memcpy(&value, &raw[8], sizeof value);
        CHECK(value == 42);
    }
    SUBCASE("in a block-parallel launch waiting for another block is an error, not a hang") {
        DeviceVector workspace(zeros);
        expect_fault(stream, ACLRT_LAUNCH_KERNEL(ib_block_parallel_kernel)(2, stream, workspace.get()),
                     ACL_ERROR_RT_AICORE_EXCEPTION,
                     {"kernel ib_block_parallel_kernel block 1/2: IBWait: ", "runs its 2 blocks block-parallel"});
    }
}
